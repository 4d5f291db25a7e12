"""Continue (agent.md §7): a cut answer (the model's length limit, or Stop) is gone on from by a
new turn of the same input whose request ends with the cut text as an assistant message, and
whose recorded answer is the whole text, so the log's readers show one answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from core.agent import Agent, ToolRegistry
from core.agent.continuation import Onward, cut_answer
from core.agent.history import fold_history
from core.events import AssistantMessage, ModelRef, TurnEnd, TurnStart, UserMessage, UserSource
from core.llm.messages import Finish, ModelInfo, ModelRequest, StreamChunk, TextDelta
from core.llm.offline.assistant import OfflineAssistant
from tests.core.agent.fakes import EchoTools, counter_ids
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
CUT = "Here are three steps: first, warm the"


class LengthModel:
    """Answers from a script of (deltas, finish reason); ``gate`` holds a step open after its
    deltas (for a Stop mid-stream). Records every request."""

    def __init__(self, script: list[tuple[tuple[str, ...], str]]) -> None:
        self.script = script
        self.requests: list[ModelRequest] = []
        self.gate: asyncio.Event | None = None

    @property
    def info(self) -> ModelInfo:
        return ModelInfo("scripted", "cutter")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        self.requests.append(request)
        deltas, reason = self.script.pop(0)
        for delta in deltas:
            yield TextDelta(delta)
        if self.gate is not None:
            gate, self.gate = self.gate, None
            await gate.wait()
        yield Finish("".join(deltas), (), reason)


def _agent(log: MemoryLog, model: LengthModel) -> Agent:
    return Agent(
        log,
        model,
        ToolRegistry([EchoTools()]),
        FakeClock(START),
        lambda: "UTC",
        system_prompt="You are Chime.",
        new_id=counter_ids(),
    )


async def _asked(model: LengthModel, count: int) -> None:
    """Until the model has had ``count`` requests (and streamed what comes before its gate)."""
    for _ in range(100):
        await asyncio.sleep(0)
        if len(model.requests) >= count:
            await asyncio.sleep(0)
            return
    raise AssertionError(f"the model was asked {len(model.requests)} times, not {count}")


def _answers(log: MemoryLog) -> list[AssistantMessage]:
    return [e.event for e in log.entries if isinstance(e.event, AssistantMessage)]


def test_a_length_cut_answer_is_continued_into_one_answer() -> None:
    model = LengthModel(
        [((CUT,), "length"), ((" pan; then", " add the oil."), "stop"), (("Sure.",), "stop")]
    )
    shown: list[str] = []

    async def main() -> MemoryLog:
        log = MemoryLog()
        agent = _agent(log, model)
        agent.on_delta(shown.append)
        agent.submit("How do I fry an egg?", "UTC")
        await agent.when_idle()
        assert _answers(log)[-1].finish == "length"
        shown.clear()
        assert agent.continue_answer(0)
        assert not agent.continue_answer(0)  # queued once
        await agent.when_idle()
        assert not agent.continue_answer(0)  # the answer is whole now
        agent.submit("Thanks", "UTC")
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    cut, whole, _thanks = _answers(log)
    starts = [e for e in log.entries if isinstance(e.event, TurnStart)]
    cut_seq = next(e.seq for e in log.entries if e.event == cut)
    assert starts[1].event == TurnStart(2, 0, cut_seq)
    assert whole.text == CUT + " pan; then add the oil."
    assert whole.finish == "stop"
    assert "".join(shown) == whole.text + "Sure."  # the cut text first, then what it added
    onward = model.requests[1].messages
    assert [m.role for m in onward] == ["user", "assistant"]
    assert onward[-1].text == CUT
    later = model.requests[2].messages
    assert [(m.role, m.text) for m in later] == [
        ("user", "How do I fry an egg?"),
        ("assistant", whole.text),
        ("user", "Thanks"),
    ]
    assert log.conversation().latest_turn[0] == starts[1].seq  # the answer is the new turn's


def test_a_stopped_answer_continues_and_a_stop_before_any_new_text_keeps_the_cut_text() -> None:
    model = LengthModel([((CUT,), "stop"), ((), "stop"), ((" pan.",), "stop")])

    async def main() -> MemoryLog:
        log = MemoryLog()
        agent = _agent(log, model)
        model.gate = asyncio.Event()
        agent.submit("How do I fry an egg?", "UTC")
        await _asked(model, 1)
        assert agent.cancel()
        await agent.when_idle()
        assert agent.continue_answer(0)
        model.gate = asyncio.Event()  # the Continue is stopped before the model says anything
        await _asked(model, 2)
        assert agent.cancel()
        await agent.when_idle()
        assert agent.continue_answer(0)  # its answer is the cut text, still cut
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    answers = _answers(log)
    assert [(a.text, a.finish) for a in answers] == [
        (CUT, "interrupted"),
        (CUT, "interrupted"),
        (CUT + " pan.", "stop"),
    ]
    ends = [e.event.status for e in log.entries if isinstance(e.event, TurnEnd)]
    assert ends == ["cancelled", "cancelled", "completed"]
    assert [m.role for m in model.requests[2].messages] == ["user", "assistant"]
    assert model.requests[2].messages[-1].text == CUT  # the cut text is sent once


def test_a_whole_answer_a_running_turn_and_an_unknown_input_offer_no_continue() -> None:
    model = LengthModel([(("Fine.",), "stop")])

    async def main() -> MemoryLog:
        log = MemoryLog()
        agent = _agent(log, model)
        agent.submit("hi", "UTC")
        await agent.when_idle()
        assert not agent.continue_answer(0)
        assert not agent.continue_answer(7)
        return log

    log = asyncio.run(main())
    assert cut_answer(log.entries, 0) is None
    assert cut_answer(log.entries[:-1], 0) is None  # its turn has not ended


def test_the_history_of_a_running_continue_ends_with_the_cut_text_once() -> None:
    log = MemoryLog()
    script = LengthModel([((CUT,), "length")])

    async def first() -> None:
        agent = _agent(log, script)
        agent.submit("How?", "UTC")
        await agent.when_idle()

    asyncio.run(first())
    cut_seq = cut_answer(log.entries, 0)
    assert cut_seq is not None
    log.append_event(TurnStart(2, 0, cut_seq))
    messages = fold_history(log.entries, log.conversation())
    assert [(m.role, m.text) for m in messages] == [("user", "How?"), ("assistant", CUT)]


@given(st.text(min_size=1, max_size=30), st.lists(st.text(max_size=8), max_size=6))
def test_onward_shows_and_records_what_the_model_added_once(prefix: str, pieces: list[str]) -> None:
    for said in (pieces, [prefix, *pieces]):  # going on, or saying the cut text again first
        onward = Onward(prefix)
        shown = "".join(onward.shown(piece) for piece in said)
        whole = onward.text("".join(said))
        assert whole.startswith(prefix)
        assert prefix + shown == whole or whole == prefix + "".join(said)


def test_onward_drops_a_restatement_and_passes_a_real_continuation() -> None:
    onward = Onward("Once upon")
    assert [onward.shown(p) for p in ("Once", " upon", " a time")] == ["", "", " a time"]
    assert onward.text("Once upon a time") == "Once upon a time"
    going = Onward("Once upon")
    assert [going.shown(p) for p in (" a", " time")] == [" a", " time"]
    assert going.text(" a time") == "Once upon a time"


def offline_agent(log: MemoryLog) -> Agent:
    """An agent on ``log`` answered by the built-in offline assistant."""
    return Agent(
        log,
        OfflineAssistant(FakeClock(START)),
        ToolRegistry([EchoTools()]),
        FakeClock(START),
        lambda: "UTC",
        system_prompt="You are Chime.",
        new_id=counter_ids(),
    )


def test_the_offline_assistant_finishes_a_stopped_answer_without_saying_it_twice() -> None:
    async def answer_of(log: MemoryLog) -> str:
        agent = offline_agent(log)
        agent.submit("hello", "UTC")
        await agent.when_idle()
        return _answers(log)[-1].text

    whole = asyncio.run(answer_of(MemoryLog()))
    assert len(whole) > 20
    log = MemoryLog()
    whole_again = asyncio.run(answer_of(log))
    assert whole_again == whole
    cut_seq = cut_answer(log.entries, 0)
    assert cut_seq is None  # a whole answer: nothing to continue

    async def stopped_then_continued() -> str:
        stopped = MemoryLog()
        stopped.append_event(UserMessage("u1", "hello", UserSource("UTC")))
        stopped.append_event(TurnStart(1, 0))
        cut = AssistantMessage("a1", whole[:12], (), ModelRef("offline", "x"), "interrupted")
        stopped.append_event(cut)
        stopped.append_event(TurnEnd(1, "cancelled"))
        agent = offline_agent(stopped)
        assert agent.continue_answer(0)
        await agent.when_idle()
        return _answers(stopped)[-1].text

    assert asyncio.run(stopped_then_continued()) == whole


def test_a_turn_without_an_answer_or_without_its_end_has_nothing_to_continue() -> None:
    log = MemoryLog()
    log.append_event(UserMessage("u1", "hello", UserSource("UTC")))
    log.append_event(TurnStart(1, 0))
    log.append_event(TurnEnd(1, "cancelled"))  # stopped before any text
    assert cut_answer(log.entries, 0) is None
    log.append_event(TurnStart(2, 0))  # a turn a crash left open, then another
    log.append_event(AssistantMessage("a", "half", (), ModelRef("m", "m"), "interrupted"))
    log.append_event(TurnStart(3, 0))
    assert cut_answer(log.entries[:-1], 0) is None  # turn 2 has not ended
    assert cut_answer(log.entries, 0) is None


def test_a_continue_after_a_completed_turn_lends_nothing_older() -> None:
    model = ModelRef("m", "m")
    log = MemoryLog()
    log.append_event(UserMessage("u1", "hello", UserSource("UTC")))
    for turn, text in ((1, "old answer"), (2, "older still")):
        log.append_event(TurnStart(turn, 0))
        log.append_event(AssistantMessage(f"a{turn}", text, (), model, "stop"))
        log.append_event(TurnEnd(turn, "completed"))
    log.append_event(TurnStart(3, 0))
    cut = log.append_event(AssistantMessage("a3", "Cut", (), model, "length"))
    log.append_event(TurnEnd(3, "completed"))
    log.append_event(TurnStart(4, 0, cut.seq))
    messages = fold_history(log.entries, log.conversation())
    assert [(m.role, m.text) for m in messages] == [("user", "hello"), ("assistant", "Cut")]
