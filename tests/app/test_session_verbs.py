"""The everyday verbs of one session in the real window: its own model (the picker), instructions
and temperature, files attached to a message, and the sidebar's search of every session's
messages. An OpenAI-compatible loopback server stands for the endpoint, so what each choice does
is read in the request the model received."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication
from PySide6.QtWidgets import QToolButton

from app.settings import SETTINGS_FILE
from app.settings_flow import settings_draft
from app.state import read_state
from core.session.attachments import TEXT_LIMIT
from core.session.search import INDEX_NAME
from tests.app.harness import run_loop
from tests.app.verb_files import chips, write_note, write_picture
from tests.app.window import Opener, RealApp, running
from tests.core.llm.loopback import (
    Json,
    LoopbackServer,
    Reply,
    Sse,
    chunk,
    model_list,
    server_routes,
)
from tests.fakes import FakeClock
from ui.model_picker import ENDPOINT
from ui.session_settings import SessionSettings

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
OFFLINE_IMAGES = (
    "The offline assistant cannot read images; choose a model that reads images in the model "
    "picker."
)


@pytest.fixture(autouse=True)
def clipboard_cleared(qapp) -> Iterator[None]:
    """Whatever a test put on the clipboard is cleared before the app object goes: Qt deletes
    the clipboard's data when it is replaced, and data left to the interpreter's exit crashes it."""
    yield
    QGuiApplication.clipboard().clear()


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


@contextlib.contextmanager
def endpoint(
    loop: Any, folder: Path, script: list[Reply], model: str = "small", *, titles: bool = False
) -> Iterator[Any]:
    """A loopback server the settings in ``folder`` name as the endpoint (with ``model``). A
    model list in ``script`` becomes the server's fixed ``/v1/models`` route (else one listing
    ``model``; each new provider's family probe asks it too), and the other probes find nothing:
    the script plays the chats. The model writes no titles unless ``titles`` (its request would
    take one of the script's answers)."""
    listings = [r for r in script if isinstance(r, Json) and _is_listing(r)]
    chats = [r for r in script if r not in listings]
    server = LoopbackServer(chats, server_routes(listings[0] if listings else model_list(model)))
    run_loop(loop, server.__aenter__())
    settings = {"provider": "openai-compatible", "base_url": server.base_url, "model": model}
    settings["model_titles"] = titles
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETTINGS_FILE).write_text(json.dumps(settings), encoding="utf-8")
    try:
        yield server
    finally:
        run_loop(loop, server.__aexit__(None, None, None))


def answer(text: str) -> Sse:
    return Sse([chunk(text), chunk(finish="stop")])


def _is_listing(reply: Json) -> bool:
    return isinstance(reply.body, dict) and reply.body.get("object") == "list"


def chats(server: LoopbackServer) -> list[dict[str, Any]]:
    """The bodies of the chat requests the server received, oldest first."""
    return [r.json() for r in server.received if r.path.endswith("/chat/completions")]


def menu_texts(chime: RealApp) -> list[str]:
    picker = chime.window.composer.tools.picker
    return [a.text() for a in picker.actions_shown() if not a.isSeparator() and a.text()]


def pick(chime: RealApp, text: str) -> None:
    """Choose the picker's entry named ``text``, as a click in its menu does."""
    picker = chime.window.composer.tools.picker
    chime.inside(next(a for a in picker.actions_shown() if a.text() == text).trigger)


def open_model_menu(chime: RealApp) -> None:
    """Ctrl+M: the picker's menu opens (and lists the endpoint's models the first time)."""
    chime.activate()
    chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_M, CTRL))
    menu = chime.window.composer.tools.picker.menu()
    chime.until(menu.isVisible)
    chime.until(lambda: "Loading models…" not in menu_texts(chime))


def close_menu(chime: RealApp) -> None:
    chime.inside(chime.window.composer.tools.picker.menu().close)


