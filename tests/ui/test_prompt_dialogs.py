"""The saved prompts' dialogs on their own: the library (add, edit, remove, the default, names
that cannot be kept) and the choice in a conversation's instructions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from app.language import install_language, remove_language
from core.prompts import SavedPrompt
from ui.prompt_examples import library
from ui.prompt_library import PromptLibraryDialog, SavedPromptsBox
from ui.session_settings import SessionSettings, SessionSettingsDialog

BRIEF = SavedPrompt("Brief", "Be brief.")
REVIEW = SavedPrompt("Reviewer", "Review this.", 0.2, "qwen3:8b")


def ok(dialog: PromptLibraryDialog) -> bool:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_the_library_is_edited_in_a_copy(qtbot) -> None:
    dialog = PromptLibraryDialog(None, (BRIEF, REVIEW), "Reviewer")
    qtbot.addWidget(dialog)
    assert dialog.default.currentText() == "Reviewer"
    dialog.names.setCurrentRow(1)
    dialog.name.setText("Code review")
    dialog.name.textEdited.emit("Code review")
    assert dialog.default.currentText() == "Code review"  # the default follows its rename
    dialog.add()
    assert dialog.names.item(2).text() == "New prompt"
    dialog.add()
    assert dialog.names.item(3).text() == "New prompt 2"
    dialog.name.setText("Brief")
    dialog.name.textEdited.emit("Brief")
    assert not ok(dialog)
    assert dialog.problem.text() == "Two saved prompts have the same name."
    dialog.name.setText("")
    dialog.name.textEdited.emit("")
    assert dialog.problem.text() == "Each saved prompt needs a name."
    dialog.remove()
    assert ok(dialog)
    dialog.names.setCurrentRow(2)
    dialog.text.setPlainText("Say it in French.")
    dialog.use_temperature.setChecked(True)
    dialog.temperature.setValue(0.5)
    prompts, default = dialog.value()
    assert prompts == (
        BRIEF,
        SavedPrompt("Code review", "Review this.", 0.2, "qwen3:8b"),
        SavedPrompt("New prompt", "Say it in French.", 0.5),
    )
    assert default == "Code review"
    while dialog.names.count():
        dialog.remove()
    assert dialog.value() == ((), "")
    assert not dialog.name.isEnabled()


@pytest.fixture
def english(qapp: QApplication) -> Iterator[None]:
    installed = install_language(qapp, "en")
    yield
    remove_language(qapp, installed)


@pytest.fixture
def german(qapp: QApplication) -> Iterator[None]:
    installed = install_language(qapp, "de")
    yield
    remove_language(qapp, installed)


def test_the_examples_are_in_the_window_s_language(german: None) -> None:
    assert [p.name for p in library(None)] == ["Kurz und bündig", "Übersetzer", "Code-Review"]


@pytest.mark.usefixtures("english")
def test_the_settings_box_says_how_many_and_the_default(qtbot) -> None:
    box = SavedPromptsBox(None)  # type: ignore[arg-type] -- a box on its own
    qtbot.addWidget(box)
    box.load(None, "")
    assert box.summary.text() == "3 saved prompts."
    assert library(None)[1].name == "Translator"
    box.load((BRIEF,), "Brief")
    assert box.summary.text() == "1 saved prompt. New conversations start with “Brief”."


def test_a_saved_prompt_fills_the_instructions(qtbot) -> None:
    dialog = SessionSettingsDialog(None, SessionSettings("old", None), (BRIEF, REVIEW))
    qtbot.addWidget(dialog)
    assert [dialog.saved.itemText(i) for i in range(dialog.saved.count())] == [
        "Use a saved prompt…",
        "Brief",
        "Reviewer",
    ]
    dialog.saved.activated.emit(2)
    assert dialog.value() == SessionSettings("Review this.", 0.2, "qwen3:8b")
    dialog.saved.activated.emit(1)  # no temperature of its own: the one set stays
    assert dialog.value() == SessionSettings("Be brief.", 0.2, "")
    dialog.saved.activated.emit(0)
    assert dialog.value().instructions == "Be brief."


def test_without_saved_prompts_there_is_no_choice(qtbot) -> None:
    dialog = SessionSettingsDialog(None, SessionSettings())
    qtbot.addWidget(dialog)
    assert dialog.saved.isHidden()
