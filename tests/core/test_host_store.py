"""SessionHost on real session files (tmp_path): reopening, restarts, forks and a crash."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from core.host import SessionHost
from core.llm.offline import OfflineAssistant
from core.llm.provider import ModelProvider
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.core.agent.fakes import FakeWaker, Reply, ScriptedModel, counter_ids, settle
from tests.fakes import FakeClock

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]


def no_write_behind(_delay: float, _callback: Callable[[], None]) -> None:
    return None


def make_store(data_dir: Path, clock: FakeClock) -> SessionStore:
    return SessionStore(data_dir, clock, options=StoreOptions(scheduler=no_write_behind))


class Run:
    """One app run: a host on an opened session, with its own fake waker."""

    def __init__(self, session: LiveSession, provider: ModelProvider, clock: FakeClock) -> None:
        self.wakers: list[FakeWaker] = []
        self.host = SessionHost(
            session,
            provider,
            clock,
            lambda: "Europe/Berlin",
            self._waker,
            system_prompt="You are Chime.",
            new_id=counter_ids(f"run{id(self)}"),
        )

    def _waker(self, callback: Callable[[], None]) -> FakeWaker:
        self.wakers.append(FakeWaker(callback))
        return self.wakers[-1]

    async def idle(self) -> None:
        for _ in range(4):
            await settle()
            await self.host.owner.drained()
            await self.host.when_idle()


def read_log(data_dir: Path, session_id: str) -> list[dict[str, Any]]:
    lines = (data_dir / "sessions" / session_id / "session.jsonl").read_bytes().split(b"\n")
    return [json.loads(line) for line in lines[1:] if line]


def reminders(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        e for e in events if e["type"] == v.USER_MESSAGE and e["data"]["source"]["kind"] == "plugin"
    ]


def dispatches(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        e for e in events if e["type"] == v.SCHEDULE_CHANGE and e["data"]["operation"] == "dispatch"
    ]


def run_killed_child(module: str, *args: str) -> None:
    """Runs ``python -m module args`` on the repository and checks that it SIGKILLed itself."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == -9, child.stderr.decode()


async def set_reminder(store: SessionStore, clock: FakeClock, text: str) -> str:
    session = await store.create()
    run = Run(session, OfflineAssistant(clock), clock)
    run.host.start()
    run.host.submit(text)
    await run.idle()
    await run.host.dispose()
    return session.id


def test_reopening_a_session_after_its_reminders_fell_due_catches_them_up(tmp_path: Path) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[str]]:
        clock = FakeClock(START)
        store = make_store(tmp_path, clock)
        session = await store.create()
        run = Run(session, OfflineAssistant(clock), clock)
        run.host.start()
        for text in (
            "remind me in 2 minutes to stretch",
            "every 5 minutes remind me to drink water",
        ):
            run.host.submit(text)
            await run.idle()
        await run.host.dispose()
        clock.advance(timedelta(hours=3))
        run = Run(await store.open(session.id), OfflineAssistant(clock), clock)
        run.host.start()
        await run.idle()
        texts = [
            e["data"]["text"] for e in run.host.session.events if e["type"] == v.ASSISTANT_MESSAGE
        ]
        await run.host.dispose()
        return read_log(tmp_path, session.id), texts

    events, answers = asyncio.run(main())
    framings = [r["data"]["text"].split("\n", 1)[0] for r in reminders(events)]
    assert framings == ["[SCHEDULE REMINDER]", "[SCHEDULE REMINDER BATCH]"]
    assert len(dispatches(events)) == 2
    assert "stretch" in answers[-2]
    assert "drink water" in answers[-1]
    assert [e["data"]["status"] for e in events if e["type"] == v.TURN_END][-2:] == [
        "completed"
    ] * 2


def test_create_and_dispatch_durable_then_two_restarts_give_one_dispatch_and_one_request(
    tmp_path: Path,
) -> None:
    model = ScriptedModel()
    model.default = Reply("⏰ Reminder: stretch")

    async def main() -> list[dict[str, Any]]:
        clock = FakeClock(START)
        store = make_store(tmp_path, clock)
        session = await store.create()
        run = Run(session, model, clock)
        run.host.start()
        await run.host.tools.call("schedule_create", {"prompt": "stretch", "after_seconds": 60})
        await run.idle()
        await run.host.dispose()
        clock.advance(timedelta(minutes=5))
        for _ in range(3):  # the run that dispatches, then two restarts
            run = Run(await store.open(session.id), model, clock)
            run.host.start()
            await run.idle()
            await run.host.dispose()
        return read_log(tmp_path, session.id)

    events = asyncio.run(main())
    assert len(dispatches(events)) == 1
    assert len(reminders(events)) == 1
    assert len(model.requests) == 1


