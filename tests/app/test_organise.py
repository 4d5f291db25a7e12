"""Pins, folders and the archive in the real window: the list is grouped (Pinned, folders, then
by day in the zone, from the fake clock), a conversation moves into a folder by its menu and by
drag, an archived one leaves the list and is found again by search and brought back; the
arrangement is kept in organise.json (never in a log) and comes back after a restart."""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QLineEdit, QMenu

from app.organise_file import ORGANISE_FILE
from tests.app.window import Opener, RealApp, running, wide
from tests.fakes import FakeClock
from ui.session_list import SessionListPanel

DAY = datetime(2026, 8, 5, 11, 0, tzinfo=UTC)  # 13:00 in Berlin, the app's zone in these tests


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def rows(chime: RealApp) -> list[str]:
    """The list top to bottom: headings as "# Name", conversations by title."""
    proxy = chime.window.sessions.proxy
    shown = []
    for row in range(proxy.rowCount()):
        index = proxy.index(row, 0)
        heading = chime.window.sessions.model.row(proxy.mapToSource(index).row())
        is_heading = type(heading).__name__ == "Heading"
        shown.append(f"# {index.data()}" if is_heading else str(index.data()))
    return shown


def index_of(panel: SessionListPanel, text: str) -> QModelIndex:
    """The list's row showing ``text`` (a title or a heading's name)."""
    for row in range(panel.proxy.rowCount()):
        index = panel.proxy.index(row, 0)
        if index.data() == text:
            return index
    raise AssertionError(f"no row {text!r}")


def menu_entry(menu: QMenu, name: str) -> None:
    """Trigger the menu's (or a submenu's) entry called ``name``."""
    for action in menu.actions():
        if action.objectName() == name:
            action.trigger()
            return
        if action.menu() is not None:
            for inner in action.menu().actions():
                if inner.objectName() == name:
                    inner.trigger()
                    return
    raise AssertionError(f"no entry {name!r}")


def from_menu(chime: RealApp, text: str, entry: str) -> None:
    panel = chime.window.sessions
    chime.inside(lambda: menu_entry(panel.row_menu(index_of(panel, text)), entry))


def three_days(chime: RealApp, clock: FakeClock) -> None:
    """Three conversations: one 16 days ago, one yesterday, one today (in Berlin), in a window
    wide enough to show the list."""
    wide(chime)
    for when, text in (
        (DAY - timedelta(days=16), "Plan the garden"),
        (DAY - timedelta(days=1), "Call the plumber"),
        (DAY, "Buy milk"),
    ):
        clock.set(when)
        if chime.controller.current_session() is None or chime.sidebar()[0][1] != "New session":
            chime.run(chime.controller.new_session())
        chime.send(text)
    chime.run(chime.controller.refresh_sessions())


def organise_file(folder: Path) -> dict[str, object]:
    return json.loads((folder / ORGANISE_FILE).read_text(encoding="utf-8"))


def test_the_list_is_grouped_by_day_in_the_zone(open_app: Opener, clock: FakeClock) -> None:
    with open_app() as chime:
        three_days(chime, clock)
        assert rows(chime) == [
            "# Today",
            "Buy milk",
            "# Yesterday",
            "Call the plumber",
            "# Older",
            "Plan the garden",
        ]
        clock.set(datetime(2026, 8, 5, 22, 30, tzinfo=UTC))  # 00:30 on the 6th in Berlin
        chime.inside(chime.window.sessions._on_ages)  # the half-minute repaint
        assert rows(chime) == [
            "# Yesterday",
            "Buy milk",
            "# Previous 7 days",
            "Call the plumber",
            "# Older",
            "Plan the garden",
        ]


