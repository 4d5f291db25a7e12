"""Saved prompts in the real window: the library in Settings, the choice in a conversation's
instructions, the default for new conversations (recorded in their log), and ``/`` in the empty
message box."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

import ui.prompt_library as prompt_library
from app.settings import Settings, read_settings
from core.events import SessionInstructions, SessionModel
from core.prompts import SavedPrompt
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.prompt_library import PromptLibraryDialog
from ui.session_settings import SessionSettings

REVIEW = SavedPrompt("Reviewer", "Review this code carefully.", 0.2, "qwen3:8b")
BRIEF = SavedPrompt("Brief", "Be brief.")


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def save_library(chime: RealApp, prompts: tuple[SavedPrompt, ...], default: str = "") -> None:
    """Settings ▸ Saved prompts ▸ Manage…, the library edited in its dialog, then OK, OK."""
    dialog = chime.settings_flow.open()

    def edit(parent: Any, current: Any, chosen: str) -> tuple[tuple[SavedPrompt, ...], str]:
        library = PromptLibraryDialog(parent, current, chosen)
        while library.names.count():
            library.remove()
        for prompt in prompts:
            library.add()
            library.name.setText(prompt.name)
            library.name.textEdited.emit(prompt.name)
            library.text.setPlainText(prompt.text)
            library.use_temperature.setChecked(prompt.temperature is not None)
            library.temperature.setValue(prompt.temperature or 0.0)
            library.model.setText(prompt.model)
            library.model.textEdited.emit(prompt.model)
        library.default.setCurrentIndex(library.default.findData(default))
        return library.value()

    original = prompt_library.edit_prompts
    prompt_library.edit_prompts = edit  # type: ignore[assignment] -- the modal dialog, driven
    try:
        chime.inside(dialog.prompts_box.manage.click)
    finally:
        prompt_library.edit_prompts = original
    chime.inside(dialog.accept)


def log_events(chime: RealApp, session_id: str) -> list[Any]:
    opened = chime.controller.open[session_id]
    return [entry.event for entry in opened.session.entries]


def test_the_examples_are_offered_until_the_library_is_saved(open_app: Opener) -> None:
    with open_app() as chime:
        dialog = chime.settings_flow.open()
        assert dialog.prompts_box.summary.text() == "3 saved prompts."
        chime.inside(dialog.reject)
        assert chime.started.verbs.prompts.picker.shown_names() == []
        names = [p.name for p in chime.started.verbs.prompts.prompts()]
        assert names == ["Be brief", "Translator", "Code reviewer"]


def test_the_library_is_kept_in_settings_json(open_app: Opener, tmp_path: Path) -> None:
    with open_app() as chime:
        save_library(chime, (REVIEW, BRIEF), default="Brief")
        saved = json.loads((tmp_path / "settings.json").read_text("utf-8"))
        assert saved["prompts"] == [
            {
                "name": "Reviewer",
                "text": "Review this code carefully.",
                "temperature": 0.2,
                "model": "qwen3:8b",
            },
            {"name": "Brief", "text": "Be brief.", "temperature": None, "model": ""},
        ]
        assert saved["default_prompt"] == "Brief"
        dialog = chime.settings_flow.open()
        assert dialog.prompts_box.summary.text() == (
            "2 saved prompts. New conversations start with “Brief”."
        )
        chime.inside(dialog.reject)
    with open_app() as chime:  # read back at the next start
        assert chime.started.verbs.prompts.prompts() == (REVIEW, BRIEF)


def test_a_saved_prompt_chosen_in_the_instructions_is_recorded(open_app: Opener) -> None:
    with open_app() as chime:
        save_library(chime, (REVIEW, BRIEF))
        chime.answers.session_settings_given.append(
            SessionSettings(REVIEW.text, REVIEW.temperature, REVIEW.model)
        )
        chime.trigger("session_instructions")
        assert chime.answers.prompts_offered == [(REVIEW, BRIEF)]
        events = log_events(chime, chime.controller.current or "")
        assert SessionInstructions("Review this code carefully.") in events
        assert events[-1] == SessionModel(None, "qwen3:8b", 0.2)


def test_new_conversations_start_with_the_default_in_their_log(open_app: Opener) -> None:
    with open_app() as chime:
        first = chime.controller.current or ""
        assert not any(isinstance(e, SessionInstructions) for e in log_events(chime, first))
        save_library(chime, (REVIEW, BRIEF), default="Reviewer")
        chime.send("hello")  # so New session makes a new one
        chime.run(chime.controller.new_session())
        new = chime.controller.current or ""
        assert new != first
        events = log_events(chime, new)
        assert events[:2] == [
            SessionInstructions("Review this code carefully."),
            SessionModel(None, "qwen3:8b", 0.2),
        ]
        assert chime.window.composer.tools.instructions_button.text() == "Instructions ✓ · 0.2"


def type_keys(chime: RealApp, text: str) -> None:
    editor = chime.window.composer.editor
    chime.inside(lambda: chime.qtbot.keyClicks(editor, text))


def key(chime: RealApp, which: Qt.Key) -> None:
    editor = chime.window.composer.editor
    chime.inside(lambda: chime.qtbot.keyClick(editor, which))


def test_slash_in_the_empty_box_picks_a_prompt(open_app: Opener) -> None:
    with open_app() as chime:
        save_library(chime, (REVIEW, BRIEF, SavedPrompt("Translator", "Translate this.")))
        chime.activate()
        editor = chime.window.composer.editor
        chime.inside(editor.setFocus)
        picker = chime.started.verbs.prompts.picker
        type_keys(chime, "/")
        assert picker.isVisible()
        assert picker.shown_names() == ["Reviewer", "Brief", "Translator"]
        type_keys(chime, "r")  # names starting with it first, then those holding it
        assert picker.shown_names() == ["Reviewer", "Brief", "Translator"]  # “Brief” holds an r
        type_keys(chime, "ev")
        assert picker.shown_names() == ["Reviewer"]
        chime.inside(lambda: editor.setPlainText("/"))
        key(chime, Qt.Key.Key_Down)
        key(chime, Qt.Key.Key_Down)
        key(chime, Qt.Key.Key_Up)
        assert picker.list.currentRow() == 1
        key(chime, Qt.Key.Key_Return)
        assert not picker.isVisible()
        assert editor.toPlainText() == "Be brief."
        assert chime.kinds() == []  # inserted, not sent


def test_esc_closes_the_picker_and_keeps_the_text(open_app: Opener) -> None:
    with open_app() as chime:
        save_library(chime, (BRIEF,))
        chime.activate()
        editor = chime.window.composer.editor
        chime.inside(editor.setFocus)
        picker = chime.started.verbs.prompts.picker
        type_keys(chime, "/b")
        assert picker.isVisible()
        key(chime, Qt.Key.Key_Escape)
        assert not picker.isVisible()
        assert editor.toPlainText() == "/b"
        type_keys(chime, "x")  # stays closed until "/" is typed into an empty box again
        assert not picker.isVisible()


def test_nothing_matching_says_so_and_enter_sends(open_app: Opener) -> None:
    with open_app() as chime:
        save_library(chime, (BRIEF,))
        chime.activate()
        editor = chime.window.composer.editor
        chime.inside(editor.setFocus)
        picker = chime.started.verbs.prompts.picker
        type_keys(chime, "/zzz")
        assert picker.empty.isVisible()
        assert picker.empty.text() == "No saved prompt matches “zzz”."
        key(chime, Qt.Key.Key_Return)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["assistant"])
        assert chime.transcript_texts()[0] == "/zzz"
        assert not picker.isVisible()


def test_a_settings_file_with_a_bad_library_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"prompts": [{"name": ""}]}', encoding="utf-8")
    read = read_settings(tmp_path)
    assert read.settings == Settings()
    assert read.problem is not None
    assert "a saved prompt needs a name" in read.problem
    with pytest.raises(ValueError, match="tuple of saved prompts"):
        Settings(prompts=[BRIEF])  # type: ignore[arg-type] -- the wrong type, on purpose
    with pytest.raises(ValueError, match="default_prompt"):
        Settings(default_prompt=3)  # type: ignore[arg-type] -- the wrong type, on purpose


def test_edit_menu_opens_the_library_on_its_own(
    open_app: Opener, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers: list[tuple[tuple[SavedPrompt, ...], str] | None] = [None, ((BRIEF,), "Brief")]
    shown: list[tuple[SavedPrompt, ...]] = []

    def edit(_parent: Any, current: Any, _default: str) -> Any:
        shown.append(tuple(current))
        return answers.pop(0)

    monkeypatch.setattr(prompt_library, "edit_prompts", edit)
    with open_app() as chime:
        chime.trigger("saved_prompts")  # cancelled: nothing is saved
        assert not (tmp_path / "settings.json").exists()
        chime.trigger("saved_prompts")
        assert [p.name for p in shown[0]] == ["Be brief", "Translator", "Code reviewer"]
        saved = json.loads((tmp_path / "settings.json").read_text("utf-8"))
        assert (saved["prompts"][0]["name"], saved["default_prompt"]) == ("Brief", "Brief")
        assert chime.started.verbs.prompts.prompts() == (BRIEF,)
        assert chime.settings_flow.settings.theme == "system"  # the rest as it was
