"""The data folder deleted while Chime runs (issue 24 point 5), in the real window on real files:
the window says so at once in the message bar, keeps the conversation, and its "Export as JSONL"
button saves the whole conversation elsewhere from memory; quitting asks before anything is
lost."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

import pytest

from tests.app.window import Opener, running
from tests.fakes import FakeClock

# WORKAROUND(offscreen QPA): showing a main window logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path / "data", clock)


def test_a_deleted_data_folder_is_said_at_once_and_the_conversation_can_be_saved_elsewhere(
    open_app: Opener, tmp_path: Path
) -> None:
    copy = tmp_path / "rescued" / "conversation.jsonl"
    copy.parent.mkdir()
    with open_app() as chime:
        chime.send("written before")
        shutil.rmtree(tmp_path / "data")  # the whole data folder, under the live session
        chime.send("written after")
        bar = chime.window.message_bar
        chime.until(lambda: "can no longer be saved" in bar.text())
        assert str(tmp_path / "data") in bar.text()
        assert bar.action_button.isVisibleTo(chime.window)
        assert bar.action_button.text() == "Export as JSONL"
        assert chime.window.status.persistence_label.isVisibleTo(chime.window)
        assert any("written after" in text for text in chime.transcript_texts())  # kept
        chime.answers.paths.append(copy)
        chime.inside(bar.action_button.click)
        chime.until(copy.exists)
        chime.until(lambda: "Exported to" in bar.text())
        chime.answers.lose = [False]
        chime.trigger("quit")  # quitting asks first: nothing is lost without a word
        chime.until(lambda: chime.answers.lose == [])
        assert chime.window.isVisible()
        assert "folder was deleted or moved" in chime.answers.asked[-1]
        chime.until(lambda: "export the conversation" in bar.text())
    lines = copy.read_bytes().split(b"\n")
    assert json.loads(lines[0])["type"] == "session"
    texts = [
        json.loads(line)["data"]["text"]
        for line in lines[1:]
        if line and json.loads(line)["type"] == "user/message"
    ]
    assert texts == ["written before", "written after"]


def test_a_session_not_on_screen_whose_folder_vanished_is_named_without_an_export_button(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.send("first conversation")
        first = chime.controller.current
        assert first is not None
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current not in (None, first))
        bridge = chime.controller.open[first].bridge
        chime.inside(lambda: bridge.log_lost.emit("the session log was deleted"))
        bar = chime.window.message_bar
        assert bar.text().startswith("“first conversation” can no longer be saved")
        assert not bar.action_button.isVisibleTo(chime.window)
        assert not chime.window.status.persistence_label.isVisibleTo(chime.window)
