"""Fuzzing the clock samples of `schedule_create` (schedule.md §1.3, §4.2 B6 and step 11, §6.5):
aware datetimes in any fixed offset and any year, sub-millisecond digits, naive datetimes,
non-datetimes, clocks that raise, zones whose utcoffset raises, and a clock that fails only on the
second sample. A good sample must give exactly floor-to-ms + after_seconds; a clock failure must
give internal_error with the §11.2 barrier/append counts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleTools
from tests.fakes import MemoryLog
from tests.survival.tzif_oracle import MAX_MS, MIN_MS, canonical, ms_from_fields

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class BrokenZone(tzinfo):
    """A tzinfo whose offset cannot be read."""

    def utcoffset(self, dt: datetime | None) -> timedelta:
        raise RuntimeError("no offset")

    def dst(self, dt: datetime | None) -> timedelta:
        raise RuntimeError("no dst")


OFFSETS = st.integers(-1439, 1439).map(lambda m: timezone(timedelta(minutes=m)))
AWARE = st.one_of(
    st.datetimes(timezones=st.one_of(OFFSETS, st.just(UTC))),
    st.sampled_from([
        datetime(1, 1, 1, 0, 0, 0, 500, tzinfo=UTC),
        datetime(1, 1, 1, 0, 0, tzinfo=timezone(timedelta(hours=5))),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=-5))),
        datetime(1969, 12, 31, 23, 59, 59, 999500, tzinfo=UTC),
        datetime(1960, 1, 1, 0, 0, 0, 999, tzinfo=UTC),
    ]),
)  # fmt: skip
BAD = st.one_of(
    st.datetimes(),  # naive
    st.sampled_from([None, 0, 1.5, "2026-08-05T12:00:00Z", date(2026, 8, 5)]),
    st.just("broken-zone"),  # built in the test: hypothesis compares examples, which would raise
    st.just("raises"),
)
SECONDS = st.one_of(st.integers(1, 10**6), st.sampled_from([1, 30.0, 251616369599, 2**53 - 1]))


def _micros(value: datetime) -> int:
    """The instant in µs since the epoch, from the fields and the offset (our own arithmetic)."""
    offset = value.utcoffset()
    assert offset is not None
    wall = ms_from_fields(value.year, value.month, value.day, value.hour, value.minute, 0, 0)
    return (
        (wall // 1000 + value.second) * 1_000_000
        + value.microsecond
        - offset // timedelta(microseconds=1)
    )


def _clock(samples: list[Any]) -> Callable[[], Any]:
    def clock() -> Any:
        value = samples.pop(0) if len(samples) > 1 else samples[0]
        if value == "raises":
            raise RuntimeError("clock down")
        return datetime(2026, 8, 5, tzinfo=BrokenZone()) if value == "broken-zone" else value

    return clock


def _create(samples: list[Any], seconds: object) -> tuple[Any, MemoryLog]:
    log = MemoryLog()
    tools = ScheduleTools(log, _clock(samples))
    arguments = {"prompt": "p", "after_seconds": seconds}
    return asyncio.run(tools.call("schedule_create", arguments)), log


@FUZZ
@given(now=AWARE, seconds=SECONDS)
def test_a_good_clock_sample_is_floored_to_the_millisecond_and_offset_aware(
    now: datetime, seconds: int | float
) -> None:
    result, log = _create([now], seconds)
    now_ms = _micros(now) // 1000
    if not MIN_MS <= now_ms <= MAX_MS:
        assert result.get("code") == "internal_error", (now, result)
        assert (log.barriers, log.appended) == (1, [])
        return
    target = now_ms + int(seconds) * 1000
    if target > MAX_MS:
        assert result.get("code") == "time_out_of_range", (now, result)
        return
    assert result.get("scheduledAt") == canonical(target), (now, result)
    assert result.get("afterSeconds") == int(seconds)
    assert type(result.get("afterSeconds")) is int


@FUZZ
@given(bad=BAD)
def test_a_failing_first_sample_is_internal_error_with_nothing_appended(bad: object) -> None:
    result, log = _create([bad], 30)
    assert list(result) == ["code", "message"]
    assert result["code"] == "internal_error", (bad, result)
    assert (log.barriers, log.appended) == (1, [])


@FUZZ
@given(now=AWARE, bad=BAD)
def test_a_failing_second_sample_is_internal_error_but_the_create_is_kept(
    now: datetime, bad: object
) -> None:
    now_ms = _micros(now) // 1000
    if not MIN_MS <= now_ms <= MAX_MS - 1000:
        return
    result, log = _create([now, bad], 1)
    assert result.get("code") == "internal_error", (now, bad, result)
    assert log.barriers == 2
    assert [data["operation"] for _t, data in log.appended] == ["create"]
