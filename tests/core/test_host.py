"""SessionHost end to end in memory: reminders set through a model come back as turns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.errors import SessionReadOnlyError
from core.host import LoopWaker, SessionHost, load_system_prompt
from core.llm.offline import OfflineAssistant
from core.llm.provider import ModelProvider
from tests import wire as v
from tests.core.agent.fakes import FakeWaker, Reply, ScriptedModel, counter_ids, settle
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


class HostRig:
    def __init__(
        self,
        provider: Callable[[FakeClock], ModelProvider] | None = None,
        log: MemoryLog | None = None,
        new_id: Callable[[], str] | None = None,
    ) -> None:
        self.clock = FakeClock(START)
        self.log = log if log is not None else MemoryLog()
        self.wakers: list[FakeWaker] = []
        self.provider = provider(self.clock) if provider else OfflineAssistant(self.clock)
        self.host = SessionHost(
            self.log,
            self.provider,
            self.clock,
            lambda: "Europe/Berlin",
            self._waker,
            system_prompt="You are Chime.",
            new_id=new_id or counter_ids(),
        )

    def _waker(self, callback: Callable[[], None]) -> FakeWaker:
        self.wakers.append(FakeWaker(callback))
        return self.wakers[-1]

    @property
    def waker(self) -> FakeWaker:
        return self.wakers[0]

    async def idle(self) -> None:
        for _ in range(4):
            await settle()
            await self.host.owner.drained()
            await self.host.when_idle()

    async def fire_at(self, when: datetime) -> None:
        self.clock.set(when)
        self.waker.fire()
        await self.idle()

    def reminder_inputs(self) -> list[dict[str, Any]]:
        return [m for m in self.log.of_type(v.USER_MESSAGE) if m["source"]["kind"] == "plugin"]

    def answers(self) -> list[str]:
        return [a["text"] for a in self.log.of_type(v.ASSISTANT_MESSAGE) if a["text"]]


def scripted(*replies: Reply) -> Callable[[FakeClock], ScriptedModel]:
    return lambda _clock: ScriptedModel(list(replies))


def create_call(prompt: str, seconds: int, key: str = "after_seconds") -> Reply:
    return Reply("", calls=(("schedule_create", f'{{"prompt":"{prompt}","{key}":{seconds}}}'),))


def test_a_reminder_set_through_the_offline_assistant_comes_back_as_a_new_turn() -> None:
    async def main() -> HostRig:
        rig = HostRig()
        rig.host.start()
        rig.host.submit("remind me in 2 minutes to stretch")
        await rig.idle()
        assert rig.waker.armed == START + timedelta(minutes=2)
        await rig.fire_at(START + timedelta(minutes=2))
        return rig

    rig = asyncio.run(main())
    (reminder,) = rig.reminder_inputs()
    assert reminder["text"].startswith("[SCHEDULE REMINDER]\n")
    turns = rig.log.of_type(v.TURN_START)
    assert len(turns) == 2
    assert rig.log.events[turns[1]["input"]]["data"] == reminder
    assert "stretch" in rig.answers()[-1]
    assert "stretch" in rig.answers()[0]  # the confirmation
    assert rig.log.of_type(v.TURN_END)[-1] == {"turn": 2, "status": "completed"}
    assert rig.waker.armed is None


def test_a_recurring_reminder_missed_while_closed_says_how_many_times_it_was_skipped() -> None:
    async def main() -> HostRig:
        rig = HostRig()
        rig.host.start()
        rig.host.submit("every 30 minutes remind me to drink water")
        await rig.idle()
        await rig.fire_at(START + timedelta(hours=2, minutes=15))  # due 12:30, 13:00 … 14:00
        return rig

    rig = asyncio.run(main())
    (reminder,) = rig.reminder_inputs()
    assert reminder["skipped"] == {"schedule-1": 3}
    assert reminder["text"].startswith("[SCHEDULE REMINDER BATCH]\n")  # the framing as it was
    assert rig.answers()[-1] == (
        "Reminder: drink water (due 16:00, 15 minutes ago; this conversation wasn't open then; "
        "missed 3 times while this conversation was closed)"
    )


def test_a_reminder_due_during_a_running_turn_waits_for_it_to_end() -> None:
    gate = asyncio.Event()

    async def main() -> tuple[HostRig, int]:
        rig = HostRig(
            scripted(create_call("stretch", 60), Reply("set"), Reply("thinking", gate=gate))
        )
        rig.host.start()
        rig.host.submit("remind me in a minute to stretch")
        await rig.idle()
        rig.host.submit("a long question")
        await settle()
        rig.clock.set(START + timedelta(seconds=61))
        rig.waker.fire()
        await settle()
        during = len(rig.reminder_inputs())
        gate.set()
        await rig.idle()
        return rig, during

    rig, during = asyncio.run(main())
    assert during == 0
    inputs = [rig.log.events[t["input"]]["data"]["text"] for t in rig.log.of_type(v.TURN_START)]
    assert inputs[:2] == ["remind me in a minute to stretch", "a long question"]
    assert inputs[2].startswith("[SCHEDULE REMINDER]")
    reminder_seq = rig.log.of_type(v.TURN_START)[2]["input"]
    second_end = [e["seq"] for e in rig.log.events if e["type"] == v.TURN_END][1]
    assert reminder_seq > second_end


def test_two_due_one_shots_arrive_in_two_turns() -> None:
    async def main() -> HostRig:
        rig = HostRig(
            scripted(create_call("first", 60), create_call("second", 90), Reply("both set"))
        )
        rig.host.start()
        rig.host.submit("two reminders please")
        await rig.idle()
        rig.clock.set(START + timedelta(minutes=5))
        rig.host.request_drive()  # e.g. the laptop woke up: both are due
        await rig.idle()
        return rig

    rig = asyncio.run(main())
    reminders = rig.reminder_inputs()
    assert [r["text"].splitlines()[-1] for r in reminders] == [
        'reminder_prompt_json: "first"',
        'reminder_prompt_json: "second"',
    ]
    starts = [t["input"] for t in rig.log.of_type(v.TURN_START)]
    reminder_seqs = [e["seq"] for e in rig.log.events if e["data"] in reminders]
    assert starts[1:] == reminder_seqs
    first_reminder_end = [e["seq"] for e in rig.log.events if e["type"] == v.TURN_END][1]
    assert reminder_seqs[1] > first_reminder_end  # admitted only after the first reminder's turn


def test_overdue_every_reminders_arrive_in_one_batch_turn() -> None:
    async def main() -> HostRig:
        rig = HostRig()
        rig.host.start()
        rig.host.submit("every 5 minutes remind me to drink water")
        await rig.idle()
        rig.host.submit("every 10 minutes remind me to stand up")
        await rig.idle()
        rig.clock.set(START + timedelta(hours=2, minutes=1))
        rig.host.request_drive()
        await rig.idle()
        return rig

    rig = asyncio.run(main())
    (batch,) = rig.reminder_inputs()
    assert batch["text"].startswith("[SCHEDULE REMINDER BATCH]\n")
    assert batch["text"].count("schedule_id") == 2
    dispatches = [c for c in rig.log.of_type(v.SCHEDULE_CHANGE) if c["operation"] == "dispatch"]
    assert [d["acceptedAt"] for d in dispatches] == ["2026-08-05T14:01:00.000Z"] * 2
    assert len(rig.log.of_type(v.TURN_START)) == 3
    assert "drink water" in rig.answers()[-1]
    assert "stand up" in rig.answers()[-1]


def test_a_session_without_reminders_never_flushes_on_idle() -> None:
    async def main() -> tuple[int, int]:
        rig = HostRig(scripted(Reply("hi"), Reply("again")))
        rig.host.start()
        rig.host.submit("hello")
        await rig.idle()
        before = rig.log.barriers
        rig.host.submit("hello again")
        await rig.idle()
        return before, rig.log.barriers

    before, after = asyncio.run(main())
    assert after - before == 1  # the turn's own barrier before its model request, no owner drive


def test_dispose_clears_the_timer_and_writes_nothing_more() -> None:
    async def main() -> tuple[HostRig, int]:
        rig = HostRig()
        rig.host.start()
        rig.host.submit("remind me in 10 minutes to stretch")
        await rig.idle()
        await rig.host.dispose()
        count = len(rig.log.events)
        rig.clock.advance(timedelta(hours=1))
        rig.host.request_drive()
        await settle()
        return rig, count

    rig, count = asyncio.run(main())
    assert rig.waker.armed is None
    assert len(rig.log.events) == count


def test_a_swapped_provider_answers_from_the_next_turn() -> None:
    async def main() -> tuple[ScriptedModel, ScriptedModel]:
        first, second = ScriptedModel([Reply("one")]), ScriptedModel([Reply("two")])
        rig = HostRig(lambda _clock: first)
        rig.host.start()
        rig.host.submit("a")
        await rig.idle()
        rig.host.set_provider(second)
        rig.host.submit("b")
        await rig.idle()
        return first, second

    first, second = asyncio.run(main())
    assert (len(first.requests), len(second.requests)) == (1, 1)


def test_a_read_only_session_cannot_be_hosted() -> None:
    log = MemoryLog()
    log.read_only = True
    with pytest.raises(SessionReadOnlyError):
        HostRig(log=log)


def test_the_system_prompt_comes_from_resources() -> None:
    prompt = load_system_prompt()
    assert "schedule_create" in prompt
    assert prompt == prompt.strip()


def test_observers_see_events_status_and_turn_ends() -> None:
    async def main() -> tuple[list[str], list[str], list[tuple[int, str]]]:
        rig = HostRig(scripted(Reply("hey")))
        types: list[str] = []
        statuses: list[str] = []
        ends: list[tuple[int, str]] = []
        rig.host.on_event(lambda e: types.append(e.type))
        rig.host.on_status(statuses.append)
        rig.host.on_turn_end(lambda t, s: ends.append((t, s)))
        rig.host.start()
        rig.host.submit("hi")
        await rig.idle()
        return types, statuses, ends

    types, statuses, ends = asyncio.run(main())
    assert types == [v.USER_MESSAGE, v.TURN_START, v.CONTEXT_TIME, v.ASSISTANT_MESSAGE, v.TURN_END]
    assert statuses == ["running", "idle"]
    assert ends == [(1, "completed")]


def test_the_loop_waker_fires_a_past_target_at_once_and_clamps_a_far_one() -> None:
    async def main() -> tuple[int, float | None, int, float | None]:
        clock = FakeClock(START)
        fired: list[int] = []
        waker = LoopWaker(clock, lambda: fired.append(1))
        waker.arm(START - timedelta(hours=1))  # a wall clock set forward meanwhile: fire now
        await settle()
        first = len(fired)
        waker.arm(START + timedelta(days=100))
        clamped = waker.delay_ms
        await settle()
        waker.cancel()
        return first, clamped, len(fired), waker.delay_ms

    assert asyncio.run(main()) == (1, 2_147_483_647, 1, None)


def test_the_host_passes_input_control_and_observers_through() -> None:
    async def main() -> tuple[HostRig, list[str], list[bool], bool, bool]:
        rig = HostRig(scripted(Reply("hello", deltas=("hel", "lo"))))
        deltas: list[str] = []
        rig.host.on_delta(deltas.append)
        persistence: list[bool] = []
        rig.host.on_persistence(persistence.append)()
        rig.host.start()
        rig.host.start()  # a second start does nothing
        rig.host.submit("hi", time_zone="Asia/Tokyo")
        await rig.idle()
        cancelled, retried = rig.host.cancel(), rig.host.retry()
        await rig.host.dispose()
        await rig.host.dispose()
        return rig, deltas, persistence, cancelled, retried

    rig, deltas, persistence, cancelled, retried = asyncio.run(main())
    assert deltas == ["hel", "lo"]
    assert (persistence, cancelled, retried, rig.host.status) == ([], False, False, "idle")
    assert rig.log.of_type(v.USER_MESSAGE)[0]["source"] == {
        "kind": "user",
        "timeZone": "Asia/Tokyo",
    }
    assert len(rig.log.of_type(v.TURN_START)) == 1


def test_a_reminder_whose_follow_up_cannot_be_built_comes_on_the_next_trigger() -> None:
    """schedule.md §10.3 step 7.4 with the real agent: the id source fails once while the owner
    builds the follow-up; the owner is not faulted and the app's next activation delivers it."""
    ids = counter_ids()
    broken = [False]

    def new_id() -> str:
        if broken[0]:
            broken[0] = False
            raise RuntimeError("the id source is unavailable")
        return ids()

    async def main() -> tuple[HostRig, bool, int]:
        replies = scripted(create_call("stretch", 60), Reply("set"), Reply("⏰ stretch"))
        rig = HostRig(replies, new_id=new_id)
        rig.host.start()
        rig.host.submit("remind me in a minute to stretch")
        await rig.idle()
        broken[0] = True
        await rig.fire_at(START + timedelta(minutes=1))
        missed = len(rig.reminder_inputs())
        rig.host.request_drive()  # the app is activated: a trigger
        await rig.idle()
        return rig, rig.host.owner.faulted, missed

    rig, faulted, missed = asyncio.run(main())
    assert (faulted, missed) == (False, 0)
    (reminder,) = rig.reminder_inputs()
    assert "stretch" in reminder["text"]
    assert rig.answers()[-1] == "⏰ stretch"
