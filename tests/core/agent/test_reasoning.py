"""A model's reasoning in a turn (agent.md §2): streamed apart from the answer, recorded in its
own field with the thinking time, never sent back to the model, and a ``<think>`` block left in
an older log's text is not sent back either."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from core.agent import Agent, ToolRegistry
from core.agent.history import fold_history
from core.events import AssistantMessage, Entry, ModelRef, TurnEnd, TurnStart, UserMessage
from core.events import UserSource as Source
from core.llm.compat import QUIRKS
from core.llm.messages import (
    Finish,
    ModelInfo,
    ModelRequest,
    ReasoningDelta,
    StreamChunk,
    TextDelta,
)
from core.llm.openai_wire import chat_body
from tests import wire as v
from tests.core.agent.fakes import EchoTools, counter_ids, settle
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
THOUGHT = "The person greets me. SECRET-THOUGHT."


class ThinkingModel:
    """Thinks for 12 s (the clock moves while it streams), then answers; records requests."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.requests: list[ModelRequest] = []

    @property
    def info(self) -> ModelInfo:
        return ModelInfo("scripted", "thinker")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        self.requests.append(request)
        self.clock.advance(3)  # reading the prompt: not thinking time
        yield ReasoningDelta("The person greets me.")
        self.clock.advance(12)
        yield ReasoningDelta(" SECRET-THOUGHT.")
        yield TextDelta("Hello!")
        self.clock.advance(1)
        yield Finish("Hello!", (), "stop", reasoning=THOUGHT)


def _run_two_turns() -> tuple[MemoryLog, ThinkingModel, list[str], list[str]]:
    async def main() -> tuple[MemoryLog, ThinkingModel, list[str], list[str]]:
        clock, log = FakeClock(START), MemoryLog()
        model = ThinkingModel(clock)
        agent = Agent(
            log,
            model,
            ToolRegistry([EchoTools()]),
            clock,
            lambda: "Europe/Berlin",
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        thoughts: list[str] = []
        answers: list[str] = []
        agent.on_reasoning(thoughts.append)
        agent.on_delta(answers.append)
        for text in ("hi", "and again"):
            agent.submit(text, "Europe/Berlin")
            await agent.when_idle()
        return log, model, thoughts, answers

    return asyncio.run(main())


def test_reasoning_streams_apart_and_is_recorded_with_its_time() -> None:
    log, _model, thoughts, answers = _run_two_turns()

    recorded = log.of_type(v.ASSISTANT_MESSAGE)[0]

    assert "".join(thoughts) == THOUGHT * 2  # two turns
    assert answers == ["Hello!", "Hello!"]
    assert recorded["text"] == "Hello!"
    assert recorded["reasoning"] == THOUGHT
    assert recorded["reasoningMs"] == 12_000  # from the first thought to the first word


def test_reasoning_is_never_sent_back_to_the_model() -> None:
    _log, model, _thoughts, _answers = _run_two_turns()

    second = model.requests[-1]
    body = chat_body(second, QUIRKS["llamacpp"], model="m", max_tokens=None, include_usage=True)

    assert [(m.role, m.text) for m in second.messages] == [
        ("user", "hi"),
        ("assistant", "Hello!"),
        ("user", "and again"),
    ]
    assert "SECRET-THOUGHT" not in json.dumps(body)


def test_a_think_block_in_an_older_logs_text_is_not_sent_back() -> None:
    at = "2026-08-05T12:00:00.000Z"
    model = ModelRef("openai-compatible", "qwen3")
    events = [
        UserMessage("u1", "2+2?", Source(None)),
        TurnStart(1, 0),
        AssistantMessage("a1", "<think>\nSECRET-THOUGHT\n</think>\n\n4", (), model, "stop"),
        TurnEnd(1, "completed"),
        UserMessage("u2", "and 3+3?", Source(None)),
        TurnStart(2, 4),
    ]

    messages = fold_history([Entry(seq, at, e) for seq, e in enumerate(events)])

    assert [m.text for m in messages] == ["2+2?", "4", "and 3+3?"]


def test_an_answer_with_its_own_reasoning_field_keeps_its_text_as_written() -> None:
    at = "2026-08-05T12:00:00.000Z"
    model = ModelRef("openai-compatible", "m")
    text = "<think> is how Qwen3 marks thinking."
    events = [
        UserMessage("u1", "how?", Source(None)),
        TurnStart(1, 0),
        AssistantMessage("a1", text, (), model, "stop", reasoning="explain"),
    ]

    messages = fold_history([Entry(seq, at, e) for seq, e in enumerate(events)])

    assert [m.text for m in messages] == ["how?", text]


def test_reasoning_that_came_whole_with_the_answer_has_no_time() -> None:
    class WholeModel(ThinkingModel):
        async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
            yield Finish("Hello!", (), "stop", reasoning=THOUGHT)

    async def main() -> MemoryLog:
        clock, log = FakeClock(START), MemoryLog()
        agent = Agent(
            log,
            WholeModel(clock),
            ToolRegistry([EchoTools()]),
            clock,
            lambda: None,
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        agent.submit("hi", None)
        await agent.when_idle()
        return log

    recorded = asyncio.run(main()).of_type(v.ASSISTANT_MESSAGE)[0]

    assert recorded["reasoning"] == THOUGHT
    assert "reasoningMs" not in recorded


def test_a_stopped_answer_keeps_the_thinking_streamed_so_far() -> None:
    gate = asyncio.Event()

    class StoppedModel(ThinkingModel):
        async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
            yield ReasoningDelta("Half a thought")
            await gate.wait()
            yield Finish("never", (), "stop")

    async def main() -> MemoryLog:
        clock, log = FakeClock(START), MemoryLog()
        agent = Agent(
            log,
            StoppedModel(clock),
            ToolRegistry([EchoTools()]),
            clock,
            lambda: None,
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        agent.submit("hi", None)
        await settle()
        agent.cancel()
        await agent.when_idle()
        return log

    recorded = asyncio.run(main()).of_type(v.ASSISTANT_MESSAGE)

    assert [(a["text"], a["reasoning"], a["finish"]) for a in recorded] == [
        ("", "Half a thought", "interrupted")
    ]
