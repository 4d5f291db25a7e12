"""The reminders panel with very many reminders (issue 23): it lists a bounded number of rows and
its once-a-second countdown repaints the rows on screen without re-laying out the list."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtGui import QIcon

from ui.reminders_panel import ID_ROLE, MAX_ROWS, RemindersPanel
from ui.screen import ReminderView

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def test_a_panel_of_many_reminders_lists_a_bounded_number_of_rows(qtbot) -> None:
    panel = RemindersPanel(lambda: NOW, QIcon())
    qtbot.addWidget(panel)
    views = [
        ReminderView(f"schedule-{n}", "at", f"later {n}", NOW + timedelta(days=1))
        for n in range(MAX_ROWS + 500)
    ]
    panel.set_records(views, "UTC")
    assert panel.model.rowCount() == MAX_ROWS
    assert panel.model.index(0).data(ID_ROLE) == "schedule-0"  # creation order


def test_the_countdown_repaints_without_a_model_change(qtbot) -> None:
    now = [NOW]
    panel = RemindersPanel(lambda: now[0], QIcon())
    qtbot.addWidget(panel)
    panel.set_records([ReminderView("schedule-1", "at", "tea", NOW + timedelta(seconds=90))], "UTC")
    changes: list[object] = []
    panel.model.dataChanged.connect(lambda *args: changes.append(args))
    before = panel.model.index(0).data()
    now[0] = NOW + timedelta(seconds=50)
    panel._timer.timeout.emit()
    assert changes == []  # a dataChanged makes the view lay out every row again
    assert panel.model.index(0).data() != before  # the text is computed from the clock
    assert "in 40 s" in panel.model.index(0).data()
