"""The window's language: German from the settings or the system locale, English otherwise, and a
translation that is complete and built from the code's strings (scripts/translations.py)."""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
import os
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QLocale, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox, QWidget

from app.launch import restart_command
from app.leave_words import due_words
from app.settings import SETTINGS_FILE, Settings, load_settings
from app.settings_flow import settings_draft
from app.state import STATE_FILE, read_state
from core.errors import ErrorKind, ProviderError
from core.failures import Failure, FailureCode
from core.llm.messages import ModelInfo, ModelRequest, StreamChunk
from tests.app.test_flow import advance_and_fire
from tests.app.window import ZONE, Opener, RealApp, running
from tests.fakes import FakeClock
from ui.actions import ACTION_TABLE, MENU_TITLES, MENUS
from ui.dialogs import ask_restart_for_language
from ui.i18n import Sentence, chosen_language
from ui.row_actions import ROW_ACTIONS
from ui.settings_dialog import THEMES, SettingsDialog, SettingsDraft
from ui.timefmt import day_time
from ui.transcript_roles import TITLE_ROLE
from ui.transcript_rows import reminder_caption

ROOT = Path(__file__).resolve().parents[2]
GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)
SCREENSHOTS = os.environ.get("CHIME_SCREENSHOTS", "")
"""A folder to save the German window's picture in (for a person to look at); unset: none."""


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def with_language(folder: Path, language: str) -> None:
    (folder / SETTINGS_FILE).write_text(json.dumps({"language": language}), encoding="utf-8")


def menus(chime: RealApp) -> dict[str, list[str]]:
    """Each menu title of the menu bar with its actions' labels."""
    shown: dict[str, list[str]] = {}
    for action in chime.window.menuBar().actions():
        menu = action.menu()
        assert menu is not None
        shown[action.text()] = [a.text() for a in menu.actions() if not a.isSeparator()]
    return shown


def test_language_de_shows_german_menus_actions_panels_and_standard_buttons(
    open_app: Opener, tmp_path: Path
) -> None:
    with_language(tmp_path, "de")
    with open_app() as chime:
        shown = menus(chime)
        assert list(shown) == ["&Sitzung", "&Bearbeiten", "&Ansicht", "&Hilfe"]
        assert shown["&Sitzung"][0] == "&Neue Sitzung"
        assert "Sitzung &schließen" in shown["&Sitzung"]
        assert "&Einstellungen…" in shown["&Bearbeiten"]
        assert "&Tastenkürzel" in shown["&Hilfe"]
        window = chime.window
        assert window.reminders_dock.windowTitle() == "Erinnerungen"
        assert window.composer.send_button.text() == "Senden"
        assert window.reminders.remove_button.text() == "Löschen"
        assert window.sessions.filter.placeholderText() == "Alle Sitzungen durchsuchen"
        assert window.transcript.accessibleName() == "Verlauf"
        # Qt's own translation: the standard buttons of Chime's dialogs are German too.
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        assert buttons.button(QDialogButtonBox.StandardButton.Cancel).text() == "Abbrechen"
        dialog = SettingsDialog(SettingsDraft(language="de"), [], window)
        assert dialog.windowTitle() == "Einstellungen – Chime"
        assert dialog.theme_combo.itemText(0) == "Wie das System"  # a marked table entry
        assert dialog.language_combo.currentText() == "Deutsch"
        dialog.deleteLater()
        # Day and month names follow the chosen language too (the default QLocale).
        now, friday = datetime(2026, 8, 4, 12, tzinfo=UTC), datetime(2026, 8, 7, 12, tzinfo=UTC)
        assert day_time(friday, now, ZONE) == "Fr. 7. Aug. 14:00"
        assert due_words(friday, now, ZONE) == "am Fr. 7. Aug. um 14:00"


