"""Independent expectations for `schedule_create` input (schedule.md §4.1, §4.2 stage A, §6):
which arguments must raise ToolArgumentError, and otherwise the exact code or `scheduledAt` a
fresh session must answer at a given clock sample.

Owns: the survival fuzzers' model of the spec. Must not: import Chime or zoneinfo resolution (the
zone database is read through the TZif oracle; the set of known names is the spec's own
definition, `zoneinfo.available_timezones()`).
"""

from __future__ import annotations

import math
import re
import zoneinfo
from functools import cache
from typing import Any

from tests.survival.dst_points import ZONE_GRAMMAR, oracle_zone
from tests.survival.tzif_oracle import (
    MAX_MS,
    MIN_MS,
    canonical,
    days_in_month,
    ms_from_fields,
    wall_instants,
)

SAFE = 2**53 - 1
TRIM = frozenset(
    "\t\n\x0b\x0c\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
)
CODES = frozenset(
    {
        "invalid_prompt",
        "invalid_selector",
        "invalid_rule",
        "invalid_time_zone",
        "not_future",
        "time_out_of_range",
        "frequency_too_high",
        "corrupt_schedule_log",
        "persistence_uncertain",
        "internal_error",
    }
)
SELECTORS = ("after_seconds", "at", "every_seconds")

_D2 = "([0-9]{2})"
_DATE = "([0-9]{4})-" + _D2 + "-" + _D2
_TIME = _D2 + ":" + _D2 + ":" + _D2 + r"(?:\.([0-9]{1,3}))?"
AT_STRING = re.compile(_DATE + "T" + _TIME + "(Z|([+-])" + _D2 + ":" + _D2 + ")")
LOCAL_DATE = re.compile(_DATE)
LOCAL_TIME = re.compile(_TIME)


def trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in TRIM:
        start += 1
    while end > start and text[end - 1] in TRIM:
        end -= 1
    return text[start:end]


