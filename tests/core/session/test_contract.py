"""The session port's contract, run against the real LiveSession and the one test fake.

Running the same checks on both keeps the fake honest: what the schedule, agent, owner and host
tests assume of a session (``tests.fakes.MemoryLog``) is what the on-disk session does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from core.errors import ChimeError, ScheduleLogError
from core.events import (
    SCHEDULE_SOURCE,
    Entry,
    ExchangeHidden,
    ScheduleChanged,
    SessionInstructions,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.schedule import SessionLog, fold_schedule
from core.schedule.log import FoldingLog
from core.session.port import SessionPort
from tests import wire as v
from tests.core.session.helpers import create_change, make_store, user
from tests.fakes import FakeClock, MemoryLog

Scenario = Callable[[SessionPort], Awaitable[None]]
KINDS = ["live", "fake"]


def run_on(kind: str, tmp_path: Path, clock: FakeClock, scenario: Scenario) -> None:
    async def main() -> None:
        if kind == "fake":
            await scenario(MemoryLog(clock=clock))
            return
        session = await make_store(tmp_path, clock).create()
        try:
            await scenario(session)
        finally:
            await session.close()

    asyncio.run(main())


def said(text: str) -> UserMessage:
    return UserMessage("m", text, UserSource("Europe/Berlin"))


@pytest.mark.parametrize("kind", KINDS)
def test_both_are_the_session_port_and_the_api_log(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionPort) -> None:
        assert isinstance(log, SessionPort)
        assert isinstance(log, FoldingLog)
        assert isinstance(log, SessionLog)
        assert log.seed_length == 0
        assert not log.read_only

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_an_append_is_in_events_and_entries_at_once_with_its_index(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionPort) -> None:
        log.append(v.USER_MESSAGE, user("one"))
        entry = log.append_event(ScheduleChanged(create_change("schedule-1")))
        assert entry.seq == 1
        assert [(e["seq"], e["type"]) for e in log.events] == [
            (0, v.USER_MESSAGE),
            (1, v.SCHEDULE_CHANGE),
        ]
        assert log.events[1]["data"] == create_change("schedule-1")
        assert log.events[1]["at"] == "2026-08-05T12:00:00.000Z"
        assert [e.event for e in log.entries] == [said("one"), entry.event]
        assert fold_schedule(log.events, log.seed_length).seen_ids == ("schedule-1",)
        assert log.schedule_fold() == fold_schedule(log.events, log.seed_length)

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_group_carries_its_size_on_its_first_line_only(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionPort) -> None:
        log.append_event(ScheduleChanged(create_change("schedule-1")))
        reminder = UserMessage("r", "due", SCHEDULE_SOURCE)
        dispatch = {"version": 1, "operation": "dispatch", "id": "schedule-1"}
        entries = log.append_events([reminder, ScheduleChanged(dispatch)])
        assert [(e.seq, e.group) for e in entries] == [(1, 2), (2, None)]
        assert log.events[1]["group"] == 2
        assert "group" not in log.events[2]
        assert log.schedule_fold().active == ()

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_the_barrier_succeeds_when_everything_is_durable(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionPort) -> None:
        assert await log.flush() is True
        log.append_event(said("one"))
        assert await log.flush() is True
        assert len(log.events) == 1

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_the_guard_refuses_a_change_that_would_corrupt_the_fold(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionPort) -> None:
        log.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        with pytest.raises(ChimeError):  # a reused id would make the fold fail
            log.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        with pytest.raises(ScheduleLogError):  # a group is refused whole
            log.append_events([said("x"), ScheduleChanged({"version": 2})])
        assert len(log.events) == 1
        assert len(log.schedule_fold().active) == 1

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_the_input_queue_follows_turns(kind: str, tmp_path: Path, clock: FakeClock) -> None:
    async def scenario(log: SessionPort) -> None:
        log.append_event(said("one"))
        log.append_event(said("two"))
        assert log.inputs().pending == (0, 1)
        log.append_event(TurnStart(1, 0))
        assert log.inputs().pending == (1,)
        log.append_event(TurnEnd(1, "failed"))
        state = log.inputs()
        assert (state.pending, state.failed, state.last_turn) == ((1,), {0}, 1)
        assert state.next_input() == 1
        log.append_event(ExchangeHidden(0, hidden=True))
        log.append_event(SessionInstructions("Answer in French."))
        assert log.conversation().hidden == {0}
        assert log.choices().instructions == "Answer in French."

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_observers_see_each_entry_after_it_is_appended(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionPort) -> None:
        seen: list[Entry] = []
        unsubscribe = log.subscribe(seen.append)
        log.append_event(said("one"))
        unsubscribe()
        log.append_event(said("two"))
        assert [e.seq for e in seen] == [0]
        outcomes: list[bool] = []
        log.subscribe_persistence(outcomes.append)
        assert await log.flush() is True
        assert outcomes == [True]

    run_on(kind, tmp_path, clock, scenario)