def test_choosing_another_language_offers_a_restart_that_quits_and_starts_in_it(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        session = chime.controller.current
        chime.send("remind me in 2 hours to call Ana")
        flow = chime.settings_flow
        draft = settings_draft(flow.settings, "", "")
        chime.answers.restarts.append(False)  # Later
        chime.inside(lambda: flow.apply(dataclasses.replace(draft, language="de")))
        assert chime.answers.restart_languages == ["Deutsch"]
        assert load_settings(tmp_path).language == "de"
        assert next(iter(menus(chime))) == "&Session"  # nothing is retranslated live
        chime.inside(lambda: flow.apply(dataclasses.replace(draft, language="de", text_size=12)))
        chime.inside(lambda: flow.apply(dataclasses.replace(draft, language="en")))
        assert chime.answers.restart_languages == ["Deutsch"]  # Later is not asked again
        chime.answers.restarts.append(True)  # Restart now, from "System" on a German desktop
        chime.chime.system_locale = GERMAN
        chime.inside(lambda: flow.apply(dataclasses.replace(draft, language="system")))
        assert chime.answers.restart_languages == ["Deutsch", "Deutsch"]
        chime.until(lambda: chime.chime._finished)  # quit as Ctrl+Q does: no reminder warning
        assert chime.chime.restart_wanted
        assert not chime.answers.warnings
    assert read_state(tmp_path).open == (session,)
    with open_app(system_locale=GERMAN) as chime:  # what the new process shows
        assert next(iter(menus(chime))) == "&Sitzung"
        assert chime.controller.current == session
        panel = chime.window.reminders.model
        chime.until(lambda: panel.rowCount() == 1)
        assert panel.index(0).data().startswith("call Ana\neinmal")


def test_the_restart_question_names_the_language_and_restarts_only_when_asked(qtbot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    said: list[str] = []

    def answer(click: str) -> None:
        box = next(
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QMessageBox) and w.isVisible()
        )
        said.append(box.text())
        assert box.defaultButton().text() == "Restart now"
        next(b for b in box.buttons() if b.text() == click).click()

    QTimer.singleShot(0, lambda: answer("Restart now"))
    assert ask_restart_for_language(parent, "Deutsch") is True
    QTimer.singleShot(0, lambda: answer("Later"))
    assert ask_restart_for_language(parent, "Deutsch") is False
    assert said[0].startswith("Chime switches to Deutsch when it starts again. Restart it now?")


def test_a_restart_starts_the_same_interpreter_or_bundle_on_the_same_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert restart_command(tmp_path) == [sys.executable, "-m", "app", "--data-dir", str(tmp_path)]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert restart_command(tmp_path) == [sys.executable, "--data-dir", str(tmp_path)]


def test_language_en_shows_english_menus_on_a_german_desktop(
    open_app: Opener, tmp_path: Path
) -> None:
    with_language(tmp_path, "en")
    with open_app(system_locale=GERMAN) as chime:
        shown = menus(chime)
        assert list(shown) == ["&Session", "&Edit", "&View", "&Help"]
        assert shown["&Session"][0] == "&New session"
        assert chime.window.composer.send_button.text() == "Send"


def test_language_system_follows_a_german_desktop(open_app: Opener, tmp_path: Path) -> None:
    with_language(tmp_path, "system")
    with open_app(system_locale=GERMAN) as chime:
        assert next(iter(menus(chime))) == "&Sitzung"
    with open_app(system_locale=QLocale(QLocale.Language.French)) as chime:
        assert next(iter(menus(chime))) == "&Session"  # no French translation: English


def test_on_a_german_desktop_damaged_settings_and_state_files_are_explained_in_german(
    open_app: Opener, tmp_path: Path
) -> None:
    # The settings are read before their language is known: what went wrong is said in the
    # language chosen after reading them (here the desktop's, as the defaults say).
    (tmp_path / SETTINGS_FILE).write_bytes(b"{not json")
    (tmp_path / STATE_FILE).write_bytes(b"[1, 2]")
    with open_app(system_locale=GERMAN) as chime:
        message = chime.window.message_bar.text()
        assert next(iter(menus(chime))) == "&Sitzung"
    assert message.startswith("settings.json ist ungültig: ")
    assert (
        ". Sie wurde als settings.json.bad-1 beiseitegelegt. Es gelten die Standardeinstellungen. "
        "state.json ist kein JSON-Objekt. Es wurden keine Sitzungen wieder geöffnet (sie stehen "
        "alle in der Liste)."
    ) in message


def test_a_sentence_fills_in_its_values_once() -> None:
    said = Sentence("Settings", "%1 could not be read: %2.", ("a %2 file", "no %1 here"))
    assert said.text() == "a %2 file could not be read: no %1 here."
    assert Sentence("Settings", "%1 is not valid: %2.", ("x",)).text() == "x is not valid: %2."


def test_the_system_language_is_german_or_english() -> None:
    assert chosen_language("system", GERMAN) == "de"
    assert chosen_language("system", QLocale(QLocale.Language.Japanese)) == "en"
    assert chosen_language("system", QLocale.c()) == "en"
    assert chosen_language("en", GERMAN) == "en"


def test_an_unknown_language_is_an_invalid_setting() -> None:
    assert Settings.from_json({"language": "de"}).language == "de"
    with pytest.raises(ValueError, match="language must be one of"):
        Settings.from_json({"language": "klingon"})
    with pytest.raises(ValueError, match="language must be a string"):
        Settings.from_json({"language": 1})


@pytest.mark.slow  # a turn of the offline assistant, then its reminder's turn
def test_in_german_a_reminder_row_caption_the_panel_and_the_sidebar_plural_are_german(
    open_app: Opener, tmp_path: Path, clock: FakeClock
) -> None:
    with_language(tmp_path, "de")
    with open_app() as chime:
        chime.send("remind me in 2 minutes to stretch")
        panel = chime.window.reminders.model
        assert panel.index(0).data().startswith("stretch\neinmalig · heute 14:02 · in 2 Min.")
        sessions = chime.window.sessions.model
        row = sessions.row_of(str(chime.controller.current))
        sidebar = sessions.index(row).data(Qt.ItemDataRole.AccessibleTextRole)
        assert sessions.index(row - 1).data() == "Heute"  # its group's heading
        assert "1 aktive Erinnerung," in sidebar
        advance_and_fire(chime, clock, timedelta(minutes=4))  # delivered two minutes late
        chime.until(lambda: "reminder" in chime.kinds() and chime.idle())
        model = chime.window.transcript_model
        row = model.row_at(chime.kinds().index("reminder"))
        assert row is not None
        assert (
            reminder_caption(row, ZONE)
            == "Erinnerung · fällig 14:02 · zugestellt 14:04 (verspätet)"
        )
        tool = model.row_at(chime.kinds().index("tool"))
        assert tool is not None
        assert tool.detail.startswith("Argumente:\n")
        assert "\n\nErgebnis:\n" in tool.detail


class Unreachable:
    """An endpoint that cannot be reached: every step fails with the coded connection failure."""

    info = ModelInfo("test", "unreachable")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        failure = Failure(FailureCode.UNREACHABLE, ("http://localhost:11434/v1",))
        raise ProviderError.because(ErrorKind.CONNECTION, failure, retryable=True)
        yield  # noqa: V201 -- unreachable on purpose: this async generator fails at its first step


@pytest.mark.slow  # a turn of the offline assistant, its reminder's turn, then a failed turn
def test_in_german_the_tool_card_the_reminder_turn_and_a_failed_turn_are_german(
    open_app: Opener, tmp_path: Path, clock: FakeClock
) -> None:
    with_language(tmp_path, "de")
    with open_app() as chime:
        chime.send("remind me in 2 minutes to stretch")
        model = chime.window.transcript_model
        tool = model.row_at(chime.kinds().index("tool"))
        assert tool is not None
        assert tool.title.startswith("Erinnerung erstellen — stretch, 14:02 · schedule-")
        assert model.index(chime.kinds().index("tool")).data(TITLE_ROLE) == tool.title
        advance_and_fire(chime, clock, timedelta(minutes=2))
        chime.until(lambda: "reminder" in chime.kinds() and chime.idle())
        reminder = model.row_at(chime.kinds().index("reminder"))
        assert reminder is not None
        assert reminder_caption(reminder, ZONE) == "Erinnerung · fällig 14:02"
        chime.controller.set_provider(Unreachable)
        chime.window.composer.editor.setPlainText("hello")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: "error" in chime.kinds() and chime.idle())
        error = chime.transcript_texts()[chime.kinds().index("error")]
        assert error == (
            "Keine Verbindung zum Modell-Endpunkt unter http://localhost:11434/v1. Prüfen Sie, ob "
            "der Server läuft und die Basis-URL in den Einstellungen stimmt."
        )
        if SCREENSHOTS:
            chime.window.grab().save(str(Path(SCREENSHOTS) / "german-window.png"))


