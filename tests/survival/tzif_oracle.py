"""Independent tz oracle for the survival tests: TZif files parsed and POSIX TZ footers evaluated here.

Owns: a zone's UTC offset at an instant, its offset transitions in a range, and the set of
instants a local wall time denotes, all computed from the raw TZif bytes (RFC 8536, version 2+
64-bit section plus the footer). Must not: call zoneinfo or datetime's tz machinery, or import
Chime; the point is to disagree with Chime when Chime is wrong. The calendar arithmetic is our
own too (days from civil date and back, proleptic Gregorian).
"""

from __future__ import annotations

import bisect
import importlib.resources
import re
import struct
from dataclasses import dataclass
from pathlib import Path

DAY = 86400
MIN_MS = -62135596800000
MAX_MS = 253402300799999
# every offset the tz database uses lies well inside +-26 h; a wider window is harmless
_WINDOW = 30 * 3600


# --- calendar (proleptic Gregorian, our own arithmetic) -----------------------------------


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, month 1-12)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """Inverse of days_from_civil."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def fields_from_ms(ms: int) -> tuple[int, int, int, int, int, int, int]:
    """(year, month, day, hour, minute, second, millisecond) of an ms value read as UTC."""
    days, rest = divmod(ms, DAY * 1000)
    year, month, day = civil_from_days(days)
    hour, rest = divmod(rest, 3600_000)
    minute, rest = divmod(rest, 60_000)
    second, milli = divmod(rest, 1000)
    return year, month, day, hour, minute, second, milli


def ms_from_fields(year: int, month: int, day: int, h: int, m: int, s: int, milli: int) -> int:
    return ((days_from_civil(year, month, day) * 24 + h) * 60 + m) * 60_000 + s * 1000 + milli


def canonical(ms: int) -> str:
    """schedule.md §2.1 text of an in-range instant."""
    y, mo, d, h, mi, s, milli = fields_from_ms(ms)
    return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{milli:03d}Z"


# --- POSIX TZ footer -----------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One transition date of a footer: kind J (1-365, no Feb 29), n (0-365) or M (m.w.d)."""

    kind: str
    values: tuple[int, ...]
    time: int  # seconds after local midnight; may be negative or beyond 24 h


@dataclass(frozen=True)
class Footer:
    """A parsed POSIX TZ string. Offsets are seconds EAST of UTC (the POSIX sign flipped)."""

    std: int
    dst: int | None
    start: Rule | None
    end: Rule | None


_NAME = re.compile(r"<[A-Za-z0-9+-]+>|[A-Za-z]{3,}")
_HMS = re.compile(r"([+-]?)([0-9]{1,3})(?::([0-9]{1,2}))?(?::([0-9]{1,2}))?")
_RULE = re.compile(r"J([0-9]{1,3})|M([0-9]{1,2})\.([1-5])\.([0-6])|([0-9]{1,3})")


def _hms(text: str, pos: int) -> tuple[int, int]:
    match = _HMS.match(text, pos)
    if match is None:
        raise ValueError(f"bad time at {pos} in {text!r}")
    sign, h, m, s = match.groups()
    value = int(h) * 3600 + int(m or 0) * 60 + int(s or 0)
    return (-value if sign == "-" else value), match.end()


def _name(text: str, pos: int) -> int:
    match = _NAME.match(text, pos)
    if match is None:
        raise ValueError(f"bad zone abbreviation at {pos} in {text!r}")
    return match.end()


def _rule(text: str, pos: int) -> tuple[Rule, int]:
    match = _RULE.match(text, pos)
    if match is None:
        raise ValueError(f"bad rule at {pos} in {text!r}")
    j, mm, w, d, n = match.groups()
    pos = match.end()
    time = 7200
    if text.startswith("/", pos):
        time, pos = _hms(text, pos + 1)
    if j is not None:
        return Rule("J", (int(j),), time), pos
    if mm is not None:
        return Rule("M", (int(mm), int(w), int(d)), time), pos
    return Rule("n", (int(n),), time), pos


