"""The widgets of the everyday verbs, offscreen: the model picker, the session settings dialog and
the attachment strip."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QToolButton, QWidget

from core.events import Attachment
from ui.attachment_strip import NAME_CHARS, AttachmentStrip, short_name, size_text
from ui.composer_tools import GLYPH_SCALE, ComposerTools
from ui.model_picker import ENDPOINT, OFFLINE, ModelMenu, ModelOption, ModelPicker, recent_choices
from ui.session_settings import (
    MAX_INSTRUCTIONS_CHARS,
    SessionSettings,
    SessionSettingsDialog,
    ask_session_settings,
)


def entries(picker: ModelPicker) -> list[tuple[str, bool, bool]]:
    """(text, enabled, checked) of each menu entry that is not a separator."""
    return [
        (a.text(), a.isEnabled(), a.isChecked())
        for a in picker.actions_shown()
        if not a.isSeparator()
    ]


def test_the_picker_lists_the_setting_offline_models_and_recent_and_marks_the_choice(qtbot) -> None:
    picker = ModelPicker()
    qtbot.addWidget(picker)
    picker.set_menu(
        ModelMenu(
            ModelOption(ENDPOINT, "qwen3:4b"),
            "Offline assistant",
            endpoint="Ollama",
            models=("llama3.2", "qwen3:4b"),
            recent=(ModelOption(ENDPOINT, "old-model"), ModelOption(ENDPOINT, "llama3.2")),
        )
    )
    assert picker.text() == "qwen3:4b · Ollama"
    texts = [text for text, _, _ in entries(picker)]
    assert texts == [
        "App setting: Offline assistant",
        "Offline assistant",
        "llama3.2",
        "qwen3:4b",
        "old-model · Ollama",
    ]
    assert [text for text, _, checked in entries(picker) if checked] == ["qwen3:4b"]
    with qtbot.waitSignal(picker.chosen) as chosen:
        next(a for a in picker.actions_shown() if a.text() == "llama3.2").trigger()
    assert chosen.args == [ModelOption(ENDPOINT, "llama3.2")]
    with qtbot.waitSignal(picker.chosen) as chosen:
        picker.actions_shown()[0].trigger()
    assert chosen.args == [None]


def test_the_picker_asks_for_models_when_opened_and_says_why_there_are_none(qtbot) -> None:
    picker = ModelPicker()
    qtbot.addWidget(picker)
    picker.set_menu(ModelMenu(None, "llama3.2 · Ollama", endpoint="Ollama"))
    assert picker.text() == "llama3.2 · Ollama"
    assert ("Loading models…", False, False) in entries(picker)
    with qtbot.waitSignal(picker.models_wanted):
        picker.menu().aboutToShow.emit()
    picker.set_menu(ModelMenu(None, "x", endpoint="Ollama", error="Cannot reach the model."))
    assert ("Cannot reach the model.", False, False) in entries(picker)
    with qtbot.assertNotEmitted(picker.models_wanted):
        picker.menu().aboutToShow.emit()  # a failure is not retried on every open
    picker.set_menu(ModelMenu(ModelOption(OFFLINE), "x"))
    assert picker.text() == "Offline assistant"
    assert [t for t, _, _ in entries(picker)] == [
        "App setting: x",
        "Offline assistant",
        "Connect a model endpoint in Settings…",
    ]
    with qtbot.waitSignal(picker.settings_wanted):
        picker.actions_shown()[-1].trigger()


def test_recent_choices_put_the_newest_first_without_duplicates() -> None:
    a, b, c = (ModelOption(ENDPOINT, name) for name in "abc")
    assert recent_choices((a, b), c) == (c, a, b)
    assert recent_choices((a, b, c), b) == (b, a, c)
    assert len(recent_choices(tuple(ModelOption(ENDPOINT, str(n)) for n in range(9)), a)) == 6


def test_session_settings_edit_instructions_and_an_optional_temperature(qtbot) -> None:
    dialog = SessionSettingsDialog(None, SessionSettings("Be brief.", None))
    qtbot.addWidget(dialog)
    assert not dialog.temperature.isEnabled()
    assert dialog.value() == SessionSettings("Be brief.", None)
    dialog.use_temperature.setChecked(True)
    dialog.temperature.setValue(0.3)
    dialog.editor.setPlainText("  Answer in French.  ")
    assert dialog.value() == SessionSettings("Answer in French.", 0.3)
    dialog.editor.setPlainText("x" * (MAX_INSTRUCTIONS_CHARS + 1))
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert "at most 20000" in dialog.limit_note.text()


def answer_dialog(button: QDialogButtonBox.StandardButton, text: str | None = None) -> None:
    """Once the settings dialog shows, put ``text`` in it (if given) and press ``button``."""

    def press() -> None:
        dialog = next(
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, SessionSettingsDialog) and w.isVisible()
        )
        if text is not None:
            dialog.editor.setPlainText(text)
        dialog.buttons.button(button).click()

    QTimer.singleShot(0, press)


def test_ask_session_settings_returns_none_when_cancelled_or_unchanged(qtbot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    current = SessionSettings("Be brief.")
    answer_dialog(QDialogButtonBox.StandardButton.Cancel, "changed")
    assert ask_session_settings(parent, current) is None
    answer_dialog(QDialogButtonBox.StandardButton.Ok)
    assert ask_session_settings(parent, current) is None
    answer_dialog(QDialogButtonBox.StandardButton.Ok, "Use metric units.")
    assert ask_session_settings(parent, current) == SessionSettings("Use metric units.")


def test_the_strip_shows_chips_removes_them_and_hands_the_files_over(qtbot) -> None:
    strip = AttachmentStrip()
    qtbot.addWidget(strip)
    assert strip.isHidden()
    plan = Attachment("plan.md", "text/markdown", "a" * 64, 2048)
    photo = Attachment("p.png", "image/png", "b" * 64, 3 * 1024 * 1024)
    strip.add(plan)
    strip.add(plan)
    strip.add(photo)
    assert strip.files == (plan, photo)
    assert not strip.isHidden()
    button = next(
        b for b in strip.findChildren(QToolButton) if b.accessibleName() == "Remove plan.md"
    )
    with qtbot.waitSignal(strip.removed) as removed:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert removed.args == ["a" * 64]
    assert strip.files == (photo,)
    assert strip.take() == (photo,)
    assert strip.files == ()
    assert strip.isHidden()
    assert (size_text(900), size_text(2048), size_text(3 * 1024 * 1024)) == (
        "900 B",
        "2 KB",
        "3.0 MB",
    )


def test_chips_that_do_not_fit_wrap_onto_another_line_whole(qtbot) -> None:
    strip = AttachmentStrip()
    qtbot.addWidget(strip)
    long_name = "a-rather-long-name-for-a-file-of-notes-from-the-meeting.txt"
    files = [Attachment(f"file-{n}.md", "text/markdown", f"{n}" * 64, 100) for n in range(5)]
    files.append(Attachment(long_name, "text/plain", "f" * 64, 5000))
    for file in files:
        strip.add(file)
    labels = [label.text() for label in strip.findChildren(QLabel)]
    assert f"{short_name(long_name)} · 5 KB" in labels
    openers = [b for b in strip.findChildren(QToolButton) if b.accessibleName().startswith("Open")]
    assert len(openers) == len(files)
    assert not any(b.icon().isNull() for b in openers)  # the app's paperclip, not a font's emoji
    assert all(b.text() == "" for b in openers)
    assert len(short_name(long_name)) == NAME_CHARS
    assert "…" in short_name(long_name)
    assert short_name("plan.md") == "plan.md"
    strip.show()
    qtbot.waitExposed(strip)
    QApplication.processEvents()  # chips added to a shown strip are shown by a queued call
    layout = strip.layout()
    assert layout is not None
    one_line = layout.heightForWidth(4000)
    assert layout.heightForWidth(260) > 2 * one_line  # three lines or more
    strip.resize(260, layout.heightForWidth(260))
    chips = [w for w in strip.findChildren(QWidget) if w.objectName() == "attachmentChip"]
    for chip in chips:  # none squeezed below what it needs, none past the edge
        assert chip.width() >= chip.sizeHint().width()
        assert chip.geometry().right() < 260 or chip.x() == 0
    assert len({chip.y() for chip in chips}) >= 3


def test_the_paperclip_stays_a_little_larger_than_the_text_when_its_size_changes(qtbot) -> None:
    tools = ComposerTools()
    qtbot.addWidget(tools)
    for size in (10.0, 16.0):
        font = QFont(tools.font())
        font.setPointSizeF(size)
        tools.setFont(font)
        side = tools.attach_button.iconSize().width()
        assert side == round(tools.fontMetrics().height() * GLYPH_SCALE)
        assert not tools.attach_button.icon().isNull()  # the app's paperclip, not a font's emoji
        assert tools.attach_button.text() == ""


def test_the_paperclip_is_drawn_in_the_text_colour_of_each_theme(qtbot) -> None:
    tools = ComposerTools()
    qtbot.addWidget(tools)
    drawn = []
    for ink in ("#1b1d21", "#e5e7ea"):
        palette = QPalette(tools.palette())
        palette.setColor(QPalette.ColorRole.WindowText, QColor(ink))
        tools.setPalette(palette)  # a theme switch
        image = tools.attach_button.icon().pixmap(32).toImage()
        opaque = {
            QColor(image.pixel(x, y)).name()
            for x in range(image.width())
            for y in range(image.height())
            if QColor.fromRgba(image.pixel(x, y)).alpha() == 255
        }
        drawn.append(opaque)
    assert drawn[0] == {"#1b1d21"}
    assert drawn[1] == {"#e5e7ea"}