def test_a_fork_inherits_none_of_its_parents_reminders(tmp_path: Path) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[FakeWaker]]:
        clock = FakeClock(START)
        store = make_store(tmp_path, clock)
        parent_id = await set_reminder(store, clock, "remind me in 10 minutes to stretch")
        parent_events = read_log(tmp_path, parent_id)
        child = await store.fork(parent_id, len(parent_events))
        assert child.seed_length == len(parent_events)
        run = Run(child, OfflineAssistant(clock), clock)
        run.host.start()
        await run.idle()
        clock.advance(timedelta(hours=1))
        run.host.request_drive()
        await run.idle()
        await run.host.dispose()
        return read_log(tmp_path, child.id), run.wakers

    events, wakers = asyncio.run(main())
    assert reminders(events) == []
    assert wakers[0].arms == []


@pytest.mark.slow
@pytest.mark.parametrize("cut", ["first-line", "before-fsync"])
def test_a_crash_inside_the_reminder_group_never_duplicates_or_loses_the_admission(
    tmp_path: Path, cut: str
) -> None:
    clock = FakeClock(START)
    store = make_store(tmp_path, clock)
    session_id = asyncio.run(set_reminder(store, clock, "remind me in 2 minutes to stretch"))
    due = (START + timedelta(minutes=3)).isoformat()
    run_killed_child("tests.core.crash_child", str(tmp_path), session_id, due, cut)
    on_disk = read_log(tmp_path, session_id)
    if cut == "first-line":  # a torn group: the reminder's line without its dispatch
        assert (len(reminders(on_disk)), len(dispatches(on_disk))) == (1, 0)
        assert on_disk[-1]["group"] == 2
    else:
        assert (len(reminders(on_disk)), len(dispatches(on_disk))) == (1, 1)

    async def reopen() -> None:
        clock.set(START + timedelta(minutes=3))
        run = Run(
            await make_store(tmp_path, clock).open(session_id), OfflineAssistant(clock), clock
        )
        run.host.start()
        await run.idle()
        await run.host.dispose()

    asyncio.run(reopen())
    events = read_log(tmp_path, session_id)
    (reminder,) = reminders(events)
    assert len(dispatches(events)) == 1
    answered = [
        e for e in events if e["type"] == v.TURN_START and e["data"]["input"] == reminder["seq"]
    ]
    ends = {e["data"]["turn"]: e["data"]["status"] for e in events if e["type"] == v.TURN_END}
    assert ends[answered[-1]["data"]["turn"]] == "completed"
    torn = list((tmp_path / "sessions" / session_id).glob("session.jsonl.torn-*"))
    assert len(torn) == (1 if cut == "first-line" else 0)


def test_a_reminder_due_while_the_disk_is_full_arrives_on_its_own_once_the_disk_has_room(
    tmp_path: Path,
) -> None:
    """Only timers run after the disk heals: the write-behind retry, then the owner."""
    from tests.core.session.helpers import FailingOps, ManualTimer

    async def main() -> list[dict[str, Any]]:
        clock = FakeClock(START)
        ops, timer = FailingOps(), ManualTimer()
        options = StoreOptions(file_ops=ops, scheduler=timer)
        store = SessionStore(tmp_path, clock, options=options)
        run = Run(await store.create(), ScriptedModel(), clock)
        run.host.start()
        await run.host.tools.call("schedule_create", {"prompt": "stretch", "after_seconds": 60})
        await run.idle()
        ops.fail_writes = 10**6  # the disk is full
        run.host.session.append(v.SESSION_TITLE, {"title": "queued while full"})
        clock.advance(timedelta(seconds=61))
        run.wakers[0].fire()  # the reminder falls due: its barrier fails
        await run.idle()
        assert reminders(list(run.host.session.events)) == []
        written = asyncio.Event()
        run.host.on_persistence(lambda ok: written.set() if ok else None)
        ops.fail_writes = 0  # space returned; nobody types
        assert timer.fire() == 1  # the write-behind's retry
        await asyncio.wait_for(written.wait(), 10)
        await run.idle()
        delivered = read_log(tmp_path, run.host.session.id)
        await run.host.dispose()
        return delivered

    events = asyncio.run(main())
    assert len(reminders(events)) == 1
    assert len(dispatches(events)) == 1
