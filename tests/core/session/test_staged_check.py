"""A warm open checks its checkpoint in two stages; the owner delivers between them.

Each scenario sets reminders on a real session folder, closes it (the close writes the
checkpoint), may forge the checkpoint (every digest and seal recomputed, as a buggy writer
would), and reopens it with a live host on a fake clock at 12:00. The first stage checks the
digest, the pending inputs and the reminders due by 12:00:30; the second stage, the rest, can be
held in its worker thread (``SecondStage``) so the owner's deliveries between the stages are
seen. Exactly once: every reminder is delivered once, with the text of its own line, or not yet.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from core.host import SessionHost
from core.llm.messages import Finish, ModelInfo, ModelRequest, StreamChunk
from core.llm.provider import ModelProvider
from core.schedule import fold_schedule
from core.session.checkpoint import decode_checkpoint
from core.session.live import LiveSession
from core.session.recovery import CheckpointVerifier, load_session
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.core.agent.fakes import FakeWaker, ScriptedModel, counter_ids, settle
from tests.core.session.helpers import FailingOps, add_turn, log_path, user
from tests.fakes import FakeClock

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
SOON = "2026-08-05T12:00:10.000Z"  # within the first stage (by 12:00:30)
LATER = "2026-08-05T12:01:00.000Z"  # after it
TOMORROW = "2026-08-06T09:00:00.000Z"
REMINDERS = (("schedule-1", "stretch", SOON), ("schedule-2", "water", LATER))


def no_write_behind(_delay: float, _callback: Callable[[], None]) -> None:
    return None


def at_change(schedule_id: str, prompt: str, when: str) -> dict[str, Any]:
    record = {"id": schedule_id, "kind": "at", "prompt": prompt, "scheduledAt": when}
    return {"version": 1, "operation": "create", "schedule": record}


class SecondStage:
    """Holds the second stage in its worker thread until ``release``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()
        self.checked = threading.Event()
        original = CheckpointVerifier.rest

        def rest(verifier: CheckpointVerifier, soon_ms: int | None) -> bool:
            self.entered.set()
            self.released.wait(60)
            try:
                return original(verifier, soon_ms)
            finally:
                self.checked.set()

        monkeypatch.setattr(CheckpointVerifier, "rest", rest)

    async def reached(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, 60)

    def release(self) -> None:
        self.released.set()

    async def done(self) -> None:
        """Until the released stage's check has returned in its thread (what it decides is then
        the loop's to apply, a few steps later)."""
        assert await asyncio.to_thread(self.checked.wait, 60)


class HeldModel:
    """Answers once ``go`` is set: the turn stays open (and on disk) until then."""

    def __init__(self) -> None:
        self.go = asyncio.Event()

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(provider="held", name="held-1")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        await self.go.wait()
        yield Finish("ok", (), "stop")


class Run:
    """A store on a fake clock, and a live host on a reopened session."""

    def __init__(self, tmp_path: Path, ops: FailingOps | None = None) -> None:
        self.clock = FakeClock(START)
        options = StoreOptions(file_ops=ops, scheduler=no_write_behind)
        self.store = SessionStore(tmp_path, self.clock, counter_ids("s"), options=options)
        self.wakers: list[FakeWaker] = []

    async def closed_session(self, reminders: tuple[tuple[str, str, str], ...]) -> str:
        session = await self.store.create()
        add_turn(session, 1, "q1")
        for schedule_id, prompt, when in reminders:
            session.append(v.SCHEDULE_CHANGE, at_change(schedule_id, prompt, when))
        for turn in range(2, 8):
            add_turn(session, turn, f"q{turn}")
        assert await session.close()
        return session.id

    def forge(self, sid: str, change: Callable[[list[dict[str, Any]]], None]) -> None:
        """Rewrite the checkpoint's active records through Chime's own encoder."""
        path = self.checkpoint(sid)
        checkpoint = decode_checkpoint(path.read_bytes())
        assert checkpoint is not None
        assert checkpoint.schedule is not None
        schedule = json.loads(json.dumps(checkpoint.schedule))
        change(schedule["active"])
        path.write_bytes(dataclasses.replace(checkpoint, schedule=schedule).encode())

    def checkpoint(self, sid: str) -> Path:
        return log_path(self.store.data_dir, sid).parent / "checkpoint.json"

    def host(self, session: LiveSession, model: ModelProvider | None = None) -> SessionHost:
        host = SessionHost(
            session,
            model or ScriptedModel(),
            self.clock,
            lambda: "UTC",
            lambda callback: self.wakers.append(FakeWaker(callback)) or self.wakers[-1],
            system_prompt="You are Chime.",
            new_id=counter_ids("h"),
        )
        host.start()
        return host

    async def wake_at(self, host: SessionHost, when: datetime) -> None:
        """Move the clock and fire the armed timer; wait for the owner's drives only."""
        self.clock.set(when)
        for waker in self.wakers:
            if waker.armed is not None:
                waker.fire()
        await settle()
        await host.owner.drained()

    async def until_settled(self, host: SessionHost) -> None:
        for _ in range(6):
            for waker in self.wakers:
                if waker.armed is not None:
                    waker.fire()
            await settle()
            await host.owner.drained()
            await host.when_idle()

    def events(self, sid: str) -> list[dict[str, Any]]:
        lines = log_path(self.store.data_dir, sid).read_bytes().split(b"\n")[1:]
        return [json.loads(line) for line in lines if line]

    def delivered(self, sid: str) -> list[str]:
        """The text of each reminder's follow-up on disk, in order."""
        return [
            e["data"]["text"]
            for e in self.events(sid)
            if e["type"] == v.USER_MESSAGE and e["data"]["source"]["kind"] == "plugin"
        ]


