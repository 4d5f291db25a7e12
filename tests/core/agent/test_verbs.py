"""The everyday verbs on the engine (agent.md §7): a failure never blocks, edit and regenerate keep
the earlier versions, the history follows the shown path, hide, per-session model and
instructions, and the answer's duration."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

from core.agent import Agent
from core.agent.agent import INSTRUCTIONS_HEADING
from core.agent.tool_registry import ToolRegistry
from core.errors import ProviderError
from core.events import SCHEDULE_SOURCE, AssistantMessage, ToolCall, UserMessage
from core.llm.messages import Finish, ModelInfo, ModelRequest, StreamChunk, TextDelta
from core.session.conversation import shown
from tests import wire as v
from tests.core.agent.fakes import EchoTools, Reply, ScriptedModel, counter_ids, settle
from tests.core.agent.test_agent import START, make_agent
from tests.fakes import FakeClock, MemoryLog

REFUSED = ProviderError("bad_request", "The conversation is too long for this model.")


def said(model: ScriptedModel, request: int = -1) -> list[str]:
    """The texts of one request's history."""
    return [m.text for m in model.requests[request].messages]


def shown_texts(log: MemoryLog) -> list[str]:
    """What a reader of the shown path sees: inputs and answers, in order."""
    return [
        entry.event.text
        for entry in shown(log.conversation(), log.entries)
        if isinstance(entry.event, UserMessage | AssistantMessage)
    ]


async def exchange(agent: Agent, text: str) -> None:
    agent.submit(text, None)
    await agent.when_idle()


def test_a_refused_message_does_not_block_the_next_one_and_stays_retryable() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, Agent]:
        agent, log, model, _ = make_agent([Reply("one"), Reply(error=REFUSED), Reply("three")])
        await exchange(agent, "first")
        await exchange(agent, "huge")
        await exchange(agent, "third")
        return log, model, agent

    log, model, agent = asyncio.run(main())
    assert said(model) == ["first", "one", "third"]  # the refused exchange is not sent
    assert [e["status"] for e in log.of_type(v.TURN_END)] == ["completed", "failed", "completed"]
    huge = next(e["seq"] for e in log.events if e["data"].get("text") == "huge")
    assert agent.failed_inputs == {huge}
    assert shown_texts(log) == ["first", "one", "huge", "third", "three"]


def test_retry_of_an_earlier_failure_answers_it_and_later_turns_see_it() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, Agent, int]:
        agent, log, model, _ = make_agent(
            [Reply(error=REFUSED), Reply("two"), Reply("one at last"), Reply("four")]
        )
        await exchange(agent, "first")
        await exchange(agent, "second")
        assert agent.retry(0) is True
        assert agent.retry(0) is False  # already queued
        await agent.when_idle()
        await exchange(agent, "fourth")
        return log, model, agent, len(model.requests)

    _, model, agent, count = asyncio.run(main())
    assert count == 4
    assert said(model, 2) == ["first"]  # the retry sends its own path: nothing after it
    assert said(model) == ["first", "one at last", "second", "two", "fourth"]
    assert agent.failed_inputs == frozenset()
    assert agent.retry(0) is False


def test_a_retry_asked_for_during_a_turn_runs_after_it() -> None:
    async def main() -> MemoryLog:
        gate = asyncio.Event()
        agent, log, _, _ = make_agent([Reply(error=REFUSED), Reply("slow", gate=gate), Reply("ok")])
        await exchange(agent, "fails")
        agent.submit("slow one", None)
        await settle()
        assert agent.retry(0) is True
        gate.set()
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert [s["input"] for s in log.of_type(v.TURN_START)] == [0, 4, 0]