@pytest.mark.slow  # HTTP round trips on the loopback interface
def test_a_model_picked_answers_the_next_turn_and_stays_chosen_when_the_session_reopens(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [model_list("small", "big"), answer("From big."), answer("Big again.")]
    with endpoint(loop, tmp_path, script) as server:
        with running(qtbot, qapp, loop, tmp_path, clock) as chime:
            picker = chime.window.composer.tools.picker
            host = server.base_url.split("//")[1].split("/")[0]
            assert picker.text() == f"small · {host}"  # the app's setting
            open_model_menu(chime)
            entries = [f"App setting: small · {host}", "Offline assistant", "big", "small"]
            assert menu_texts(chime)[:4] == entries
            pick(chime, "big")
            close_menu(chime)
            assert picker.text() == f"big · {host}"
            assert chime.window.status.provider_label.text() == f"big @ {server.base_url}"
            chime.send("hello")
            assert chats(server)[-1]["model"] == "big"
            assert chime.transcript_texts()[-1] == "From big."
            session = chime.controller.current
        state = read_state(tmp_path)
        assert state.recent_models == ((ENDPOINT, "big"),)
        with running(qtbot, qapp, loop, tmp_path, clock) as again:  # the log is the truth
            assert again.controller.current == session
            assert again.window.composer.tools.picker.text() == f"big · {host}"
            assert again.window.status.provider_label.text() == f"big @ {server.base_url}"
            again.run(again.controller.new_session())  # on the app's setting
            assert again.window.status.provider_label.text() == f"small @ {server.base_url}"
            again.inside(lambda: again.controller.show_session(session))
            assert again.window.status.provider_label.text() == f"big @ {server.base_url}"
            again.send("and now?")
            assert chats(server)[-1]["model"] == "big"
            recent = [
                a
                for a in again.window.composer.tools.picker.actions_shown()
                if a.text() == f"big · {host}"
            ]
            assert [a.isChecked() for a in recent] == [True]  # among the recent choices


@pytest.mark.slow
def test_a_session_on_the_offline_assistant_sends_nothing_and_new_settings_keep_its_choice(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [model_list("small", "big"), answer("From big."), answer("From other.")]
    with (
        endpoint(loop, tmp_path, script) as server,
        running(qtbot, qapp, loop, tmp_path, clock) as chime,
    ):
        open_model_menu(chime)
        pick(chime, "Offline assistant")
        close_menu(chime)
        assert chime.window.composer.tools.picker.text() == "Offline assistant"
        assert chime.window.status.provider_label.text() == "Offline assistant"
        chime.send("hello")
        assert chats(server) == []  # the offline assistant answered
        pick(chime, "big")
        chime.send("and you?")
        assert chats(server)[-1]["model"] == "big"
        flow = chime.settings_flow
        draft = settings_draft(flow.settings, "", "")
        chime.inside(lambda: flow.apply(dataclasses.replace(draft, model="other")))
        chime.send("still big?")
        assert chats(server)[-1]["model"] == "big"  # the session's own choice wins
        pick(chime, f"App setting: other · {chime.window.composer.tools.picker.state.endpoint}")
        assert chime.window.composer.tools.picker.text().startswith("other · ")


@pytest.mark.slow
def test_instructions_end_the_system_prompt_and_the_temperature_reaches_the_request(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [answer("Bonjour."), answer("Encore.")]
    with (
        endpoint(loop, tmp_path, script) as server,
        running(qtbot, qapp, loop, tmp_path, clock) as chime,
    ):
        tools = chime.window.composer.tools
        assert tools.instructions_button.text() == "Instructions"
        chime.answers.session_settings_given.append(SessionSettings("Answer in French.", 0.3))
        chime.activate()
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_I, CTRL))
        assert chime.answers.session_settings_shown == [SessionSettings("", None)]
        assert tools.instructions_button.text() == "Instructions ✓ · 0.3"
        assert "Answer in French." in tools.instructions_button.toolTip()
        chime.send("hello")
        request = chats(server)[-1]
        system = request["messages"][0]
        assert system["role"] == "system"
        assert system["content"].endswith("Answer in French.")
        assert request["temperature"] == 0.3
        assert request["model"] == "small"  # the temperature alone keeps the app's model
        chime.answers.session_settings_given.append(SessionSettings("Answer in French.", None))
        chime.inside(tools.instructions_button.click)
        assert chime.answers.session_settings_shown[-1] == SessionSettings("Answer in French.", 0.3)
        chime.send("again")
        assert "temperature" not in chats(server)[-1]
        assert tools.instructions_button.text() == "Instructions ✓"


def write_files(folder: Path) -> dict[str, Path]:
    folder.mkdir()
    paths = {
        "plan": folder / "plan.md",
        "big": folder / "big.txt",
        "binary": folder / "tool.bin",
        "notes": folder / "notes.txt",
    }
    paths["plan"].write_text("# Plan\n\n- pack the tent\n", encoding="utf-8")
    paths["big"].write_text("x" * (TEXT_LIMIT + 10), encoding="utf-8")
    paths["binary"].write_bytes(b"\x00\x01\x02 not text")
    write_note(folder, "notes.txt")
    return paths


@pytest.mark.slow
def test_attached_files_reach_the_request_and_show_on_the_message_and_refused_ones_say_why(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    files = write_files(tmp_path / "files")
    data = tmp_path / "data"
    script: list[Reply] = [answer("A tent."), answer("Water.")]
    with endpoint(loop, data, script) as server, running(qtbot, qapp, loop, data, clock) as chime:
        chime.answers.files.append([files["plan"], files["big"], files["binary"]])
        chime.activate()
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_U, CTRL))
        chime.until(lambda: chips(chime) == ["plan.md"] and chime.window.message_bar.text())
        said = chime.window.message_bar.text()
        assert "“big.txt” is 256 KB: text files are at most 256 KB." in said
        assert "“tool.bin” is neither text nor a PNG, JPEG, GIF or WebP image" in said
        chime.send("what is in my plan?")
        assert chips(chime) == []
        user = chats(server)[-1]["messages"][-1]
        assert user["role"] == "user"
        assert user["content"].startswith("what is in my plan?")
        assert "Attached file “plan.md”" in user["content"]
        assert "- pack the tent" in user["content"]
        model = chime.window.transcript_model
        kinds = chime.kinds()
        at = kinds.index("user")
        row = model.row_at(at)
        assert row is not None
        assert [f.name for f in row.files] == ["plan.md"]
        layout = chime.window.transcript.itemDelegate().layout_at(at)  # type: ignore[attr-defined]
        assert layout.text(0, layout.length).endswith("\nplan.md · 24 B")  # under the text
        # A file dropped on the window, sent alone: a message of files only.
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(files["notes"]))])
        drop = QDropEvent(
            QPointF(40, 40),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        chime.inside(lambda: chime.window.dropEvent(drop))
        chime.until(lambda: chips(chime) == ["notes.txt"])
        assert chime.window.composer.send_button.isEnabled()  # no text needed
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.idle() and len(chats(server)) == 2)
        assert "bring water" in chats(server)[-1]["messages"][-1]["content"]