def parse_footer(text: str) -> Footer | None:
    """Parse a TZif footer (RFC 8536 §3.3): `std offset [dst [offset] [,rule,rule]]`."""
    if not text:
        return None
    pos = _name(text, 0)
    posix_std, pos = _hms(text, pos)
    if pos == len(text):
        return Footer(-posix_std, None, None, None)
    pos = _name(text, pos)
    posix_dst = posix_std - 3600
    if pos < len(text) and text[pos] != ",":
        posix_dst, pos = _hms(text, pos)
    if not text.startswith(",", pos):
        raise ValueError(f"DST without rules is not used by TZif footers: {text!r}")
    start, pos = _rule(text, pos + 1)
    if not text.startswith(",", pos):
        raise ValueError(f"missing end rule in {text!r}")
    end, pos = _rule(text, pos + 1)
    if pos != len(text):
        raise ValueError(f"trailing text in {text!r}")
    return Footer(-posix_std, -posix_dst, start, end)


def rule_day(rule: Rule, year: int) -> int:
    """Epoch day (days since 1970-01-01) on which the rule falls in `year`."""
    jan1 = days_from_civil(year, 1, 1)
    if rule.kind == "J":
        (n,) = rule.values
        return jan1 + n - 1 + (1 if is_leap(year) and n >= 60 else 0)
    if rule.kind == "n":
        return jan1 + rule.values[0]
    month, week, weekday = rule.values
    first = days_from_civil(year, month, 1)
    first_weekday = (first + 4) % 7  # 1970-01-01 was a Thursday; Sunday = 0
    day = 1 + (weekday - first_weekday) % 7 + 7 * (week - 1)
    while day > days_in_month(year, month):
        day -= 7
    return first + day - 1


def footer_transitions(footer: Footer, year: int) -> list[tuple[int, int, int, int]]:
    """The footer's two transitions of `year` as (instant s, year, order, offset after)."""
    if footer.dst is None or footer.start is None or footer.end is None:
        return []
    start = rule_day(footer.start, year) * DAY + footer.start.time - footer.std
    end = rule_day(footer.end, year) * DAY + footer.end.time - footer.dst
    return [(start, year, 1, footer.dst), (end, year, 0, footer.std)]


