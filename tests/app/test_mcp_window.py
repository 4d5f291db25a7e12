"""MCP in the real window: the Settings page reached by Ctrl+, with two servers pasted, and a
recorded log of MCP calls (written by hand in the log's shapes) shown as rows: text, an image
as a thumbnail, a link that asks before it opens, every outcome; reopened, the same rows."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, Qt
from PySide6.QtGui import QImage, QTextDocument, QTextImageFormat
from PySide6.QtWidgets import QMessageBox

from app.mcp_approval import ApprovalAsker
from app.settings import SETTINGS_FILE
from core.transcript.mcp import CallState
from core.transcript.rows import TranscriptRow
from tests import wire as v
from tests.app.test_window_settings import open_settings
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.mcp_rows import IMAGE_URL
from ui.session_settings import SessionSettings

CTRL = Qt.KeyboardModifier.ControlModifier

SERVERS = {
    "mcpServers": {
        "time": {"command": "uvx", "args": ["mcp-server-time"]},
        "everything": {
            "type": "http",
            "url": "http://127.0.0.1:3001/mcp",
            "headers": {"Authorization": "Bearer not-shown"},
        },
    }
}
CALLS = [
    ("c1", "time__get_current_time", '{"timezone":"Europe/Berlin"}'),
    ("c2", "everything__get_tiny_image", "{}"),
    ("c3", "everything__get_resource_links", '{"count":1}'),
    ("c4", "time__convert_time", '{"time":"12:00"}'),
    ("c5", "everything__long_running", "{}"),
    ("c6", "everything__echo", '{"message":"hi"}'),
]


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def picture() -> bytes:
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.darkCyan)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "PNG")
    return bytes(data.data())


def record_calls(chime: RealApp) -> None:
    """A turn of six MCP calls, logged as the engine logs them (tool/start before a call runs,
    tool/result with server, images, links and outcome), the image stored like an attachment."""
    opened = chime.controller.current_session()
    assert opened is not None
    live = opened.session
    png = picture()
    sha = hashlib.sha256(png).hexdigest()
    folder = chime.chime.folder / "sessions" / live.id / "attachments"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / sha).write_bytes(png)
    live.append(v.USER_MESSAGE, v.user_message("m1", "use the tools", v.user_source("UTC")))
    live.append(v.TURN_START, v.turn_start(2, len(live.events) - 1))
    calls = [{"id": i, "name": n, "arguments": a} for i, n, a in CALLS]
    model = {"provider": "t", "name": "m"}
    live.append(v.ASSISTANT_MESSAGE, v.assistant_message("a1", "", calls, model, "tool_calls"))
    image = {"name": "tiny.png", "mediaType": "image/png", "sha256": sha, "size": len(png)}
    link = {"uri": "https://example.org/resource/1", "name": "Resource 1"}
    results = [
        ("c1", "time", '{"datetime": "2026-08-05T14:00:00+02:00"}', False, {}),
        ("c2", "everything", "[image]", False, {"images": [image]}),
        ("c3", "everything", "One link.", False, {"links": [link]}),
        ("c4", "time", "The person denied this call.", True, {"outcome": "denied"}),
        ("c5", "everything", "No answer within 60 s.", True, {"outcome": "timeout"}),
    ]
    for call_id, server, content, is_error, extra in results:
        name = next(n for i, n, _a in CALLS if i == call_id)
        live.append("tool/start", {"callId": call_id})
        data = {"callId": call_id, "name": name, "content": content, "isError": is_error}
        live.append(v.TOOL_RESULT, {**data, "server": server, **extra})
    live.append("tool/start", {"callId": "c6"})  # Chime stopped during this call
    live.append(v.TURN_END, v.turn_end(2, "completed"))


def mcp_rows(chime: RealApp) -> list[TranscriptRow]:
    model = chime.window.transcript_model
    rows = [model.row_at(r) for r in range(model.rowCount())]
    return [row for row in rows if row is not None and row.kind == "mcp"]


def test_settings_has_a_tools_page_where_two_pasted_servers_are_listed(open_app: Opener) -> None:
    with open_app() as chime:
        dialog = open_settings(chime)
        dialog.tabs.setCurrentIndex(2)  # the Tools (MCP) page
        page = dialog.mcp_page
        page.paste.setPlainText(json.dumps(SERVERS))
        chime.inside(lambda: chime.qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton))
        names = [page.tree.topLevelItem(i).text(0) for i in range(page.tree.topLevelItemCount())]
        assert names == ["time", "everything"]
        page.tree.setCurrentItem(page.tree.topLevelItem(1))
        assert "Authorization: (kept in the keyring)" in page.details.toPlainText()
        assert "not-shown" not in page.details.toPlainText()
        assert [s.name for s in dialog.draft().mcp.servers] == ["time", "everything"]
        page.tree.setCurrentItem(page.tree.topLevelItem(0))
        page.offer_check.setChecked(True)
        chime.inside(dialog.accept)
        service = chime.started.mcp
        assert service is not None
        assert [s.name for s in service.servers()] == ["time", "everything"]
        assert service.defaults() == ("time",)
        asker = getattr(service.approver, "__self__", None)
        assert isinstance(asker, ApprovalAsker)  # the window asks, not the deny-all stand-in
    saved = (chime.chime.folder / SETTINGS_FILE).read_text(encoding="utf-8")
    assert "not-shown" not in saved  # the token is in the key store, never settings.json
    assert '"secretHeaders": [' in saved
    kept = list((chime.chime.folder / "config").rglob("*"))
    assert any(p.is_file() and p.read_text(encoding="utf-8") == "Bearer not-shown" for p in kept)
    with open_app() as chime:  # the page shows what was kept
        dialog = open_settings(chime)
        names = [
            dialog.mcp_page.tree.topLevelItem(i).text(0)
            for i in range(dialog.mcp_page.tree.topLevelItemCount())
        ]
        assert names == ["time", "everything"]
        chime.inside(dialog.reject)


def test_recorded_mcp_calls_are_rows_with_their_states_images_and_links(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.send("hello")
        record_calls(chime)
        chime.until(lambda: len(mcp_rows(chime)) == 6)
        first = [(r.title, r.call) for r in mcp_rows(chime)]
    titles = [title for title, _call in first]
    assert titles == [
        "time · get_current_time — done",
        "everything · get_tiny_image — done",
        "everything · get_resource_links — done",
        "time · convert_time — denied: it did not run",
        "everything · long_running — timed out",
        "everything__echo — not finished: Chime stopped during the call",
    ]
    states = [call.state for _title, call in first if call is not None]
    assert states[-1] is CallState.UNFINISHED
    with open_app() as chime:  # reopened: the same rows
        chime.until(lambda: len(mcp_rows(chime)) == 6)
        assert [(r.title, r.call) for r in mcp_rows(chime)] == first
        view = chime.window.transcript
        model = chime.window.transcript_model
        image_row = next(r for r in range(model.rowCount()) if model.row_at(r).call_id == "c2")

        def thumbnail_shown() -> bool:
            view.scrollTo(model.index(image_row))
            layout = view.parts.delegate.layout_at(image_row)
            return layout is not None and any(_has_image(p.doc) for p in layout.pieces)

        chime.until(thumbnail_shown)
        link_row = next(r for r in range(model.rowCount()) if model.row_at(r).call_id == "c3")
        click_link(chime, link_row)


def _has_image(doc: QTextDocument) -> bool:
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat() and QTextImageFormat(fmt).name().startswith(IMAGE_URL):
                return True
            it += 1
        block = block.next()
    return False


def click_link(chime: RealApp, row: int) -> None:
    """A click on the row's link asks first; Cancel opens nothing."""
    view = chime.window.transcript
    view.scrollTo(chime.window.transcript_model.index(row))
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    piece = layout.pieces[-1]
    local = QPoint(piece.x + 8, piece.y + piece.height // 2)
    assert layout.anchor_at(local.x(), local.y(), {}) == "https://example.org/resource/1"
    at = view.parts.hits.row_origin(row) + local
    chime.inside(lambda: chime.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at))
    chime.until(lambda: chime.window.findChild(QMessageBox, "open-link-question") is not None)
    box = chime.window.findChild(QMessageBox, "open-link-question")
    assert box is not None
    assert "https://example.org/resource/1" in box.informativeText()
    chime.inside(box.reject)
    assert chime.answers.opened == []


def test_a_conversation_chooses_its_servers_in_its_settings_and_the_log_keeps_it(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.send("hello")
        verbs = chime.started.verbs
        assert verbs is not None
        verbs.choices.mcp_servers = lambda: ("everything", "time")
        chime.answers.session_settings_given.append(SessionSettings("", None, servers=("time",)))
        chime.activate()
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_I, CTRL))
        assert chime.answers.session_servers_offered == [("everything", "time")]
        assert chime.answers.session_settings_shown == [SessionSettings("", None, servers=())]
        opened = chime.controller.current_session()
        assert opened is not None
        assert opened.session.choices().tools == ("time",)
        chime.answers.session_settings_given.append(SessionSettings("", None, servers=("time",)))
        chime.inside(chime.window.composer.tools.instructions_button.click)
        assert chime.answers.session_settings_shown[-1] == SessionSettings(
            "", None, servers=("time",)
        )
        sid = opened.session.id
    log = (chime.chime.folder / "sessions" / sid / "session.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(line) for line in log.splitlines() if '"session/tools"' in line]
    assert [line["data"] for line in lines] == [{"servers": ["time"]}]  # unchanged: not again