def is_number(value: object) -> bool:
    """§1.3 number as §4.1 checks it: int (not bool) or finite float, and never -0.0."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return math.isfinite(value) and not (value == 0 and math.copysign(1, value) < 0)
    return False


def safe_int(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    return int(value) if abs(value) <= SAFE else None


@cache
def known_zones() -> frozenset[str]:
    return frozenset(name.lower() for name in zoneinfo.available_timezones())


def zone_accepted(name: str) -> bool:
    """§6.3: exactly `UTC`, or the Area/Location grammar and a case-insensitive known name."""
    if name == "UTC":
        return True
    return ZONE_GRAMMAR.fullmatch(name) is not None and name.lower() in known_zones()


@cache
def zone_key(name: str) -> str:
    if name == "UTC":
        return "Etc/UTC"
    lowered = {n.lower(): n for n in zoneinfo.available_timezones()}
    return lowered[name.lower()]


# --- the generic argument layer (§4.1) ------------------------------------------------------


def _local_object_ok(value: dict[Any, Any]) -> bool:
    keys = {"date", "time", "time_zone"}
    return set(value) == keys and len(value) == 3 and all(isinstance(value[k], str) for k in keys)


def create_argument_error(args: object) -> bool:
    """True when §4.1 must raise ToolArgumentError for schedule_create."""
    if not isinstance(args, dict) or not isinstance(args.get("prompt"), str):
        return True
    for key in ("after_seconds", "every_seconds"):
        if key in args and not is_number(args[key]):
            return True
    if "at" in args:
        at = args["at"]
        return not (isinstance(at, str) or (isinstance(at, dict) and _local_object_ok(at)))
    return False


def argument_error(name: str, args: object) -> bool | None:
    """§4.1 verdict for a known tool; None for an unknown tool name (the spec does not say)."""
    if name == "schedule_create":
        return create_argument_error(args)
    if name == "schedule_list":
        return not isinstance(args, dict)
    if name == "schedule_delete":
        return not isinstance(args, dict) or not isinstance(args.get("id"), str)
    return None


# --- stage A (§4.2) ---------------------------------------------------------------------------


def stage_a_code(args: dict[str, Any]) -> tuple[str, str] | None:
    """The first failing stage-A rule as (code, §5 condition), else None. §4.1 already passed."""
    allowed = {"prompt", *SELECTORS}
    if any(k not in allowed for k in args) or sum(k in args for k in SELECTORS) != 1:
        return "invalid_selector", "E1"
    if trim(args["prompt"]) == "":
        return "invalid_prompt", "E2"
    if "after_seconds" in args:
        n = safe_int(args["after_seconds"])
        return ("invalid_rule", "E3") if n is None or n <= 0 else None
    if "every_seconds" in args:
        n = safe_int(args["every_seconds"])
        if n is None:
            return "invalid_rule", "E4"
        return ("frequency_too_high", "E5") if n < 300 else None
    return None


# --- time input (§6) --------------------------------------------------------------------------


class RejectionError(Exception):
    """An expected §5 rejection: ``code`` and the §5 condition number (E6 ...)."""

    def __init__(self, code: str, condition: str) -> None:
        super().__init__(code, condition)
        self.code = code
        self.condition = condition


def _wall(date: tuple[str, ...], time: tuple[str | None, ...], field_rule: str) -> int:
    year, month, day = (int(x) for x in date)
    hour, minute, second = (int(x) for x in time[:3] if x is not None)
    milli = int((time[3] or "0").ljust(3, "0"))
    if year == 0 or hour > 23 or minute > 59 or second > 59:
        raise RejectionError("invalid_rule", field_rule)
    if not 1 <= month <= 12 or not 1 <= day <= days_in_month(year, month):
        raise RejectionError("invalid_rule", "E7")
    return ms_from_fields(year, month, day, hour, minute, second, milli)


def at_string_instant(text: str) -> int:
    """§6.1 steps 1-5: the instant (ms) of an offset-form `at` string, or RejectionError."""
    match = AT_STRING.fullmatch(text)
    if match is None:
        raise RejectionError("invalid_rule", "E6")
    g = match.groups()
    wall = _wall(g[0:3], g[3:7], "E7")
    if g[7] == "Z":
        return wall
    sign, hours, minutes = g[8], int(g[9]), int(g[10])
    if hours > 23 or minutes > 59 or (sign == "-" and hours == 0 and minutes == 0):
        raise RejectionError("invalid_rule", "E8")
    offset = (hours * 60 + minutes) * 60_000
    return wall - offset if sign == "+" else wall + offset


def local_instant(value: dict[str, str]) -> int:
    """§6.2 steps 1-5 for a local object: the earliest valid instant, or RejectionError."""
    date, time = LOCAL_DATE.fullmatch(value["date"]), LOCAL_TIME.fullmatch(value["time"])
    if date is None or time is None:
        raise RejectionError("invalid_rule", "E9")
    wall = _wall(date.groups(), time.groups(), "E10")
    if not zone_accepted(value["time_zone"]):
        raise RejectionError("invalid_time_zone", "E12")
    valid, out_of_range = wall_instants(oracle_zone(zone_key(value["time_zone"])), wall)
    if valid:
        return valid[0]
    raise (
        RejectionError("time_out_of_range", "E14")
        if out_of_range
        else RejectionError("invalid_rule", "E11")
    )


def check_target(target: int, now_ms: int) -> int:
    """§6.5: range first, then strictly future."""
    if not MIN_MS <= target <= MAX_MS:
        raise RejectionError("time_out_of_range", "E14")
    if target <= now_ms:
        raise RejectionError("not_future", "E13")
    return target


def expected_create(args: dict[str, Any], now_ms: int) -> dict[str, Any] | RejectionError:
    """The record fields (kind, seconds, scheduledAt) a fresh session must create, or RejectionError."""
    stage_a = stage_a_code(args)
    if stage_a is not None:
        return RejectionError(*stage_a)
    try:
        if "at" in args:
            at = args["at"]
            target = at_string_instant(at) if isinstance(at, str) else local_instant(at)
            return {"kind": "at", "scheduledAt": canonical(check_target(target, now_ms))}
        key = "after_seconds" if "after_seconds" in args else "every_seconds"
        seconds = safe_int(args[key])
        assert seconds is not None
        target = check_target(now_ms + seconds * 1000, now_ms)
    except RejectionError as reject:
        return reject
    kind, field = ("after", "afterSeconds") if key == "after_seconds" else ("every", "everySeconds")
    return {"kind": kind, field: seconds, "scheduledAt": canonical(target)}
