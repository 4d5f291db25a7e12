"""LiveSession on real files: append, groups, the barrier, write-behind, failures, guard, observers."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from core.errors import ScheduleLogError, SessionError, SessionReadOnlyError
from core.schedule import SessionLog, fold_schedule
from core.session.live import LiveSession
from core.session.writer import loop_scheduler
from tests import wire as v
from tests.core.session.helpers import (
    FailingOps,
    ManualTimer,
    create_change,
    delete_change,
    log_path,
    make_store,
    user,
)
from tests.fakes import FakeClock


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().split(b"\n")[1:-1]]


def test_live_session_is_a_session_log(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> bool:
        session = await make_store(tmp_path, clock).create()
        try:
            return isinstance(session, SessionLog)
        finally:
            await session.close()

    assert asyncio.run(scenario())


def test_append_is_visible_at_once_and_durable_only_after_the_barrier(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        envelope = session.append_event(v.event(v.USER_MESSAGE, user("hi"))).to_json()
        assert session.events[-1] == envelope
        assert envelope == {
            "seq": 0,
            "at": "2026-08-05T12:00:00.000Z",
            "type": "user/message",
            "data": user("hi"),
        }
        assert lines_of(log_path(tmp_path, session.id)) == []
        assert session.durable_count == 0
        assert await session.flush() is True
        assert lines_of(log_path(tmp_path, session.id)) == [envelope]
        await session.close()

    asyncio.run(scenario())


def test_lines_are_compact_utf8_with_raw_line_separators(tmp_path: Path, clock: FakeClock) -> None:
    text = 'say "hi" \\ \u2028 \u0085 \ufeff 🎉'

    async def scenario() -> str:
        session = await make_store(tmp_path, clock).create()
        session.append(v.USER_MESSAGE, user(text))
        await session.close()
        return session.id

    sid = asyncio.run(scenario())
    raw = log_path(tmp_path, sid).read_bytes()
    body = raw.split(b"\n")[1]
    assert body.decode("utf-8") == (
        '{"seq":0,"at":"2026-08-05T12:00:00.000Z","type":"user/message","data":{"id":"m",'
        '"text":"say \\"hi\\" \\\\ \u2028 \u0085 \ufeff 🎉","source":{"kind":"user",'
        '"timeZone":"Europe/Berlin"}}}'
    )


def test_one_barrier_covers_many_appends_with_one_fsync(tmp_path: Path, clock: FakeClock) -> None:
    ops = FailingOps()

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        syncs = ops.syncs
        for index in range(50):
            session.append(v.USER_MESSAGE, user(f"m{index}"))
        assert await session.flush() is True
        assert ops.syncs - syncs == 1
        assert len(lines_of(log_path(tmp_path, session.id))) == 50
        await session.close()

    asyncio.run(scenario())


def test_concurrent_flushes_share_the_write_in_flight(tmp_path: Path, clock: FakeClock) -> None:
    ops = FailingOps()

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        session.append(v.USER_MESSAGE, user("one"))
        syncs = ops.syncs
        results = await asyncio.gather(session.flush(), session.flush(), session.flush())
        assert list(results) == [True, True, True]
        assert ops.syncs - syncs == 1
        await session.close()

    asyncio.run(scenario())


def test_a_flush_started_during_a_write_also_covers_later_appends(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        session.append(v.USER_MESSAGE, user("one"))
        first = asyncio.ensure_future(session.flush())
        await asyncio.sleep(0)  # the first write is now in flight
        session.append(v.USER_MESSAGE, user("two"))
        assert await session.flush() is True
        assert await first is True
        assert [e["data"]["text"] for e in lines_of(log_path(tmp_path, session.id))] == [
            "one",
            "two",
        ]
        await session.close()

    asyncio.run(scenario())


def test_flush_with_nothing_queued_succeeds(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> bool:
        session = await make_store(tmp_path, clock).create()
        try:
            return await session.flush()
        finally:
            await session.close()

    assert asyncio.run(scenario()) is True


def test_a_session_without_storage_never_reports_durability(clock: FakeClock) -> None:
    async def scenario() -> tuple[bool, int]:
        session = LiveSession.detached("mem", clock)
        session.append(v.USER_MESSAGE, user("hi"))
        return await session.flush(), len(session.events)

    assert asyncio.run(scenario()) == (False, 1)


def test_write_behind_flushes_queued_events_without_a_barrier(
    tmp_path: Path, clock: FakeClock
) -> None:
    timer = ManualTimer()

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, timer=timer).create()
        written = asyncio.Event()
        session.subscribe_persistence(lambda ok: written.set())
        session.append(v.USER_MESSAGE, user("one"))
        session.append(v.USER_MESSAGE, user("two"))
        assert [delay for delay, _ in timer.armed] == [0.2]
        assert timer.fire() == 1
        await written.wait()
        assert len(lines_of(log_path(tmp_path, session.id))) == 2
        await session.close()

    asyncio.run(scenario())


def test_write_behind_with_nothing_queued_does_nothing(tmp_path: Path, clock: FakeClock) -> None:
    timer = ManualTimer()
    ops = FailingOps()

    async def scenario() -> int:
        session = await make_store(tmp_path, clock, timer=timer, ops=ops).create()
        session.append(v.USER_MESSAGE, user("one"))
        await session.flush()
        writes = ops.writes
        timer.fire()
        await asyncio.sleep(0)
        await session.close()
        return ops.writes - writes

    assert asyncio.run(scenario()) == 0


def test_the_loop_scheduler_arms_a_real_timer_only_inside_a_running_loop() -> None:
    fired: list[bool] = []
    assert loop_scheduler(0, lambda: fired.append(True)) is None

    async def scenario() -> None:
        handle = loop_scheduler(0, lambda: fired.append(True))
        assert handle is not None
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    asyncio.run(scenario())
    assert fired == [True]


def test_write_behind_on_the_real_loop_writes_within_the_delay(
    tmp_path: Path, clock: FakeClock
) -> None:
    from core.session.store import SessionStore, StoreOptions

    async def scenario() -> int:
        store = SessionStore(tmp_path, clock, options=StoreOptions(write_behind_seconds=0))
        session = await store.create()
        written = asyncio.Event()
        session.subscribe_persistence(lambda ok: written.set())
        session.append(v.USER_MESSAGE, user("one"))
        await written.wait()
        count = len(lines_of(log_path(tmp_path, session.id)))
        await session.close()
        return count

    assert asyncio.run(scenario()) == 1


@pytest.mark.parametrize("failure", ["write", "sync"])
def test_a_failed_barrier_keeps_the_events_and_the_next_writes_them_once(
    tmp_path: Path, clock: FakeClock, failure: str
) -> None:
    ops = FailingOps()

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        session.append(v.USER_MESSAGE, user("kept"))
        size = log_path(tmp_path, session.id).stat().st_size
        if failure == "write":
            ops.fail_writes = 1
        else:
            ops.fail_syncs = 1
        assert await session.flush() is False
        assert log_path(tmp_path, session.id).stat().st_size == size
        assert [e["data"]["text"] for e in session.events] == ["kept"]
        session.append(v.USER_MESSAGE, user("later"))
        assert await session.flush() is True
        texts = [e["data"]["text"] for e in lines_of(log_path(tmp_path, session.id))]
        assert texts == ["kept", "later"]
        await session.close()

    asyncio.run(scenario())


def test_a_failed_truncate_back_is_repaired_by_the_next_write(
    tmp_path: Path, clock: FakeClock
) -> None:
    ops = FailingOps()

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        session.append(v.USER_MESSAGE, user("a long message " * 20))
        ops.fail_syncs, ops.fail_truncates = 1, 1
        assert await session.flush() is False
        session.events  # noqa: B018 -- the live log still holds it
        ops.fail_writes = 0
        assert await session.flush() is True
        await session.close()
        texts = [e["data"]["text"] for e in lines_of(log_path(tmp_path, session.id))]
        assert texts == ["a long message " * 20]

    asyncio.run(scenario())


def test_short_writes_are_completed(tmp_path: Path, clock: FakeClock) -> None:
    ops = FailingOps()
    ops.short_writes = True

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        session.append(v.USER_MESSAGE, user("abc"))
        assert await session.flush() is True
        await session.close()
        assert [e["data"]["text"] for e in lines_of(log_path(tmp_path, session.id))] == ["abc"]

    asyncio.run(scenario())


def test_persistence_observers_hear_each_outcome(tmp_path: Path, clock: FakeClock) -> None:
    ops = FailingOps()
    heard: list[bool] = []

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        unsubscribe = session.subscribe_persistence(heard.append)
        session.append(v.USER_MESSAGE, user("x"))
        ops.fail_writes = 1
        await session.flush()
        await session.flush()
        unsubscribe()
        unsubscribe()
        session.append(v.USER_MESSAGE, user("y"))
        await session.flush()
        await session.close()

    asyncio.run(scenario())
    assert heard == [False, True]


def test_event_observers_see_every_append_and_a_failing_one_is_contained(
    tmp_path: Path, clock: FakeClock
) -> None:
    seen: list[int] = []

    def broken(_envelope: object) -> None:
        raise RuntimeError("observer bug")

    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        session.subscribe(broken)
        unsubscribe = session.subscribe(lambda e: seen.append(e.seq))
        session.append(v.USER_MESSAGE, user("x"))
        session.append_events(
            v.group([(v.USER_MESSAGE, user("y")), (v.SESSION_TITLE, v.session_title("t"))])
        )
        unsubscribe()
        session.append(v.USER_MESSAGE, user("z"))
        await session.close()

    asyncio.run(scenario())
    assert seen == [0, 1, 2]


def test_a_group_is_written_with_its_size_on_the_first_line(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> str:
        session = await make_store(tmp_path, clock).create()
        session.append_events(
            v.group(
                [
                    (v.USER_MESSAGE, user("reminder")),
                    (v.SCHEDULE_CHANGE, create_change("schedule-1")),
                ]
            )
        )
        session.append_events(v.group([(v.SESSION_TITLE, v.session_title("solo"))]))
        assert session.append_events(v.group([])) == []
        await session.close()
        return session.id

    events = lines_of(log_path(tmp_path, asyncio.run(scenario())))
    assert [e.get("group") for e in events] == [2, None, None]
    assert list(events[0]) == ["seq", "at", "type", "data", "group"]


def test_the_guard_refuses_a_change_that_would_break_the_fold(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        with pytest.raises(ScheduleLogError):
            session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        with pytest.raises(ScheduleLogError):
            session.append(v.SCHEDULE_CHANGE, delete_change("schedule-9"))
        with pytest.raises(ScheduleLogError):
            session.append_events(
                v.group([(v.USER_MESSAGE, user("r")), (v.SCHEDULE_CHANGE, {"version": 2})])
            )
        assert len(session.events) == 1
        session.append(v.SCHEDULE_CHANGE, delete_change("schedule-1"))
        assert session.schedule_fold() == fold_schedule(session.events, session.seed_length)
        assert session.schedule_fold().to_json() == {"active": [], "seenIds": ["schedule-1"]}
        await session.close()

    asyncio.run(scenario())


def test_data_that_is_not_json_is_refused_and_nothing_is_appended(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        with pytest.raises(TypeError):
            session.append(v.USER_MESSAGE, {"when": object()})
        with pytest.raises(ValueError, match="non-empty"):
            session.append("", {})
        with pytest.raises(ValueError, match=r"NaN|Out of range"):
            session.append(v.USER_MESSAGE, {"x": float("nan")})
        assert len(session.events) == 0
        await session.close()

    asyncio.run(scenario())


def test_a_closed_session_refuses_appends_and_flushes(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        assert await session.close() is True
        assert await session.close() is True
        assert session.closed
        with pytest.raises(SessionError, match="closed"):
            session.append(v.USER_MESSAGE, user("late"))

    asyncio.run(scenario())


def test_a_read_only_session_appends_nothing(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        live = await store.create()
        viewer = await store.open(live.id, read_only=True)
        assert viewer.read_only
        with pytest.raises(SessionReadOnlyError):
            viewer.append(v.USER_MESSAGE, user("no"))
        assert await viewer.flush() is False
        await viewer.close()
        await live.close()

    asyncio.run(scenario())


def test_events_support_slices_negative_indexes_and_iteration(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        for index in range(5):
            session.append(v.USER_MESSAGE, user(f"m{index}"))
        await session.flush()
        session.append(v.USER_MESSAGE, user("queued"))
        events = session.events
        assert [e["seq"] for e in events[1:4]] == [1, 2, 3]
        assert events[-1]["data"]["text"] == "queued"
        assert [e["seq"] for e in events] == list(range(6))
        with pytest.raises(IndexError):
            events[6]
        await session.close()

    asyncio.run(scenario())


def test_detached_session_with_a_seed_beyond_its_log_has_a_failing_fold(clock: FakeClock) -> None:
    session = LiveSession.detached("mem", clock, seed_length=3)
    with pytest.raises(ScheduleLogError):
        session.schedule_fold()
    with pytest.raises(ScheduleLogError):
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))


def test_a_failing_persistence_observer_is_contained(tmp_path: Path, clock: FakeClock) -> None:
    heard: list[bool] = []

    def broken(_ok: bool) -> None:
        raise RuntimeError("observer bug")

    async def scenario() -> bool:
        session = await make_store(tmp_path, clock).create()
        session.subscribe_persistence(broken)
        session.subscribe_persistence(heard.append)
        session.append(v.USER_MESSAGE, user("x"))
        ok = await session.flush()
        await session.close()
        return ok

    assert asyncio.run(scenario()) is True
    assert heard == [True]


def test_closing_a_detached_session_needs_no_storage(clock: FakeClock) -> None:
    async def scenario() -> bool:
        session = LiveSession.detached("mem", clock)
        session.append(v.USER_MESSAGE, user("x"))
        return await session.close()

    assert asyncio.run(scenario()) is True


def test_a_failed_write_is_retried_by_the_write_behind_timer(
    tmp_path: Path, clock: FakeClock
) -> None:
    timer = ManualTimer()
    ops = FailingOps()

    async def scenario() -> list[str]:
        session = await make_store(tmp_path, clock, timer=timer, ops=ops).create()
        outcomes: list[asyncio.Future[bool]] = []

        def heard(ok: bool) -> None:
            outcomes[-1].set_result(ok)

        session.subscribe_persistence(heard)
        session.append(v.USER_MESSAGE, user("retained"))
        ops.fail_writes = 1
        for expected in (False, True):
            outcomes.append(asyncio.get_running_loop().create_future())
            assert timer.fire() == 1
            assert await outcomes[-1] is expected
        assert timer.armed == []
        await session.close()
        return [e["data"]["text"] for e in lines_of(log_path(tmp_path, session.id))]

    assert asyncio.run(scenario()) == ["retained"]


def test_failed_writes_are_retried_on_a_bounded_back_off_and_logged_once(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    timer = ManualTimer()
    ops = FailingOps()

    async def scenario() -> list[float]:
        session = await make_store(tmp_path, clock, timer=timer, ops=ops).create()
        failed = asyncio.Event()
        session.subscribe_persistence(lambda ok: failed.set())
        session.append(v.USER_MESSAGE, user("retained"))
        ops.fail_writes = 9
        delays = []
        while ops.fail_writes or timer.armed:
            delays.append(timer.armed[0][0])
            failed.clear()
            timer.fire()
            await failed.wait()
        await session.close()
        return delays

    with caplog.at_level(logging.INFO, logger="core.session.writer"):
        delays = asyncio.run(scenario())
    assert delays == [0.2, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0, 5.0, 5.0]
    assert [r.levelname for r in caplog.records] == ["WARNING", "INFO"]
    assert "writes work again after 9 failed" in caplog.records[-1].getMessage()
    assert [e["data"]["text"] for e in lines_of(log_path(tmp_path, "s0001"))] == ["retained"]


def test_closing_after_a_failed_final_flush_leaves_no_timer_armed(
    tmp_path: Path, clock: FakeClock
) -> None:
    timer = ManualTimer()
    ops = FailingOps()

    async def scenario() -> bool:
        session = await make_store(tmp_path, clock, timer=timer, ops=ops).create()
        session.append(v.USER_MESSAGE, user("lost on a full disk"))
        ops.fail_writes = 1
        closed = await session.close()
        assert timer.armed == []
        assert await session.flush() is False  # closed: nothing is written any more
        assert await session.close() is False  # closing again repeats the outcome
        return closed

    assert asyncio.run(scenario()) is False


def test_a_cancelled_flush_leaves_the_write_and_the_other_flushes_alone(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        envelope = session.append_event(v.event(v.USER_MESSAGE, user("one"))).to_json()
        cancelled = asyncio.ensure_future(session.flush())
        kept = asyncio.ensure_future(session.flush())
        await asyncio.sleep(0)  # both wait on the write in flight
        cancelled.cancel()
        assert await kept is True
        assert cancelled.cancelled()
        assert lines_of(log_path(tmp_path, session.id)) == [envelope]
        await session.close()

    asyncio.run(scenario())


class BuggyOps(FailingOps):
    """A write that fails with something other than an OSError (a bug, not the disk)."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = True

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        if self.broken:
            raise ValueError("not a disk error")
        return super().pwrite(fd, data, offset)


def test_a_write_that_fails_with_a_bug_reaches_the_barrier_caller_and_keeps_the_events(
    tmp_path: Path, clock: FakeClock
) -> None:
    ops = BuggyOps()

    async def scenario() -> None:
        session = await make_store(tmp_path, clock, ops=ops).create()
        envelope = session.append_event(v.event(v.USER_MESSAGE, user("one"))).to_json()
        with pytest.raises(ValueError, match="not a disk error"):
            await session.flush()
        assert session.durable_count == 0
        ops.broken = False
        assert await session.flush() is True
        assert lines_of(log_path(tmp_path, session.id)) == [envelope]
        await session.close()

    asyncio.run(scenario())
