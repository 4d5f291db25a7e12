"""A conversation with the offline assistant over the real reminder tools, run like the agent runs
turns (stream a step, run each tool call through the registry, repeat), on a fake clock."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from typing import Any

from core.agent.tool_registry import ToolRegistry
from core.llm.messages import Finish, Message, ModelRequest
from core.llm.offline import OfflineAssistant
from core.schedule import ScheduleTools, fold_schedule, plan_delivery
from tests.fakes import FakeClock, MemoryLog

STEPS = 8


class Conversation:
    """``say(text)`` runs one turn and returns the answer; ``calls`` holds that turn's tool calls
    as ``(name, arguments)``; ``deliver_due()`` delivers what is due as a reminder turn."""

    def __init__(self, start: datetime, zone: str | None = "Europe/Berlin") -> None:
        self.clock = FakeClock(start)
        self.log = MemoryLog(clock=self.clock)
        self.tools = ScheduleTools(self.log, self.clock)
        self.registry = ToolRegistry([self.tools])
        self.assistant = OfflineAssistant(self.clock)
        self.history: list[Message] = []
        self.zone = zone
        self.calls: list[tuple[str, Any]] = []
        self.all_calls: list[tuple[str, Any]] = []

    def say(self, text: str) -> str:
        return asyncio.run(self._turn(Message(role="user", text=text)))

    def deliver_due(self) -> str:
        delivery = plan_delivery(fold_schedule(self.log.events), self.clock())
        assert delivery.framing is not None, "nothing is due"
        for change in delivery.changes:
            self.log.append("schedule/change", change)
        skipped = tuple(delivery.skipped.items())
        message = Message(role="user", text=delivery.framing, source_kind="plugin", skipped=skipped)
        return asyncio.run(self._turn(message))

    def play(self, turns: list[str] | tuple[str, ...]) -> None:
        """Earlier turns: a message, or "+N" (the clock moves N minutes on), or "!deliver"."""
        for turn in turns:
            if turn.startswith("+"):
                self.clock.advance(timedelta(minutes=float(turn[1:])))
            elif turn == "!deliver":
                self.deliver_due()
            else:
                self.say(turn)

    def seed(self, *texts: str) -> None:
        """Set up reminders by asking for them (each must be set)."""
        for text in texts:
            answer = self.say(text)
            assert self.calls, answer
            assert self.calls[-1][0] == "schedule_create", answer

    async def _turn(self, message: Message) -> str:
        self.history.append(message)
        self.calls = []
        for _ in range(STEPS):
            request = ModelRequest(
                "s", tuple(self.history), self.registry.definitions(), time_zone=self.zone
            )
            chunks = [chunk async for chunk in self.assistant.stream(request)]
            step = chunks[-1]
            assert isinstance(step, Finish)
            self.history.append(
                Message(role="assistant", text=step.text, tool_calls=step.tool_calls)
            )
            if step.reason == "stop":
                return step.text
            for call in step.tool_calls:
                self.calls.append((call.name, json.loads(call.arguments)))
                self.all_calls.append(self.calls[-1])
                outcome = await self.registry.run(call.name, call.arguments)
                self.history.append(
                    Message(
                        role="tool",
                        text=outcome.content,
                        tool_call_id=call.id,
                        name=call.name,
                        is_error=outcome.is_error,
                    )
                )
        raise AssertionError(f"the offline assistant did not finish within {STEPS} steps")