def one_each(delivered: list[str], *prompts: str) -> None:
    assert len(delivered) == len(prompts)
    for text, prompt in zip(delivered, prompts, strict=True):
        assert f'"{prompt}"' in text


def ends_once(events: list[dict[str, Any]]) -> None:
    """Every turn that started ended exactly once, and none was cut off."""
    started = [e["data"]["turn"] for e in events if e["type"] == v.TURN_START]
    ended = [e["data"]["turn"] for e in events if e["type"] == v.TURN_END]
    assert sorted(started) == sorted(ended) == sorted(set(ended))
    assert all(e["data"]["status"] == "completed" for e in events if e["type"] == v.TURN_END)


def test_a_due_reminder_is_delivered_while_the_rest_are_checked_and_a_later_one_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = SecondStage(monkeypatch)

    async def main() -> None:
        run = Run(tmp_path)
        sid = await run.closed_session(REMINDERS)
        session = await run.store.open(sid)
        host = run.host(session)
        try:
            await second.reached()
            await run.wake_at(host, START + timedelta(minutes=2))
            assert not session.verified
            one_each(run.delivered(sid), "stretch")  # durable; "water" is not checked yet
            assert session.schedule_fold().get("schedule-2") is not None
        finally:
            second.release()
        assert await session.verification()
        await run.until_settled(host)
        await host.dispose()
        one_each(run.delivered(sid), "stretch", "water")
        events = run.events(sid)
        assert fold_schedule(events).active == ()
        ends_once(events)

    asyncio.run(main())


def wrong_prompt_of_the_first(active: list[dict[str, Any]]) -> None:
    active[0]["prompt"] = "made up"


def later_one_moved_first(active: list[dict[str, Any]]) -> None:
    active[1]["scheduledAt"] = "2026-08-05T12:00:05.000Z"
    active[1]["prompt"] = "made up"


@pytest.mark.parametrize("forgery", [wrong_prompt_of_the_first, later_one_moved_first])
def test_a_checkpoint_wrong_in_what_the_owner_would_deliver_first_is_refolded_before_it(
    tmp_path: Path, forgery: Callable[[list[dict[str, Any]]], None]
) -> None:
    async def main() -> None:
        run = Run(tmp_path)
        sid = await run.closed_session(REMINDERS)
        truth = fold_schedule(run.events(sid))
        run.forge(sid, forgery)
        session = await run.store.open(sid)
        host = run.host(session)
        assert not await session.verification()  # the first stage found it: a re-scan
        assert not run.checkpoint(sid).exists()
        assert session.schedule_fold() == truth
        await run.wake_at(host, START + timedelta(seconds=20))
        await run.until_settled(host)
        one_each(run.delivered(sid), "stretch")  # its own words; "water" is not due yet
        await run.wake_at(host, START + timedelta(minutes=2))
        await run.until_settled(host)
        await host.dispose()
        one_each(run.delivered(sid), "stretch", "water")
        assert "made up" not in json.dumps(run.events(sid))

    asyncio.run(main())


