"""A child process for the verb crash test: it opens a session, edits its first input, and
SIGKILLs itself on one side of the edit's ``user/message`` reaching the disk.

Usage: python -m tests.core.verb_crash_child DATA_DIR SESSION_ID NOW_ISO CUT
CUT ``before``: die at the write that holds the edit, before any of its bytes reach the file.
CUT ``message``: the edit's turn is held back (the maintenance phase is claimed, as the reminder
owner does), the barrier writes the ``user/message`` alone and fsyncs it, then the child dies.
CUT ``turn``: the turn's first barrier writes the ``user/message``, its ``turn/start`` and the
``context/time`` reading and fsyncs them; the child dies before the model answers.
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
from tests.core.agent.fakes import FakeWaker, counter_ids
from tests.fakes import FakeClock

EDITED = "what can you do?"
"""The edit's new text (the first input of the session is the one edited)."""


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class KillingOps(OsFileOps):
    """The store's file-ops seam, dying at the write of the edit (its ``revises`` field)."""

    def __init__(self, cut: str) -> None:
        self.cut = cut
        self.armed = False

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        if b'"revises":' in data:
            if self.cut == "before":
                die()
            self.armed = True
        return super().pwrite(fd, data, offset)

    def sync(self, fd: int) -> None:
        super().sync(fd)
        if self.armed:
            die()


async def main(data_dir: Path, session_id: str, now: datetime, cut: str) -> None:
    clock = FakeClock(now)
    options = StoreOptions(file_ops=KillingOps(cut), scheduler=lambda _d, _c: None)
    session = await SessionStore(data_dir, clock, options=options).open(session_id)
    host = SessionHost(
        session,
        OfflineAssistant(clock),
        clock,
        lambda: "UTC",
        FakeWaker,
        system_prompt="You are Chime.",
        new_id=counter_ids("child"),
    )
    host.start()
    await host.when_idle()
    if cut == "turn":
        host.agent.edit(0, EDITED, "UTC")
        await host.when_idle()  # the turn's first barrier writes the edit with its turn/start
    else:
        held = host.agent.claim_maintenance()
        assert held is not None, "the agent is idle: the phase is free"
        host.agent.edit(0, EDITED, "UTC")
        await session.flush()  # the edit alone: its turn waits for the phase
    raise SystemExit("the edit was never written")


if __name__ == "__main__":
    asyncio.run(
        main(Path(sys.argv[1]), sys.argv[2], datetime.fromisoformat(sys.argv[3]), sys.argv[4])
    )
