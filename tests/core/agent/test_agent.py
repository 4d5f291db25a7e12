"""The agent's turns, input queue, cancellation, failure and maintenance (agent.md §1-§3)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from core.agent import Agent, ToolRegistry
from core.errors import ProviderError
from core.llm.budget import TokenBudget, budget_for, fixed_tokens, messages_tokens
from core.llm.messages import ModelRequest, TextDelta
from tests import wire as v
from tests.core.agent.fakes import EchoTools, Reply, ScriptedModel, counter_ids, settle
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def make_agent(
    script: list[Any] | None = None,
    *,
    log: MemoryLog | None = None,
    zone: Callable[[], str | None] = lambda: "Europe/Berlin",
    tools: EchoTools | None = None,
    clock: FakeClock | None = None,
) -> tuple[Agent, MemoryLog, ScriptedModel, EchoTools]:
    log = log if log is not None else MemoryLog()
    model = ScriptedModel(script or [])
    tools = tools if tools is not None else EchoTools()
    agent = Agent(
        log,
        model,
        ToolRegistry([tools]),
        clock if clock is not None else FakeClock(START),
        zone,
        system_prompt="You are Chime.",
        new_id=counter_ids(),
    )
    return agent, log, model, tools


def with_reminders(*ids: str, kind: str = "after") -> MemoryLog:
    """A log whose schedule holds these reminders (created by injected changes, seqs 0..n-1)."""
    log = MemoryLog()
    for sid in ids:
        record: dict[str, Any] = {"id": sid, "kind": kind, "prompt": f"about {sid}"}
        record |= {"afterSeconds": 60} if kind == "after" else {"everySeconds": 300}
        record["scheduledAt"] = "2026-08-05T12:00:00.000Z"
        log.inject(v.SCHEDULE_CHANGE, {"version": 1, "operation": "create", "schedule": record})
    return log


def test_a_submitted_message_runs_one_turn_recorded_in_order() -> None:
    async def main() -> MemoryLog:
        agent, log, _, _ = make_agent([Reply("hello there")])
        agent.submit("hi", "Europe/Berlin")
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert log.types() == [
        v.USER_MESSAGE,
        v.TURN_START,
        v.CONTEXT_TIME,
        v.ASSISTANT_MESSAGE,
        v.TURN_END,
    ]
    assert log.of_type(v.TURN_START) == [{"turn": 1, "input": 0}]
    answer = log.of_type(v.ASSISTANT_MESSAGE)[0]
    assert (answer["text"], answer["finish"], answer["toolCalls"]) == ("hello there", "stop", [])
    assert answer["model"] == {"provider": "scripted", "name": "script-1"}
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "completed"}]
    assert log.of_type(v.USER_MESSAGE)[0]["source"] == {"kind": "user", "timeZone": "Europe/Berlin"}


def test_the_request_carries_system_prompt_history_reading_and_tools() -> None:
    async def main() -> ModelRequest:
        agent, _, model, _ = make_agent([Reply("one"), Reply("two")])
        agent.submit("first", "Europe/Berlin")
        await agent.when_idle()
        agent.submit("second", "Europe/Berlin")
        await agent.when_idle()
        return model.requests[-1]

    request = asyncio.run(main())
    assert request.system == "You are Chime."
    assert [(m.role, m.text) for m in request.messages] == [
        ("user", "first"),
        ("assistant", "one"),
        ("user", "second"),
    ]
    assert request.time_zone == "Europe/Berlin"
    assert request.time_context is not None
    assert "2026-08-05T14:00:00+02:00" in request.time_context
    assert [t["function"]["name"] for t in request.tools] == ["echo"]


class BudgetedModel(ScriptedModel):
    """A scripted model with a bounded context (as an endpoint has)."""

    def __init__(self, context_tokens: int) -> None:
        super().__init__()
        self.context_tokens = context_tokens

    async def budget(self) -> TokenBudget:
        return budget_for(self.context_tokens, "server")


def test_a_model_with_a_bounded_context_is_sent_only_the_turns_that_fit() -> None:
    async def main(context_tokens: int) -> ModelRequest:
        model = BudgetedModel(context_tokens)
        agent = Agent(
            MemoryLog(),
            model,
            ToolRegistry([EchoTools()]),
            FakeClock(START),
            lambda: "Europe/Berlin",
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        for n in range(6):
            agent.submit(f"message {n} " + "x" * 600, "Europe/Berlin")
            await agent.when_idle()
        return model.requests[-1]

    roomy = asyncio.run(main(100_000))
    tight = asyncio.run(main(1500))

    assert len([m for m in roomy.messages if m.role == "user"]) == 6
    kept = [m.text[:9] for m in tight.messages if m.role == "user"]
    assert 1 <= len(kept) < 6
    assert kept[-1] == "message 5"  # the running turn is always sent
    fixed = fixed_tokens(tight.system, tight.tools, tight.time_context)
    assert fixed + messages_tokens(tight.messages) <= budget_for(1500, "server").prompt_tokens


def test_input_typed_while_a_turn_runs_waits_for_it_and_runs_next() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, list[tuple[int, ...]]]:
        gate = asyncio.Event()
        agent, log, model, _ = make_agent([Reply("slow", gate=gate), Reply("fast")])
        agent.submit("first", None)
        await settle()
        agent.submit("second", None)
        seen = [agent.pending_inputs]
        gate.set()
        await agent.when_idle()
        seen.append(agent.pending_inputs)
        return log, model, seen

    log, model, seen = asyncio.run(main())
    assert seen == [(3,), ()]
    assert log.of_type(v.TURN_START) == [{"turn": 1, "input": 0}, {"turn": 2, "input": 3}]
    assert [m.text for m in model.requests[0].messages] == ["first"]
    assert [m.text for m in model.requests[1].messages] == ["first", "slow", "second"]
    assert [e["status"] for e in log.of_type(v.TURN_END)] == ["completed", "completed"]


def test_status_reports_running_then_idle_once_per_busy_period() -> None:
    async def main() -> list[str]:
        gate = asyncio.Event()
        agent, _, _, _ = make_agent([Reply("a", gate=gate), Reply("b")])
        statuses: list[str] = []
        agent.on_status(statuses.append)
        agent.submit("one", None)
        agent.submit("two", None)
        await settle()
        gate.set()
        await agent.when_idle()
        return statuses

    assert asyncio.run(main()) == ["running", "idle"]


def test_streaming_deltas_reach_observers_and_the_answer_is_one_event() -> None:
    async def main() -> tuple[list[str], MemoryLog]:
        agent, log, _, _ = make_agent([Reply("Hello world", deltas=("Hel", "lo ", "world"))])
        deltas: list[str] = []
        agent.on_delta(deltas.append)
        agent.submit("hi", None)
        await agent.when_idle()
        return deltas, log

    deltas, log = asyncio.run(main())
    assert deltas == ["Hel", "lo ", "world"]
    assert [a["text"] for a in log.of_type(v.ASSISTANT_MESSAGE)] == ["Hello world"]


def test_tool_calls_run_in_order_and_every_failure_becomes_a_result() -> None:
    calls = (
        ("echo", '{"a": 1}'),
        ("echo", ""),
        ("echo", "{not json"),
        ("nope", "{}"),
        ("echo", '{"fail": true}'),
        ("echo", '{"crash": true}'),
    )

    async def main() -> tuple[MemoryLog, EchoTools, ScriptedModel]:
        agent, log, model, tools = make_agent([Reply("", calls=calls), Reply("done")])
        agent.submit("go", None)
        await agent.when_idle()
        return log, tools, model

    log, tools, model = asyncio.run(main())
    assert tools.calls == [
        ("echo", {"a": 1}),
        ("echo", {}),
        ("echo", {"fail": True}),
        ("echo", {"crash": True}),
    ]
    results = log.of_type(v.TOOL_RESULT)
    assert [r["callId"] for r in results] == [f"call-{n}" for n in range(1, 7)]
    assert [r["isError"] for r in results] == [False, False, True, True, True, True]
    assert results[0]["content"] == '{"echo":{"a":1}}'
    assert "fail was asked for" in results[4]["content"]
    assert "echo" in results[3]["content"]
    assert [m.role for m in model.requests[1].messages] == ["user", "assistant", *["tool"] * 6]
    assert log.of_type(v.ASSISTANT_MESSAGE)[0]["finish"] == "tool_calls"
    # a barrier before each model request and before each call that reached its tool
    assert log.barriers == 2 + 4


def test_tool_calls_of_one_step_never_run_in_parallel() -> None:
    async def main() -> EchoTools:
        agent, _, _, tools = make_agent([Reply("", calls=(("echo", "{}"),) * 3), Reply("ok")])
        agent.submit("go", None)
        await agent.when_idle()
        return tools

    tools = asyncio.run(main())
    assert (len(tools.calls), tools.max_running) == (3, 1)


def test_a_turn_stops_after_eight_model_steps_with_finish_length() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, EchoTools]:
        agent, log, model, tools = make_agent()
        model.default = Reply("again", calls=(("echo", "{}"),))
        agent.submit("loop", None)
        await agent.when_idle()
        return log, model, tools

    log, model, tools = asyncio.run(main())
    answers = log.of_type(v.ASSISTANT_MESSAGE)
    assert len(model.requests) == len(answers) == 8
    assert [a["finish"] for a in answers] == ["tool_calls"] * 7 + ["length"]
    assert len(tools.calls) == 7
    last_result = log.of_type(v.TOOL_RESULT)[-1]
    assert last_result["isError"] is True
    assert "8 model steps" in last_result["content"]
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "completed"}]


def test_a_barrier_precedes_every_model_request_and_every_tool() -> None:
    durable_at_request: list[int] = []

    def observe(log: MemoryLog) -> Callable[[ModelRequest], Reply]:
        def reply(_: ModelRequest) -> Reply:
            durable_at_request.append(log.durable)
            return (
                Reply("", calls=(("echo", "{}"),)) if len(durable_at_request) == 1 else Reply("ok")
            )

        return reply

    async def main() -> MemoryLog:
        log = MemoryLog()
        agent, _, _, _ = make_agent([observe(log), observe(log)], log=log)
        agent.submit("go", None)
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    # the first request saw user/message, turn/start and context/time durable
    assert durable_at_request[0] == 3
    assert durable_at_request[1] == 5  # + the assistant message and the tool result
    assert log.barriers == 3


def test_a_failed_barrier_does_not_stop_the_turn() -> None:
    async def main() -> MemoryLog:
        log = MemoryLog(outcomes=[False, OSError("disk")])
        agent, _, _, _ = make_agent([Reply("", calls=(("echo", "{}"),)), Reply("fine")], log=log)
        agent.submit("go", None)
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "completed"}]


def test_a_provider_failure_ends_the_turn_failed_and_the_input_can_be_retried() -> None:
    error = ProviderError("connection", "Cannot reach the model at http://localhost:1.")

    async def main() -> tuple[MemoryLog, tuple[int, ...], bool, str]:
        agent, log, _, _ = make_agent([Reply(error=error)])
        agent.submit("hi", None)
        await agent.when_idle()
        return log, agent.pending_inputs, agent.can_retry(0), agent.status

    log, pending, can_retry, status = asyncio.run(main())
    assert log.of_type(v.TURN_END) == [
        {"turn": 1, "status": "failed", "error": {"kind": "connection", "message": error.message}}
    ]
    assert (pending, can_retry, status) == ((), True, "idle")
    assert log.of_type(v.ASSISTANT_MESSAGE) == []


def test_retry_runs_a_new_turn_on_the_failed_input() -> None:
    async def main() -> tuple[MemoryLog, bool]:
        agent, log, _, _ = make_agent(
            [Reply(error=ProviderError("timeout", "Timed out.")), Reply("ok")]
        )
        agent.submit("hi", None)
        await agent.when_idle()
        await settle()
        assert len(log.of_type(v.TURN_START)) == 1  # a failure never re-runs on its own
        retried = agent.retry()
        await agent.when_idle()
        return log, retried

    log, retried = asyncio.run(main())
    assert retried is True
    assert log.of_type(v.TURN_START) == [{"turn": 1, "input": 0}, {"turn": 2, "input": 0}]
    assert [e["status"] for e in log.of_type(v.TURN_END)] == ["failed", "completed"]


def test_after_a_failure_the_next_input_gets_its_own_turn_without_the_failed_one() -> None:
    async def main() -> tuple[MemoryLog, ScriptedModel, Agent]:
        agent, log, model, _ = make_agent(
            [Reply(error=ProviderError("bad_request", "HTTP 400.")), Reply("a"), Reply("b")]
        )
        agent.submit("first", None)
        await agent.when_idle()
        agent.submit("second", None)
        await agent.when_idle()
        return log, model, agent

    log, model, agent = asyncio.run(main())
    second_seq = next(e["seq"] for e in log.events if e["data"].get("text") == "second")
    assert [s["input"] for s in log.of_type(v.TURN_START)] == [0, second_seq]
    assert [m.text for m in model.requests[-1].messages] == ["second"]  # the failure left out
    assert agent.failed_inputs == {0}


def test_retry_refuses_when_nothing_failed() -> None:
    async def main() -> bool:
        agent, _, _, _ = make_agent([Reply("ok")])
        agent.submit("hi", None)
        await agent.when_idle()
        return agent.retry()

    assert asyncio.run(main()) is False


def test_cancel_keeps_the_partial_answer_and_records_a_cancelled_turn() -> None:
    async def main() -> tuple[MemoryLog, list[tuple[int, str]]]:
        gate = asyncio.Event()
        agent, log, _, _ = make_agent(
            [Reply("Hello wor", deltas=("Hello", " wor"), gate=gate), Reply("next")]
        )
        ended: list[tuple[int, str]] = []
        agent.on_turn_end(lambda turn, status: ended.append((turn, status)))
        agent.submit("hi", None)
        await settle()
        assert agent.cancel() is True
        await agent.when_idle()
        return log, ended

    log, ended = asyncio.run(main())
    answer = log.of_type(v.ASSISTANT_MESSAGE)
    assert [(a["text"], a["finish"]) for a in answer] == [("Hello wor", "interrupted")]
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "cancelled"}]
    assert ended == [(1, "cancelled")]


def test_cancel_during_a_tool_gives_every_open_call_an_error_result() -> None:
    async def main() -> tuple[MemoryLog, tuple[int, ...]]:
        tools = EchoTools()
        tools.gate = asyncio.Event()
        agent, log, _, _ = make_agent(
            [Reply("", calls=(("echo", "{}"), ("echo", "{}")))], tools=tools
        )
        agent.submit("hi", None)
        await settle()
        agent.cancel()
        await agent.when_idle()
        return log, agent.pending_inputs

    log, pending = asyncio.run(main())
    results = log.of_type(v.TOOL_RESULT)
    assert [(r["callId"], r["isError"]) for r in results] == [("call-1", True), ("call-2", True)]
    assert log.types()[-1] == v.TURN_END
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "cancelled"}]
    assert pending == ()


def test_cancel_when_idle_does_nothing() -> None:
    async def main() -> tuple[bool, int]:
        agent, log, _, _ = make_agent()
        return agent.cancel(), len(log.events)

    assert asyncio.run(main()) == (False, 0)


def test_a_claim_is_refused_at_once_while_a_turn_runs_or_another_claim_holds() -> None:
    async def main() -> list[bool]:
        gate = asyncio.Event()
        agent, _, _, _ = make_agent([Reply("slow", gate=gate)])
        agent.submit("hi", None)
        refused_running = agent.claim_maintenance() is None
        gate.set()
        await agent.when_idle()
        claim = agent.claim_maintenance()
        refused_twice = agent.claim_maintenance() is None
        assert claim is not None
        claim.release()
        again = agent.claim_maintenance() is not None
        return [refused_running, refused_twice, again]

    assert asyncio.run(main()) == [True, True, True]


def test_input_during_maintenance_is_appended_and_runs_only_after_release() -> None:
    async def main() -> tuple[list[str], int, str]:
        log = with_reminders("s-1")
        agent, _log, model, _ = make_agent([Reply("reminded"), Reply("answered")], log=log)
        claim = agent.claim_maintenance()
        assert claim is not None
        agent.submit("typed meanwhile", None)
        claim.admit_reminder(
            "[SCHEDULE REMINDER]\nx", [{"version": 1, "operation": "dispatch", "id": "s-1"}]
        )
        await settle()
        requests_during = len(model.requests)
        status = agent.status
        claim.release()
        await agent.when_idle()
        return [m.text for m in model.requests[-1].messages], requests_during, status

    messages, requests_during, status = asyncio.run(main())
    assert (requests_during, status) == (0, "idle")
    assert messages == ["typed meanwhile", "reminded", "[SCHEDULE REMINDER]\nx"]


def test_an_admitted_reminder_is_one_group_of_message_and_dispatches() -> None:
    changes = [
        {
            "version": 1,
            "operation": "dispatch",
            "id": "a",
            "acceptedAt": "2026-08-05T12:00:00.000Z",
        },
        {
            "version": 1,
            "operation": "dispatch",
            "id": "b",
            "acceptedAt": "2026-08-05T12:00:00.000Z",
        },
    ]

    async def main() -> MemoryLog:
        agent, log, _, _ = make_agent([Reply("⏰")], log=with_reminders("a", "b", kind="every"))
        claim = agent.claim_maintenance()
        assert claim is not None
        claim.admit_reminder("batch", changes)
        claim.release()
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    (entries,) = log.groups
    group = [e.to_json() for e in entries]
    assert [e["type"] for e in group] == [v.USER_MESSAGE, v.SCHEDULE_CHANGE, v.SCHEDULE_CHANGE]
    assert group[0]["data"]["source"] == {"kind": "plugin", "plugin": "schedule"}
    assert [e["data"] for e in group[1:]] == changes
    assert log.of_type(v.TURN_START) == [{"turn": 1, "input": 2}]


def test_a_refused_group_appends_nothing_and_raises() -> None:
    async def main() -> tuple[bool, int]:
        agent, log, _, _ = make_agent()
        log.refuse_appends = True
        claim = agent.claim_maintenance()
        assert claim is not None
        try:
            claim.admit_reminder("x", [])
        except OSError:
            raised = True
        else:
            raised = False
        claim.release()
        await settle()
        return raised, len(log.events)

    assert asyncio.run(main()) == (True, 0)


def test_the_time_reading_is_ambiguous_when_the_input_zone_differs_from_the_sample() -> None:
    async def main() -> tuple[ModelRequest, MemoryLog]:
        agent, log, model, _ = make_agent([Reply("ok")], zone=lambda: "America/New_York")
        agent.submit("remind me at 5pm", "Europe/Berlin")
        await agent.when_idle()
        return model.requests[0], log

    request, log = asyncio.run(main())
    assert request.time_zone is None
    assert request.time_context is not None
    assert "ambiguous" in request.time_context
    assert log.of_type(v.CONTEXT_TIME)[0]["timeZone"] is None


def test_a_failing_zone_source_gives_an_ambiguous_reading_not_a_failure() -> None:
    def broken() -> str | None:
        raise RuntimeError("no zone")

    async def main() -> MemoryLog:
        agent, log, _, _ = make_agent([Reply("ok")], zone=broken)
        claim = agent.claim_maintenance()
        assert claim is not None
        claim.admit_reminder("reminder", [])
        claim.release()
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert log.of_type(v.CONTEXT_TIME)[0]["timeZone"] is None
    assert log.of_type(v.TURN_END)[0]["status"] == "completed"


def test_start_answers_input_left_pending_by_an_interrupted_turn() -> None:
    events = [
        {"type": v.USER_MESSAGE, "data": v.user_message("m", "hi", v.user_source(None))},
        {"type": v.TURN_START, "data": v.turn_start(1, 0)},
        {"type": v.TURN_END, "data": v.turn_end(1, "interrupted")},
    ]

    async def main() -> MemoryLog:
        agent, log, _, _ = make_agent([Reply("again")], log=MemoryLog(events))
        agent.start()
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert log.of_type(v.TURN_START)[-1] == {"turn": 2, "input": 0}
    assert log.of_type(v.TURN_END)[-1] == {"turn": 2, "status": "completed"}


def test_dispose_ends_a_running_turn_interrupted_so_it_is_answered_next_time() -> None:
    async def main() -> tuple[MemoryLog, tuple[int, ...], bool]:
        gate = asyncio.Event()
        agent, log, _, _ = make_agent([Reply("partial", gate=gate)])
        agent.submit("hi", None)
        await settle()
        await agent.dispose()
        refused = agent.claim_maintenance() is None
        await asyncio.wait_for(agent.when_idle(), timeout=5)  # never hangs once disposed
        return log, agent.pending_inputs, refused

    log, pending, refused = asyncio.run(main())
    assert log.of_type(v.TURN_END) == [{"turn": 1, "status": "interrupted"}]
    assert (pending, refused) == ((0,), True)


def test_when_idle_waits_for_every_pending_input() -> None:
    async def main() -> list[str]:
        order: list[str] = []
        agent, log, _, _ = make_agent([Reply("a"), Reply("b")])
        agent.submit("one", None)
        agent.submit("two", None)
        await agent.when_idle()
        order.append(f"idle after {len(log.of_type(v.TURN_END))} turns")
        return order

    assert asyncio.run(main()) == ["idle after 2 turns"]


def test_an_admission_after_release_raises_and_appends_nothing() -> None:
    async def main() -> tuple[bool, bool, int]:
        agent, log, _, _ = make_agent()
        claim = agent.claim_maintenance()
        assert claim is not None
        held = agent.in_maintenance
        claim.release()
        claim.release()  # a second release is harmless
        try:
            claim.admit_reminder("late", [])
        except RuntimeError:
            return held, agent.in_maintenance, len(log.events)
        raise AssertionError("admit after release must raise")

    assert asyncio.run(main()) == (True, False, 0)


def test_dispose_cancels_pending_idle_waits() -> None:
    async def main() -> bool:
        agent, _, _, _ = make_agent()
        claim = agent.claim_maintenance()
        assert claim is not None
        waiter = asyncio.ensure_future(agent.when_idle())
        await settle()
        await agent.dispose()
        await settle()
        return waiter.cancelled()

    assert asyncio.run(main()) is True


def test_a_clock_failure_ends_the_turn_failed_instead_of_wedging_the_agent() -> None:
    def broken_clock() -> datetime:
        raise OSError("no clock")

    async def main() -> tuple[MemoryLog, str]:
        log = MemoryLog()
        agent = Agent(
            log,
            ScriptedModel(),
            ToolRegistry(),
            broken_clock,
            lambda: None,
            system_prompt="",
            new_id=counter_ids(),
        )
        agent.submit("hi", None)
        await agent.when_idle()
        return log, agent.status

    log, status = asyncio.run(main())
    (end,) = log.of_type(v.TURN_END)
    assert (end["status"], end["error"]["kind"], status) == ("failed", "internal", "idle")
    assert end["error"]["reason"] == {"code": "internal", "args": ["no clock"]}


def test_a_stream_that_ends_without_finishing_fails_the_turn() -> None:
    class Truncated(ScriptedModel):
        async def stream(self, request: ModelRequest) -> Any:
            self.requests.append(request)
            yield TextDelta("half an ans")

    async def main() -> MemoryLog:
        log = MemoryLog()
        agent = Agent(
            log,
            Truncated(),
            ToolRegistry(),
            FakeClock(START),
            lambda: None,
            system_prompt="",
            new_id=counter_ids(),
        )
        agent.submit("hi", None)
        await agent.when_idle()
        return log

    log = asyncio.run(main())
    assert log.of_type(v.TURN_END)[0]["error"]["kind"] == "bad_response"
    assert log.of_type(v.TURN_END)[0]["error"]["reason"]["code"] == "unfinished"
    (partial,) = log.of_type(v.ASSISTANT_MESSAGE)
    assert (partial["text"], partial["finish"]) == ("half an ans", "interrupted")


def test_an_observer_that_raises_does_not_break_the_agent_and_unsubscribe_stops_it() -> None:
    async def main() -> tuple[list[str], MemoryLog]:
        agent, log, _, _ = make_agent([Reply("a", deltas=("a",)), Reply("b", deltas=("b",))])
        seen: list[str] = []

        def broken(_: object, *more: object) -> None:
            raise RuntimeError("observer bug")

        agent.on_status(broken)
        agent.on_delta(broken)
        agent.on_turn_end(broken)
        unsubscribe = agent.on_delta(seen.append)
        agent.submit("one", None)
        await agent.when_idle()
        unsubscribe()
        unsubscribe()
        agent.submit("two", None)
        await agent.when_idle()
        return seen, log

    seen, log = asyncio.run(main())
    assert seen == ["a"]
    assert [e["status"] for e in log.of_type(v.TURN_END)] == ["completed", "completed"]


def test_run_maintenance_refuses_synchronously_while_busy_and_releases_after_the_job() -> None:
    async def main() -> tuple[bool, str, bool, bool]:
        gate = asyncio.Event()
        agent, _, _, _ = make_agent([Reply("slow", gate=gate)])
        agent.submit("hi", None)

        async def job(claim: object) -> str:
            return "done"

        refused = agent.run_maintenance(job) is None
        gate.set()
        await agent.when_idle()
        pending = agent.run_maintenance(job)
        assert pending is not None
        held = agent.in_maintenance
        result = await pending
        return refused, result, held, agent.in_maintenance

    assert asyncio.run(main()) == (True, "done", True, False)