def test_a_checkpoint_wrong_in_a_later_reminder_is_refolded_after_a_delivery_and_nothing_repeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = SecondStage(monkeypatch)

    def wrong_tomorrow(active: list[dict[str, Any]]) -> None:
        active[1]["prompt"] = "made up"

    async def main() -> None:
        run = Run(tmp_path)
        reminders = (REMINDERS[0], ("schedule-2", "plan the day", TOMORROW))
        sid = await run.closed_session(reminders)
        run.forge(sid, wrong_tomorrow)
        session = await run.store.open(sid)
        model = HeldModel()
        host = run.host(session, model)
        try:
            await second.reached()
            await run.wake_at(host, START + timedelta(seconds=20))
            one_each(run.delivered(sid), "stretch")
            await settle()  # the reminder's turn writes its start and waits for its answer
            assert [e["type"] for e in run.events(sid)][-2:] == [v.TURN_START, v.CONTEXT_TIME]
        finally:
            second.release()
        assert not await session.verification()  # the second stage found it: a re-scan
        assert not session.read_only
        model.go.set()  # the running turn is the agent's to end, once
        assert session.schedule_fold().get("schedule-2").prompt == "plan the day"  # type: ignore[union-attr]  # found above
        await run.until_settled(host)
        await run.wake_at(host, datetime(2026, 8, 6, 9, 1, tzinfo=UTC))
        await run.until_settled(host)
        await host.dispose()
        one_each(run.delivered(sid), "stretch", "plan the day")
        events = run.events(sid)
        assert "made up" not in json.dumps(events)
        assert fold_schedule(events).active == ()
        ends_once(events)

        again = await run.store.open(sid)  # and nothing is delivered twice after a reopen
        host = run.host(again)
        await run.until_settled(host)
        await host.dispose()
        one_each(run.delivered(sid), "stretch", "plan the day")

    asyncio.run(main())


