"""Disk faults for the survival tests and scripts/disk_faults.py: a switchable failing file-ops
seam, a host on a real store, and the "nothing lost, nothing twice" comparison after a reopen.

Owns: ``FaultyOps`` (the store's ``FileOps`` seam failing chosen calls with a chosen errno, as a
read-only, permission-denied or full disk does), ``Rig`` (a ``SessionHost`` on a real
``SessionStore`` in a data folder, offline assistant, fake clock, recording waker) and
``reopened_events``. Must not: touch the session files except through the engine.

Why injection: the tests run as root here, so ``chmod`` stops nothing, and Linux refuses to
remount a file system read-only while a file on it is open for writing (EBUSY). The real-mount
versions (a full tmpfs, an ext4 image shut down under the session) are in scripts/disk_faults.py.
"""

from __future__ import annotations

import asyncio
import errno
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.host import SessionHost
from core.llm.offline import OfflineAssistant
from core.session.jsonl_store import OsFileOps
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests.fakes import FakeClock, RecordingWaker

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
ALL_OPS = frozenset({"pwrite", "sync", "truncate"})


@dataclass(frozen=True)
class Fault:
    """What a broken disk does: which calls fail with which errno; ``short`` lets a failing
    write put half its bytes on disk first (a real ENOSPC is a short write, then the error)."""

    code: int
    ops: frozenset[str]
    short: bool = False

    @property
    def name(self) -> str:
        return f"{errno.errorcode[self.code]}-{'+'.join(sorted(self.ops))}{'-short' if self.short else ''}"


READ_ONLY = Fault(errno.EROFS, ALL_OPS)
"""A data folder that became read-only: every write, fsync and truncate fails."""
NO_PERMISSION = Fault(errno.EACCES, ALL_OPS)
DISK_FULL = Fault(errno.ENOSPC, frozenset({"pwrite"}), short=True)
"""A full disk: a write lands partly, then ENOSPC; truncating back still works."""
FSYNC_FAILS = Fault(errno.EIO, frozenset({"sync"}))
"""The write reaches the page cache, fsync reports an I/O error."""
DYING_DISK = Fault(errno.EIO, frozenset({"sync", "truncate"}))
"""The write lands, fsync and the truncate back fail: unacknowledged bytes stay past the end."""
FAULTS = (READ_ONLY, NO_PERMISSION, DISK_FULL, FSYNC_FAILS, DYING_DISK)


class FaultyOps(OsFileOps):
    """The store's file-ops seam; while ``fault`` is set, its calls fail as the fault says."""

    def __init__(self) -> None:
        self.fault: Fault | None = None
        self.failures = 0

    def _fails(self, op: str) -> bool:
        failing = self.fault is not None and op in self.fault.ops
        self.failures += failing
        return failing

    def _raise(self) -> None:
        assert self.fault is not None
        raise OSError(self.fault.code, os.strerror(self.fault.code))

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        if self._fails("pwrite"):
            if self.fault is not None and self.fault.short and len(data) > 1:
                super().pwrite(fd, data[: len(data) // 2], offset)
            self._raise()
        return super().pwrite(fd, data, offset)

    def sync(self, fd: int) -> None:
        if self._fails("sync"):
            self._raise()
        super().sync(fd)

    def truncate(self, fd: int, length: int) -> None:
        if self._fails("truncate"):
            self._raise()
        super().truncate(fd, length)


def no_write_behind(_delay: float, _callback: Callable[[], None]) -> None:
    return None


def make_store(data: Path, clock: FakeClock, ops: FaultyOps | None = None) -> SessionStore:
    return SessionStore(data, clock, options=StoreOptions(file_ops=ops, scheduler=no_write_behind))


@dataclass
class Rig:
    """A live host on a real store whose disk can break (``ops.fault``)."""

    host: SessionHost
    ops: FaultyOps
    clock: FakeClock
    store: SessionStore
    outcomes: list[bool] = field(default_factory=list)

    @classmethod
    async def open(cls, data: Path, session_id: str | None = None) -> Rig:
        clock, ops = FakeClock(START), FaultyOps()
        store = make_store(data, clock, ops)
        session = await (store.open(session_id) if session_id else store.create())
        numbers = iter(range(1, 1 << 30))
        host = SessionHost(
            session,
            OfflineAssistant(clock),
            clock,
            lambda: "UTC",
            RecordingWaker,
            system_prompt="You are Chime.",
            new_id=lambda: f"id-{next(numbers)}",
        )
        rig = cls(host, ops, clock, store)
        host.on_persistence(rig.outcomes.append)
        host.start()
        await rig.settle()
        return rig

    @property
    def session(self) -> LiveSession:
        session: LiveSession = self.host.session  # type: ignore[assignment]  # built from a store
        return session

    @property
    def waker(self) -> RecordingWaker:
        waker: RecordingWaker = self.host.waker  # type: ignore[assignment]  # our factory
        return waker

    async def settle(self) -> None:
        for _ in range(4):
            for _ in range(5):
                await asyncio.sleep(0)
            await self.host.owner.drained()
            await self.host.when_idle()

    async def say(self, text: str) -> list[Mapping[str, Any]]:
        """Submit ``text``; the events its turn appended."""
        first = len(self.session.events)
        self.host.submit(text)
        await self.settle()
        return list(self.session.events[first:])

    def snapshot(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self.session.events]


def tool_values(events: Sequence[Mapping[str, Any]]) -> list[str]:
    return [e["data"]["content"] for e in events if e["type"] == "tool/result"]


async def reopened_events(data: Path, session_id: str) -> list[dict[str, Any]]:
    """The session's events as a fresh, fault-free store opens them (read-only: no recovery)."""
    session = await make_store(data, FakeClock(START)).open(session_id, read_only=True)
    try:
        return [dict(e) for e in session.events]
    finally:
        await session.close()


def log_lines(data: Path, session_id: str) -> list[bytes]:
    raw = (data / "sessions" / session_id / "session.jsonl").read_bytes()
    return raw.split(b"\n")[1:-1]
