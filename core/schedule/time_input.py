"""Time input of ``schedule_create`` (schedule.md §6): the ``at`` offset grammar, the local
``date``/``time``/``time_zone`` object, zone acceptance, gap/overlap resolution and the range and
future rules. Pure: reads only the tz database through ``zoneinfo``; never the clock or the system
zone. Every rejection raises ``InputError`` with its §5 rule, checked in the spec's exact order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from core.instant import in_range, ms_to_datetime, wall_ms
from core.schedule.messages import InputError, Rule
from core.schedule.wire import is_padded

_DATE = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
_TIME = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,3}))?"
_OFFSET_FORM = re.compile(_DATE + "T" + _TIME + r"(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))")
_LOCAL_DATE = re.compile(_DATE)
_LOCAL_TIME = re.compile(_TIME)
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+.-]*(?:/[A-Za-z0-9_+.-]+)+")

Fields = tuple[int, int, int, int, int, int, int]
"""Wall fields: year, month, day, hour, minute, second, millisecond."""


def _fields(date_part: tuple[str, ...], time_part: tuple[str | None, ...]) -> Fields:
    year, month, day = (int(part) for part in date_part)
    hour, minute, second = (int(part or 0) for part in time_part[:3])
    fraction = time_part[3]
    milli = int(fraction.ljust(3, "0")) if fraction else 0
    return (year, month, day, hour, minute, second, milli)


def _check_fields(fields: Fields, rule: Rule) -> int:
    """Field ranges (``rule``: E7 or E10), then the calendar (E7). Returns the wall ms as UTC."""
    year, month, day, hour, minute, second, milli = fields
    if year == 0 or hour > 23 or minute > 59 or second > 59:
        raise InputError(rule)
    try:
        return wall_ms(year, month, day, hour, minute, second, milli)
    except ValueError:
        raise InputError(Rule.E7) from None


def parse_offset_at(text: str) -> int:
    """§6.1: an ``at`` string with ``Z`` or ``±HH:MM`` to ms (range and future not yet checked)."""
    match = _OFFSET_FORM.fullmatch(text)
    if match is None:
        raise InputError(Rule.E6)
    groups = match.groups()
    wall = _check_fields(_fields(groups[0:3], groups[3:7]), Rule.E7)
    if groups[7] == "Z":
        return wall
    sign, hours, minutes = groups[8], int(groups[9] or 0), int(groups[10] or 0)
    if hours > 23 or minutes > 59 or (sign == "-" and hours == 0 and minutes == 0):
        raise InputError(Rule.E8)
    offset = (hours * 60 + minutes) * 60_000
    return wall - offset if sign == "+" else wall + offset


@lru_cache(maxsize=1)
def _zone_keys() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def accept_time_zone(name: str) -> ZoneInfo:
    """§6.3: ``UTC`` exactly, or an Area/Location tz name (links too), case-insensitively."""
    if not name or is_padded(name):
        raise InputError(Rule.E12)
    if name == "UTC":
        return ZoneInfo("UTC")
    key = _zone_keys().get(name.lower()) if _ZONE_NAME.fullmatch(name) else None
    if key is None:
        raise InputError(Rule.E12)
    return ZoneInfo(key)


def _candidate(fields: Fields, wall: int, zone: tzinfo, fold: int) -> int | None:
    """The instant of the wall time under the reading ``fold``; None when out of range.

    Raises LookupError when the candidate is in range but does not map back to the same wall time.
    """
    year, month, day, hour, minute, second, milli = fields
    local = datetime(year, month, day, hour, minute, second, milli * 1000, tzinfo=zone, fold=fold)
    offset = local.utcoffset() or timedelta(0)
    instant = wall - offset // timedelta(milliseconds=1)
    if not in_range(instant):
        return None
    try:
        back = ms_to_datetime(instant).astimezone(zone)
    except (OverflowError, ValueError):
        return None
    same = back.replace(tzinfo=None, fold=0) == local.replace(tzinfo=None, fold=0)
    if not same:
        raise LookupError("skipped wall time")
    return instant


def resolve_local(fields: Fields, wall: int, zone: tzinfo) -> int:
    """§6.4: the earliest valid candidate; E14 if none is valid and one is out of range, else E11."""
    valid: list[int] = []
    out_of_range = False
    for fold in (0, 1):
        try:
            instant = _candidate(fields, wall, zone, fold)
        except LookupError:
            continue
        if instant is None:
            out_of_range = True
        else:
            valid.append(instant)
    if valid:
        return min(valid)
    raise InputError(Rule.E14 if out_of_range else Rule.E11)


def parse_local_at(value: Mapping[str, str]) -> int:
    """§6.2: the local object (``date``, ``time``, ``time_zone``) to ms, rules in the spec's order."""
    date_match = _LOCAL_DATE.fullmatch(value["date"])
    time_match = _LOCAL_TIME.fullmatch(value["time"])
    if date_match is None or time_match is None:
        raise InputError(Rule.E9)
    fields = _fields(date_match.groups(), time_match.groups())
    wall = _check_fields(fields, Rule.E10)
    zone = accept_time_zone(value["time_zone"])
    return resolve_local(fields, wall, zone)


def parse_at(value: str | Mapping[str, str]) -> int:
    """Either ``at`` form to ms (range and future are checked by ``check_target``)."""
    return parse_offset_at(value) if isinstance(value, str) else parse_local_at(value)


def check_target(target_ms: int, now_ms: int) -> int:
    """§6.5: range first (E14), then strictly future (E13). Returns the target."""
    if not in_range(target_ms):
        raise InputError(Rule.E14)
    if target_ms <= now_ms:
        raise InputError(Rule.E13)
    return target_ms


__all__ = [
    "UTC",
    "accept_time_zone",
    "check_target",
    "parse_at",
    "parse_local_at",
    "parse_offset_at",
]
