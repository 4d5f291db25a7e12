"""Wire scalars of the reminder protocol (schedule.md §1.3, §2.1). Pure: no I/O, no clock, no logging.

Owns the constants (MIN_MS, MAX_MS, SAFE), the §1.3 trim, safe-integer normalisation, the canonical
UTC instant on integer milliseconds and the guarded conversions between ms and ``datetime``. Must
not read the wall clock: a clock *sample* is converted here, never taken.
"""

from __future__ import annotations

import math
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
_ONE_MS = timedelta(milliseconds=1)

TRIM_CHARS = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""Exactly the §1.3 trim set (U+001C–U+001F, U+0085, U+180E and U+200B are deliberately absent)."""

_ZERO_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_INSTANT_SHAPE = b"0000-00-00T00:00:00.000Z"
"""§2.1 with every digit as 0: an ASCII instant maps onto it exactly when its shape is canonical."""


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
    return parse_instant_text(text)


@lru_cache(maxsize=4096)
def parse_instant_text(text: str) -> int:
    """``parse_instant`` for a value already known to be a ``str`` (the decoder's hot path).

    Cached: a log folded again meets the same instants (the tools re-fold, on every call, a log
    that keeps no incremental fold); a hit costs ~40 ns, a miss ~350 ns more.
    """
    # The shape, exactly and without a regex (~3x cheaper): isascii() is O(1) and keeps out
    # non-ASCII digits such as '١', then one translated comparison checks all 24 positions.
    if not text.isascii() or text.encode().translate(_ZERO_DIGITS) != _INSTANT_SHAPE:
        raise ValueError("not a canonical instant")
    if text[11:13] > "23":  # newer fromisoformat reads T24:00:00 as the next midnight
        raise ValueError("instant hour out of range")
    try:  # in C, ~50 ns; rejects year 0000, Feb 30, minute or second 60 (datetime's own ranges)
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("instant date does not exist") from None
    return (moment - _EPOCH) // _ONE_MS  # exact: timedelta arithmetic is on integers, in C


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
