"""What the close/quit/delete warning says and the delivered reminders the panel is given; the
warning dialog itself, driven for real."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.leave_words import due_words
from app.session_bridge import DELIVERY_SCAN, recent_deliveries
from app.settings import Settings, load_settings
from app.settings_flow import settings_draft
from core.events import SCHEDULE_SOURCE, Entry, TurnStart, UserMessage
from core.framing import render_batch, render_one_shot
from ui.dialogs import LeaveAnswer, LeaveWarning, ask_leave

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)  # 14:00 in Berlin


def test_the_next_due_time_reads_as_a_day_and_a_clock_time() -> None:
    berlin = "Europe/Berlin"
    assert due_words(NOW + timedelta(minutes=30), NOW, berlin) == "at 14:30"
    assert due_words(NOW + timedelta(hours=20), NOW, berlin) == "tomorrow at 10:00"
    assert due_words(NOW + timedelta(days=3), NOW, berlin) == "on Sat 8 Aug at 14:00"
    assert due_words(NOW - timedelta(minutes=1), NOW, berlin) == "now (it is overdue)"
    assert due_words(NOW + timedelta(minutes=5), NOW, None) == "at 12:05"


def reminder_entry(seq: int, text: str) -> Entry:
    return Entry(seq, "2026-08-05T12:00:05.000Z", UserMessage(f"m{seq}", text, SCHEDULE_SOURCE))


def test_the_delivered_reminders_are_the_newest_first_and_only_a_few() -> None:
    entries = [
        reminder_entry(0, render_one_shot("schedule-1", "2026-08-05T11:00:00.000Z", "old")),
        Entry(1, "2026-08-05T12:00:00.000Z", TurnStart(1, 0)),
        *(
            reminder_entry(
                2 + n, render_one_shot(f"schedule-{n}", "2026-08-05T11:30:00.000Z", f"r{n}")
            )
            for n in range(6)
        ),
        reminder_entry(
            8,
            render_batch(
                [
                    ("schedule-a", "2026-08-05T11:55:00.000Z", "a"),
                    ("schedule-b", "2026-08-05T11:56:00.000Z", "b"),
                ]
            ),
        ),
        Entry(9, "2026-08-05T12:00:10.000Z", UserMessage("u", "not a reminder", SCHEDULE_SOURCE)),
    ]
    found = recent_deliveries(entries)
    assert [d.prompt for d in found] == ["b", "a", "r5", "r4", "r3"]
    assert found[0].delivered_at == datetime(2026, 8, 5, 12, 0, 5, tzinfo=UTC)
    far_back = [
        entries[0],
        *[Entry(n, entries[1].at, TurnStart(n, 0)) for n in range(1, DELIVERY_SCAN + 1)],
    ]
    assert recent_deliveries(far_back) == ()


def test_the_settings_dialog_keeps_the_warning_choice_it_does_not_show(tmp_path: Path) -> None:
    chosen = Settings(warn_waiting_reminders=False)
    assert Settings.from_json(chosen.to_json()) == chosen
    assert settings_draft(chosen, "", "").theme == "system"
    assert load_settings(tmp_path).warn_waiting_reminders is True


def test_the_warning_dialog_goes_ahead_with_its_action_or_cancels(qtbot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    warning = LeaveWarning("Close this conversation?", "2 reminders will wait.", "Close")

    def answer(tick: bool, click: str) -> None:
        box = next(
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QMessageBox) and w.isVisible()
        )
        assert box.text() == "2 reminders will wait."
        assert box.checkBox().text() == "Don't ask again"
        box.checkBox().setChecked(tick)
        button = next(b for b in box.buttons() if b.text().replace("&", "") == click)
        button.click()

    QTimer.singleShot(0, lambda: answer(True, "Close"))
    assert ask_leave(parent, warning) == LeaveAnswer(dont_ask_again=True)
    QTimer.singleShot(0, lambda: answer(True, "Cancel"))
    assert ask_leave(parent, warning) is None