def test_pin_and_folders_by_menu_and_drag_are_kept_across_a_restart(
    open_app: Opener, clock: FakeClock, tmp_path: Path
) -> None:
    with open_app() as chime:
        three_days(chime, clock)
        from_menu(chime, "Plan the garden", "pin")
        assert rows(chime)[:2] == ["# Pinned", "Plan the garden"]
        from_menu(chime, "Call the plumber", "new-folder")  # Move to folder ▸ New folder…
        editor = chime.window.sessions.list.findChild(QLineEdit, "session-title-editor")
        assert editor is not None
        assert editor.text() == "New folder"
        editor.setText("House")
        chime.inside(lambda: chime.qtbot.keyClick(editor, Qt.Key.Key_Return))
        chime.until(lambda: "# House" in rows(chime))
        assert rows(chime) == [
            "# Pinned",
            "Plan the garden",
            "# House",
            "Call the plumber",
            "# Today",
            "Buy milk",
        ]
        drop(chime, "Buy milk", "House")  # dragged onto the folder's heading
        assert rows(chime)[2:] == ["# House", "Buy milk", "Call the plumber"]
        from_menu(chime, "Buy milk", "out-of-folder")
        drop(chime, "Buy milk", "Call the plumber")  # onto a row inside the folder: into it
        from_menu(chime, "Plan the garden", "pin")  # Unpin
        assert rows(chime) == [
            "# House",
            "Buy milk",
            "Call the plumber",
            "# Older",
            "Plan the garden",
        ]
        kept = organise_file(tmp_path)
        assert kept["folders"] == [{"id": "f1", "name": "House"}]
        in_house = {sid for sid, title in chime.sidebar() if title != "Plan the garden"}
        assert kept["placed"] == dict.fromkeys(in_house, "f1")
        logs = "".join(p.read_text() for p in tmp_path.glob("sessions/*/*.jsonl"))
        assert "House" not in logs  # the arrangement is never part of a conversation
    with open_app() as again:
        again.run(again.controller.refresh_sessions())
        assert rows(again)[:3] == ["# House", "Buy milk", "Call the plumber"]


def drop(chime: RealApp, title: str, onto: str) -> None:
    """Drag the row ``title`` and drop it on the row ``onto``, as the mouse does."""
    panel = chime.window.sessions
    source = panel.proxy.mapToSource(index_of(panel, title))
    data = panel.model.mimeData([panel.model.index(source.row())])
    target = panel.list.visualRect(index_of(panel, onto)).center()
    event = QDropEvent(
        QPointF(target),
        Qt.DropAction.MoveAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    chime.inside(lambda: panel.list.viewportEvent(event))  # as the drag manager delivers it
    assert event.isAccepted()


def test_an_archived_conversation_is_found_by_search_and_restored(
    open_app: Opener, clock: FakeClock
) -> None:
    with open_app() as chime:
        three_days(chime, clock)
        panel = chime.window.sessions
        assert not panel.archived_button.isVisibleTo(panel)
        from_menu(chime, "Call the plumber", "archive")
        assert "Call the plumber" not in rows(chime)
        assert panel.archived_button.isVisibleTo(panel)
        assert panel.archived_button.text() == "Archived (1)"
        chime.inside(lambda: chime.qtbot.keyClicks(panel.filter, "plumber"))
        assert rows(chime) == ["Call the plumber"]  # search finds it (the list is flat)
        chime.inside(panel.filter.clear)
        chime.inside(panel.archived_button.click)  # the Archived view
        assert rows(chime) == ["Call the plumber"]
        from_menu(chime, "Call the plumber", "archive")  # Restore from the archive
        assert rows(chime) == []
        assert panel.empty_text() == "No conversation is archived."
        chime.inside(panel.archived_button.click)
        assert "Call the plumber" in rows(chime)
        assert not panel.archived_button.isVisibleTo(panel)


def test_a_folder_is_renamed_and_removed_without_losing_its_conversations(
    open_app: Opener, clock: FakeClock, tmp_path: Path
) -> None:
    with open_app() as chime:
        three_days(chime, clock)
        from_menu(chime, "Buy milk", "new-folder")
        chime.inside(lambda: chime.window.sessions.list.closePersistentEditor(QModelIndex()))
        assert "# New folder" in rows(chime)
        from_menu(chime, "New folder", "remove-folder")
        assert "# New folder" not in rows(chime)
        assert "Buy milk" in rows(chime)
        assert organise_file(tmp_path)["folders"] == []
