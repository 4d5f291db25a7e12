"""Fuzzing `at` (schedule.md §6): offset-form strings and local objects generated near the
grammar (valid examples mutated by inserting, deleting or replacing characters, including
non-ASCII digits, U+2028, fullwidth forms and sign look-alikes) must give exactly what an
independent model of §6 predicts: the same `scheduledAt`, or the same code and §5 condition
(one constant message per condition), with the §11.2 barrier and append counts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleTools
from tests.fakes import FakeClock, MemoryLog
from tests.survival.chime_driver import local_object
from tests.survival.dst_points import oracle_zone, sampled_zone_names, year_bounds, zone_points
from tests.survival.shapes import is_view
from tests.survival.strategies import mutate_from, mutated
from tests.survival.time_oracle import RejectionError, expected_create

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CLOCKS = st.sampled_from(
    [
        datetime(2026, 8, 5, 12, 0, tzinfo=UTC),
        datetime(2026, 8, 5, 12, 0, 0, 123456, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    ]
)
AT_BASES = [
    "2026-08-06T09:00:00+08:00",
    "2026-08-05T20:30:00-05:30",
    "2030-01-01T00:00:00Z",
    "2028-02-29T23:59:59.999Z",
    "2100-02-29T00:00:00Z",
    "2400-02-29T00:00:00.5Z",
    "9999-12-31T23:59:59.999Z",
    "9999-12-31T23:59:59-00:01",
    "0001-01-01T00:00:00+00:01",
    "0000-01-01T00:00:00Z",
    "2026-02-30T01:00:00+24:00",
    "2026-11-01T01:30:00.12-04:00",
    "2026-08-05T12:00:00.001Z",
    "2026-08-05T12:00:00Z",
    "2026-08-06T24:00:00Z",
    "2026-08-06T23:59:60Z",
    "2026-08-06T09:00:00-00:00",
    "2026-08-06T09:00:00+23:59",
]


@st.composite
def field_strings(draw: st.DrawFn) -> str:
    """Grammar-shaped strings with every field drawn over (and past) its range."""
    y = draw(st.sampled_from([0, 1, 2, 1582, 2026, 2028, 2100, 9998, 9999]))
    mo, d = draw(st.integers(0, 13)), draw(st.integers(0, 32))
    h, mi, s = draw(st.integers(0, 25)), draw(st.integers(0, 61)), draw(st.integers(0, 61))
    frac = draw(st.sampled_from(["", ".0", ".05", ".999", ".1234"]))
    zone = draw(st.sampled_from(["Z", "+00:00", "-00:00", "+14:00", "-12:59", "+24:00", "+05:60"]))
    return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}{frac}{zone}"


AT_STRINGS = st.one_of(mutate_from(AT_BASES), field_strings(), field_strings().flatmap(mutated))


@cache
def _probe_objects() -> list[dict[str, str]]:
    """Local objects at, inside and around real gaps and overlaps (the fast DST sample)."""
    lo, hi = year_bounds(2024, 2027)
    objects = []
    for name in sampled_zone_names(4):
        _count, points = zone_points(oracle_zone(name), lo, hi)
        objects += [local_object(p.local_ms, name) for p in points[:12]]
    return objects


ZONES = ["UTC", "Etc/UTC", "etc/utc", "America/New_York", "US/Eastern", "Asia/Tokyo", "Etc/GMT+5"]
LOCAL_FIELDS = st.fixed_dictionaries(
    {
        "date": mutate_from(
            ["2026-08-06", "0001-01-01", "9999-12-31", "2028-02-29", "2027-02-29"], 1
        ),
        "time": mutate_from(
            ["09:00:00", "00:00:00.1", "23:59:59.999", "18:59:59.999", "19:00:00"], 1
        ),
        "time_zone": mutate_from(ZONES, 2),
    }
)


@st.composite
def local_objects(draw: st.DrawFn) -> dict[str, str]:
    base = dict(draw(st.sampled_from(_probe_objects())))
    key = draw(st.sampled_from(["date", "time", "time_zone", None, None, None]))
    if key is not None:
        base[key] = draw(mutated(base[key], 2))
    return base


@st.composite
def local_fields(draw: st.DrawFn) -> dict[str, str]:
    """Well-formed local objects with fields over (and past) their ranges, real and near zones."""
    y = draw(st.sampled_from([0, 1, 2, 1900, 2026, 2027, 2028, 9999]))
    mo, d = draw(st.integers(1, 13)), draw(st.integers(1, 31))
    h, mi, s = draw(st.integers(0, 24)), draw(st.integers(0, 60)), draw(st.integers(0, 60))
    frac = draw(st.sampled_from(["", ".5", ".25", ".999"]))
    zone = draw(
        st.one_of(
            st.sampled_from([*ZONES, "Asia/Kathmandu", "Pacific/Kiritimati"]), mutate_from(ZONES, 1)
        )
    )
    return {
        "date": f"{y:04d}-{mo:02d}-{d:02d}",
        "time": f"{h:02d}:{mi:02d}:{s:02d}{frac}",
        "time_zone": zone,
    }


_MESSAGES: dict[str, str] = {}


def _create(at: object, now: datetime) -> tuple[Any, MemoryLog]:
    log = MemoryLog()
    tools = ScheduleTools(log, FakeClock(now))
    return asyncio.run(tools.call("schedule_create", {"prompt": "p", "at": at})), log


def _assert_matches(at: object, now: datetime) -> None:
    now_ms = (now - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
    expected = expected_create({"prompt": "p", "at": at}, now_ms)
    result, log = _create(at, now)
    if isinstance(expected, RejectionError):
        assert result.get("code") == expected.code, (at, expected.condition, result)
        assert list(result) == ["code", "message"], result
        assert (log.barriers, log.appended) == (1, []), expected.condition
        known = _MESSAGES.setdefault(expected.condition, result["message"])
        assert known == result["message"], expected.condition
        assert [c for c, m in _MESSAGES.items() if m == known] == [expected.condition]
        return
    assert is_view(result), (at, result)
    assert (result["kind"], result["scheduledAt"]) == ("at", expected["scheduledAt"]), at
    assert result["state"] == "scheduled"
    assert log.barriers == 2
    assert [t for t, _d in log.appended] == ["schedule/change"]


@FUZZ
@given(at=AT_STRINGS, now=CLOCKS)
def test_at_strings_near_the_grammar_resolve_exactly_as_section_6_1_says(
    at: str, now: datetime
) -> None:
    _assert_matches(at, now)


@FUZZ
@given(at=st.one_of(local_objects(), local_fields(), LOCAL_FIELDS), now=CLOCKS)
def test_local_objects_near_the_grammar_resolve_exactly_as_section_6_2_says(
    at: dict[str, str], now: datetime
) -> None:
    _assert_matches(at, now)
