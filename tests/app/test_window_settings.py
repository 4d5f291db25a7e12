"""The real window's Settings dialog (Ctrl+,) against a real loopback OpenAI-compatible server,
the appearance it applies, Help's shortcut list, and the in-process pieces of ``app.main``."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import logging
import logging.handlers
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QLineEdit, QMessageBox, QScrollArea

from app.launch import parse_args
from app.run_log import LOG_FILE, setup_logging
from app.settings import SETTINGS_FILE
from tests.app.window import Opener, RealApp, running
from tests.core.llm.loopback import (
    Json,
    LoopbackServer,
    Reply,
    Silent,
    Sse,
    chunk,
    closed_port,
    error_body,
    model_list,
    server_routes,
)
from tests.fakes import FakeClock
from ui.actions import ACTION_TABLE
from ui.settings_dialog import SettingsDialog
from ui.theme import palette_for

CTRL = Qt.KeyboardModifier.ControlModifier
KEY = "sk-test-not-a-real-key"


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def open_settings(chime: RealApp) -> SettingsDialog:
    """Ctrl+, on the active window; the dialog it opened."""
    chime.activate()
    chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_Comma, CTRL))
    dialogs = chime.window.findChildren(SettingsDialog)
    assert len(dialogs) == 1
    assert dialogs[0].isVisible()
    return dialogs[0]


@contextlib.contextmanager
def serving(
    chime: RealApp, script: list[Reply], paths: dict[str, Reply] | None = None
) -> Iterator[LoopbackServer]:
    """A LoopbackServer running on the app's own loop for one block."""
    server = LoopbackServer(script, paths)
    chime.run(server.__aenter__())
    try:
        yield server
    finally:
        chime.run(server.__aexit__(None, None, None))


def settings_visit_script() -> list[Reply]:
    """The chat steps of one Settings visit (the model list and the probes are ``SERVER_ROUTES``):
    a test whose model sets the probe's reminder with a tool call, one whose model only talks, one
    whose key is refused; then the next turn's streamed answer."""
    said = Sse([chunk("OK"), chunk(finish="length")])
    arguments = '{"prompt": "stretch", "after_seconds": 600}'
    create = {"name": "schedule_create", "arguments": arguments}
    called = Sse(
        [
            chunk(tool_calls=[{"index": 0, "id": "p1", "function": create}]),
            chunk(finish="tool_calls"),
        ]
    )
    talked = Sse([chunk("I cannot call tools."), chunk(finish="stop")])
    answer = Sse([chunk("Hello from "), chunk("the loopback server."), chunk(finish="stop")])
    return [said, called, said, talked, Json(401, error_body("no")), answer]


SERVER_ROUTES = server_routes(model_list("qwen3:8b", "llama3.2"))
"""What the server answers to its fixed routes: two models; no /props, no LM Studio API."""


def choose_openai_compatible(dialog: SettingsDialog, preset: str) -> None:
    """Click "OpenAI-compatible endpoint" and pick a preset from the list, as a user does."""
    dialog.remote_radio.click()
    row = dialog.preset_combo.findData(preset)
    dialog.preset_combo.setCurrentIndex(row)
    dialog.preset_combo.activated.emit(row)


def click_and_wait(chime: RealApp, button, label, changed_from: str) -> str:  # type: ignore[no-untyped-def]  # Qt widgets
    dialog = button.window()
    chime.inside(button.click)
    chime.until(
        lambda: not dialog.testing and label.text() not in (changed_from, "Loading models…")
    )
    return str(label.text())


