"""The canonical UTC instant (schedule.md §2.1) and its one parser. Pure: no I/O, no clock.

Every instant Chime writes or reads (a reminder's target, an event's ``at``, a header's
``createdAt``) is the text ``YYYY-MM-DDTHH:mm:ss.sssZ`` within years 0001-9999. In memory it is
an aware UTC ``datetime`` (``parse_instant``/``format_instant``), or integer milliseconds since
the epoch where the schedule does arithmetic on it (``parse_instant_ms``/``format_instant_ms``):
one grammar, two representations. Must not read the wall clock: a clock *sample* is converted
here (``datetime_to_ms``), never taken.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from itertools import repeat

MIN_MS = -62135596800000
"""``0001-01-01T00:00:00.000Z`` in ms."""
MAX_MS = 253402300799999
"""``9999-12-31T23:59:59.999Z`` in ms."""
DAY_MS = 86_400_000

_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

_ONE_MS = timedelta(milliseconds=1)
_ZERO_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_SHAPE = b"0000-00-00T00:00:00.000Z"
"""The canonical layout with every digit as 0: an ASCII text maps onto it exactly when it has the
layout (``isascii`` first keeps out non-ASCII digits such as '١', which ``str.isdigit`` takes)."""


class ClockError(ValueError):
    """A clock sample that is not an aware datetime inside [MIN_MS, MAX_MS] (schedule.md §1.3)."""


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
def format_instant_ms(ms: int) -> str:
    """The canonical text of ``ms``. Raises ValueError out of range."""
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


def has_instant_shape(text: str) -> bool:
    """True when ``text`` has the canonical layout (digits where digits go); the field ranges and
    the calendar are the parser's. The session scanner checks every line's ``at`` this cheaply."""
    return text.isascii() and text.encode().translate(_ZERO_DIGITS) == _SHAPE


def have_instant_shape(texts: list[str]) -> bool:
    """``all(map(has_instant_shape, texts))`` in one pass over their join (a block of log lines'
    ``at``): the join has the shape's layout with a ``\n`` between copies only when every text
    has it (a text holding a ``\n`` would add one more than the layout has)."""
    joined = "\n".join(texts)
    pattern = b"\n".join(repeat(_SHAPE, len(texts)))
    return joined.isascii() and joined.encode().translate(_ZERO_DIGITS) == pattern


def parse_instant_ms(text: object) -> int:
    """The ms of a canonical instant. Raises ValueError for anything else.

    Equivalent to "parsing and re-formatting gives the identical string": the layout must match
    exactly, the year must not be 0000, and the date and time fields must exist.
    """
    if not isinstance(text, str):
        raise ValueError("an instant must be a string")
    return parse_instant_text(text)


@lru_cache(maxsize=4096)
def parse_instant_text(text: str) -> int:
    """``parse_instant_ms`` for a value already known to be a ``str`` (the fold's hot path).

    Cached: a log folded again meets the same instants (the tools re-fold, on every call, a log
    that keeps no incremental fold); a hit costs ~40 ns, a miss ~350 ns more.
    """
    if not text.isascii() or text.encode().translate(_ZERO_DIGITS) != _SHAPE:  # inlined shape
        raise ValueError("not a canonical instant")
    if text[11:13] > "23":  # newer fromisoformat reads T24:00:00 as the next midnight
        raise ValueError("instant hour out of range")
    try:  # in C: rejects year 0000, Feb 30, minute or second 60 (datetime's own ranges)
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


def parse_instant(text: object) -> datetime:
    """The aware UTC datetime of a canonical instant. Raises ValueError for anything else."""
    return ms_to_datetime(parse_instant_ms(text))


def format_instant(when: datetime) -> str:
    """``when`` (aware, any offset) as the canonical text; sub-millisecond digits are dropped
    toward the past. Raises ClockError (a ValueError) for a naive or out-of-range datetime."""
    return format_instant_ms(datetime_to_ms(when))


def read_instant(text: object) -> datetime | None:
    """``parse_instant`` for values that may be anything (a tool result, a stored view): None
    when ``text`` is not a canonical instant."""
    try:
        return parse_instant(text)
    except ValueError:
        return None
