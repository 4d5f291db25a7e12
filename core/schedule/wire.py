"""Wire scalars of the reminder protocol (schedule.md §1.3, §2.1). Pure: no I/O, no clock, no logging.

Owns the constants (MIN_MS, MAX_MS, SAFE), the §1.3 trim, safe-integer normalisation, the canonical
UTC instant on integer milliseconds and the guarded conversions between ms and ``datetime``. Must
not read the wall clock: a clock *sample* is converted here, never taken.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

MIN_MS = -62135596800000
"""``0001-01-01T00:00:00.000Z`` in ms."""
MAX_MS = 253402300799999
"""``9999-12-31T23:59:59.999Z`` in ms."""
SAFE = 2**53 - 1
"""The largest safe integer (9007199254740991)."""

DAY_MS = 86_400_000
_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

TRIM_CHARS = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""Exactly the §1.3 trim set (U+001C–U+001F, U+0085, U+180E and U+200B are deliberately absent)."""

_INSTANT = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z"
)


class ClockError(ValueError):
    """A clock sample that is not an aware datetime inside [MIN_MS, MAX_MS] (schedule.md §1.3)."""


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


def in_range(ms: int) -> bool:
    """True when ``ms`` lies in [MIN_MS, MAX_MS]."""
    return MIN_MS <= ms <= MAX_MS


def wall_ms(
    year: int, month: int, day: int, hour: int, minute: int, second: int, milli: int
) -> int:
    """The wall fields read as UTC, in ms. Raises ValueError for a date that does not exist."""
    days = date(year, month, day).toordinal() - _EPOCH_ORDINAL
    return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milli


@lru_cache(maxsize=4096)
def format_instant(ms: int) -> str:
    """The canonical ``YYYY-MM-DDTHH:mm:ss.sssZ`` text of ``ms``. Raises ValueError out of range."""
    if not in_range(ms):
        raise ValueError(f"instant {ms} ms lies outside years 1-9999")
    days, rest = divmod(ms, DAY_MS)
    day = date.fromordinal(days + _EPOCH_ORDINAL)
    seconds, milli = divmod(rest, 1000)
    minutes, second = divmod(seconds, 60)
    hour, minute = divmod(minutes, 60)
    return (
        f"{day.year:04d}-{day.month:02d}-{day.day:02d}"
        f"T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"
    )


def parse_instant(text: object) -> int:
    """The ms of a canonical instant (§2.1). Raises ValueError for anything else.

    Equivalent to "parsing and re-formatting gives the identical string": the grammar must match
    exactly, the year must not be 0000, and the date and time fields must exist.
    """
    if not isinstance(text, str):
        raise ValueError("an instant must be a string")
    return _parse_instant_text(text)


@lru_cache(maxsize=4096)
def _parse_instant_text(text: str) -> int:
    match = _INSTANT.fullmatch(text)
    if match is None:
        raise ValueError("not a canonical instant")
    year, month, day, hour, minute, second, milli = (int(part) for part in match.groups())
    if year == 0 or hour > 23 or minute > 59 or second > 59:
        raise ValueError("instant field out of range")
    try:
        return wall_ms(year, month, day, hour, minute, second, milli)
    except ValueError:
        raise ValueError("instant date does not exist") from None


def datetime_to_ms(value: object) -> int:
    """A clock sample in ms: sub-millisecond digits dropped toward the past (§1.3).

    Raises ClockError unless ``value`` is an aware ``datetime`` whose instant lies in
    [MIN_MS, MAX_MS]. Computed on integers, so instants next to years 1 and 9999 are safe.
    """
    if not isinstance(value, datetime):
        raise ClockError("the clock did not return a datetime")
    offset = value.utcoffset()
    if offset is None:
        raise ClockError("the clock returned a naive datetime")
    days = value.toordinal() - _EPOCH_ORDINAL
    seconds = ((days * 24 + value.hour) * 60 + value.minute) * 60 + value.second
    micros = seconds * 1_000_000 + value.microsecond - offset // timedelta(microseconds=1)
    ms = micros // 1000
    if not in_range(ms):
        raise ClockError("the clock returned an instant outside years 1-9999")
    return ms


def ms_to_datetime(ms: int) -> datetime:
    """``ms`` as an aware UTC datetime. Raises ValueError outside [MIN_MS, MAX_MS]."""
    if not in_range(ms):
        raise ValueError(f"instant {ms} ms lies outside years 1-9999")
    return _EPOCH + timedelta(milliseconds=ms)
