"""Folded panels still count: in a narrow window the sidebar's toggle says how many reminder turns
arrived unread in other conversations, the reminders toggle how many reminders are set."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtGui import QIcon

from tests.fakes import FakeClock
from ui.main_window import MainWindow
from ui.screen import ReminderView
from ui.session_list import SessionListItem


def test_the_folded_toggles_carry_the_counts(qtbot, clock: FakeClock) -> None:
    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    panels = window.panels
    qtbot.waitUntil(lambda: panels.sessions.collapsed and panels.reminders.collapsed)
    now = clock()
    window.set_sessions(
        [
            SessionListItem("a", "Tea", now, unread=True, unread_count=2),
            SessionListItem("b", "Plants", now - timedelta(hours=1)),
            SessionListItem("c", "Here", now, unread=True, unread_count=5),  # shown: not counted
        ],
        "c",
    )
    reminders = [
        ReminderView(f"schedule-{n}", "after", "x", now + timedelta(minutes=n)) for n in (1, 2, 3)
    ]
    window.set_reminders(reminders, "UTC")
    sessions_text = panels.sessions_toggle.text()
    assert sessions_text.endswith(" · 2 unread")
    assert panels.reminders_toggle.text().endswith(" · 3")
    window.window_actions.action("toggle_reminders").toggle()  # Qt copies the action's text back
    assert panels.reminders_toggle.text().endswith(" · 3")
    window.set_sessions([SessionListItem("c", "Here", now)], "c")
    window.set_reminders([], "UTC")
    assert " · " not in panels.sessions_toggle.text()
    assert " · " not in panels.reminders_toggle.text()
    assert sessions_text.startswith(panels.sessions_toggle.text())
