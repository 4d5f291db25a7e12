"""Bounded turns and turns that continue from the log (agent.md §3, §7; issue 24 point 3): a step
runs at most ``MAX_TOOL_CALLS`` calls and answers the rest, Stop lands between any two calls, and
a turn after an interrupted or failed one sees the calls already made instead of making them
again."""

from __future__ import annotations

import asyncio
from typing import Any

from core.agent.history import MAX_EVENTS
from core.agent.turn import MAX_TOOL_CALLS
from core.errors import ProviderError
from core.events import Entry, ToolResult
from core.host import SessionHost
from core.llm.messages import Message
from core.session.repair import OUTCOME_UNKNOWN, closers
from tests import wire as v
from tests.core.agent.fakes import FakeWaker, Reply, ScriptedModel, counter_ids
from tests.core.agent.test_agent import START, make_agent
from tests.fakes import FakeClock, MemoryLog

MODEL = {"provider": "scripted", "name": "script-1"}


def test_a_step_runs_at_most_the_limit_and_answers_the_rest_with_errors_the_model_reads() -> None:
    many = MAX_TOOL_CALLS + 36

    async def main() -> tuple[MemoryLog, Any, Any]:
        agent, log, model, tools = make_agent(
            [Reply("", calls=(("echo", "{}"),) * many), Reply("done")]
        )
        agent.submit("go", None)
        await agent.when_idle()
        return log, model, tools

    log, model, tools = asyncio.run(main())
    assert len(tools.calls) == MAX_TOOL_CALLS
    results = log.of_type(v.TOOL_RESULT)
    assert len(results) == many  # every call has its result: the next request stays valid
    assert [r["isError"] for r in results] == [False] * MAX_TOOL_CALLS + [True] * 36
    assert f"at most {MAX_TOOL_CALLS} tool calls" in results[-1]["content"]
    assert f"call {many} of {many}" in results[-1]["content"]
    told = [m for m in model.requests[1].messages if m.role == "tool" and m.is_error]
    assert len(told) == 36  # the model reads why those calls did not run
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "completed"}]


def test_stop_lands_between_two_tool_calls_even_when_no_tool_awaits() -> None:
    async def main() -> tuple[MemoryLog, Any]:
        agent, log, _, tools = make_agent([Reply("", calls=(("echo", "{}"),) * 40)])
        results = 0

        def stop_after_three(entry: Entry) -> None:
            nonlocal results
            if isinstance(entry.event, ToolResult):
                results += 1
                if results == 3:
                    agent.cancel()  # Stop pressed while the third result is being recorded

        log.subscribe(stop_after_three)
        agent.submit("go", None)
        await agent.when_idle()
        return log, tools

    log, tools = asyncio.run(main())
    assert len(tools.calls) == 3
    results = log.of_type(v.TOOL_RESULT)
    assert len(results) == 40
    assert all(r["isError"] for r in results[3:])
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "cancelled"}]


def _interrupted_turn() -> list[dict[str, Any]]:
    """A turn a crash cut after its first call's result, closed as recovery closes it."""
    calls = [
        {"id": "c1", "name": "echo", "arguments": '{"n":1}'},
        {"id": "c2", "name": "echo", "arguments": '{"n":2}'},
    ]
    events = [
        {"type": v.USER_MESSAGE, "data": v.user_message("m", "go", v.user_source(None))},
        {"type": v.TURN_START, "data": v.turn_start(1, 0)},
        {"type": v.CONTEXT_TIME, "data": v.context_time(None, "now")},
        {
            "type": v.ASSISTANT_MESSAGE,
            "data": v.assistant_message("a", "", calls, MODEL, "tool_calls"),
        },
        {"type": v.TOOL_RESULT, "data": v.tool_result("c1", "echo", '{"echo":1}', is_error=False)},
    ]
    return events + [
        {"type": e.type.value, "data": e.to_data()} for e in closers(1, {"c2": "echo"})
    ]


def test_a_turn_resumed_after_a_crash_continues_from_what_the_log_recorded() -> None:
    async def main() -> tuple[MemoryLog, Any, Any]:
        agent, log, model, tools = make_agent(
            [Reply("all done")], log=MemoryLog(_interrupted_turn())
        )
        agent.start()
        await agent.when_idle()
        return log, model, tools

    log, model, tools = asyncio.run(main())
    assert tools.calls == []  # nothing recorded is run again, nor the call without a result
    (request,) = model.requests
    assert [(m.role, m.text) for m in request.messages] == [
        ("user", "go"),
        ("assistant", ""),
        ("tool", '{"echo":1}'),
        ("tool", OUTCOME_UNKNOWN),
    ]
    assert request.messages[-1].is_error is True
    assert [c.id for c in request.messages[1].tool_calls] == ["c1", "c2"]
    assert log.of_type(v.TURN_END)[-1] == {"turn": 2, "status": "completed"}