@pytest.mark.slow  # a real HTTP round trip per step on the loopback interface
def test_settings_switch_to_an_endpoint_list_its_models_test_it_and_the_next_turn_uses_it(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime, serving(chime, settings_visit_script(), SERVER_ROUTES) as server:
        dialog = open_settings(chime)
        assert not dialog.endpoint_box.isEnabled()  # the offline assistant needs no endpoint
        choose_openai_compatible(dialog, "lmstudio")
        assert dialog.endpoint_box.isEnabled()
        assert dialog.base_url_edit.text() == "http://localhost:1234/v1"  # the preset's URL
        dialog.base_url_edit.setText(server.base_url)
        dialog.key_edit.setText(KEY)
        result = dialog.test_result
        shown = click_and_wait(chime, dialog.refresh_button, result, "")
        assert shown == "2 models found."  # chime_en.qm: the English plural forms
        models = [dialog.model_combo.itemText(i) for i in range(dialog.model_combo.count())]
        assert models == ["llama3.2", "qwen3:8b"]
        dialog.model_combo.setEditText("qwen3:8b")
        shown = click_and_wait(chime, dialog.test_button, result, shown)
        assert shown == (
            "✓ Connected to LM Studio: the model streams answers and calls tools. Context: 4,096 "
            "tokens (the server does not say; assumed)."
        )
        dialog.model_combo.setEditText("llama3.2")
        shown = click_and_wait(chime, dialog.test_button, result, shown)
        assert shown.startswith(
            "✗ Connected, but this model does not call tools: reminders will not work with it."
        )
        tool_probe = server.received[-1].json()
        assert tool_probe["tool_choice"] == "auto"  # the real turn's request, not a forced one
        assert [t["function"]["name"] for t in tool_probe["tools"]] == [
            "schedule_create",
            "schedule_list",
            "schedule_delete",
        ]
        assert tool_probe["messages"][-1]["content"] == "Remind me in 10 minutes to stretch."
        dialog.model_combo.setEditText("mistral")
        shown = click_and_wait(chime, dialog.test_button, result, shown)
        assert shown == "✗ Connected, but the endpoint has no model named “mistral”."
        dialog.model_combo.setEditText("qwen3:8b")
        shown = click_and_wait(chime, dialog.test_button, result, shown)
        assert shown == "✗ The endpoint rejected the API key (401). Check the key in Settings."
        assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.received)
        chime.inside(dialog.accept)
        saved = json.loads((tmp_path / SETTINGS_FILE).read_text(encoding="utf-8"))
        assert saved["provider"] == "openai-compatible"
        assert (saved["preset"], saved["base_url"], saved["model"]) == (
            "lmstudio",
            server.base_url,
            "qwen3:8b",
        )
        assert KEY not in (tmp_path / SETTINGS_FILE).read_text(encoding="utf-8")
        assert chime.chime.keys.get() == KEY
        assert chime.window.status.provider_label.text() == f"qwen3:8b @ {server.base_url}"
        chime.window.composer.editor.setPlainText("hello")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["assistant"])
        assert chime.transcript_texts()[-1] == "Hello from the loopback server."
        # the turn's request: the model's title for the conversation may follow it (no tools)
        request = [r for r in server.received if r.method == "POST" and "tools" in r.json()][-1]
        assert request.path == "/v1/chat/completions"
        assert request.json()["model"] == "qwen3:8b"
        # byte for byte what Test connection sent: the server's prompt cache serves the turn
        assert request.json()["messages"][0] == tool_probe["messages"][0]
        assert request.json()["tools"] == tool_probe["tools"]
        assert request.headers["authorization"] == f"Bearer {KEY}"
        assert server.open_connections > 0  # the endpoint's keep-alive connection
        chime.run(chime.controller.actions.close_session())
        chime.until(lambda: server.open_connections == 0)  # closing the session closed it


def test_a_model_list_from_an_endpoint_that_is_not_there_says_so(open_app: Opener) -> None:
    with open_app() as chime:
        dialog = open_settings(chime)
        choose_openai_compatible(dialog, "custom")
        assert dialog.base_url_edit.text() == "http://localhost:11434/v1"  # kept, to be edited
        dialog.base_url_edit.setText(f"http://127.0.0.1:{closed_port()}/v1")
        dialog.model_combo.setEditText("typed-by-hand")
        shown = click_and_wait(chime, dialog.refresh_button, dialog.test_result, "")
        assert dialog.model_combo.count() == 0
        assert dialog.model_combo.currentText() == "typed-by-hand"  # free text is kept
        assert shown
        assert "found" not in shown
        assert dialog.refresh_button.isEnabled()
        chime.inside(dialog.reject)
        assert not (chime.chime.folder / SETTINGS_FILE).exists()  # Cancel saves nothing
        assert chime.settings_flow.settings.provider == "offline"


def test_a_closed_settings_dialog_goes_away_instead_of_piling_up(open_app: Opener) -> None:
    with open_app() as chime:
        for close in ("accept", "reject", "accept"):
            dialog = open_settings(chime)
            chime.inside(getattr(dialog, close))
            chime.until(lambda: chime.window.findChildren(SettingsDialog) == [])


