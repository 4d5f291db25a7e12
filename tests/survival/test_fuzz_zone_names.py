"""Fuzzing `time_zone` acceptance (schedule.md §6.3): random strings and mutations of real names
(case flips, inserted or replaced characters, non-ASCII letters that case-fold to ASCII, padding,
`posix/` and `right/` prefixes) are accepted iff the independent §6.3 predicate says so."""

from __future__ import annotations

import asyncio
import zoneinfo
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleTools
from tests.fakes import FakeClock, MemoryLog
from tests.survival.strategies import TEXT, mutated
from tests.survival.time_oracle import zone_accepted

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REAL = sorted(zoneinfo.available_timezones())
SPECIAL = [
    "UTC", "utc", "GMT", "EST", "EST5EDT", "Z", "+08:00", "localtime", "Etc/GMT+5", "etc/gmt-14",
    "posix/America/New_York", "right/UTC", "America//New_York", "/America/New_York",
    "America/New_York/", "America/New_York/Extra", " UTC", "UTC\n", "\ufeffEtc/UTC",
    "Europe/\u212aiev", "Asia/\u0130stanbul", "America/Argentina/Buenos_Aires", "",
]  # fmt: skip


@st.composite
def case_flipped(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(REAL))
    flips = draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    return "".join(c.swapcase() if f else c for c, f in zip(name, flips, strict=True))


NAMES = st.one_of(
    st.sampled_from(REAL),
    st.sampled_from(SPECIAL),
    case_flipped(),
    st.sampled_from(REAL + SPECIAL).flatmap(lambda n: mutated(n, 2)),
    TEXT,
)


def _answer(name: str) -> object:
    tools = ScheduleTools(MemoryLog(), FakeClock(datetime(2026, 8, 5, 12, tzinfo=UTC)))
    at = {"date": "2030-06-15", "time": "12:00:00", "time_zone": name}
    return asyncio.run(tools.call("schedule_create", {"prompt": "p", "at": at}))


@FUZZ
@given(name=NAMES)
def test_a_zone_name_is_accepted_exactly_when_section_6_3_accepts_it(name: str) -> None:
    result = _answer(name)
    assert isinstance(result, dict)
    refused = result.get("code") == "invalid_time_zone"
    assert refused is not zone_accepted(name), (name, result)
    if not refused:
        assert result.get("kind") == "at", (name, result)
