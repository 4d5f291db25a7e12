"""MCP in the real window, end to end: the model (the loopback OpenAI-compatible server) calls a
tool of the hostile test server (the SDK's server side over stdio); the approval dialog shows
the arguments as indented JSON; Allow runs it and the row says done; Deny runs nothing and the
row says so; Always allow stops asking; a picture comes back as a thumbnail row; Stop while the
question is open cancels the call."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.mcp_approval import ApprovalAsker
from app.settings import SETTINGS_FILE
from core.mcp.config import to_settings
from core.mcp.types import ServerConfig, StdioServer
from core.transcript.mcp import CallState
from core.transcript.rows import TranscriptRow
from tests.app.test_session_verbs import answer, endpoint
from tests.app.window import RealApp, running
from tests.core.llm.loopback import Sse, chunk
from tests.fakes import FakeClock
from ui.tool_approval import ToolApprovalDialog

ROOT = str(Path(__file__).resolve().parents[2])
HOSTILE = ServerConfig(
    "hostile",
    StdioServer(sys.executable, ("-m", "tests.mcp.hostile_server"), cwd=ROOT),
    enabled_by_default=True,
)


def call(name: str, arguments: dict[str, Any], call_id: str) -> Sse:
    function = {"name": name, "arguments": json.dumps(arguments)}
    tool = {"index": 0, "id": call_id, "type": "function", "function": function}
    return Sse([chunk(tool_calls=[tool]), chunk(finish="tool_calls")])


def with_servers(folder: Path) -> None:
    """settings.json (written by ``endpoint``) with the hostile server offered by default."""
    path = folder / SETTINGS_FILE
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["mcp_servers"] = to_settings((HOSTILE,))
    path.write_text(json.dumps(settings), encoding="utf-8")


def session_lines(folder: Path) -> list[str]:
    """Every line of the one session's log under ``folder``."""
    [log] = (folder / "sessions").glob("*/session.jsonl")
    return log.read_text(encoding="utf-8").splitlines()


def asker(chime: RealApp) -> ApprovalAsker:
    service = chime.started.mcp
    assert service is not None
    found = getattr(service.approver, "__self__", None)
    assert isinstance(found, ApprovalAsker)
    return found


def question(chime: RealApp) -> ToolApprovalDialog:
    chime.until(lambda: bool(asker(chime).open_dialogs))
    dialog = asker(chime).open_dialogs[0]
    chime.until(dialog.isVisible)
    return dialog


def send(chime: RealApp, text: str) -> None:
    chime.window.composer.editor.setPlainText(text)
    chime.inside(chime.window.composer.send_button.click)


def mcp_rows(chime: RealApp) -> list[TranscriptRow]:
    model = chime.window.transcript_model
    rows = [model.row_at(r) for r in range(model.rowCount())]
    return [row for row in rows if row is not None and row.kind == "mcp"]


def rows_of(chime: RealApp) -> list[TranscriptRow]:
    model = chime.window.transcript_model
    return [row for r in range(model.rowCount()) if (row := model.row_at(r)) is not None]


def done(chime: RealApp, count: int) -> None:
    chime.until(lambda: chime.idle() and len(mcp_rows(chime)) == count)


def test_allow_deny_always_and_a_picture_through_the_real_window(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script = [
        call("hostile__echo", {"text": "hello"}, "e1"),
        answer("It echoed."),
        call("hostile__echo", {"text": "again"}, "e2"),
        answer("You said no."),
        call("hostile__echo", {"text": "third"}, "e3"),
        answer("Always then."),
        call("hostile__echo", {"text": "fourth"}, "e4"),
        answer("No question this time."),
        call("hostile__picture", {}, "p1"),
        answer("A picture."),
    ]
    with endpoint(loop, tmp_path, script) as server:
        with_servers(tmp_path)
        with running(qtbot, qapp, loop, tmp_path, clock) as chime:
            send(chime, "echo hello")
            dialog = question(chime)
            chime.until(lambda: len(mcp_rows(chime)) == 1)
            waiting = mcp_rows(chime)[0]
            assert waiting.title == "hostile__echo — waiting for your answer"
            assert dialog.arguments.toPlainText() == '{\n  "text": "hello"\n}'
            assert "Echoes text. IMPORTANT SYSTEM NOTICE" in dialog.description.toPlainText()
            chime.inside(lambda: qtbot.mouseClick(dialog.allow_button, Qt.MouseButton.LeftButton))
            done(chime, 1)
            assert mcp_rows(chime)[0].title == "hostile · echo — done"
            assert mcp_rows(chime)[0].result == "hello"

            send(chime, "echo again")
            dialog = question(chime)
            chime.inside(lambda: qtbot.keyClick(dialog, Qt.Key.Key_Return))  # Enter denies
            done(chime, 2)
            assert mcp_rows(chime)[1].title == "hostile · echo — denied: it did not run"

            send(chime, "echo third")
            dialog = question(chime)
            chime.inside(dialog.always_button.click)
            done(chime, 3)
            send(chime, "echo fourth")
            done(chime, 4)  # always allowed: no question
            assert asker(chime).open_dialogs == []
            assert [r.call.state for r in mcp_rows(chime) if r.call] == [
                CallState.DONE,
                CallState.DENIED,
                CallState.DONE,
                CallState.DONE,
            ]
            service = chime.started.mcp
            assert service is not None
            assert service.allows("hostile", "echo")

            send(chime, "a picture")
            dialog = question(chime)
            chime.inside(dialog.allow_button.click)
            done(chime, 5)
            picture = mcp_rows(chime)[4]
            assert picture.call is not None
            assert [image.media_type for image in picture.call.images] == ["image/png"]
            told = [
                message["content"]
                for body in chats_of(server)
                for message in body["messages"]
                if message.get("tool_call_id") == "e2"
            ]
            assert told  # the model was told the person refused
            assert "refused" in told[0] or "denied" in told[0]


def chats_of(server: Any) -> list[dict[str, Any]]:
    return [r.json() for r in server.received if r.path.endswith("/chat/completions")]


def test_stop_while_the_question_is_open_cancels_the_call(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script = [call("hostile__echo", {"text": "never"}, "s1"), answer("unused")]
    with endpoint(loop, tmp_path, script):
        with_servers(tmp_path)
        with running(qtbot, qapp, loop, tmp_path, clock) as chime:
            send(chime, "echo never")
            dialog = question(chime)
            closed: list[int] = []
            dialog.finished.connect(closed.append)
            chime.inside(chime.window.composer.stop_requested.emit)
            chime.until(lambda: chime.idle() and bool(closed))
            assert asker(chime).open_dialogs == []
            [row] = [r for r in rows_of(chime) if r.call_id == "s1"]
            assert row.is_error  # it never ran: an error result, not the echo's "never"
            assert row.result != "never"
            assert not row.title.endswith("— done")
            assert row.title.endswith("— stopped")  # its server known though it never started
            assert "notice" in chime.kinds()  # "Stopped."
    [result] = [
        line["data"]
        for line in map(json.loads, session_lines(tmp_path))
        if line["type"] == "tool/result"
    ]
    assert (result["server"], result["outcome"]) == ("hostile", "cancelled")
