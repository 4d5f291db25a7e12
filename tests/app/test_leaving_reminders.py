"""Reminders nobody misses, in the real window: closing, quitting or deleting a conversation with
active reminders says so first (with "Don't ask again"), and the reminders panel's Delete goes
through the assistant's delete tool as a message it answers."""

from __future__ import annotations

import functools
import json
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.settings import load_settings
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.dialogs import LeaveAnswer


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def settled(chime: RealApp) -> None:
    """Wait until the actions' background work (a close's new session, the sidebar) is done, so
    nothing runs between the test and its teardown."""
    chime.until(lambda: chime.tasks.pending == 0)


def new_session(chime: RealApp) -> str:
    before = chime.controller.current
    chime.trigger("new_session")
    chime.until(lambda: chime.controller.current not in (None, before))
    assert chime.controller.current is not None
    return chime.controller.current


def test_closing_a_conversation_with_reminders_says_when_the_next_is_due_and_cancel_keeps_it(
    open_app: Opener,
) -> None:
    with open_app() as chime:  # the clock says 14:00 in Berlin
        sid = chime.controller.current
        chime.send("remind me in 30 minutes to stretch")
        chime.send("remind me tomorrow at 9 to water the plants")
        chime.answers.leaves.append(None)  # Cancel
        chime.trigger("close_session")
        [warning] = chime.answers.warnings
        assert warning.title == "Close this conversation?"
        assert warning.action == "Close"
        assert warning.text == (
            "2 reminders in this conversation will wait until you open it again; the next is due "
            "at 14:30."
        )
        assert chime.controller.current == sid
        assert sid in chime.controller.open
        chime.trigger("close_session")  # no answer scripted: the user goes ahead
        chime.until(lambda: sid not in chime.controller.open)
        settled(chime)
        assert len(chime.answers.warnings) == 2


def test_a_conversation_without_reminders_closes_without_a_question(open_app: Opener) -> None:
    with open_app() as chime:
        first = chime.controller.current
        chime.send("hello")
        new_session(chime)
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(first))
        chime.until(lambda: chime.controller.current == first)
        chime.trigger("close_session")
        chime.until(lambda: first not in chime.controller.open)
        settled(chime)
        assert chime.answers.warnings == []


def test_quitting_counts_the_reminders_of_every_open_conversation(open_app: Opener) -> None:
    with open_app() as chime:
        first = chime.controller.current
        chime.send("remind me in 2 hours to call Ana")
        new_session(chime)
        chime.send("remind me in 45 minutes to stretch")
        chime.send("every 30 minutes remind me to drink water")
        chime.answers.leaves.append(None)
        chime.trigger("quit")
        [warning] = chime.answers.warnings
        assert warning.title == "Quit Chime?"
        assert warning.text == (
            "3 reminders in 2 conversations will wait until you start Chime again; the next is "
            "due at 14:30."
        )
        chime.run(chime.controller.open[chime.controller.current].session.flush())
        assert not chime.chime._finished  # cancelled: still running
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(first))
        chime.until(lambda: chime.controller.current == first)
        chime.trigger("delete_session")  # its one reminder: it goes to the trash, with Undo
        chime.until(lambda: first not in chime.controller.open and chime.controller.current)
        settled(chime)
        chime.answers.leaves.append(None)
        chime.trigger("quit")
        assert chime.answers.warnings[-1].text == (
            "2 reminders in this conversation will wait until you start Chime again; the next is "
            "due at 14:30."
        )
        other = new_session(chime)
        chime.answers.leaves.append(None)
        chime.trigger("quit")
        assert chime.controller.current == other
        assert chime.answers.warnings[-1].text == (
            "2 reminders in another open conversation will wait until you start Chime again; the "
            "next is due at 14:30."
        )
        chime.trigger("quit")
        chime.until(lambda: chime.chime._finished)


def test_deleting_says_the_reminders_stop_and_cancel_keeps_the_conversation(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        sid = chime.controller.current
        assert sid is not None
        chime.send("remind me in 20 minutes to stretch")
        chime.answers.leaves.append(None)
        chime.trigger("delete_session")
        [warning] = chime.answers.warnings
        assert warning.action == "Delete"
        assert warning.text == (
            "This conversation has 1 reminder. Deleting it stops it (Undo brings the conversation "
            "back with it); it is due at 14:20."
        )
        assert not (tmp_path / "trash" / sid).exists()
        chime.trigger("delete_session")
        chime.until(lambda: (tmp_path / "trash" / sid).is_dir())
        settled(chime)


def test_dont_ask_again_is_saved_and_the_next_close_does_not_ask(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        first = chime.controller.current
        chime.send("remind me in 20 minutes to stretch")
        second = new_session(chime)
        chime.send("remind me in 40 minutes to walk")
        chime.answers.leaves.append(LeaveAnswer(dont_ask_again=True))
        chime.trigger("close_session")
        chime.until(lambda: second not in chime.controller.open)
        settled(chime)
        assert load_settings(tmp_path).warn_waiting_reminders is False
        saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
        assert saved["warn_waiting_reminders"] is False
        chime.until(lambda: chime.controller.current == first)
        chime.trigger("close_session")
        chime.until(lambda: first not in chime.controller.open)
        settled(chime)
        assert len(chime.answers.warnings) == 1


def test_the_panels_delete_is_a_message_the_assistant_answers_with_its_delete_tool(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.send("remind me in 10 minutes to stretch")
        panel = chime.window.reminders
        assert panel.model.rowCount() == 1
        if not chime.window.reminders_dock.isVisible():  # a narrow test screen collapses it
            chime.window.window_actions.action("toggle_reminders").trigger()
        panel.list.setCurrentIndex(panel.model.index(0))
        chime.inside(lambda: chime.qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton))
        chime.until(
            lambda: (
                chime.idle() and chime.kinds()[-1:] == ["assistant"] and panel.model.rowCount() == 0
            )
        )
        texts = chime.transcript_texts()
        assert "Delete reminder schedule-1" in texts
        assert texts[-1] == "Deleted “stretch” *(schedule-1)*."
        model = chime.window.transcript_model
        tools = [model.row_at(r) for r in range(model.rowCount()) if chime.kinds()[r] == "tool"]
        assert tools[-1] is not None
        assert tools[-1].title == "Delete reminder — schedule-1 · deleted"
        assert panel.empty.text().startswith("No active reminders.\n\nAsk for one")
        settled(chime)


def test_after_the_last_reminder_fires_the_panel_lists_it_as_delivered(open_app: Opener) -> None:
    with open_app() as chime:
        chime.send("remind me in 1 minute to stretch")
        panel = chime.window.reminders
        assert "· in 1 min\n" in panel.model.index(0).data()
        chime.clock.advance(timedelta(seconds=40))
        panel.model.refresh_times()
        assert "· in 20 s\n" in panel.model.index(0).data()
        chime.clock.advance(timedelta(seconds=20))
        chime.controller.redrive_all()
        chime.until(lambda: "reminder" in chime.kinds() and chime.idle())
        chime.until(lambda: panel.model.rowCount() == 0)
        assert panel.empty.text() == (
            "No active reminders.\n\nRecently delivered:\n• stretch — due today 14:01"
        )