def test_a_reminder_after_the_first_stage_waits_for_the_second_even_once_due(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = SecondStage(monkeypatch)

    async def main() -> None:
        run = Run(tmp_path)
        sid = await run.closed_session(REMINDERS[1:])  # "water" at 12:01, after the first stage
        session = await run.store.open(sid)
        host = run.host(session)
        try:
            await second.reached()
            await run.wake_at(host, START + timedelta(minutes=2))
            assert run.delivered(sid) == []  # due, but not checked yet: held
            assert all(waker.armed is None for waker in run.wakers)  # no busy re-drive
        finally:
            second.release()
        assert await session.verification()
        await run.until_settled(host)  # the host drives again once the check ends
        await host.dispose()
        one_each(run.delivered(sid), "water")

    asyncio.run(main())


class HeldWrite(FailingOps):
    """Real disk calls; the write after ``hold`` is on disk, then its fsync waits in its thread
    until ``released`` (the session has not counted it durable yet)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.entered = threading.Event()
        self.released = threading.Event()

    def sync(self, fd: int) -> None:
        if self.hold:
            self.hold = False
            self.entered.set()
            self.released.wait(60)
        super().sync(fd)


async def held_write(
    session: LiveSession, ops: HeldWrite, flush: Callable[[], Awaitable[bool]]
) -> asyncio.Future[bool]:
    """Append "one" and start ``flush``: its write is on disk, its fsync held by ``ops``."""
    session.append(v.USER_MESSAGE, user("one", "x1"))
    ops.hold = True
    first = asyncio.ensure_future(flush())
    assert await asyncio.to_thread(ops.entered.wait, 60)
    return first


def test_a_later_mismatch_waits_for_the_write_in_flight_and_holds_the_next_until_the_rescan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second, ops = SecondStage(monkeypatch), HeldWrite()

    async def main() -> None:
        run = Run(tmp_path, ops)
        sid = await run.closed_session((("schedule-2", "plan the day", TOMORROW),))
        run.forge(sid, wrong_prompt_of_the_first)
        session = await run.store.open(sid)
        try:
            await second.reached()
            assert await session.flush_staged()  # the first stage passed: writes may go
            first = await held_write(session, ops, session.flush_staged)
            session.append(v.USER_MESSAGE, user("two", "x2"))
            after = asyncio.ensure_future(session.flush_staged())  # joins it, then asks again
            await settle()
            second.release()  # the second stage finds the forgery: writes are held
            await second.done()
            for _ in range(10_000):
                if not session._gate or not session._gate.done():
                    break
                await asyncio.sleep(0)
            assert not session._gate.done()  # type: ignore[union-attr]  # replaced, not None
        finally:
            second.release()
            ops.released.set()  # the held write ends; the re-scan reads it, then "two" goes
        assert await first
        assert await after
        assert not await session.verification()
        assert not session.read_only
        texts = [e["data"]["text"] for e in run.events(sid) if e["type"] == v.USER_MESSAGE]
        assert texts[-2:] == ["one", "two"]
        assert session.schedule_fold().active[0].prompt == "plan the day"
        await session.close()

    asyncio.run(main())


class BrokenClock(FakeClock):
    broken = False

    def __call__(self) -> datetime:
        if self.broken:
            raise OSError("no clock")
        return super().__call__()


def test_a_clock_that_fails_at_the_check_makes_it_one_stage(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        run = Run(tmp_path)
        run.clock = clock = BrokenClock(START)
        run.store = SessionStore(tmp_path, clock, counter_ids("s"))
        sid = await run.closed_session(REMINDERS)
        clock.broken = True
        session = await run.store.open(sid)
        try:
            assert await session.verification()
        finally:
            clock.broken = False
        assert session.schedule_fold().get("schedule-2") is not None
        await session.close()

    asyncio.run(main())
    assert "checked in one stage" in caplog.text


def test_a_host_disposed_during_the_check_stops_waiting_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = SecondStage(monkeypatch)

    async def main() -> None:
        run = Run(tmp_path)
        sid = await run.closed_session(REMINDERS[1:])
        session = await run.store.open(sid)
        host = run.host(session)
        try:
            await second.reached()
            disposing = asyncio.ensure_future(host.dispose())
            await settle()
            assert host._checked is not None
            assert host._checked.cancelled()
        finally:
            second.release()
        await disposing  # its last flush waited for the whole check
        assert session.closed
        assert run.delivered(sid) == []

    asyncio.run(main())


def test_a_flush_asks_again_before_each_new_write(tmp_path: Path) -> None:
    ops = HeldWrite()

    async def main() -> None:
        run = Run(tmp_path, ops)
        session = await run.store.create()
        first = await held_write(session, ops, session.flush)
        try:
            session.append(v.USER_MESSAGE, user("two", "x2"))
            after = asyncio.ensure_future(session.flush())  # joins the write in flight
            await settle()
            writer = session._writer
            assert writer is not None

            async def refused() -> bool:
                return False

            writer._may_write = refused  # e.g. a re-scan holds writes, then finds it read-only
        finally:
            ops.released.set()
        assert await first
        assert not await after
        texts = [e["data"]["text"] for e in run.events(session.id) if e["type"] == v.USER_MESSAGE]
        assert texts == ["one"]
        session._writer = None  # nothing more is written: let the session go without a flush
        await session.abandon()

    asyncio.run(main())


def test_holding_writes_waits_for_the_write_in_flight(tmp_path: Path) -> None:
    """Before a re-scan reads the log, the write on its way to disk has ended (else the re-scan
    could see bytes the session does not count yet, and take them for another writer's)."""
    ops = HeldWrite()

    async def main() -> None:
        run = Run(tmp_path, ops)
        session = await run.store.create()
        first = await held_write(session, ops, session.flush)
        try:
            holding = asyncio.ensure_future(session._hold_writes())
            await settle()
            assert not holding.done()
        finally:
            ops.released.set()
        await holding
        assert await first
        session.append(v.USER_MESSAGE, user("two", "x2"))
        later = asyncio.ensure_future(session.flush())
        await settle()
        assert not later.done()  # held
        session._let_writes(True)
        assert await later
        await session.close()

    asyncio.run(main())


def test_a_write_on_a_warm_open_not_started_yet_starts_its_check_first(tmp_path: Path) -> None:
    async def main() -> None:
        run = Run(tmp_path)
        sid = await run.closed_session(REMINDERS)
        run.forge(sid, wrong_prompt_of_the_first)
        folder = log_path(run.store.data_dir, sid).parent
        loaded = load_session(folder, lock=None, read_only_reason=None, ops=None, torn_stamp=str)
        session = LiveSession(loaded, run.clock)  # start() not called
        assert session.schedule_fold().active[0].prompt == "made up"  # the checkpoint's word
        session.append(v.USER_MESSAGE, user("typed", "x1"))
        assert await session.flush_staged()
        assert session.schedule_fold().active[0].prompt == "stretch"  # checked, re-scanned
        assert not await session.verification()
        await session.close()

    asyncio.run(main())


def test_a_session_without_storage_has_no_staged_barrier_to_pass(clock: FakeClock) -> None:
    async def main() -> None:
        session = LiveSession.detached("s-1", clock)
        assert session.verified
        assert not await session.flush_staged()

    asyncio.run(main())