def test_edit_resends_an_earlier_message_as_a_new_version_and_keeps_the_old_one() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, Agent, int]:
        agent, log, model, _ = make_agent([Reply("A1"), Reply("B1"), Reply("C1"), Reply("B2")])
        await exchange(agent, "a")
        await exchange(agent, "b")
        await exchange(agent, "c")
        b = next(e["seq"] for e in log.events if e["data"].get("text") == "b")
        version = agent.edit(b, "b, better", "Europe/Berlin")
        await agent.when_idle()
        return log, model, agent, version

    log, model, agent, version = asyncio.run(main())
    b = next(e["seq"] for e in log.events if e["data"].get("text") == "b")
    assert said(model) == ["a", "A1", "b, better"]
    assert shown_texts(log) == ["a", "A1", "b, better", "B2"]
    edited = log.of_type(v.USER_MESSAGE)[-1]
    assert (edited["parent"], edited["revises"]) == (0, b)
    conversation = log.conversation()
    assert conversation.versions(b) == conversation.versions(version) == (b, version)
    # Back to the first version: the conversation continues where it was left (after "c").
    agent.select(conversation.leaf_for(b))
    assert shown_texts(log) == ["a", "A1", "b", "B1", "c", "C1"]


def test_a_message_sent_after_switching_versions_follows_the_shown_one() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel]:
        agent, log, model, _ = make_agent([Reply("A1"), Reply("A2"), Reply("next")])
        await exchange(agent, "a")
        agent.regenerate(0)
        await agent.when_idle()
        agent.select(0)
        await exchange(agent, "go on")
        return log, model

    log, model = asyncio.run(main())
    assert said(model, 1) == ["a"]  # a regenerated answer does not see the one it replaces
    assert said(model) == ["a", "A1", "go on"]
    go_on = log.of_type(v.USER_MESSAGE)[-1]
    assert go_on["parent"] == 0  # the shown leaf is not the previous input: written out
    assert shown_texts(log) == ["a", "A1", "go on", "next"]


def test_regenerate_of_a_reminder_keeps_its_source() -> None:
    async def main() -> MemoryLog:
        agent, log, _, _ = make_agent([Reply("stretched"), Reply("stretched again")])
        agent.followup("[SCHEDULE REMINDER] stretch", SCHEDULE_SOURCE)
        await agent.when_idle()
        agent.regenerate(0)
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert log.of_type(v.USER_MESSAGE)[-1]["source"] == v.SCHEDULE_SOURCE
    assert shown_texts(log)[-1] == "stretched again"


def test_hide_takes_an_exchange_out_of_view_and_history_and_can_be_undone() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, Agent]:
        agent, log, model, _ = make_agent([Reply("A1"), Reply("B1"), Reply("C1"), Reply("D1")])
        await exchange(agent, "a")
        await exchange(agent, "b")
        b = log.of_type(v.TURN_START)[-1]["input"]
        agent.hide(b)
        assert shown_texts(log) == ["a", "A1"]
        await exchange(agent, "c")
        assert said(model) == ["a", "A1", "c"]
        agent.hide(b, hidden=False)
        await exchange(agent, "d")
        return log, model, agent

    log, model, _ = asyncio.run(main())
    assert said(model) == ["a", "A1", "b", "B1", "c", "C1", "d"]
    assert [e["hidden"] for e in log.of_type(v.EXCHANGE_HIDE)] == [True, False]


def test_a_verb_on_a_seq_that_is_not_an_input_is_refused_and_appends_nothing() -> None:
    async def main() -> tuple[MemoryLog, list[str]]:
        agent, log, _, _ = make_agent([Reply("A1")])
        await exchange(agent, "a")
        refused = []
        for verb in (
            lambda: agent.edit(1, "x", None),
            lambda: agent.hide(99),
            lambda: agent.select(2),
        ):
            try:
                verb()
            except ValueError as error:
                refused.append(str(error))
        return log, refused

    log, refused = asyncio.run(main())
    assert len(refused) == 3
    assert all("not an input" in r for r in refused)
    assert len(log.events) == 5


