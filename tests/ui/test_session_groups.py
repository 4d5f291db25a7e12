"""The sessions list's groups on the panel alone: headings are stepped over and never chosen,
folder headings are renamed in place, drops onto each kind of group, the menus of a heading and
of the empty list, the Archived view, and the order held under the pointer inside a group."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QMimeData, QModelIndex, QPointF, Qt
from PySide6.QtGui import QAction, QDragEnterEvent, QDragMoveEvent, QDropEvent, QFont
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QApplication,
    QMenu,
    QStyleOptionViewItem,
    QToolButton,
)

from core.organise import Group, Heading, Listed, Organisation
from tests.fakes import FakeClock
from ui.session_list import SessionListItem, SessionListPanel
from ui.session_rows import FOLDER_ROLE, held


def panel_with(qtbot, clock: FakeClock, organisation: Organisation) -> SessionListPanel:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    panel.resize(300, 700)
    now = clock()
    panel.set_organisation(organisation)
    panel.set_sessions(
        [
            SessionListItem("a", "Alpha", now),
            SessionListItem("b", "Beta", now - timedelta(days=1)),
            SessionListItem("c", "Gamma", now - timedelta(days=30), read_only=True),
        ],
        None,
    )
    panel.show()
    return panel


def shown(panel: SessionListPanel) -> list[str]:
    return [str(panel.proxy.index(r, 0).data()) for r in range(panel.proxy.rowCount())]


def index_of(panel: SessionListPanel, text: str) -> QModelIndex:
    return next(
        panel.proxy.index(r, 0)
        for r in range(panel.proxy.rowCount())
        if panel.proxy.index(r, 0).data() == text
    )


def drop_on(panel: SessionListPanel, session_id: str, text: str, mime: str = "") -> bool:
    data = QMimeData()
    data.setData(mime or "application/x-chime-session", session_id.encode())
    at = QPointF(panel.list.visualRect(index_of(panel, text)).center())
    event = QDropEvent(
        at, Qt.DropAction.MoveAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0)
    )
    panel.list.viewportEvent(event)
    return event.isAccepted()


def test_headings_are_stepped_over_by_the_keys_and_never_chosen(qtbot, clock: FakeClock) -> None:
    panel = panel_with(qtbot, clock, Organisation())
    assert shown(panel) == ["Today", "Alpha", "Yesterday", "Beta", "Older", "Gamma"]
    panel.list.setFocus()
    panel.select("a")
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    assert panel.list.currentIndex().data() == "Beta"  # "Yesterday" skipped
    with qtbot.assertNotEmitted(panel.session_chosen):
        panel.list.activated.emit(index_of(panel, "Older"))
    assert panel.model.flags(panel.model.index(0)) == Qt.ItemFlag.ItemIsDropEnabled
    read_only = panel.model.flags(panel.model.index(panel.model.row_of("c")))
    assert not read_only & Qt.ItemFlag.ItemIsEditable  # a read-only session is not renamed
    assert not panel.edit_title("c")
    accessible = index_of(panel, "Older").data(Qt.ItemDataRole.AccessibleTextRole)
    assert accessible == "Group: Older"


def test_a_folder_heading_is_renamed_in_place_and_its_menu_removes_it(
    qtbot, clock: FakeClock
) -> None:
    panel = panel_with(qtbot, clock, Organisation().add_folder("f1", "Work").move("b", "f1"))
    assert shown(panel)[:2] == ["Work", "Beta"]
    heading = panel.proxy.mapToSource(index_of(panel, "Work"))
    with qtbot.waitSignal(panel.organised) as changed:
        assert panel.model.setData(heading, "  Work   stuff ")
    assert changed.args[0].folders[0].name == "Work stuff"
    assert not panel.model.setData(heading, "   ")  # an empty name keeps the old one
    menu = panel.row_menu(index_of(panel, "Work stuff"))
    names = [a.objectName() for a in menu.actions() if a.objectName()]
    assert names == ["rename-folder", "remove-folder"]
    next(a for a in menu.actions() if a.objectName() == "remove-folder").trigger()
    assert "Work stuff" not in shown(panel)
    assert panel.organisation.placed == ()
    empty = panel.row_menu(QModelIndex())
    assert [a.objectName() for a in empty.actions()][:1] == ["new-folder"]
    next(a for a in empty.actions() if a.objectName() == "new-folder").trigger()
    assert "New folder" in shown(panel)


def test_drops_pin_place_and_unplace(qtbot, clock: FakeClock) -> None:
    start = Organisation().add_folder("f1", "Work").pin("c", True).move("b", "f1")
    panel = panel_with(qtbot, clock, start)
    assert shown(panel) == ["Pinned", "Gamma", "Work", "Beta", "Today", "Alpha"]
    assert drop_on(panel, "b", "Today")  # onto a day group: out of its folder
    assert panel.organisation.folder_of("b") is None
    assert drop_on(panel, "a", "Work")  # onto a folder's heading: into it
    assert panel.organisation.folder_of("a") == "f1"
    assert drop_on(panel, "b", "Gamma")  # onto a pinned row: pinned
    assert panel.organisation.pinned == {"b", "c"}
    assert drop_on(panel, "b", "Alpha")  # onto a row in a folder: into it, no longer pinned
    assert panel.organisation.pinned == {"c"}
    assert panel.organisation.folder_of("b") == "f1"
    assert not drop_on(panel, "zzz", "Work")  # a session the list does not hold
    assert not drop_on(panel, "a", "Work", mime="text/plain")  # not a conversation


def test_the_archived_view_shows_only_archived_ones_and_takes_no_drops(
    qtbot, clock: FakeClock
) -> None:
    panel = panel_with(qtbot, clock, Organisation().archive("b", True))
    assert "Beta" not in shown(panel)
    assert panel.archived_button.text() == "Archived (1)"
    panel.archived_button.click()
    assert shown(panel) == ["Beta"]
    assert panel.archived_button.text() == "← Back to the list"
    assert not drop_on(panel, "b", "Beta")
    assert panel.model.data(panel.model.index(0), Qt.ItemDataRole.AccessibleTextRole).startswith(
        "Beta, 1 d"
    )
    menu = panel.row_menu(index_of(panel, "Beta"))
    pin = next(a for a in menu.actions() if a.objectName() == "pin")
    assert not pin.isEnabled()  # an archived conversation is not pinned
    next(a for a in menu.actions() if a.objectName() == "archive").trigger()
    assert shown(panel) == []
    assert panel.empty_text() == "No conversation is archived."
    panel.archived_button.click()
    assert not panel.archived_button.isVisibleTo(panel)


def test_rows_are_painted_with_and_without_focus(qtbot, clock: FakeClock) -> None:
    panel = panel_with(qtbot, clock, Organisation().add_folder("f1", "Work").move("a", "f1"))
    delegate = panel.list.itemDelegate()
    option = QStyleOptionViewItem()
    option.font = QFont()
    heading = index_of(panel, "Work")
    row = index_of(panel, "Alpha")
    assert delegate.sizeHint(option, heading).height() < delegate.sizeHint(option, row).height()
    panel.list.setFocus()
    panel.list.setCurrentIndex(heading)  # a folder heading can hold the focus ring
    assert panel.list.grab().width() == panel.list.width()
    panel.list.edit(heading)
    editor = panel.list.focusWidget()
    assert editor.accessibleName() == "Folder name"
    QApplication.sendEvent(panel.list, QEvent(QEvent.Type.Leave))


@st.composite
def rows(draw: st.DrawFn) -> list[Heading | Listed]:
    """Rows as the list has them: each conversation once, under headings each once."""
    ids = draw(st.lists(st.sampled_from("abcdef"), unique=True))
    headings = draw(st.permutations([Heading(g) for g in (Group.PINNED, Group.TODAY, Group.OLDER)]))
    cuts = sorted(draw(st.lists(st.integers(0, len(ids)), min_size=3, max_size=3)))
    found: list[Heading | Listed] = []
    for heading, start, end in zip(headings, cuts, [*cuts[1:], len(ids)], strict=True):
        found += [heading, *map(Listed, ids[start:end])]
    return found


@given(rows(), rows())
def test_holding_keeps_each_group_s_shown_order_and_loses_no_row(
    fresh: list[Heading | Listed], before: list[Heading | Listed]
) -> None:
    kept = held(fresh, before)
    assert sorted(map(repr, kept)) == sorted(map(repr, fresh))  # the same rows
    assert [r for r in kept if isinstance(r, Heading)] == [
        r for r in fresh if isinstance(r, Heading)
    ]
    assert held(fresh, fresh) == fresh


def test_a_drag_is_welcomed_only_when_it_carries_a_conversation(qtbot, clock: FakeClock) -> None:
    panel = panel_with(qtbot, clock, Organisation().add_folder("f1", "Work"))
    at = QPointF(panel.list.visualRect(index_of(panel, "Work")).center())
    for kind, welcome in (("application/x-chime-session", True), ("text/plain", False)):
        data = QMimeData()
        data.setData(kind, b"a")
        enter = QDragEnterEvent(
            at.toPoint(),
            Qt.DropAction.MoveAction,
            data,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier(0),
        )
        panel.list.viewportEvent(enter)
        move = QDragMoveEvent(
            at.toPoint(),
            Qt.DropAction.MoveAction,
            data,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier(0),
        )
        panel.list.viewportEvent(move)
        assert enter.isAccepted() == welcome
        assert move.isAccepted() == welcome
    folder = panel.proxy.mapToSource(index_of(panel, "Work"))
    assert folder.data(FOLDER_ROLE) == "f1"
    assert panel.model.mimeData([panel.model.index(0)]).formats() == []  # a heading is not dragged


def test_a_row_being_renamed_stays_put_while_the_list_changes(qtbot, clock: FakeClock) -> None:
    panel = panel_with(qtbot, clock, Organisation())
    panel.list.setFocus()
    assert panel.edit_title("b")
    now = clock()
    fresher = [
        SessionListItem("a", "Alpha", now),
        SessionListItem("b", "Beta", now - timedelta(days=1)),
        SessionListItem("c", "Gamma", now + timedelta(minutes=1)),  # would now be on top
    ]
    panel.set_sessions(fresher, None)
    assert shown(panel).index("Gamma") > shown(panel).index("Beta")  # held while editing
    assert panel.list.state() == QAbstractItemView.State.EditingState  # the editor stayed open
    panel.list.customContextMenuRequested.emit(
        panel.list.visualRect(index_of(panel, "Alpha")).center()
    )
    menus = [m for m in panel.list.findChildren(QMenu) if m.isVisible()]
    assert len(menus) == 1
    menus[0].close()


def test_the_filter_s_texts_of_sessions_that_are_gone_are_forgotten(
    qtbot, clock: FakeClock
) -> None:
    panel = panel_with(qtbot, clock, Organisation())
    panel.filter.setText("a")
    many = [SessionListItem(f"s{n}", f"Title {n}", clock()) for n in range(10)]
    panel.set_sessions(many, None)
    panel.filter.setText("title 3")
    assert shown(panel) == ["Title 3"]
    panel.set_sessions(many[:2], None)
    panel.filter.setText("title")
    assert len(panel.model._searched) <= 4  # the other texts went with their sessions


def test_f2_in_the_list_renames_the_row_the_keyboard_is_on(qtbot, clock: FakeClock) -> None:
    panel = panel_with(qtbot, clock, Organisation().add_folder("f1", "Work"))
    assert panel.edit_current("a")  # the list without the focus: the conversation on screen
    assert panel.list.focusWidget().text() == "Alpha"
    panel.list.closeEditor(
        panel.list.focusWidget(), QAbstractItemDelegate.EndEditHint.RevertModelCache
    )
    panel.activateWindow()
    panel.list.setFocus()
    qtbot.waitUntil(panel.list.hasFocus)
    panel.list.setCurrentIndex(index_of(panel, "Work"))
    assert panel.edit_current("a")
    assert panel.list.focusWidget().accessibleName() == "Folder name"
    panel.list.closeEditor(
        panel.list.focusWidget(), QAbstractItemDelegate.EndEditHint.RevertModelCache
    )
    panel.list.setFocus()
    qtbot.waitUntil(panel.list.hasFocus)
    panel.list.setCurrentIndex(index_of(panel, "Beta"))
    assert panel.edit_current("a")
    assert panel.list.focusWidget().text() == "Beta"


def test_the_filter_offers_its_clear_button_once_it_holds_text(qtbot, clock: FakeClock) -> None:
    """The clear button is added with the first text (the empty box shows none either way), so
    the first paint does not load its style icon; from then on it clears the box."""
    panel = panel_with(qtbot, clock, Organisation())
    assert not panel.filter.isClearButtonEnabled()
    qtbot.keyClicks(panel.filter, "al")
    assert panel.filter.isClearButtonEnabled()
    clear = panel.filter.findChild(QAction, "_q_qlineeditclearaction")
    assert clear is not None
    button = next(b for b in panel.filter.findChildren(QToolButton) if b.defaultAction() is clear)
    qtbot.waitUntil(button.isVisible)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert panel.filter.text() == ""
    assert shown(panel)[:1] != []  # the whole list is back
