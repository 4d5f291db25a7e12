"""The real window's session actions, driven through their QActions and shortcuts: what the user
sees in the sidebar, the title bar, the transcript, the reminders panel and on disk."""

from __future__ import annotations

import errno
import functools
import json
import os
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from app.run_log import LOG_FILE, install_excepthook
from app.state import read_state
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def press(chime: RealApp, key: Qt.Key, modifiers: Qt.KeyboardModifier = CTRL) -> None:
    chime.inside(lambda: chime.qtbot.keyClick(chime.window, key, modifiers))


def test_ctrl_n_adds_a_sidebar_row_and_shows_the_new_session(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        first = chime.controller.current
        assert [sid for sid, _ in chime.sidebar()] == [first]
        chime.send("hello")
        press(chime, Qt.Key.Key_N)
        chime.until(lambda: chime.controller.current != first)
        second = chime.controller.current
        assert {sid for sid, _ in chime.sidebar()} == {first, second}
        assert chime.window.sessions.selected_id() == second
        assert chime.transcript_texts() == []
        assert chime.window.windowTitle() == "Chime"
        assert chime.window.composer.editor.hasFocus()
        press(chime, Qt.Key.Key_N)  # again, on the empty one: no second empty session
        chime.run(chime.controller.refresh_sessions())
        assert chime.controller.current == second
        assert len(chime.sidebar()) == 2


def test_rename_changes_the_sidebar_title_and_the_window_title(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        sid = chime.controller.current
        chime.answers.titles.append("Stretching plan")
        press(chime, Qt.Key.Key_F2, Qt.KeyboardModifier.NoModifier)
        chime.until(lambda: chime.window.windowTitle() == "Stretching plan — Chime")
        assert chime.sidebar() == [(sid, "Stretching plan")]
        chime.answers.titles.append(None)  # cancelled: nothing changes
        chime.trigger("rename_session")
        assert chime.answers.titles == []
        assert chime.window.windowTitle() == "Stretching plan — Chime"
        assert chime.sidebar() == [(sid, "Stretching plan")]


def test_fork_copies_the_history_but_none_of_the_reminders(open_app: Opener) -> None:
    with open_app() as chime:
        parent = chime.controller.current
        chime.send("remind me in 10 minutes to stretch")
        assert chime.window.reminders.model.rowCount() == 1
        history = chime.transcript_texts()
        chime.trigger("fork_session")
        chime.until(lambda: chime.controller.current not in (None, parent))
        child = chime.controller.current
        assert child is not None
        assert chime.transcript_texts()[: len(history)] == history
        assert chime.window.reminders.model.rowCount() == 0
        assert chime.controller.open[child].bridge.active_reminders() == ()
        assert {sid for sid, _ in chime.sidebar()} == {parent, child}
        assert chime.controller.open[parent].bridge.active_reminders() != ()  # the parent keeps its
        titles = dict(chime.sidebar())
        assert titles[child] == f"{titles[parent]} (fork)"  # told apart from its original
        assert chime.window.windowTitle() == f"{titles[parent]} (fork) — Chime"


def test_the_window_title_follows_the_first_message_at_once(open_app: Opener) -> None:
    with open_app() as chime:
        assert chime.window.windowTitle() == "Chime"
        chime.send("plan the garden\nwith details")
        assert chime.window.windowTitle() == "plan the garden — Chime"


def test_export_writes_the_chosen_markdown_and_jsonl_files(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("remind me in 10 minutes to stretch")
        chime.answers.titles.append("Desk/stretches")
        chime.trigger("rename_session")
        chime.answers.paths += [tmp_path / "out.md", tmp_path / "out.jsonl"]
        press(chime, Qt.Key.Key_E)
        chime.until(lambda: "Exported to" in chime.window.message_bar.text())
        press(chime, Qt.Key.Key_E, CTRL | SHIFT)
        chime.until(lambda: (tmp_path / "out.jsonl").exists())
        suggested = [(path.name, kind) for path, kind in chime.answers.suggested]
        assert suggested == [("Desk-stretches.md", "markdown"), ("Desk-stretches.jsonl", "jsonl")]
        markdown = (tmp_path / "out.md").read_text(encoding="utf-8")
        assert "Desk/stretches" in markdown
        assert "remind me in 10 minutes to stretch" in markdown
        chime.until(lambda: str(tmp_path / "out.jsonl") in chime.window.message_bar.text())
        lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
        events = [json.loads(line) for line in lines]
        on_disk = Path(
            chime.chime.folder, "sessions", chime.controller.current or "", "session.jsonl"
        )
        assert lines == on_disk.read_text(encoding="utf-8").splitlines()
        assert any(e.get("type") == "schedule/change" for e in events)


def test_a_cancelled_export_writes_nothing_and_a_failed_one_says_why(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.answers.paths.append(None)
        chime.trigger("export_markdown")
        assert chime.answers.paths == []
        assert sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".md", ".jsonl")) == []
        (tmp_path / "plain-file").write_text("not a folder")
        chime.answers.paths.append(tmp_path / "plain-file" / "out.md")
        chime.trigger("export_markdown")
        chime.until(lambda: "Could not export" in chime.window.message_bar.text())
        assert "Not a directory" in chime.window.message_bar.text()


def test_close_makes_the_session_cold_and_its_reminder_no_longer_fires(open_app: Opener) -> None:
    with open_app() as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("remind me in 2 minutes to stretch")
        waker = chime.controller.open[first].waker
        assert waker is not None
        chime.until(lambda: waker.wake_at is not None)
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first)
        second = chime.controller.current
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(first))
        chime.until(lambda: chime.controller.current == first)
        log = chime.chime.folder / "sessions" / first / "session.jsonl"
        chime.trigger("close_session")
        chime.until(
            lambda: chime.controller.current == second and first not in chime.controller.open
        )
        size = log.stat().st_size
        row = chime.window.sessions.model.item(chime.window.sessions.model.row_of(first))
        assert row is not None
        assert not row.live
        assert waker.wake_at is None
        chime.clock.advance(timedelta(minutes=5))
        chime.controller.redrive_all()
        chime.run(chime.controller.open[second].session.flush())
        assert log.stat().st_size == size  # no reminder turn was appended to the cold session
        assert read_state(chime.chime.folder).open == (second,)


