"""The SessionLog contract (api.md), run against the real LiveSession and the shared FakeLog.

Running the same checks on both keeps the fake honest: what the schedule and agent tests assume
of a log is what the on-disk session does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from core.errors import ChimeError
from core.schedule import SessionLog, fold_schedule
from core.session import vocabulary as v
from tests.core.session.helpers import create_change, make_store, user
from tests.fakes import FakeClock, FakeLog

Scenario = Callable[[SessionLog], Awaitable[None]]


def run_on(kind: str, tmp_path: Path, clock: FakeClock, scenario: Scenario) -> None:
    async def main() -> None:
        if kind == "fake":
            await scenario(FakeLog())
            return
        session = await make_store(tmp_path, clock).create()
        try:
            await scenario(session)
        finally:
            await session.close()

    asyncio.run(main())


KINDS = ["live", "fake"]


@pytest.mark.parametrize("kind", KINDS)
def test_an_append_is_in_events_at_once_with_its_index(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionLog) -> None:
        assert isinstance(log, SessionLog)
        log.append(v.USER_MESSAGE, user("one"))
        log.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        events: list[Any] = list(log.events)
        assert [(e["seq"], e["type"]) for e in events] == [
            (0, v.USER_MESSAGE),
            (1, v.SCHEDULE_CHANGE),
        ]
        assert events[1]["data"] == create_change("schedule-1")
        assert log.seed_length == 0
        assert fold_schedule(log.events, log.seed_length).seen_ids == ("schedule-1",)

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_the_barrier_succeeds_when_everything_is_durable(
    kind: str, tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario(log: SessionLog) -> None:
        assert await log.flush() is True
        log.append(v.USER_MESSAGE, user("one"))
        assert await log.flush() is True
        assert len(log.events) == 1

    run_on(kind, tmp_path, clock, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_append_appends_nothing(kind: str, tmp_path: Path, clock: FakeClock) -> None:
    async def scenario(log: SessionLog) -> None:
        before = 0
        if isinstance(log, FakeLog):
            log.append_fails = True
            error: type[Exception] = OSError
        else:
            before = 1
            log.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
            error = ChimeError  # the guard: a reused id would make the fold fail
        with pytest.raises(error):
            log.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        assert len(log.events) == before

    run_on(kind, tmp_path, clock, scenario)
