"""A warm open shows the checkpoint's state at once and refreshes it when the checkpoint's digest
no longer matches the log: the re-scanned reminders, or (a corrupt log) the read-only banner with
the owner and agent stopped; a turn that was running then just stops, with no traceback.

The deferred digest check is held back by a gate (``CheckpointVerifier.first``, the stage that
checks the digest, waits on it), so
each test sees the checkpoint's state first and the refreshed state after it, in that order."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from core.session import recovery
from tests import wire as v
from tests.app.harness import Chime
from tests.fakes import FakeClock


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Verifications wait (in their worker thread) until the test sets the gate."""
    opened = threading.Event()
    original = recovery.CheckpointVerifier.first

    def held(self: recovery.CheckpointVerifier, soon_ms: int | None) -> Any:
        opened.wait(10)
        return original(self, soon_ms)

    monkeypatch.setattr(recovery.CheckpointVerifier, "first", held)
    yield opened
    opened.set()  # never leave a worker thread waiting


def log_of(data_dir: Path, session_id: str) -> Path:
    return data_dir / "sessions" / session_id / "session.jsonl"


def rewrite_line(path: Path, index: int, old: bytes, new: bytes) -> None:
    """Replace ``old`` by ``new`` (same length) in line ``index``: a covered byte changes."""
    assert len(old) == len(new)
    lines = path.read_bytes().split(b"\n")
    assert old in lines[index]
    lines[index] = lines[index].replace(old, new, 1)
    path.write_bytes(b"\n".join(lines))


def reopen(qtbot: Any, loop: asyncio.AbstractEventLoop, data_dir: Path, clock: FakeClock, sid: str):  # type: ignore[no-untyped-def]  # returns the harness
    chime = Chime(qtbot, loop, data_dir, clock)
    chime.run(chime.controller.start([sid], sid))
    chime.window.show()
    return chime


def first_reminder(chime: Chime) -> str:
    model = chime.window.reminders.model
    return str(model.index(0).data()) if model.rowCount() else ""


def test_a_checkpoint_that_no_longer_matches_is_replaced_by_the_rescanned_reminders(
    qtbot, loop, tmp_path: Path, clock: FakeClock, gate: threading.Event
) -> None:
    first = Chime(qtbot, loop, tmp_path, clock)
    first.run(first.controller.start([], None))
    first.run(first.controller.submit("remind me in 5 minutes to stretch"))
    first.until(lambda: first.idle() and first.window.reminders.model.rowCount() == 1)
    sid = first.controller.current
    assert sid is not None
    first.quit()  # closing writes the checkpoint
    path = log_of(tmp_path, sid)
    index = next(
        i
        for i, line in enumerate(path.read_bytes().split(b"\n"))
        if b'"schedule/change"' in line and b'"stretch"' in line
    )
    rewrite_line(path, index, b'"stretch"', b'"strexch"')
    again = reopen(qtbot, loop, tmp_path, clock, sid)
    opened = again.controller.current_session()
    assert opened is not None
    assert not opened.session.verified
    assert first_reminder(again).startswith("stretch")  # the checkpoint's word, shown at once
    gate.set()
    again.until(lambda: first_reminder(again).startswith("strexch"))
    assert opened.session.verified
    assert opened.live
    assert not again.window.banner.isVisible()
    again.quit()


def build_long_session(chime: Chime, turns: int) -> str:
    """A closed session of ``turns`` answered turns and one unanswered input (a checkpoint)."""

    async def build() -> str:
        session = await chime.store.create()
        for turn in range(1, turns + 1):
            seq = len(session.events)
            session.append(
                v.USER_MESSAGE,
                v.user_message(f"u{turn}", f"question {turn}", {"kind": "user", "timeZone": None}),
            )
            session.append(v.TURN_START, v.turn_start(turn, seq))
            model = {"provider": "test", "name": "t"}
            session.append(
                v.ASSISTANT_MESSAGE,
                v.assistant_message(f"a{turn}", f"answer {turn}", [], model, "stop"),
            )
            session.append(v.TURN_END, v.turn_end(turn, "completed"))
        session.append(
            v.USER_MESSAGE,
            v.user_message("last", "one more question", {"kind": "user", "timeZone": None}),
        )
        await session.close()
        return session.id

    result: str = chime.run(build())
    return result


def test_a_log_found_corrupt_after_a_warm_open_turns_read_only_and_its_running_turn_just_stops(
    qtbot, loop, tmp_path: Path, clock: FakeClock, gate: threading.Event, caplog: Any
) -> None:
    maker = Chime(qtbot, loop, tmp_path, clock)
    sid = build_long_session(maker, 51)  # more turns than a warm open parses: line 1 is unseen
    path = log_of(tmp_path, sid)
    rewrite_line(path, 1, b'{"seq":0,', b'{"seq"!0,')
    size = path.stat().st_size
    caplog.set_level(logging.WARNING)
    again = reopen(qtbot, loop, tmp_path, clock, sid)
    opened = again.controller.current_session()
    assert opened is not None
    agent = opened.agent
    assert agent is not None
    ends: list[tuple[int, str]] = []
    agent.on_turn_end(lambda turn, status: ends.append((turn, status)))
    assert opened.live
    assert not again.window.banner.isVisible()
    again.until(
        lambda: agent.status == "running"
    )  # the unanswered input's turn waits at its barrier
    gate.set()
    again.until(lambda: again.window.banner.isVisible() and agent.status == "idle")
    assert again.window.status.state_label.text() == "Session: corrupt"
    assert "corrupt at line 2" in again.window.banner.label.text()
    assert not again.window.composer.editor.isEnabled()
    assert not opened.live  # owner and agent stopped
    assert agent.stopped is not None
    assert ends == [(52, "interrupted")]
    assert again.window.findChildren(QMessageBox) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not any(r.exc_info for r in caplog.records)  # no traceback anywhere
    again.quit()
    assert path.stat().st_size == size  # the corrupt log is never written to