def test_the_settings_dialog_fits_an_800_by_600_screen_and_its_pages_scroll(
    open_app: Opener,
) -> None:
    """It measured 844 px with every box on one page: now three tabs, each page scrolling when
    it is taller than the room (the MCP page alone asks for about 800 px)."""
    with open_app() as chime:
        dialog = open_settings(chime)
        chime.until(lambda: dialog.height() > 0)
        assert dialog.height() <= 560
        assert dialog.frameGeometry().height() <= 600
        assert [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())] == [
            "&General",
            "&Window",
            "T&ools (MCP)",
        ]
        for index in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(index)
            page = dialog.tabs.currentWidget()
            assert isinstance(page, QScrollArea)
            assert page.widget().height() >= page.viewport().height() - 1  # all of it reachable
        mcp = dialog.tabs.widget(2)
        assert isinstance(mcp, QScrollArea)
        assert mcp.verticalScrollBar().maximum() > 0  # taller than the room: it scrolls
        assert mcp.widget().isAncestorOf(dialog.mcp_page)
        chime.inside(dialog.reject)


def test_the_dark_and_light_themes_apply_a_palette_and_the_text_size_the_font(
    open_app: Opener, qapp, tmp_path: Path
) -> None:
    with open_app() as chime:
        dialog = open_settings(chime)
        dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("dark"))
        dialog.size_spin.setValue(15)
        chime.inside(dialog.accept)
        window = QPalette.ColorRole.Window
        assert qapp.palette().color(window) == palette_for("dark").color(window)
        assert qapp.font().pointSize() == 15
        dialog = open_settings(chime)
        assert dialog.theme_combo.currentData() == "dark"  # the dialog shows what was saved
        assert dialog.size_spin.value() == 15
        dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("light"))
        dialog.size_spin.setValue(9)
        chime.inside(dialog.accept)
        assert qapp.palette().color(window) == palette_for("light").color(window)
        assert qapp.font().pointSize() == 9
        saved = json.loads((tmp_path / SETTINGS_FILE).read_text(encoding="utf-8"))
        assert (saved["theme"], saved["text_size"], saved["provider"]) == ("light", 9, "offline")


def test_f1_lists_every_action_that_has_a_shortcut(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        chime.inside(
            lambda: chime.qtbot.keyClick(
                chime.window, Qt.Key.Key_F1, Qt.KeyboardModifier.NoModifier
            )
        )
        boxes = [
            b
            for b in chime.window.findChildren(QMessageBox)
            if b.objectName() == "shortcuts-dialog"
        ]
        assert len(boxes) == 1
        text = boxes[0].text()
        with_keys = [(label, keys) for _name, _menu, label, keys, _c in ACTION_TABLE if keys]
        assert len(with_keys) >= 20
        for label, keys in with_keys:
            native = QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)
            assert f"<td>{label.replace('&', '').rstrip('…')}</td>" in text
            assert f"<b>{native}</b>" in text
        assert "<b>Enter</b>" in text
        assert "<b>Shift+Enter</b>" in text
        boxes[0].close()


def test_arguments_name_the_data_folder_and_the_session() -> None:
    args = parse_args(["--data-dir", "/tmp/chime-data", "--session", "abc"])
    assert (args.data_dir, args.session) == ("/tmp/chime-data", "abc")
    defaults = parse_args([])
    assert (defaults.data_dir, defaults.session) == (None, None)
    with pytest.raises(SystemExit):
        parse_args(["--no-such-flag"])


@contextlib.contextmanager
def logging_to(folder: Path) -> Iterator[logging.handlers.RotatingFileHandler]:
    """``setup_logging(folder)`` for the block: its one handler; the root logger is put back."""
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    try:
        assert setup_logging(folder) is True
        (handler,) = root.handlers[len(before) :]
        assert isinstance(handler, logging.handlers.RotatingFileHandler)
        yield handler
        handler.flush()
    finally:
        for added in root.handlers[len(before) :]:
            added.close()
            root.removeHandler(added)
        root.setLevel(level)


def test_the_log_is_a_private_rotating_file_in_the_data_folder(tmp_path: Path) -> None:
    with logging_to(tmp_path) as handler:
        assert Path(handler.baseFilename) == tmp_path / LOG_FILE
        assert (handler.maxBytes, handler.backupCount) == (1_000_000, 3)
        logging.getLogger("app.test").info("a line for the log")
    path = tmp_path / LOG_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "INFO app.test: a line for the log" in path.read_text(encoding="utf-8")