def test_delete_moves_the_session_to_the_trash_and_undo_brings_it_back(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("keep this conversation")
        doomed = chime.controller.current
        assert doomed is not None
        press(chime, Qt.Key.Key_Backspace, CTRL | SHIFT)
        chime.until(lambda: (tmp_path / "trash" / doomed).is_dir())
        chime.until(lambda: doomed not in [sid for sid, _ in chime.sidebar()])
        assert chime.controller.current != doomed
        bar = chime.window.message_bar
        assert bar.text() == "“keep this conversation” moved to the trash. Undo: Ctrl+Shift+T"
        assert bar.action_button.isVisibleTo(bar)
        assert bar.action_button.text() == "Undo delete"
        press(chime, Qt.Key.Key_T, CTRL | SHIFT)
        chime.until(lambda: chime.controller.current == doomed)
        chime.until(lambda: doomed in [sid for sid, _ in chime.sidebar()])
        assert (tmp_path / "sessions" / doomed).is_dir()
        assert chime.transcript_texts()[0] == "keep this conversation"
        assert bar.text() == "“keep this conversation” is back."  # not the stale "trash" one
        assert not bar.action_button.isVisibleTo(bar)


def test_the_undo_button_in_the_message_restores_the_deleted_session(open_app: Opener) -> None:
    with open_app() as chime:
        chime.send("undo me")
        doomed = chime.controller.current
        chime.trigger("delete_session")
        chime.until(lambda: "moved to the trash" in chime.window.message_bar.text())
        chime.inside(chime.window.message_bar.action_button.click)
        chime.until(lambda: chime.controller.current == doomed)
        assert chime.transcript_texts()[0] == "undo me"


def test_about_names_the_version_and_a_confirmed_link_opens_in_the_browser(
    open_app: Opener,
) -> None:
    from app import __version__

    with open_app() as chime:
        assert chime.window.help.about_text().startswith(f"Chime {__version__}\n")
        assert "Qt 6." in chime.window.help.about_text()
        chime.inside(lambda: chime.window.help.open_url_requested.emit("https://example.com"))
        assert chime.answers.opened == ["https://example.com"]


def test_next_and_previous_session_step_through_the_sidebar_order(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        for n in range(2):
            before = chime.controller.current
            chime.send(f"message {n}")
            chime.trigger("new_session")
            chime.until(lambda before=before: chime.controller.current != before)  # type: ignore[misc]
        order = [sid for sid, _ in chime.sidebar()]
        assert len(order) == 3
        start = order.index(chime.controller.current)  # type: ignore[arg-type]
        press(chime, Qt.Key.Key_PageDown)
        chime.until(lambda: chime.controller.current == order[(start + 1) % 3])
        press(chime, Qt.Key.Key_PageUp)
        chime.until(lambda: chime.controller.current == order[start])
        press(chime, Qt.Key.Key_PageUp)
        chime.until(lambda: chime.controller.current == order[(start - 1) % 3])
        assert chime.window.sessions.selected_id() == chime.controller.current


def test_the_sidebar_filter_narrows_by_title_and_by_message_text(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("the quarterly budget is due")
        budget = chime.controller.current
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != budget)
        other = chime.controller.current
        chime.answers.titles.append("Garden ideas")
        chime.trigger("rename_session")
        press(chime, Qt.Key.Key_F, CTRL | SHIFT)  # Ctrl+F is find in conversation
        assert chime.window.sessions.filter.hasFocus()
        chime.qtbot.keyClicks(chime.window.sessions.filter, "QUARTERLY")
        assert [sid for sid, _ in chime.sidebar()] == [budget]
        chime.window.sessions.filter.setText("garden")
        assert chime.sidebar() == [(other, "Garden ideas")]
        chime.window.sessions.filter.setText("nothing like this")
        assert chime.sidebar() == []
        chime.window.sessions.filter.clear()
        assert len(chime.sidebar()) == 2


def test_copy_message_puts_the_selected_rows_text_on_the_clipboard(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("copy me please")
        QApplication.clipboard().clear()
        view = chime.window.transcript
        view.setCurrentIndex(chime.window.transcript_model.index(0))
        press(chime, Qt.Key.Key_C, CTRL | SHIFT)
        assert QApplication.clipboard().text() == "copy me please"
        press(chime, Qt.Key.Key_J)  # focus the transcript: the current row stays
        chime.trigger("copy")
        assert QApplication.clipboard().text() == "copy me please"


def test_show_context_reveals_the_time_context_rows_and_hides_them_again(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("hello")
        assert "context" not in chime.kinds()
        shown = chime.kinds()
        press(chime, Qt.Key.Key_K, CTRL | SHIFT)
        assert chime.window.window_actions.action("show_context").isChecked()
        assert "context" in chime.kinds()
        assert [k for k in chime.kinds() if k != "context"] == shown
        press(chime, Qt.Key.Key_K, CTRL | SHIFT)
        assert chime.kinds() == shown


def test_an_unexpected_error_in_an_action_is_shown_in_one_sentence_without_a_traceback(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)

    async def broken_export(_session_id: str, _target: Path) -> None:
        raise ValueError("an exporter bug")

    with open_app() as chime:
        install_excepthook([chime.window])
        monkeypatch.setattr(chime.controller.store, "export_markdown", broken_export)
        chime.answers.paths.append(tmp_path / "out.md")
        chime.trigger("export_markdown")
        chime.until(lambda: bool(chime.window.findChildren(QMessageBox)))
        (box,) = chime.window.findChildren(QMessageBox)
        assert (
            box.text()
            == f"Something unexpected went wrong; details are in {LOG_FILE} in the data folder."
        )
        box.close()
        assert chime.controller.current is not None  # the window carries on


def test_a_session_open_in_another_window_cannot_be_renamed_but_can_be_exported(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as first:
        first.send("shared between two windows")
        shared = first.controller.current
        first.answers.titles.append("Owned here")
        first.trigger("rename_session")
        owned = first.controller.current_session()
        assert owned is not None
        first.run(owned.session.flush())
        with open_app() as second:  # a second instance: the session is read-only there
            assert second.controller.current == shared
            opened = second.controller.current_session()
            assert opened is not None
            assert opened.session.read_only
            second.answers.titles.append("Stolen")
            second.trigger("rename_session")
            assert second.answers.titles == ["Stolen"]  # the question was never asked
            assert second.window.windowTitle() == "Owned here — Chime"
            second.answers.paths.append(tmp_path / "copy.jsonl")
            second.trigger("export_jsonl")
            second.until(lambda: (tmp_path / "copy.jsonl").exists())
            second.until(lambda: "Exported to" in second.window.message_bar.text())
            text = (tmp_path / "copy.jsonl").read_text(encoding="utf-8")
            assert "shared between two windows" in text
            assert "Stolen" not in text


def test_a_fork_on_a_full_disk_says_why_and_keeps_the_session(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.send("fork me later")
        parent = chime.controller.current

        def full(*_args: object, **_kwargs: object) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr("core.session.jsonl_store.publish_session", full)
        chime.trigger("fork_session")
        chime.until(lambda: chime.window.banner.isVisibleTo(chime.window))
        text = chime.window.banner.label.text()
        assert text.startswith("Could not fork: ")
        assert f"Chime cannot write to {tmp_path}: No space left on device" in text
        assert chime.controller.current == parent
        assert [sid for sid, _ in chime.sidebar()] == [parent]


def test_clicking_a_cold_session_reopens_it_live_and_catches_up_its_overdue_reminder(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("remind me in 2 minutes to stretch")
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first)
        second = chime.controller.current
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(first))
        chime.until(lambda: chime.controller.current == first)
        chime.trigger("close_session")
        chime.until(lambda: chime.controller.current == second)
        chime.clock.advance(timedelta(minutes=30))  # it fell due while the session was cold
        sessions = chime.window.sessions
        row = sessions.proxy.mapFromSource(sessions.model.index(sessions.model.row_of(first)))
        point = sessions.list.visualRect(row).center()
        chime.inside(
            lambda: chime.qtbot.mouseClick(
                sessions.list.viewport(), Qt.MouseButton.LeftButton, pos=point
            )
        )
        chime.until(lambda: chime.controller.current == first)
        chime.until(lambda: "reminder" in chime.kinds() and chime.idle())
        reminder = chime.window.transcript_model.row_at(chime.kinds().index("reminder"))
        assert reminder is not None
        assert reminder.late  # delivered late, and says so
        item = sessions.model.item(sessions.model.row_of(first))
        assert item is not None
        assert item.live


def test_deleting_the_only_session_leaves_a_new_one_and_undo_brings_the_old_one_back(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.send("the only conversation")
        only = chime.controller.current
        chime.trigger("delete_session")
        chime.until(lambda: chime.controller.current not in (None, only))
        chime.until(lambda: [sid for sid, _ in chime.sidebar()] == [chime.controller.current])
        assert chime.transcript_texts() == []
        assert chime.window.composer.editor.isEnabled()
        chime.trigger("undo_delete")
        chime.until(lambda: chime.controller.current == only)
        chime.until(lambda: len(chime.sidebar()) == 2)
        assert chime.transcript_texts()[0] == "the only conversation"


def test_show_context_stays_on_for_the_next_session(open_app: Opener) -> None:
    with open_app() as chime:
        chime.trigger("show_context")
        chime.send("hi")
        first = chime.controller.current
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first)
        chime.send("hello")
        assert "context" in chime.kinds()
        assert chime.window.window_actions.action("show_context").isChecked()


def test_choosing_a_session_while_it_is_closing_reopens_it_live_with_its_whole_history(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        first = chime.controller.current
        chime.send("hello")
        history = chime.transcript_texts()
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first)
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(first))
        chime.until(lambda: chime.controller.current == first)

        def close_then_choose_it_again() -> None:  # Ctrl+W, then a click before the flush ended
            chime.window.window_actions.action("close_session").trigger()
            chime.window.sessions.session_chosen.emit(first)

        chime.inside(close_then_choose_it_again)
        chime.until(lambda: first in chime.controller.open and chime.controller.current == first)
        opened = chime.controller.open[first]
        assert not opened.session.read_only  # not "open in another window": this one closed it
        assert opened.live
        assert chime.window.status.state_label.text() == "Session: live"
        assert not chime.window.banner.isVisibleTo(chime.window)
        assert chime.transcript_texts() == history


def test_a_delete_the_disk_refuses_says_why_in_words(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/data/trash/x")

    monkeypatch.setattr("core.session.jsonl_store.move_session", refused)
    with open_app() as chime:
        chime.send("keep me")
        kept = chime.controller.current
        chime.trigger("delete_session")
        chime.until(lambda: "Could not delete" in chime.window.message_bar.text())
        assert chime.window.message_bar.text() == "Could not delete: Permission denied"
        assert kept in [sid for sid, _ in chime.sidebar()]  # still listed, now closed


def test_focus_shortcuts_move_between_the_sessions_transcript_and_message_box(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("hello")
        press(chime, Qt.Key.Key_K)
        assert chime.window.sessions.list.hasFocus()
        press(chime, Qt.Key.Key_J)
        assert chime.window.transcript.hasFocus()
        assert chime.window.transcript.currentIndex().isValid()  # a row to copy from
        press(chime, Qt.Key.Key_L)
        assert chime.window.composer.editor.hasFocus()


def test_a_closed_session_keeps_its_reminder_badge_in_the_sidebar(open_app: Opener) -> None:
    with open_app() as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("remind me in 10 minutes to stretch")
        chime.send("remind me in 20 minutes to drink water")
        chime.run(
            chime.controller.actions.close_session()
        )  # returns once the sidebar was re-listed
        model = chime.window.sessions.model
        row = model.item(model.row_of(first))
        assert row is not None
        assert not row.live
        assert row.reminder_count == 2
        accessible = model.index(model.row_of(first)).data(Qt.ItemDataRole.AccessibleTextRole)
        assert "2 active reminders" in accessible
