"""Wire scalars of the reminder protocol (schedule.md §1.3). Pure: no I/O, no clock, no logging.

Owns SAFE, the §1.3 trim and safe-integer normalisation; the canonical instant and the clock-sample
conversions are ``core.instant``'s.
"""

from __future__ import annotations

import math

SAFE = 2**53 - 1
"""The largest safe integer (9007199254740991)."""

TRIM_CHARS = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""Exactly the §1.3 trim set (U+001C–U+001F, U+0085, U+180E and U+200B are deliberately absent)."""


def trim(text: str) -> str:
    """Remove every §1.3 trim character from both ends (``str.strip()`` uses a different set)."""
    return text.strip(TRIM_CHARS)


def is_padded(text: str) -> bool:
    """True when ``text`` differs from its own trim."""
    return trim(text) != text


def is_number(value: object) -> bool:
    """A decoded JSON number: an ``int`` that is not a ``bool``, or a finite ``float``."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def safe_int(value: object) -> int | None:
    """``value`` as an ``int`` when it is a safe integer (§1.3), else None.

    Integral floats (``30.0``, ``3e1``) are normalised to ``int``; ``bool`` is never a number.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    else:
        return None
    return number if -SAFE <= number <= SAFE else None
