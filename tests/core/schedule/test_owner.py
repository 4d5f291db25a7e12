"""The live reminder owner (schedule.md §10-§12) against a fake agent, fake waker and fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.events import SCHEDULE_SOURCE, ScheduleChanged, UserMessage
from core.schedule import ScheduleTools
from core.schedule.owner import FollowupBuildError, ScheduleOwner
from tests.core.agent.fakes import FakeWaker, settle
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
MAX_TIMER = timedelta(milliseconds=2_147_483_647)


class FakeClaim:
    def __init__(self, agent: FakeAgent) -> None:
        self.agent = agent

    def admit_reminder(
        self, text: str, changes: Sequence[Mapping[str, Any]], skipped: Mapping[str, int]
    ) -> None:
        self.agent.trace.append("admit")
        if self.agent.build_fails:
            self.agent.build_fails -= 1
            raise FollowupBuildError("the id source broke")
        if self.agent.refuse_admit:
            raise OSError("refused")
        message = UserMessage("r", text, SCHEDULE_SOURCE, tuple(skipped.items()))
        self.agent.log.append_events([message, *(ScheduleChanged(dict(c)) for c in changes)])
        self.agent.admitted.append(text)

    def release(self) -> None:
        self.agent.trace.append("release")
        self.agent.claimed = False


class FakeAgent:
    """A MaintenanceHost: ``busy`` refuses claims; ``become_idle()`` resolves idle waits."""

    def __init__(self, log: MemoryLog) -> None:
        self.log = log
        self.busy = False
        self.claimed = False
        self.refuse_admit = False
        self.build_fails = 0
        self.claim_raises = False
        self.admitted: list[str] = []
        self.trace: list[str] = []
        self.idle_waits = 0
        self._idle = asyncio.Event()

    def claim_maintenance(self) -> FakeClaim | None:
        if self.claim_raises:
            raise RuntimeError("claim machinery broke")
        if self.busy or self.claimed:
            self.trace.append("refused")
            return None
        self.trace.append("claim")
        self.claimed = True
        return FakeClaim(self)

    async def when_idle(self) -> None:
        self.idle_waits += 1
        self._idle.clear()
        await self._idle.wait()

    def become_idle(self) -> None:
        self.busy = False
        self._idle.set()


class Rig:
    def __init__(
        self,
        log: MemoryLog | None = None,
        *,
        start: datetime = START,
        is_live: Callable[[], bool] = lambda: True,
    ) -> None:
        self.log = log if log is not None else MemoryLog()
        self.clock = FakeClock(start)
        self.tools = ScheduleTools(self.log, self.clock, on_change=self.trigger)
        self.agent = FakeAgent(self.log)
        self.waker = FakeWaker()
        self.broken_clock = False
        self.samples: list[datetime] = []
        self.owner = ScheduleOwner(
            self.log, self.owner_clock, self.tools.queue, self.agent, self.waker, is_live=is_live
        )
        self.waker.callback = self.owner.request_drive

    def owner_clock(self) -> datetime:
        now = self.samples.pop(0) if self.samples else self.clock()
        return now.replace(tzinfo=None) if self.broken_clock else now

    def trigger(self) -> None:
        self.owner.request_drive()

    async def create(self, **arguments: Any) -> Any:
        result = await self.tools.call("schedule_create", arguments)
        await self.drain()
        return result

    async def drain(self) -> None:
        await settle()
        await self.owner.drained()
        await settle()

    async def fire_at(self, when: datetime) -> None:
        self.clock.set(when)
        self.waker.fire()
        await self.drain()

    def dispatches(self) -> list[dict[str, Any]]:
        return [c for c in self.log.of_type("schedule/change") if c["operation"] == "dispatch"]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_starting_with_nothing_scheduled_takes_one_barrier_and_arms_no_timer() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.drain()
        return rig

    rig = run(main())
    assert (rig.log.barriers, rig.waker.arms, rig.agent.trace) == (1, [], [])


def test_a_created_reminder_arms_the_timer_for_its_target() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.drain()
        await rig.create(prompt="stretch", after_seconds=120)
        return rig

    rig = run(main())
    assert rig.waker.armed == START + timedelta(seconds=120)


def test_a_due_one_shot_is_admitted_as_one_group_in_the_spec_order() -> None:
    async def main() -> tuple[Rig, int]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        before = rig.log.barriers
        await rig.fire_at(START + timedelta(seconds=120))
        return rig, rig.log.barriers - before

    rig, barriers = run(main())
    (entries,) = rig.log.groups
    group = [e.to_json() for e in entries]
    assert [e["type"] for e in group] == ["user/message", "schedule/change"]
    assert group[1]["data"] == {"version": 1, "operation": "dispatch", "id": "schedule-1"}
    assert group[0]["data"]["text"].splitlines()[0] == "[SCHEDULE REMINDER]"
    assert group[0]["data"]["text"].splitlines()[-1] == 'reminder_prompt_json: "stretch"'
    assert rig.agent.trace == ["claim", "admit", "release"]
    # the dispatching drive: 2 barriers; the drive it triggers (nothing left): 1
    assert barriers == 3
    assert rig.waker.armed is None


def test_the_timer_never_fires_early_after_the_clock_was_set_back() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        await rig.fire_at(START - timedelta(hours=1))
        return rig

    rig = run(main())
    assert (rig.agent.admitted, rig.dispatches()) == ([], [])
    assert rig.waker.armed == START + timedelta(seconds=120)


def test_a_clock_jump_forward_fires_an_overdue_reminder_once() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        await rig.fire_at(START + timedelta(days=3))  # the timer wakes late, far past its target
        rig.owner.request_drive()  # and the app reports it woke from sleep
        await rig.drain()
        return rig

    rig = run(main())
    assert len(rig.agent.admitted) == 1
    assert len(rig.dispatches()) == 1


def test_a_target_a_month_ahead_arms_one_clamped_segment_and_rearms_on_wake() -> None:
    async def main() -> tuple[Rig, list[datetime]]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="pay rent", after_seconds=31 * 86400)
        first = list(rig.waker.arms)
        await rig.fire_at(START + MAX_TIMER)
        return rig, first

    rig, first = run(main())
    assert first == [START + MAX_TIMER]
    assert rig.waker.armed == START + timedelta(days=31)
    assert rig.agent.admitted == []


def test_a_one_millisecond_wait_arms_a_one_millisecond_segment() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="soon", after_seconds=60)
        rig.clock.set(START + timedelta(seconds=60) - timedelta(milliseconds=1))
        rig.owner.request_drive()
        await rig.drain()
        return rig

    rig = run(main())
    assert rig.waker.armed == START + timedelta(seconds=60)
    assert rig.waker.arms[-1] - rig.clock() == timedelta(milliseconds=1)


def test_a_reminder_due_while_the_agent_is_busy_waits_for_idle_without_a_timer() -> None:
    async def main() -> tuple[Rig, list[Any]]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.agent.busy = True
        await rig.fire_at(START + timedelta(seconds=130))
        during: list[Any] = [rig.agent.admitted[:], rig.waker.armed, rig.owner.waiting_for_idle]
        rig.owner.request_drive()  # another trigger while waiting: still one idle wait
        await rig.drain()
        during.append(rig.agent.idle_waits)
        rig.agent.become_idle()
        await rig.drain()
        return rig, during

    rig, during = run(main())
    assert during == [[], None, True, 1]
    assert len(rig.agent.admitted) == 1
    assert not rig.owner.waiting_for_idle


def test_two_due_one_shots_are_admitted_in_two_claims_oldest_target_first() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="second", after_seconds=200)
        await rig.create(prompt="first", after_seconds=100)
        rig.clock.set(START + timedelta(seconds=300))
        rig.owner.request_drive()
        await rig.drain()
        return rig

    rig = run(main())
    assert [t.splitlines()[-1] for t in rig.agent.admitted] == [
        'reminder_prompt_json: "first"',
        'reminder_prompt_json: "second"',
    ]
    assert [len(g) for g in rig.log.groups] == [2, 2]


def test_overdue_every_reminders_arrive_in_one_batch_with_their_latest_occurrence() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="water", every_seconds=300)
        await rig.create(prompt="stand", every_seconds=600)
        rig.clock.set(START + timedelta(minutes=47))
        rig.owner.request_drive()
        await rig.drain()
        return rig

    rig = run(main())
    (text,) = rig.agent.admitted
    assert text.splitlines()[0] == "[SCHEDULE REMINDER BATCH]"
    assert text.splitlines()[2] == (
        'reminders_json: [{"schedule_id":"schedule-1","occurrence_at":"2026-08-05T12:45:00.000Z",'
        '"reminder_prompt":"water"},{"schedule_id":"schedule-2","occurrence_at":'
        '"2026-08-05T12:40:00.000Z","reminder_prompt":"stand"}]'
    )
    assert [d["acceptedAt"] for d in rig.dispatches()] == ["2026-08-05T12:47:00.000Z"] * 2
    assert rig.waker.armed == START + timedelta(minutes=50)


def test_triggers_during_a_drive_coalesce_into_exactly_one_more_drive() -> None:
    async def main() -> int:
        rig = Rig()
        rig.log.gate = asyncio.Event()
        rig.owner.start()
        await settle()
        for _ in range(5):
            rig.owner.request_drive()
        rig.log.gate.set()
        await rig.drain()
        return rig.log.barriers

    assert run(main()) == 2


def test_a_failed_barrier_retries_on_a_bounded_back_off_until_the_reminder_is_admitted() -> None:
    async def main() -> tuple[Rig, list[timedelta]]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.log.outcomes = [False] * 9
        due = START + timedelta(seconds=120)
        await rig.fire_at(due)
        delays = []
        while not rig.agent.admitted:
            assert rig.waker.armed is not None
            delays.append(rig.waker.armed - rig.clock())
            await rig.fire_at(rig.waker.armed)
        return rig, delays

    rig, delays = run(main())
    assert [d.total_seconds() for d in delays] == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert len(rig.agent.admitted) == 1
    assert rig.waker.armed is None


def test_a_successful_barrier_starts_the_back_off_again_from_one_second() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.log.outcomes = [False, False]
        await rig.fire_at(START + timedelta(seconds=10))
        await rig.fire_at(rig.waker.armed or START)
        await rig.fire_at(rig.waker.armed or START)  # succeeds: waits for the target again
        rig.log.outcomes = [False]
        await rig.fire_at(START + timedelta(seconds=120))
        return rig

    rig = run(main())
    assert rig.waker.armed is not None
    assert rig.waker.armed - rig.clock() == timedelta(seconds=1)


def test_a_failed_post_dispatch_barrier_retries_after_a_back_off() -> None:
    async def main() -> tuple[Rig, int, datetime | None]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        await rig.create(prompt="drink", after_seconds=120)
        rig.log.outcomes = [True, False]
        before = rig.log.barriers
        await rig.fire_at(START + timedelta(seconds=120))
        armed = rig.waker.armed
        barriers = rig.log.barriers - before
        rig.agent.claimed = False
        await rig.fire_at(armed or START)
        return rig, barriers, armed

    rig, barriers, armed = run(main())
    assert barriers == 2
    assert armed == START + timedelta(seconds=121)
    assert len(rig.agent.admitted) == 2


def test_a_successful_write_after_a_failed_barrier_drives_at_once() -> None:
    async def main() -> tuple[Rig, int]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        barriers = rig.log.barriers
        rig.owner.notify_persisted(True)  # nothing had failed: not a trigger
        await rig.drain()
        quiet = rig.log.barriers - barriers
        rig.log.outcomes = [False]
        await rig.fire_at(START + timedelta(seconds=120))
        rig.owner.notify_persisted(False)
        await rig.drain()
        assert rig.agent.admitted == []
        rig.owner.notify_persisted(True)  # the disk has room again
        await rig.drain()
        return rig, quiet

    rig, quiet = run(main())
    assert quiet == 0
    assert len(rig.agent.admitted) == 1


def test_a_corrupt_log_faults_the_owner_for_good() -> None:
    corrupt = [{"type": "schedule/change", "data": {"version": 2}}]

    async def main() -> Rig:
        rig = Rig(MemoryLog(corrupt))
        rig.owner.start()
        await rig.drain()
        rig.owner.request_drive()
        rig.owner.notify_idle()
        await rig.drain()
        return rig

    rig = run(main())
    assert rig.owner.faulted
    assert (rig.log.barriers, rig.waker.arms) == (1, [])


def test_a_clock_failure_while_deciding_is_logged_not_faulted() -> None:
    async def main() -> tuple[Rig, bool]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.clock.set(START + timedelta(seconds=125))
        rig.broken_clock = True  # a naive datetime is a clock failure (§1.3)
        rig.owner.request_drive()
        await rig.drain()
        faulted = rig.owner.faulted
        rig.broken_clock = False
        rig.owner.request_drive()
        await rig.drain()
        return rig, faulted

    rig, faulted = run(main())
    assert faulted is False
    assert len(rig.agent.admitted) == 1


def test_a_refused_admission_appends_nothing_and_faults_the_owner() -> None:
    async def main() -> tuple[Rig, int, int]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.agent.refuse_admit = True
        before = rig.log.barriers
        await rig.fire_at(START + timedelta(seconds=120))
        during = rig.log.barriers - before
        rig.agent.refuse_admit = False
        rig.owner.request_drive()
        await rig.drain()
        return rig, during, rig.log.barriers - before

    rig, during, after = run(main())
    assert (rig.dispatches(), rig.waker.armed, rig.owner.faulted) == ([], None, True)
    assert rig.agent.trace[-2:] == ["admit", "release"]
    assert (during, after) == (1, 1)  # §11.2: one barrier, then triggers are ignored


def test_a_follow_up_that_cannot_be_built_is_delivered_on_a_later_trigger() -> None:
    """schedule.md §10.3 step 7.4: building fails → logged, released, not faulted, no timer, no
    dispatch; the record stays active and the next trigger delivers it once."""

    async def main() -> tuple[Rig, tuple[Any, ...]]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.agent.build_fails = 1
        await rig.fire_at(START + timedelta(seconds=120))
        after_failure = (
            rig.owner.faulted,
            rig.dispatches(),
            rig.waker.armed,
            rig.agent.claimed,
            rig.agent.trace[-2:],
        )
        rig.owner.notify_idle()  # a later trigger
        await rig.drain()
        return rig, after_failure

    rig, after_failure = run(main())
    assert after_failure == (False, [], None, False, ["admit", "release"])
    assert [d["id"] for d in rig.dispatches()] == ["schedule-1"]
    assert len(rig.agent.admitted) == 1
    assert rig.owner.faulted is False


def test_a_claim_that_raises_faults_the_owner() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.agent.claim_raises = True
        await rig.fire_at(START + timedelta(seconds=120))
        return rig

    assert run(main()).owner.faulted


def test_the_idle_trigger_is_ignored_in_a_session_that_never_used_reminders() -> None:
    async def main() -> int:
        rig = Rig(
            MemoryLog([{"type": "user/message", "data": {"id": "u", "text": "hi", "source": {}}}])
        )
        rig.owner.start()
        await rig.drain()
        for _ in range(3):
            rig.owner.notify_idle()
            await rig.drain()
        return rig.log.barriers

    assert run(main()) == 1


def test_the_idle_trigger_drives_once_the_log_has_a_schedule_change() -> None:
    async def main() -> int:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        before = rig.log.barriers
        rig.owner.notify_idle()
        await rig.drain()
        return rig.log.barriers - before

    assert run(main()) == 1


def test_a_fork_inherits_none_of_its_parents_reminders_but_still_drives_on_idle() -> None:
    async def main() -> tuple[Rig, Rig]:
        parent = Rig()
        await parent.tools.call("schedule_create", {"prompt": "parent", "after_seconds": 60})
        prefix = [{"type": e["type"], "data": e["data"]} for e in parent.log.events]
        child = Rig(MemoryLog(prefix, seed_length=len(prefix)))
        child.owner.start()
        await child.drain()
        child.clock.set(START + timedelta(hours=1))
        child.owner.notify_idle()
        await child.drain()
        return parent, child

    _parent, child = run(main())
    assert (child.waker.arms, child.agent.admitted) == ([], [])
    assert child.log.barriers == 2


def test_disposal_clears_the_timer_and_arms_nothing_afterwards() -> None:
    async def main() -> tuple[Rig, int]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        await rig.owner.dispose()
        appended = len(rig.log.events)
        rig.owner.request_drive()
        rig.owner.notify_idle()
        await rig.drain()
        return rig, appended

    rig, appended = run(main())
    assert rig.waker.armed is None
    assert rig.waker.cancels >= 1
    assert len(rig.log.events) == appended


def test_disposal_ends_the_idle_wait_at_once() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.agent.busy = True
        await rig.fire_at(START + timedelta(seconds=120))
        assert rig.owner.waiting_for_idle
        await asyncio.wait_for(rig.owner.dispose(), timeout=5)
        rig.agent.become_idle()
        await settle()
        return rig

    rig = run(main())
    assert (rig.agent.admitted, rig.owner.waiting_for_idle) == ([], False)


def test_disposal_awaits_the_drive_in_flight_which_then_writes_nothing() -> None:
    async def main() -> tuple[Rig, list[str]]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.clock.set(START + timedelta(seconds=120))
        rig.log.gate = asyncio.Event()
        rig.waker.fire()
        await settle()  # the drive is now inside its first barrier
        order: list[str] = []
        disposal = asyncio.ensure_future(rig.owner.dispose())
        await settle()
        order.append("disposing" if not disposal.done() else "disposed early")
        rig.log.gate.set()
        await disposal
        order.append("disposed")
        return rig, order

    rig, order = run(main())
    assert order == ["disposing", "disposed"]
    assert (rig.agent.admitted, rig.dispatches(), rig.waker.armed) == ([], [], None)


@pytest.mark.parametrize("kind", ["wait", "busy"])
def test_an_owner_drive_that_does_not_dispatch_takes_one_barrier(kind: str) -> None:
    async def main() -> int:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.agent.busy = kind == "busy"
        before = rig.log.barriers
        rig.clock.set(START + timedelta(seconds=60 if kind == "wait" else 130))
        rig.owner.request_drive()
        await rig.drain()
        return rig.log.barriers - before

    assert run(main()) == 1


def test_a_decision_sample_before_the_target_arms_the_timer_and_admits_nothing() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        due, early = START + timedelta(seconds=120), START + timedelta(seconds=100)
        rig.samples = [due, early]  # the wall clock moved back between the two samples
        rig.clock.set(due)
        rig.waker.fire()
        await rig.drain()
        return rig

    rig = run(main())
    assert rig.agent.admitted == []
    assert rig.agent.trace == ["claim", "release"]
    assert rig.waker.armed == START + timedelta(seconds=120)


def test_an_owner_that_stops_being_live_during_the_claim_releases_it_and_admits_nothing() -> None:
    live = [True]

    async def main() -> Rig:
        rig = Rig(is_live=lambda: live[0])
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.clock.set(START + timedelta(seconds=120))

        def claim_then_die() -> FakeClaim | None:
            live[0] = False
            return FakeAgent.claim_maintenance(rig.agent)

        rig.agent.claim_maintenance = claim_then_die  # type: ignore[method-assign]  # the agent stops being the live root mid-drive
        rig.waker.fire()
        await rig.drain()
        return rig

    rig = run(main())
    assert (rig.agent.admitted, rig.agent.trace[-1], rig.waker.armed) == ([], "release", None)


def test_a_failing_idle_wait_is_logged_and_not_retried() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)

        async def broken_wait() -> None:
            raise RuntimeError("the idle signal broke")

        rig.agent.when_idle = broken_wait  # type: ignore[method-assign]  # a failing idle wait
        rig.agent.busy = True
        await rig.fire_at(START + timedelta(seconds=120))
        return rig

    rig = run(main())
    assert (rig.agent.admitted, rig.owner.waiting_for_idle, rig.owner.faulted) == ([], False, False)
    assert rig.agent.trace == ["refused"]


def test_a_failing_waker_is_contained_and_the_next_trigger_still_drives() -> None:
    class BrokenWaker(FakeWaker):
        def arm(self, wake_at: datetime) -> None:
            raise RuntimeError("timer backend gone")

    async def main() -> Rig:
        rig = Rig()
        rig.waker = BrokenWaker(rig.owner.request_drive)
        rig.owner = ScheduleOwner(rig.log, rig.clock, rig.tools.queue, rig.agent, rig.waker)
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.clock.set(START + timedelta(seconds=120))
        rig.owner.request_drive()
        await rig.drain()
        return rig

    rig = run(main())
    assert len(rig.agent.admitted) == 1


def test_an_idle_report_in_a_session_with_a_corrupt_schedule_log_drives_and_faults() -> None:
    corrupt = [
        {"type": "schedule/change", "data": {"version": 1, "operation": "delete", "id": "x"}}
    ]

    async def main() -> Rig:
        rig = Rig(MemoryLog(corrupt))
        rig.owner.notify_idle()
        await rig.drain()
        return rig

    rig = run(main())
    assert (rig.owner.faulted, rig.log.barriers) == (True, 1)


def test_a_barrier_that_raises_is_retried_like_a_failed_one_and_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> list[timedelta]:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.log.outcomes = [OSError("disk gone"), OSError("disk gone")]
        await rig.fire_at(START + timedelta(seconds=120))
        delays = []
        while not rig.agent.admitted:
            assert rig.waker.armed is not None
            delays.append(rig.waker.armed - rig.clock())
            await rig.fire_at(rig.waker.armed)
        return delays

    delays = run(main())
    assert delays == [timedelta(seconds=1), timedelta(seconds=2)]
    raised = [r for r in caplog.records if "persistence barrier raised" in r.getMessage()]
    assert len(raised) == 1


def test_a_retry_that_cannot_read_the_clock_waits_for_the_next_trigger() -> None:
    async def main() -> Rig:
        rig = Rig()
        rig.owner.start()
        await rig.create(prompt="stretch", after_seconds=120)
        rig.log.outcomes = [False]
        rig.clock.set(START + timedelta(seconds=120))
        rig.broken_clock = True
        rig.waker.fire()
        await rig.drain()
        rig.broken_clock = False
        rig.owner.request_drive()  # the next trigger
        await rig.drain()
        return rig

    rig = run(main())
    assert len(rig.agent.admitted) == 1