def test_the_message_box_keeps_three_lines_when_the_text_size_changes(
    open_app: Opener, tmp_path: Path
) -> None:
    def three_lines_fit(chime: RealApp) -> bool:
        editor = chime.window.composer.editor
        return editor.height() >= 3 * editor.fontMetrics().lineSpacing()

    with open_app() as chime:
        dialog = open_settings(chime)
        dialog.size_spin.setValue(24)
        chime.inside(dialog.accept)
        chime.until(lambda: chime.window.composer.editor.font().pointSize() == 24)
        assert three_lines_fit(chime)


def test_an_endpoint_without_a_base_url_is_labelled_as_the_offline_assistant_that_answers(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        dialog = open_settings(chime)
        choose_openai_compatible(dialog, "custom")
        dialog.base_url_edit.clear()
        dialog.model_combo.setEditText("some-model")
        chime.inside(dialog.accept)
        assert chime.window.status.provider_label.text() == "Offline assistant"
        chime.send("hello")  # answered offline, as the status bar says
        assert chime.transcript_texts()[-1]


def test_switching_back_to_the_offline_assistant_answers_offline_again(open_app: Opener) -> None:
    with open_app() as chime, serving(chime, []) as server:
        dialog = open_settings(chime)
        choose_openai_compatible(dialog, "custom")
        dialog.base_url_edit.setText(server.base_url)
        chime.inside(dialog.accept)
        assert chime.window.status.provider_label.text() == f"? @ {server.base_url}"
        dialog = open_settings(chime)
        assert dialog.remote_radio.isChecked()
        assert dialog.base_url_edit.text() == server.base_url
        dialog.offline_radio.click()
        chime.inside(dialog.accept)
        assert chime.window.status.provider_label.text() == "Offline assistant"
        chime.send("what reminders do I have")
        assert server.received == []  # the endpoint was never asked


def test_the_api_key_is_masked_said_where_it_is_kept_and_stored_privately(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        dialog = open_settings(chime)
        key_file = tmp_path / "config" / "api-key"
        assert dialog.key_note.isVisibleTo(dialog)
        assert str(key_file) in dialog.key_note.text()  # no keyring here: the file is named
        assert dialog.key_edit.echoMode() == QLineEdit.EchoMode.Password
        choose_openai_compatible(dialog, "openai")
        assert dialog.key_edit.placeholderText() == "required"
        dialog.key_edit.setText(KEY)
        chime.inside(dialog.accept)
        assert key_file.read_text(encoding="utf-8") == KEY
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert KEY not in (tmp_path / SETTINGS_FILE).read_text(encoding="utf-8")
        dialog = open_settings(chime)
        assert dialog.key_edit.text() == KEY  # carried, still masked
        dialog.key_edit.clear()
        chime.inside(dialog.accept)
        assert not key_file.exists()  # an empty key deletes the stored one


def test_closing_settings_while_the_model_list_loads_abandons_the_request_quietly(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    unexpected: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda _kind, error, _tb: unexpected.append(error))
    with open_app() as chime:
        with serving(chime, [Silent()]) as server:
            dialog = open_settings(chime)
            choose_openai_compatible(dialog, "custom")
            dialog.base_url_edit.setText(server.base_url)
            chime.inside(dialog.refresh_button.click)
            chime.run(server.request_seen.wait())
            chime.inside(dialog.reject)
            chime.until(lambda: chime.window.findChildren(SettingsDialog) == [])
            chime.run(server.hung_up.wait())  # the request was abandoned, not left to time out
        chime.until(lambda: chime.tasks.pending == 0)
        assert unexpected == []
        assert chime.window.findChildren(QMessageBox) == []


class FullDisk:
    """A log file's stream on a disk that is full while ``full`` is set."""

    def __init__(self, stream: Any) -> None:
        self.stream, self.full = stream, True

    def write(self, text: str) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return int(self.stream.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def test_a_log_file_on_a_full_disk_drops_records_quietly_says_so_once_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with logging_to(tmp_path) as handler:
        disk = FullDisk(handler.stream)
        handler.stream = disk  # type: ignore[assignment]  # a stream that fails like a full disk
        for n in range(300):
            logging.getLogger("core.session.writer").warning("write failed %d", n)
        disk.full = False
        logging.getLogger("app.test").info("the disk has room again")
    errors = capsys.readouterr().err
    assert "Logging error" not in errors
    assert "Traceback" not in errors
    assert errors.count("\n") == 1
    assert "cannot write chime.log (No space left on device)" in errors
    text = (tmp_path / LOG_FILE).read_text(encoding="utf-8")
    assert "the disk has room again" in text
    assert "300 log messages were lost while chime.log could not be written" in text