def translations_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("translations", ROOT / "scripts/translations.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("translations", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # runs pyside6-lupdate and pyside6-lrelease (about half a second)
def test_the_german_translation_is_complete_and_built_from_the_code() -> None:
    """What ``scripts/translations.py --check`` reports: every string of ui/ and app/ is in
    chime_de.ts (every plural in chime_en.ts), none is unfinished, and each .qm is what lrelease
    makes of its .ts."""
    script = translations_script()
    assert [
        line for key, lang in script.LANGUAGES.items() for line in script.problems(key, lang)
    ] == []


def test_every_label_kept_in_a_table_is_marked_for_translation() -> None:
    """A row added to one of the tables without its QT_TR_NOOP / QT_TRANSLATE_NOOP mark would
    stay English without pyside6-lupdate (and so --check) noticing: each label is in the .ts."""
    messages = translations_script().read_ts(ROOT / "resources/i18n/chime_de.ts").messages
    expected = [("", label, "") for _name, _menu, label, _keys, _checkable in ACTION_TABLE]
    expected += [("", MENU_TITLES[menu], "") for menu in MENUS]
    expected += [("RowActions", text, "") for a in ROW_ACTIONS for text in (a.label, a.tip) if text]
    expected += [("SettingsDialog", label, "") for _value, label in THEMES]
    assert [message for message in expected if message not in messages] == []


def test_german_calls_a_conversation_gespraech_everywhere() -> None:
    """One word for "conversation": "Gespräch", which most of the window (44 strings) and the
    offline assistant already said; "Unterhaltung" (12 later strings, import and saved prompts)
    also means entertainment."""
    catalogue = (ROOT / "resources/i18n/chime_de.ts").read_text(encoding="utf-8")
    offline = "".join(
        path.read_text(encoding="utf-8")
        for path in (ROOT / "core/llm/offline/lang").glob("de_*.py")
    )
    for text in (catalogue, offline):
        assert "Unterhaltung" not in text
    assert catalogue.count("Gespräch") > 40
    assert "Gespräch" in offline
