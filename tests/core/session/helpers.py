"""Helpers for the session-store tests: a store on tmp_path, a manual timer, failing disk calls."""

from __future__ import annotations

import errno
import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.session.jsonl_store import OsFileOps
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.fakes import FakeClock


class ManualTimer:
    """A Scheduler whose callbacks run only when the test calls ``fire``."""

    def __init__(self) -> None:
        self.armed: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> ManualTimer.Handle:
        handle = ManualTimer.Handle(self, (delay, callback))
        self.armed.append(handle.entry)
        return handle

    def fire(self) -> int:
        due, self.armed = self.armed, []
        for _delay, callback in due:
            callback()
        return len(due)

    class Handle:
        def __init__(self, timer: ManualTimer, entry: tuple[float, Callable[[], None]]) -> None:
            self.timer, self.entry = timer, entry

        def cancel(self) -> None:
            if self.entry in self.timer.armed:
                self.timer.armed.remove(self.entry)


class FailingOps(OsFileOps):
    """Real disk calls, except those the test tells to fail with ENOSPC (or another errno)."""

    def __init__(self) -> None:
        self.fail_writes = 0
        self.fail_syncs = 0
        self.fail_truncates = 0
        self.short_writes = False
        self.writes = 0
        self.syncs = 0

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        self.writes += 1
        if self.fail_writes:
            self.fail_writes -= 1
            os.pwrite(fd, data[: len(data) // 2], offset)  # a partial write, then the error
            raise OSError(errno.ENOSPC, "No space left on device")
        if self.short_writes and len(data) > 1:
            return os.pwrite(fd, data[:1], offset)
        return os.pwrite(fd, data, offset)

    def sync(self, fd: int) -> None:
        self.syncs += 1
        if self.fail_syncs:
            self.fail_syncs -= 1
            raise OSError(errno.EIO, "Input/output error")
        os.fsync(fd)

    def truncate(self, fd: int, length: int) -> None:
        if self.fail_truncates:
            self.fail_truncates -= 1
            raise OSError(errno.EIO, "Input/output error")
        os.ftruncate(fd, length)


def counter_ids(prefix: str = "s") -> Callable[[], str]:
    numbers = itertools.count(1)
    return lambda: f"{prefix}{next(numbers):04d}"


def make_store(
    data_dir: Path,
    clock: FakeClock,
    *,
    timer: ManualTimer | None = None,
    ops: FailingOps | None = None,
    checkpoint_every: int = 50_000,
) -> SessionStore:
    options = StoreOptions(
        file_ops=ops, scheduler=timer or ManualTimer(), checkpoint_every=checkpoint_every
    )
    return SessionStore(data_dir, clock, counter_ids(), options=options)


def create_change(schedule_id: str, prompt: str = "check logs") -> dict[str, Any]:
    return {
        "version": 1,
        "operation": "create",
        "schedule": {
            "id": schedule_id,
            "kind": "after",
            "prompt": prompt,
            "afterSeconds": 30,
            "scheduledAt": "2026-08-05T12:00:30.000Z",
        },
    }


def delete_change(schedule_id: str) -> dict[str, Any]:
    return {"version": 1, "operation": "delete", "id": schedule_id}


def user(text: str, message_id: str = "m") -> dict[str, Any]:
    return v.user_message(message_id, text, v.user_source("Europe/Berlin"))


def add_turn(session: LiveSession, turn: int, text: str, *, end: bool = True) -> None:
    """A complete (or, with ``end=False``, open) turn answering a new user message."""
    session.append(v.USER_MESSAGE, user(text, f"m{turn}"))
    session.append(v.TURN_START, v.turn_start(turn, len(session.events) - 1))
    session.append(v.CONTEXT_TIME, v.context_time("Europe/Berlin", "It is noon."))
    calls = [{"id": f"call-{turn}", "name": "schedule_list", "arguments": "{}"}]
    session.append(
        v.ASSISTANT_MESSAGE,
        v.assistant_message(f"a{turn}", "", calls, {"provider": "t", "name": "m"}, "tool_calls"),
    )
    if end:
        session.append(
            v.TOOL_RESULT, v.tool_result(f"call-{turn}", "schedule_list", "[]", is_error=False)
        )
        session.append(
            v.ASSISTANT_MESSAGE,
            v.assistant_message(
                f"b{turn}", f"answer {text}", [], {"provider": "t", "name": "m"}, "stop"
            ),
        )
        session.append(v.TURN_END, v.turn_end(turn, "completed"))


def log_path(data_dir: Path, session_id: str) -> Path:
    return data_dir / "sessions" / session_id / "session.jsonl"
