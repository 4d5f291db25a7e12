"""The ``/`` picker on its own: it follows the library, closes when the ``/`` goes, and a click
inserts."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from core.prompts import SavedPrompt
from ui.prompt_picker import PromptPicker

KEEP: list[QWidget] = []


def make(qtbot) -> tuple[PromptPicker, QPlainTextEdit]:
    window = QWidget()
    KEEP[:] = [window]
    editor = QPlainTextEdit(window)
    QVBoxLayout(window).addWidget(editor)
    picker = PromptPicker(window, editor)
    qtbot.addWidget(window)
    window.resize(600, 400)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    return picker, editor


def test_it_follows_the_library_and_closes_when_the_slash_goes(qtbot) -> None:
    picker, editor = make(qtbot)
    qtbot.keyClicks(editor, "/")
    assert picker.isVisible()
    assert picker.empty.text() == "No saved prompts yet: add them in Settings."
    picker.insert()  # nothing to insert
    assert editor.toPlainText() == "/"
    picker.set_prompts((SavedPrompt("Brief", "Be brief."), SavedPrompt("Poem", "Rhyme.")))
    assert picker.shown_names() == ["Brief", "Poem"]
    box = editor.rect().translated(editor.mapTo(editor.window(), editor.rect().topLeft()))
    assert not picker.geometry().intersects(box)  # no room above: below the message box
    editor.setPlainText("")
    assert not picker.isVisible()
    editor.setPlainText("/")
    assert picker.isVisible()
    editor.setPlainText("/a\nb")
    assert not picker.isVisible()


def test_a_click_inserts(qtbot) -> None:
    picker, editor = make(qtbot)
    picker.set_prompts((SavedPrompt("Brief", "Be brief."), SavedPrompt("Poem", "Rhyme.\nTwo")))
    inserted: list[str] = []
    picker.inserted.connect(inserted.append)
    qtbot.keyClicks(editor, "/")
    picker.list.itemClicked.emit(picker.list.item(0))
    assert editor.toPlainText() == "Be brief."
    assert inserted == ["Brief"]
    assert not picker.isVisible()


def test_a_long_prompt_is_cut_to_the_width_without_a_scroll_bar(qtbot) -> None:
    picker, editor = make(qtbot)
    picker.set_prompts(tuple(SavedPrompt(f"P{n}", "very long words " * 40) for n in range(3)))
    qtbot.keyClicks(editor, "/")
    assert not picker.list.horizontalScrollBar().isVisible()
    assert not picker.list.verticalScrollBar().isVisible()  # three rows: all shown
