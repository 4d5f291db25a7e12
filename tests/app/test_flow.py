"""The whole app in-process: type a reminder, see it confirmed and listed, let it fire, quit,
restart and catch up; read-only and corrupt sessions; keyboard only."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.state import read_state
from tests.app.harness import Chime
from tests.fakes import FakeClock

# WORKAROUND(offscreen QPA): showing a main window logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def start(qtbot, loop, data_dir: Path, clock: FakeClock) -> Chime:
    chime = Chime(qtbot, loop, data_dir, clock)
    state = read_state(data_dir)
    chime.run(chime.controller.start(list(state.open), state.current))
    chime.window.show()
    return chime


def type_and_send(qtbot, chime: Chime, text: str) -> None:
    editor = chime.window.composer.editor
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


def fire_waker(chime: Chime) -> None:
    """The owner's timer, re-armed after the fake clock moved: a 0 ms timer fires at once."""
    opened = chime.controller.current_session()
    assert opened is not None
    waker = opened.waker
    assert waker is not None
    chime.until(lambda: waker.wake_at is not None)
    assert waker.wake_at is not None
    waker.arm(waker.wake_at)


@pytest.mark.slow
def test_a_typed_reminder_is_confirmed_listed_and_fires_as_a_turn(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    chime.window.composer.editor.setFocus()
    type_and_send(qtbot, chime, "remind me in 2 minutes to stretch")
    chime.until(lambda: chime.idle() and "assistant" in chime.kinds())
    texts = chime.transcript_texts()
    assert texts[0] == "remind me in 2 minutes to stretch"
    assert any(t.startswith("Create reminder — stretch") and "schedule-1" in t for t in texts)
    assert any("stretch" in t and "schedule-1" in t for t in texts if not t.startswith("Create"))
    panel = chime.window.reminders.model
    assert panel.rowCount() == 1
    assert panel.index(0).data().startswith("stretch\nonce · today 14:02 · in 2 min")
    clock.advance(timedelta(minutes=2))
    fire_waker(chime)
    chime.until(
        lambda: "reminder" in chime.kinds() and chime.idle() and chime.kinds()[-1] == "assistant"
    )
    assert chime.transcript_texts()[chime.kinds().index("reminder")] == "stretch"
    assert panel.rowCount() == 0
    chime.quit()


@pytest.mark.slow
def test_quitting_then_restarting_catches_up_the_overdue_reminder(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    type_and_send(qtbot, chime, "remind me in 2 minutes to stretch")
    chime.until(lambda: chime.idle() and chime.window.reminders.model.rowCount() == 1)
    session_id = chime.controller.current
    chime.quit()
    assert read_state(tmp_path).open == (session_id,)
    clock.advance(timedelta(minutes=30))
    again = start(qtbot, loop, tmp_path, clock)
    assert again.controller.current == session_id
    again.until(
        lambda: "reminder" in again.kinds() and again.idle() and again.kinds()[-1] == "assistant"
    )
    row = again.window.transcript_model.row_at(again.kinds().index("reminder"))
    assert row is not None
    assert row.late
    again.quit()