def test_session_instructions_follow_the_stable_prompt_and_the_model_gets_its_temperature() -> None:
    async def main() -> ScriptedModel:
        agent, _, model, _ = make_agent([Reply("one"), Reply("two"), Reply("three")])
        agent.set_instructions("  Answer in French.  ")
        agent.choose_model(None, None, 0.2)
        await exchange(agent, "hello")
        agent.set_instructions("")
        agent.choose_model(None, None, None)
        await exchange(agent, "again")
        return model

    model = asyncio.run(main())
    first: ModelRequest = model.requests[0]
    assert first.system == f"You are Chime.\n\n{INSTRUCTIONS_HEADING}\nAnswer in French."
    assert first.temperature == 0.2
    assert (model.requests[1].system, model.requests[1].temperature) == ("You are Chime.", None)


def test_an_answer_records_how_long_it_took() -> None:
    clock = FakeClock(START)

    def slow(_request: ModelRequest) -> Reply:
        clock.advance(timedelta(seconds=2.5))
        return Reply("done")

    async def main() -> MemoryLog:
        agent, log, _, _ = make_agent([slow], clock=clock)
        await exchange(agent, "hi")
        return log

    answer = asyncio.run(main()).of_type(v.ASSISTANT_MESSAGE)[0]
    assert answer["durationMs"] == 2500
    assert answer["firstTextMs"] == 2500  # its text came in one piece at the end


class Writing:
    """Reads the prompt for 3 s of ``clock``, then writes "Fine" in two pieces 1.5 s apart; the
    step before calls ``echo`` without a word."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.steps = 0

    @property
    def info(self) -> ModelInfo:
        return ModelInfo("test", "writing")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        self.steps += 1
        self.clock.advance(timedelta(seconds=3))
        if self.steps == 1:
            yield Finish("", (ToolCall("call-1", "echo", "{}"),), "tool_calls")
            return
        yield TextDelta("Fi")
        self.clock.advance(timedelta(seconds=1.5))
        yield TextDelta("ne")
        yield Finish("Fine", (), "stop")


def test_an_answer_records_when_its_first_text_came_and_a_tool_call_alone_none() -> None:
    clock = FakeClock(START)

    async def main() -> MemoryLog:
        log = MemoryLog()
        agent = Agent(
            log,
            Writing(clock),
            ToolRegistry([EchoTools()]),
            clock,
            lambda: "Europe/Berlin",
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        await exchange(agent, "hi")
        return log

    calling, answer = asyncio.run(main()).of_type(v.ASSISTANT_MESSAGE)
    assert (calling["durationMs"], "firstTextMs" in calling) == (3000, False)
    assert (answer["durationMs"], answer["firstTextMs"]) == (4500, 3000)


def test_a_failed_reminder_answer_is_retried_once_the_endpoint_answers_again() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel]:
        agent, log, model, _ = make_agent([Reply(error=REFUSED), Reply("hello"), Reply("stretch!")])
        agent.followup("[SCHEDULE REMINDER] stretch", SCHEDULE_SOURCE)
        await agent.when_idle()
        assert len(model.requests) == 1  # no loop on a failing endpoint
        await exchange(agent, "hi")
        return log, model

    log, model = asyncio.run(main())
    assert [s["input"] for s in log.of_type(v.TURN_START)] == [0, 4, 0]
    assert [e["status"] for e in log.of_type(v.TURN_END)] == ["failed", "completed", "completed"]
    assert said(model)[0] == "[SCHEDULE REMINDER] stretch"


def test_choose_tools_records_the_conversations_mcp_servers() -> None:
    from core.agent import Agent, ToolRegistry
    from tests.core.agent.fakes import ScriptedModel, counter_ids
    from tests.fakes import FakeClock, MemoryLog

    log = MemoryLog()
    agent = Agent(
        log,
        ScriptedModel(),
        ToolRegistry(),
        FakeClock(datetime(2026, 8, 5, tzinfo=UTC)),
        lambda: "UTC",
        system_prompt="s",
        new_id=counter_ids(),
    )
    assert log.choices().tools is None
    agent.choose_tools(("time", "files"))
    assert log.of_type("session/tools") == [{"servers": ["time", "files"]}]
    assert log.choices().tools == ("time", "files")
    agent.choose_tools(())
    assert log.choices().tools == ()