def test_an_image_for_the_offline_assistant_is_refused_with_the_way_out(
    open_app: Opener, tmp_path: Path
) -> None:
    picture = tmp_path / "photo.png"
    image = write_picture(picture)
    with open_app() as chime:
        chime.answers.files.append([picture])
        chime.trigger("attach_files")
        chime.until(lambda: chime.window.message_bar.text() == OFFLINE_IMAGES)
        assert chips(chime) == []
        # A picture pasted into the message box is refused the same way.
        chime.window.message_bar.dismiss()
        mime = QMimeData()
        mime.setImageData(image)
        QGuiApplication.clipboard().setMimeData(mime)
        chime.inside(chime.window.composer.editor.paste)
        chime.until(lambda: chime.window.message_bar.text() == OFFLINE_IMAGES)
        assert chips(chime) == []
        assert chime.window.composer.text() == ""  # nothing was pasted as text


def test_files_pasted_wait_in_their_own_session_and_a_chip_can_be_taken_off(
    open_app: Opener, tmp_path: Path
) -> None:
    files = write_files(tmp_path / "files")
    with open_app() as chime:
        first = chime.controller.current
        mime = QMimeData()
        mime.setUrls(
            [QUrl.fromLocalFile(str(files["plan"])), QUrl.fromLocalFile(str(files["notes"]))]
        )
        QGuiApplication.clipboard().setMimeData(mime)
        chime.inside(chime.window.composer.editor.paste)
        chime.until(lambda: chips(chime) == ["plan.md", "notes.txt"])
        chime.send("hello")  # a new session needs a message before Ctrl+N makes another
        chime.inside(chime.window.composer.editor.paste)
        chime.until(lambda: chips(chime) == ["plan.md", "notes.txt"])
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first)
        assert chips(chime) == []  # the other session's files stay there
        chime.inside(lambda: chime.controller.show_session(first))
        assert chips(chime) == ["plan.md", "notes.txt"]
        remove = next(
            button
            for button in chime.window.composer.attachments.findChildren(QToolButton)
            if button.accessibleName() == "Remove plan.md"
        )
        chime.inside(remove.click)
        assert chips(chime) == ["notes.txt"]
        opened = chime.controller.current_session()
        assert opened is not None
        assert [f.name for f in opened.attachments] == ["notes.txt"]


