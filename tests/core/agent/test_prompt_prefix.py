"""Chime's system prompt and tools are a byte-stable prefix across turns (issue 19: a 2-core CPU
reads them in about a minute, so the server's prompt cache must serve them): everything that
varies per turn (the time-context reading) comes after it, and a tool step's request extends the
step before it."""

from __future__ import annotations

import asyncio
import itertools
import json
from datetime import timedelta
from typing import Any

from core.agent import Agent, ToolRegistry
from core.host import load_system_prompt
from core.llm.compat import QUIRKS
from core.llm.messages import ModelRequest
from core.llm.openai_wire import chat_body
from core.schedule.tools import ScheduleTools
from tests.core.agent.fakes import Reply, ScriptedModel, counter_ids
from tests.core.agent.test_agent import START
from tests.fakes import FakeClock, MemoryLog


def _requests() -> list[ModelRequest]:
    async def main() -> list[ModelRequest]:
        clock, log = FakeClock(START), MemoryLog()
        model = ScriptedModel(
            [
                Reply("Hello!"),
                Reply(calls=(("schedule_list", "{}"),)),
                Reply("You have none."),
                Reply("Bye."),
            ]
        )
        agent = Agent(
            log,
            model,
            ToolRegistry([ScheduleTools(log, clock)]),
            clock,
            lambda: "Europe/Berlin",
            system_prompt=load_system_prompt(),
            new_id=counter_ids(),
        )
        for text in ("hi", "what reminders do I have?", "thanks"):
            clock.advance(timedelta(minutes=7))  # the reading changes every turn
            agent.submit(text, "Europe/Berlin")
            await agent.when_idle()
        return model.requests

    return asyncio.run(main())


def _wire(request: ModelRequest) -> tuple[bytes, list[bytes]]:
    """The tools and each message as the bytes a server renders its prompt from."""
    body = chat_body(request, QUIRKS["llamacpp"], model="m", max_tokens=512, include_usage=True)

    def encoded(value: Any) -> bytes:
        return json.dumps(value, ensure_ascii=False).encode()

    return encoded(body["tools"]), [encoded(m) for m in body["messages"]]


def _reading_at(messages: list[bytes]) -> int:
    found = [i for i, m in enumerate(messages) if b"Local time" in m or b"local time" in m]
    assert len(found) == 1, found
    return found[0]


def test_consecutive_turns_share_the_system_prompt_and_tools_byte_for_byte() -> None:
    wires = [_wire(r) for r in _requests()]

    tools = {t for t, _m in wires}
    systems = {m[0] for _t, m in wires}

    assert len(tools) == 1
    assert len(systems) == 1
    assert b"Local time" not in next(iter(systems))


def test_what_varies_per_turn_comes_after_the_stable_prefix() -> None:
    wires = [m for _t, m in _wire_all()]
    assert len(wires) == 4
    for before, after in itertools.pairwise(wires):
        cut = _reading_at(before)
        assert cut >= 1  # after the system prompt and the history before the newest message
        assert before[cut + 1].startswith(b'{"role": "user"')  # only the newest message follows
        assert not any(m.startswith(b'{"role": "user"') for m in before[cut + 2 :])
        assert after[:cut] == before[:cut]


def test_a_tool_steps_request_extends_the_step_before_it() -> None:
    wires = [m for _t, m in _wire_all()]
    first_step, second_step = wires[1], wires[2]  # the turn with the schedule_list call

    assert second_step[: len(first_step)] == first_step
    assert len(second_step) == len(first_step) + 2  # the call and its result


def _wire_all() -> list[tuple[bytes, list[bytes]]]:
    return [_wire(r) for r in _requests()]
