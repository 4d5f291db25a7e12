"""A child process for the crash test: it opens a session whose reminder is due and SIGKILLs
itself while the owner's reminder group is being written.

Usage: python -m tests.core.crash_child DATA_DIR SESSION_ID NOW_ISO CUT
CUT ``first-line``: write only the group's first line, then die (a torn group on disk).
CUT ``before-fsync``: write everything, then die before fsync (the page cache keeps it).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import datetime
from pathlib import Path

from core.host import SessionHost
from core.llm.offline import OfflineAssistant
from core.session.jsonl_store import OsFileOps
from core.session.store import SessionStore, StoreOptions
from tests.core.agent.fakes import FakeWaker
from tests.fakes import FakeClock


class KillingOps(OsFileOps):
    """The store's file-ops seam, dying at the chosen point of the reminder group's write."""

    def __init__(self, cut: str) -> None:
        self.cut = cut
        self.armed = False

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        start = data.find(b'"group":')
        if start < 0:
            return super().pwrite(fd, data, offset)
        if self.cut == "first-line":
            end = data.index(b"\n", start) + 1
            super().pwrite(fd, data[:end], offset)
            os.kill(os.getpid(), signal.SIGKILL)
        self.armed = True
        return super().pwrite(fd, data, offset)

    def sync(self, fd: int) -> None:
        if self.armed:
            os.kill(os.getpid(), signal.SIGKILL)
        super().sync(fd)


async def main(data_dir: Path, session_id: str, now: datetime, cut: str) -> None:
    clock = FakeClock(now)
    options = StoreOptions(file_ops=KillingOps(cut), scheduler=lambda _d, _c: None)
    session = await SessionStore(data_dir, clock, options=options).open(session_id)
    host = SessionHost(
        session, OfflineAssistant(clock), clock, lambda: "UTC", FakeWaker, system_prompt="x"
    )
    host.start()
    for _ in range(200):
        await asyncio.sleep(0)
        await host.owner.drained()
    raise SystemExit("the reminder group was never written")


if __name__ == "__main__":
    asyncio.run(
        main(Path(sys.argv[1]), sys.argv[2], datetime.fromisoformat(sys.argv[3]), sys.argv[4])
    )
