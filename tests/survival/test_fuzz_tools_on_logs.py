"""Fuzzing the tools over existing logs (schedule.md §3, §4.3, §4.4, §8.5, §9): on model-built and
mutated logs, list must show exactly the independent fold's active records (state from one clock
sample) or answer corrupt_schedule_log; create must allocate the count-based id of §3; delete of an
active id must remove exactly that record."""

from __future__ import annotations

import asyncio
import copy
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleTools
from tests.fakes import FakeClock, MemoryLog
from tests.survival import fold_oracle
from tests.survival.test_fuzz_fold import model_log, mutated_log
from tests.survival.tzif_oracle import canonical

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
NOW_MS = 1785931200000


def next_id(seen: list[str]) -> str:
    """§3, written independently: start at |S| + 1 and skip ids already created."""
    n = len(seen) + 1
    while f"schedule-{n}" in seen:
        n += 1
    return f"schedule-{n}"


def _views(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    state = {True: "overdue", False: "scheduled"}
    return [
        {**r, "state": state[fold_oracle.instant(r["scheduledAt"]) <= NOW_MS],
         "deliveryMode": "session-local"}
        for r in records
    ]  # fmt: skip


def _run(
    events: list[dict[str, Any]], name: str, arguments: dict[str, Any]
) -> tuple[Any, MemoryLog]:
    # A session log holds envelopes only: a line without a string type or without data is not an
    # event but a corrupt line (tests/core/session covers those). fold_schedule's own leniency
    # for such items is fuzzed on raw lists in test_fuzz_fold.py.
    assume(all(isinstance(e.get("type"), str) and "data" in e for e in events))
    log = MemoryLog(copy.deepcopy(events))
    tools = ScheduleTools(log, FakeClock(NOW))
    return asyncio.run(tools.call(name, arguments)), log


@FUZZ
@given(events=st.one_of(model_log(), mutated_log()))
def test_list_shows_exactly_the_folded_records_or_reports_a_corrupt_log(
    events: list[dict[str, Any]],
) -> None:
    expected = fold_oracle.fold(events)
    result, log = _run(events, "schedule_list", {})
    assert log.barriers == 1
    if expected is None:
        assert isinstance(result, dict)
        assert result.get("code") == "corrupt_schedule_log"
        return
    assert result == _views(expected["active"])
    assert [list(v) for v in result] == [list(v) for v in _views(expected["active"])]


@FUZZ
@given(events=model_log())
def test_create_allocates_the_count_based_id_and_delete_removes_exactly_its_record(
    events: list[dict[str, Any]],
) -> None:
    expected = fold_oracle.fold(events)
    if expected is None:
        return
    created, log = _run(events, "schedule_create", {"prompt": "p", "after_seconds": 60})
    assert created["id"] == next_id(expected["seenIds"]), (expected["seenIds"], created)
    assert created["scheduledAt"] == canonical(NOW_MS + 60_000)
    after = fold_oracle.fold(list(log.events))
    assert after is not None
    assert after["seenIds"] == [*expected["seenIds"], created["id"]]
    for record in expected["active"][:2]:
        deleted, log = _run(events, "schedule_delete", {"id": record["id"]})
        assert deleted == {"id": record["id"], "deleted": True}
        remaining = fold_oracle.fold(list(log.events))
        assert remaining is not None
        assert remaining["active"] == [r for r in expected["active"] if r["id"] != record["id"]]
