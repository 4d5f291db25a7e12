"""Composer, reminders panel, sessions sidebar, settings dialog and main window, offscreen."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from tests.fakes import FakeClock
from ui.composer import Composer
from ui.dialogs import TITLE_MIN_WIDTH, title_dialog
from ui.main_window import MainWindow, window_title
from ui.reminders_panel import RemindersModel, RemindersPanel, countdown, kind_label
from ui.screen import DeliveredView, ReminderView
from ui.session_list import SessionListItem, SessionListModel, SessionListPanel
from ui.settings_dialog import PresetChoice, SettingsDialog, SettingsDraft
from ui.timefmt import day_time, every_label, relative

RECORD = ReminderView("schedule-3", "after", "stretch", datetime(2026, 8, 5, 12, 12, tzinfo=UTC))


def test_enter_sends_and_shift_enter_adds_a_line(qtbot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    qtbot.keyClicks(composer.editor, "first")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer.editor, "second")
    with qtbot.waitSignal(composer.submitted) as sent:
        qtbot.keyClick(composer.editor, Qt.Key.Key_Return)
    assert sent.args == ["first\nsecond"]
    assert composer.text() == ""


def test_blank_input_is_not_sent_and_busy_turns_send_into_queue(qtbot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    with qtbot.assertNotEmitted(composer.submitted):
        qtbot.keyClicks(composer.editor, "   ")
        qtbot.keyClick(composer.editor, Qt.Key.Key_Return)
    composer.set_busy(True)
    assert composer.stop_button.isEnabled()
    assert composer.send_button.text() == "Queue"
    with qtbot.waitSignal(composer.stop_requested):
        qtbot.mouseClick(composer.stop_button, Qt.MouseButton.LeftButton)
    assert "remind me in 10 minutes" in composer.editor.placeholderText()


def test_the_reminders_panel_shows_kind_local_time_and_countdown(
    qtbot, clock: FakeClock, qtmodeltester
) -> None:
    standalone = RemindersModel(clock)
    qtmodeltester.check(standalone, force_py=True)
    standalone.set_records([RECORD], "UTC")
    assert standalone.rowCount() == 1
    panel = RemindersPanel(clock, QIcon())
    qtbot.addWidget(panel)
    assert panel.empty.isVisibleTo(panel)
    panel.set_records([RECORD], "Europe/Berlin")
    text = panel.model.index(0).data()
    assert text == "stretch\nonce · today 14:12 · in 12 min\nschedule-3"
    clock.advance(timedelta(minutes=13))
    assert "overdue" in panel.model.index(0).data()


def test_ask_to_delete_drafts_the_request_for_the_selected_reminder(
    qtbot, clock: FakeClock
) -> None:
    panel = RemindersPanel(clock, QIcon())
    qtbot.addWidget(panel)
    panel.set_records([RECORD], "UTC")
    panel.list.setCurrentIndex(panel.model.index(0))
    with qtbot.waitSignal(panel.ask_delete) as asked:
        qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert asked.args == ["schedule-3"]


def test_a_reminder_less_than_a_minute_away_counts_down_in_seconds(qtbot, clock: FakeClock) -> None:
    panel = RemindersPanel(clock, QIcon())
    qtbot.addWidget(panel)
    soon = ReminderView("schedule-1", "after", "tea", clock() + timedelta(seconds=20))
    panel.set_records([soon], "UTC")
    assert panel.model.index(0).data() == "tea\nonce · today 12:00 · in 20 s\nschedule-1"
    clock.advance(timedelta(seconds=19))
    assert "· in 1 s\n" in panel.model.index(0).data()
    clock.advance(timedelta(seconds=1))
    assert "· overdue\n" in panel.model.index(0).data()
    now = clock()
    assert countdown(now + timedelta(seconds=90), now) == "in 2 min"
    assert countdown(now + timedelta(milliseconds=300), now) == "in 1 s"


def test_with_none_active_the_panel_says_so_and_lists_what_was_delivered(
    qtbot, clock: FakeClock
) -> None:
    panel = RemindersPanel(clock, QIcon())
    qtbot.addWidget(panel)
    assert panel.empty.text().startswith("No active reminders.\n\nAsk for one")
    now = clock()
    delivered = [
        DeliveredView("drink water", now - timedelta(minutes=5), now - timedelta(minutes=5)),
        DeliveredView("stretch", now - timedelta(days=1), now - timedelta(days=1)),
    ]
    panel.set_records([], "UTC", delivered)
    assert panel.empty.isVisibleTo(panel)
    assert panel.empty.text() == (
        "No active reminders.\n\nRecently delivered:\n"
        "• drink water — due today 11:55\n• stretch — due yesterday 12:00"
    )
    assert not panel.remove_button.isEnabled()


def test_delete_sends_the_request_for_the_selected_reminder_unless_read_only(
    qtbot, clock: FakeClock
) -> None:
    panel = RemindersPanel(clock, QIcon())
    qtbot.addWidget(panel)
    panel.set_records([RECORD], "UTC")
    panel.list.setCurrentIndex(panel.model.index(0))
    with qtbot.waitSignal(panel.delete_requested) as sent:
        qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert sent.args == ["schedule-3"]
    panel.set_writable(False)
    assert not panel.remove_button.isEnabled()
    assert not panel.delete_button.isEnabled()
    with qtbot.assertNotEmitted(panel.delete_requested):
        panel.remove_button.click()
    panel.set_writable(True)
    assert panel.remove_button.isEnabled()


def test_kind_labels_and_time_phrases() -> None:
    assert kind_label(ReminderView("s", "every", "p", RECORD.scheduled_at, 1800)) == "every 30 min"
    assert kind_label(ReminderView("s", "at", "p", RECORD.scheduled_at)) == "once"
    assert kind_label(RECORD) == "once"
    assert every_label(86400) == "every day"
    assert every_label(7200) == "every 2 h"
    now = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
    assert relative(now + timedelta(minutes=12), now) == "in 12 min"
    assert relative(now - timedelta(minutes=5), now) == "5 min ago"
    assert relative(now + timedelta(hours=2, minutes=5), now) == "in 2 h 5 min"
    assert day_time(now + timedelta(days=1), now, "UTC") == "tomorrow 12:00"


def test_the_sidebar_sorts_by_activity_and_filters_by_title_or_text(
    qtbot, clock: FakeClock, qtmodeltester
) -> None:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    now = clock()
    panel.set_sessions(
        [
            SessionListItem("a", "Old chat", now - timedelta(days=2)),
            SessionListItem(
                "b", "Stretching", now, reminder_count=2, live=True, search_text="water the plants"
            ),
        ],
        "b",
    )
    standalone = SessionListModel(clock)
    qtmodeltester.check(standalone, force_py=True)
    standalone.set_sessions([SessionListItem("a", "A", now)])
    assert standalone.row_of("a") == 1  # under its day's heading
    assert [panel.proxy.index(r, 0).data() for r in range(panel.proxy.rowCount())] == [
        "Today",
        "Stretching",
        "Previous 7 days",
        "Old chat",
    ]
    qtbot.keyClicks(panel.filter, "plants")
    assert [panel.proxy.index(r, 0).data() for r in range(panel.proxy.rowCount())] == ["Stretching"]
    panel.filter.clear()
    with qtbot.waitSignal(panel.session_chosen) as chosen:
        panel.list.activated.emit(panel.proxy.index(3, 0))
    assert chosen.args == ["a"]


def test_the_settings_dialog_edits_a_copy_and_fills_presets(qtbot) -> None:
    original = SettingsDraft(theme="dark", text_size=12)
    presets = [
        PresetChoice("ollama", "Ollama", "http://localhost:11434/v1"),
        PresetChoice("custom", "Custom", ""),
    ]
    dialog = SettingsDialog(original, presets)
    qtbot.addWidget(dialog)
    assert not dialog.endpoint_box.isEnabled()
    dialog.remote_radio.setChecked(True)
    dialog.preset_combo.setCurrentIndex(0)
    dialog.preset_combo.activated.emit(0)
    dialog.model_combo.setEditText("llama3")
    draft = dialog.draft()
    assert (draft.provider, draft.base_url, draft.model, draft.theme) == (
        "openai-compatible",
        "http://localhost:11434/v1",
        "llama3",
        "dark",
    )
    assert original.provider == "offline"
    with qtbot.waitSignal(dialog.models_requested):
        qtbot.mouseClick(dialog.refresh_button, Qt.MouseButton.LeftButton)
    dialog.set_models(["llama3", "qwen"])
    assert dialog.model_combo.count() == 2
    dialog.set_test_result(False, "Could not connect")
    assert dialog.test_result.text() == "✗ Could not connect"


def test_a_test_result_of_three_lines_is_shown_whole_and_the_context_is_edited(qtbot) -> None:
    dialog = SettingsDialog(SettingsDraft(provider="openai-compatible", context_tokens=8192), [])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    sentence = (
        "Connected, but this model does not call tools: reminders will not work with it. "
        "Context: 2,048 tokens (the server does not say; assumed). " * 2
    )

    dialog.set_test_result(False, sentence)

    lines = dialog.test_result.fontMetrics().lineSpacing()
    assert _wrapped_height(dialog.test_result) >= 3 * lines
    # The label asks for its whole wrapped height: under a window manager a shown dialog keeps its
    # size, and a word-wrapped label that asks for none was cut after its second line (seen on
    # X11 with openbox; the offscreen platform lays it out whole either way).
    assert dialog.test_result.minimumHeight() >= _wrapped_height(dialog.test_result)
    assert dialog.context_spin.value() == 8192
    dialog.context_spin.setValue(0)
    assert dialog.context_spin.text() == "Ask the server"
    assert dialog.draft().context_tokens == 0


def _wrapped_height(label) -> int:  # type: ignore[no-untyped-def]  # a QLabel
    return int(label.heightForWidth(label.width()))


def test_the_window_title_menus_and_ask_to_delete(qtbot, clock: FakeClock) -> None:
    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    assert window.windowTitle() == "Chime"
    window.set_session_title("Stretching")
    assert window.windowTitle() == window_title("Stretching") == "Stretching — Chime"
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus == ["&Session", "&Edit", "&View", "&Help"]
    shortcuts = {k: v for v, k in window.window_actions.shortcut_lines()}
    assert shortcuts["Ctrl+N"] == "New session"
    assert shortcuts["Ctrl+R"] == "Reminders panel"
    window.reminders.ask_delete.emit("schedule-3")
    assert window.composer.text() == "Delete reminder schedule-3"


def test_a_filter_that_matches_no_session_says_so_in_the_list(qtbot, clock: FakeClock) -> None:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    panel.set_sessions([SessionListItem("a", "Garden", clock())], "a")
    assert panel.empty_text() == ""
    qtbot.keyClicks(panel.filter, "budget")
    assert panel.proxy.rowCount() == 0
    assert panel.empty_text().startswith("No session matches “budget”.")
    panel.filter.clear()
    assert panel.empty_text() == ""


def test_the_rename_dialog_is_wide_enough_for_the_title(qtbot, clock: FakeClock) -> None:
    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    window.resize(1200, 800)
    short = title_dialog(window, "Plants")
    assert short.width() >= TITLE_MIN_WIDTH
    title = "A conversation about watering the plants on the balcony every evening in August"
    long = title_dialog(window, title)
    assert long.width() >= long.fontMetrics().horizontalAdvance(title)
    assert long.textValue() == title


def test_a_reminder_card_wraps_in_a_narrow_panel_instead_of_cutting_its_time(
    qtbot, clock: FakeClock
) -> None:
    panel = RemindersPanel(clock, QIcon())
    qtbot.addWidget(panel)
    panel.set_records(
        [ReminderView("schedule-2", "every", "drink water", clock() + timedelta(minutes=28), 1800)],
        "UTC",
    )
    heights = {}
    for width in (420, 180):
        panel.resize(width, 400)
        panel.show()
        qtbot.waitExposed(panel)
        QApplication.processEvents()
        panel.list.doItemsLayout()
        rect = panel.list.visualRect(panel.model.index(0))
        heights[width] = rect.height()
    assert heights[180] > heights[420]


def test_the_model_field_follows_a_fresh_list_that_lacks_its_old_name(qtbot) -> None:
    dialog = SettingsDialog(SettingsDraft(provider="openai-compatible", model="llama3"), [])
    qtbot.addWidget(dialog)
    dialog.model_combo.setEditText("llama3")

    dialog.set_models(["qwen2.5-coder-1.5b"])
    followed = dialog.model_combo.currentText()
    dialog.set_models(["a", "qwen2.5-coder-1.5b"])
    kept = dialog.model_combo.currentText()
    dialog.set_models([], "Could not connect")

    assert followed == "qwen2.5-coder-1.5b"
    assert kept == "qwen2.5-coder-1.5b"
    assert dialog.model_combo.currentText() == "qwen2.5-coder-1.5b"  # no list: the name stays