def test_a_retry_after_a_failed_step_does_not_make_the_calls_of_the_failed_turn_again() -> None:
    error = ProviderError("timeout", "Timed out.")

    async def main() -> tuple[list[Message], Any]:
        agent, _, model, tools = make_agent(
            [Reply("", calls=(("echo", '{"n":1}'),)), Reply("partial", error=error), Reply("ok")]
        )
        agent.submit("go", None)
        await agent.when_idle()
        agent.retry()
        await agent.when_idle()
        return list(model.requests[-1].messages), tools

    messages, tools = asyncio.run(main())
    assert len(tools.calls) == 1
    # the failed turn's call and result come first; its cut-off text is not sent
    assert [(m.role, m.text) for m in messages] == [
        ("user", "go"),
        ("assistant", ""),
        ("tool", '{"echo":{"n":1}}'),
    ]


def test_a_retry_of_an_input_that_failed_beyond_the_history_window_makes_no_call_again() -> None:
    """The long crash matrix found this: a retry of an input whose failed turn (which had created
    a reminder) lay more than ``MAX_EVENTS`` events back did not see that call and made it again.
    The running answer's earlier turns are read however far back they lie."""
    failed = [
        {"type": v.USER_MESSAGE, "data": v.user_message("m", "go", v.user_source(None))},
        {"type": v.TURN_START, "data": v.turn_start(1, 0)},
        {
            "type": v.ASSISTANT_MESSAGE,
            "data": v.assistant_message(
                "a", "", [{"id": "c1", "name": "echo", "arguments": "{}"}], MODEL, "tool_calls"
            ),
        },
        {"type": v.TOOL_RESULT, "data": v.tool_result("c1", "echo", '{"echo":{}}', is_error=False)},
        {"type": v.TURN_END, "data": v.turn_end(1, "failed", {"kind": "timeout", "message": "x"})},
    ]
    later: list[dict[str, Any]] = []
    for number in range(2, 2 + MAX_EVENTS // 4 + 10):  # four events a turn, past the window
        seq = len(failed) + len(later)
        later += [
            {
                "type": v.USER_MESSAGE,
                "data": v.user_message(f"m{number}", "hi", v.user_source(None)),
            },
            {"type": v.TURN_START, "data": v.turn_start(number, seq)},
            {
                "type": v.ASSISTANT_MESSAGE,
                "data": v.assistant_message(f"a{number}", "hello", [], MODEL, "stop"),
            },
            {"type": v.TURN_END, "data": v.turn_end(number, "completed")},
        ]

    async def main() -> tuple[list[Message], Any]:
        agent, _, model, tools = make_agent([Reply("ok")], log=MemoryLog(failed + later))
        assert agent.retry(0)
        await agent.when_idle()
        return list(model.requests[-1].messages), tools

    messages, tools = asyncio.run(main())
    assert tools.calls == []
    assert [(m.role, m.text) for m in messages[-3:]] == [
        ("user", "go"),
        ("assistant", ""),
        ("tool", '{"echo":{}}'),
    ]


def test_an_answer_that_completed_is_not_carried_into_a_later_turn_of_its_input() -> None:
    """Only turns that ended interrupted or failed lend their steps; a cancelled or completed
    turn before them ends the chain (its answer stands on its own)."""
    events = [
        {"type": v.USER_MESSAGE, "data": v.user_message("m", "go", v.user_source(None))},
        {"type": v.TURN_START, "data": v.turn_start(1, 0)},
        {"type": v.ASSISTANT_MESSAGE, "data": v.assistant_message("a", "first", [], MODEL, "stop")},
        {"type": v.TURN_END, "data": v.turn_end(1, "completed")},
        {"type": v.TURN_START, "data": v.turn_start(2, 0)},
        {
            "type": v.ASSISTANT_MESSAGE,
            "data": v.assistant_message("b", "cut", [], MODEL, "interrupted"),
        },
        {"type": v.TURN_END, "data": v.turn_end(2, "interrupted")},
    ]

    async def main() -> list[Message]:
        agent, _, model, _ = make_agent([Reply("again")], log=MemoryLog(events))
        agent.start()
        await agent.when_idle()
        return list(model.requests[-1].messages)

    assert [(m.role, m.text) for m in asyncio.run(main())] == [("user", "go")]


def test_ten_thousand_reminder_creates_in_one_answer_make_only_the_limit() -> None:
    """The issue's hostile answer: 10,000 ``schedule_create`` calls in one step. Only the first
    ``MAX_TOOL_CALLS`` run; every other call is answered, and the turn ends at once."""
    create = ("schedule_create", '{"prompt":"spam","after_seconds":600}')

    async def main() -> MemoryLog:
        log = MemoryLog()
        model = ScriptedModel([Reply("", calls=(create,) * 10_000), Reply("done")])
        clock = FakeClock(START)
        host = SessionHost(
            log, model, clock, lambda: "UTC", FakeWaker, system_prompt="x", new_id=counter_ids()
        )
        host.start()
        host.submit("go")
        await host.when_idle()
        await host.dispose()
        return log

    log = asyncio.run(main())
    creates = [c for c in log.of_type(v.SCHEDULE_CHANGE) if c["operation"] == "create"]
    assert len(creates) == MAX_TOOL_CALLS
    assert len(log.of_type(v.TOOL_RESULT)) == 10_000
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "completed"}]
