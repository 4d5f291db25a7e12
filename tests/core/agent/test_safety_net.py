"""The reminder safety net in a turn (agent.md §3): a reminder request answered in words records
the reminder the offline assistant understood; a tool call written as text (recognised by the
door) runs and is recorded as the call it is."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from core.agent import Agent, ToolRegistry
from core.agent.safety_net import missed_reminder
from core.events import ToolCall
from core.llm.messages import Finish, Message, ModelInfo, ModelRequest, StreamChunk, TextDelta
from core.llm.reminder_request import reminder_request
from tests import wire as v
from tests.core.agent.fakes import counter_ids
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
OVEN = "remind me in 2 minutes to check the oven"
OVEN_ARGS = '{"prompt":"check the oven","after_seconds":120}'


class ReminderTools:
    """``schedule_create`` only, recording its calls."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def definitions(self) -> list[dict[str, Any]]:
        schema = {"type": "object", "properties": {"prompt": {"type": "string"}}}
        function = {"name": "schedule_create", "description": "create", "parameters": schema}
        return [{"type": "function", "function": function}]

    async def call(self, name: str, arguments: Any) -> object:
        self.calls.append((name, arguments))
        return {"ok": True, "id": "schedule-1"}


class Steps:
    """A model answering each step with the next ``Finish``."""

    def __init__(self, *steps: Finish) -> None:
        self.steps = list(steps)

    @property
    def info(self) -> ModelInfo:
        return ModelInfo("openai-compatible", "qwen2.5-coder-1.5b")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        finish = self.steps.pop(0)
        if finish.text:
            yield TextDelta(finish.text)
        yield finish


def _turn(said: str, *steps: Finish) -> tuple[MemoryLog, ReminderTools]:
    async def main() -> tuple[MemoryLog, ReminderTools]:
        log, tools = MemoryLog(), ReminderTools()
        agent = Agent(
            log,
            Steps(*steps),
            ToolRegistry([tools]),
            FakeClock(START),
            lambda: "Europe/Berlin",
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        agent.submit(said, "Europe/Berlin")
        await agent.when_idle()
        return log, tools

    return asyncio.run(main())


def test_a_reminder_request_answered_in_words_records_what_could_be_set() -> None:
    words = Finish("[SCHEDULE REMINDER] After_seconds: 600", (), "stop")

    log, tools = _turn(OVEN, words)

    answer = log.of_type(v.ASSISTANT_MESSAGE)[-1]
    assert answer["reminderNotSet"] == OVEN_ARGS
    assert tools.calls == []


def test_a_reminder_the_model_set_leaves_nothing_to_offer() -> None:
    call = ToolCall("c1", "schedule_create", '{"prompt": "check the oven"}')
    steps = (Finish("", (call,), "tool_calls"), Finish("Set for 12:02.", (), "stop"))

    log, tools = _turn(OVEN, *steps)

    assert all("reminderNotSet" not in a for a in log.of_type(v.ASSISTANT_MESSAGE))
    assert len(tools.calls) == 1


def test_a_message_that_asks_for_no_reminder_records_nothing() -> None:
    log, _tools = _turn("what is the capital of France?", Finish("Paris.", (), "stop"))

    assert "reminderNotSet" not in log.of_type(v.ASSISTANT_MESSAGE)[-1]


def test_a_call_written_as_text_runs_and_is_recorded_as_a_call() -> None:
    call = ToolCall("text_call_0", "schedule_create", OVEN_ARGS)
    steps = (
        Finish("", (call,), "tool_calls", calls_from_text=True),
        Finish("Done: I'll remind you at 12:02.", (), "stop"),
    )

    log, tools = _turn(OVEN, *steps)

    first = log.of_type(v.ASSISTANT_MESSAGE)[0]
    assert first["callsFromText"] is True
    assert first["toolCalls"] == [call.to_json()]
    assert tools.calls == [("schedule_create", json.loads(OVEN_ARGS))]
    assert [r["callId"] for r in log.of_type(v.TOOL_RESULT)] == ["text_call_0"]


def test_the_net_reads_only_the_persons_own_short_message_and_only_with_the_tool() -> None:
    tools = tuple(ReminderTools().definitions())
    asked = (Message("user", OVEN),)
    follow_up = (Message("user", OVEN, source_kind="plugin"),)
    long = (Message("user", OVEN + " " + "x" * 600),)

    def net(messages: tuple[Message, ...], offered: tuple[dict[str, Any], ...]) -> str | None:
        return missed_reminder(ModelRequest("sys", messages, offered), START, "Europe/Berlin")

    assert net(asked, tools) == OVEN_ARGS
    assert net(asked, ()) is None
    assert net(follow_up, tools) is None
    assert net(long, tools) is None
    assert net((), tools) is None


def test_reminder_request_reads_local_times_in_the_given_zone() -> None:
    asked = reminder_request("remind me tomorrow at 9 to call mum", START, "Europe/Berlin")

    assert asked == {
        "prompt": "call mum",
        "at": {"date": "2026-08-06", "time": "09:00:00", "time_zone": "Europe/Berlin"},
    }
    assert reminder_request("what time is it?", START, "Europe/Berlin") is None


@pytest.mark.parametrize(
    "text",
    [
        "a second opinion please",
        "a second conversation",
        "tell me a joke in a second",
        "in a moment I will go",
        "what happens in 5 minutes of boiling?",
    ],
)
def test_a_message_with_a_time_but_no_ask_for_a_reminder_is_not_one(text: str) -> None:
    assert reminder_request(text, START, "Europe/Berlin") is None


@pytest.mark.parametrize(
    "text",
    [
        "remind me in 2 minutes to check the oven",
        "set a timer for 10 minutes",
        "ping me in an hour to call Sam",
    ],
)
def test_a_message_that_asks_for_a_reminder_in_words_is_one(text: str) -> None:
    assert reminder_request(text, START, "Europe/Berlin") is not None