def search_for(chime: RealApp, text: str) -> None:
    """Type ``text`` into the sidebar's search and press Enter (search every message now)."""
    box = chime.window.sessions.filter
    box.clear()
    done = chime.started.verbs.search.searches  # type: ignore[union-attr]
    chime.qtbot.keyClicks(box, text)
    chime.inside(lambda: chime.qtbot.keyClick(box, Qt.Key.Key_Return))
    chime.until(
        lambda: chime.started.verbs.search.searches > done and not chime.started.verbs.search.busy
    )  # type: ignore[union-attr]


def test_search_finds_a_closed_session_by_a_word_of_its_messages_with_a_snippet(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("hello")
        chime.send("pack the zanzibar guidebook tomorrow")
        closed = chime.controller.current
        chime.trigger("close_session")
        chime.until(lambda: chime.controller.current not in (None, closed))
        index = tmp_path / "sessions" / str(closed) / INDEX_NAME
        chime.until(index.exists)  # refreshed when the session went cold
        assert closed not in chime.controller.open
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_F, CTRL | SHIFT))
        assert chime.window.sessions.filter.hasFocus()
        search_for(chime, "ZANZIBAR guidebook")
        assert [sid for sid, _ in chime.sidebar()] == [closed]
        selected = chime.window.sessions.list.selectionModel().selectedIndexes()
        assert selected == []  # the session on screen is filtered out: no row looks current
        snippet = chime.window.sessions.proxy.snippet(str(closed))
        assert "zanzibar guidebook" in snippet
        search_for(chime, "absentword")
        assert chime.sidebar() == []
        assert "No session matches “absentword”" in chime.window.sessions.empty_text()
        chime.window.sessions.filter.clear()
        chime.until(lambda: len(chime.sidebar()) == 2)


def test_a_session_found_by_its_messages_opens_at_its_match_in_the_find_bar(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.activate()
        chime.send("pack the zanzibar guidebook tomorrow")
        for text in ("hello", "what can you do", "help", "what can you do", "help"):
            chime.send(text)
        found = chime.controller.current
        chime.trigger("close_session")
        chime.until(lambda: chime.controller.current not in (None, found))
        chime.until((tmp_path / "sessions" / str(found) / INDEX_NAME).exists)
        search_for(chime, "zanzibar")
        listed = chime.window.sessions.list
        chime.inside(lambda: listed.activated.emit(listed.model().index(0, 0)))
        chime.until(lambda: chime.controller.current == found and chime.idle())
        bar = chime.window.finder.bar
        chime.until(lambda: bar.count_label.text() == "2 of 2")  # the message and its answer
        assert bar.isVisible()
        assert bar.query() == "zanzibar"
        view, model = chime.window.transcript, chime.window.transcript_model
        rows = [r for r in range(model.rowCount()) if "zanzibar" in str(model.index(r).data())]
        assert rows  # the current match (the newest) is on screen
        assert view.visualRect(model.index(rows[-1])).intersects(view.viewport().rect())
