"""The session list holds still under the pointer or the keyboard: background activity updates
rows in place and reorders them only once the list is let go."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from tests.fakes import FakeClock
from ui.session_list import ID_ROLE, SessionListItem, SessionListPanel


def titles(panel: SessionListPanel) -> list[str]:
    """The conversations' titles top to bottom (group headings left out)."""
    rows = [panel.proxy.index(r, 0) for r in range(panel.proxy.rowCount())]
    return [index.data() for index in rows if index.data(ID_ROLE) is not None]


def three(clock: FakeClock, *, newest: str = "c", unread: bool = False) -> list[SessionListItem]:
    now = clock()
    times = {"a": now - timedelta(hours=2), "b": now - timedelta(hours=1), "c": now}
    times[newest] = now + timedelta(minutes=1)
    return [SessionListItem(sid, sid.upper(), at, unread=unread) for sid, at in times.items()]


def test_a_background_reorder_waits_while_the_pointer_is_on_the_list(qtbot, clock) -> None:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    panel.set_sessions(three(clock), "c")
    assert titles(panel) == ["C", "B", "A"]
    QApplication.sendEvent(panel.list, QEvent(QEvent.Type.Enter))
    assert panel.holding
    panel.set_sessions(three(clock, newest="a", unread=True), "c")  # a reminder arrived in A
    assert titles(panel) == ["C", "B", "A"]  # the row under the pointer is the one it was
    assert panel.model.item(3).unread  # type: ignore[union-attr]  # updated in place
    panel.set_sessions([*three(clock, newest="a"), SessionListItem("d", "D", clock())], "c")
    assert titles(panel) == ["D", "C", "B", "A"]  # a new session comes in on top
    QApplication.sendEvent(panel.list, QEvent(QEvent.Type.Leave))
    assert not panel.holding
    assert titles(panel) == ["A", "D", "C", "B"]  # let go: activity order (ties by id)


def test_without_the_pointer_or_focus_the_list_keeps_activity_order(qtbot, clock) -> None:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    panel.set_sessions(three(clock), "c")
    panel.set_sessions(three(clock, newest="a"), "c")
    assert titles(panel) == ["A", "C", "B"]
    assert panel.model.in_order()
