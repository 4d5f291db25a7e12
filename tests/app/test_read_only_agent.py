"""The agent of a session whose log turns read-only under a running turn (a failed verification
of a warm open): the turn cannot record anything more, not even its turn/end, so the agent just
stops, reports it through its observers, and nothing raises or logs a traceback."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.agent import Agent, ToolRegistry
from core.errors import SessionReadOnlyError
from core.llm.offline import OfflineAssistant
from tests import wire as v
from tests.fakes import FakeClock, MemoryLog


class TurnsReadOnly(MemoryLog):
    """A log that turns read-only at its first barrier (as a failed verification does)."""

    async def flush(self) -> bool:
        self.read_only_reason = "The session log is corrupt at line 2."
        return False


def test_an_agent_whose_log_turns_read_only_mid_turn_stops_cleanly_and_reports_it(
    clock: FakeClock, caplog: Any
) -> None:
    log = TurnsReadOnly()
    ends: list[tuple[int, str]] = []
    statuses: list[str] = []

    async def scenario() -> None:
        agent = Agent(
            log,
            OfflineAssistant(clock),
            ToolRegistry(),
            clock,
            lambda: "UTC",
            system_prompt="",
            new_id=lambda: "id",
        )
        agent.on_turn_end(lambda turn, status: ends.append((turn, status)))
        agent.on_status(statuses.append)
        agent.submit("hello", "UTC")
        await asyncio.wait_for(agent.when_idle(), 5)
        assert agent.stopped == "The session log is corrupt at line 2."
        with pytest.raises(SessionReadOnlyError):
            agent.submit("again", "UTC")
        assert agent.status == "idle"
        await agent.dispose()

    asyncio.run(scenario())
    assert [t for t, _ in log.appended] == [v.USER_MESSAGE, v.TURN_START, v.CONTEXT_TIME]
    assert ends == [(1, "interrupted")]
    assert statuses == ["running", "idle"]
    assert not any(r.exc_info for r in caplog.records)