def year_of(instant: int) -> int:
    return civil_from_days(instant // DAY)[0]


def footer_offset(footer: Footer, instant: int) -> int:
    """UTC offset (s) the footer gives at `instant`. At an equal instant a start wins over an end."""
    if footer.dst is None:
        return footer.std
    year = year_of(instant)
    events = sorted(e for y in (year - 1, year, year + 1) for e in footer_transitions(footer, y))
    offset = footer.std
    for when, _y, _order, after in events:
        if when > instant:
            break
        offset = after
    return offset


# --- TZif ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Zone:
    """One zone: explicit transitions (v2+ data), the offset before them, and the footer."""

    name: str
    times: tuple[int, ...]
    offsets: tuple[int, ...]
    initial: int
    footer: Footer | None

    def offset_at(self, instant: int) -> int:
        """UTC offset in seconds at an instant given in whole seconds."""
        if not self.times:
            return self.footer.std if self.footer is not None else self.initial
        if instant < self.times[0]:
            return self.initial
        idx = bisect.bisect_right(self.times, instant) - 1
        if idx < len(self.times) - 1 or self.footer is None:
            return self.offsets[idx]
        return footer_offset(self.footer, instant)


_HEADER = struct.Struct(">4sc15x6l")


def _block_size(counts: tuple[int, ...], time_size: int) -> int:
    isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt = counts
    return (
        timecnt * (time_size + 1)
        + typecnt * 6
        + charcnt
        + leapcnt * (time_size + 4)
        + isstdcnt
        + isutcnt
    )


def parse_tzif(name: str, data: bytes) -> Zone:
    """Parse TZif bytes (version 2 or later), using the 64-bit block and the footer."""
    magic, version, *counts = _HEADER.unpack_from(data, 0)
    if magic != b"TZif" or version == b"\x00":
        raise ValueError(f"{name}: not a TZif v2+ file")
    pos = _HEADER.size + _block_size(tuple(counts), 4)
    _m, _v, *counts = _HEADER.unpack_from(data, pos)
    pos += _HEADER.size
    _isut, _isstd, _leap, timecnt, typecnt, _char = counts
    times = struct.unpack_from(f">{timecnt}q", data, pos)
    pos += 8 * timecnt
    indices = data[pos : pos + timecnt]
    pos += timecnt
    utoffs = [struct.unpack_from(">l", data, pos + 6 * i)[0] for i in range(typecnt)]
    pos += _block_size(tuple(counts), 8) - timecnt * 9
    footer_text = data[pos:].split(b"\n")[1].decode("ascii")
    offsets = tuple(utoffs[i] for i in indices)
    return Zone(name, tuple(times), offsets, utoffs[0], parse_footer(footer_text))


def tzdata_bytes(name: str) -> bytes:
    """The zone's TZif file as shipped by the `tzdata` package."""
    resource = importlib.resources.files("tzdata.zoneinfo")
    for part in name.split("/"):
        resource = resource / part
    return resource.read_bytes()


def system_bytes(name: str, roots: tuple[str, ...]) -> bytes | None:
    """The zone's TZif file from the first of `roots` that has it (None when none does)."""
    for root in roots:
        path = Path(root, name)
        if path.is_file():
            return path.read_bytes()
    return None


def load_zone(name: str, roots: tuple[str, ...] = ()) -> Zone:
    """Parse `name` from the first of `roots` holding it, else from the tzdata package."""
    data = system_bytes(name, roots) if roots else None
    return parse_tzif(name, data if data is not None else tzdata_bytes(name))


# --- questions the tests ask ----------------------------------------------------------------


@dataclass(frozen=True)
class Transition:
    instant: int  # seconds
    before: int  # UTC offset (s) just before
    after: int  # UTC offset (s) from the instant on


def transitions(zone: Zone, lo: int, hi: int) -> list[Transition]:
    """Every instant in [lo, hi] (seconds) where the zone's UTC offset changes."""
    candidates = {t for t in zone.times if lo <= t <= hi}
    if zone.footer is not None:
        last = zone.times[-1] if zone.times else None
        for year in range(year_of(lo) - 1, year_of(hi) + 2):
            for when, *_rest in footer_transitions(zone.footer, year):
                if lo <= when <= hi and (last is None or when > last):
                    candidates.add(when)
    found = []
    for when in sorted(candidates):
        before, after = zone.offset_at(when - 1), zone.offset_at(when)
        if before != after:
            found.append(Transition(when, before, after))
    return found


def wall_instants(zone: Zone, local_ms: int) -> tuple[list[int], bool]:
    """Instants (ms) whose local wall time in `zone` is `local_ms` (wall fields read as UTC).

    Returns (valid instants ascending, whether some candidate was out of range). A candidate is
    L - o for every offset o the zone uses within +-30 h of L; it is valid when the zone's offset
    at it is o. Out of range: outside [MIN_MS, MAX_MS].
    """
    centre = local_ms // 1000
    window = transitions(zone, centre - _WINDOW, centre + _WINDOW)
    offsets = {zone.offset_at(centre - _WINDOW)} | {t.after for t in window}
    valid: list[int] = []
    out_of_range = False
    for offset in offsets:
        instant = local_ms - offset * 1000
        if not MIN_MS <= instant <= MAX_MS:
            out_of_range = True
        elif zone.offset_at(instant // 1000) == offset:
            valid.append(instant)
    return sorted(valid), out_of_range
