"""Bad input never breaks a start: the real ``Application`` on files someone else damaged.

Each test writes a session with a first run of the app, damages one file the way the issue's
tester did (nesting a hundred thousand levels deep, bytes that are not UTF-8, values that are
not what they should be), starts the app again and checks that the window is up, says one clear
sentence in the right place (the banner, the status bar), shows no crash dialog, and that the
log's bytes are untouched where the spec says they are never rewritten.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from app.settings import SETTINGS_FILE, Settings, load_settings
from app.state import STATE_FILE
from tests import wire as v
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_TEXT = "[" * 1000 + "]" * 1000


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def written_session(open_app: Opener, extra: Callable[[RealApp], None] = lambda _: None) -> Path:
    """A session of two answered turns (plus ``extra``), written by a first run; its log."""
    with open_app() as chime:
        chime.send("hello")
        chime.send("what reminders do I have")
        extra(chime)
        sid = chime.controller.current
        assert sid is not None
    return chime.chime.folder / "sessions" / sid / "session.jsonl"


def no_crash_dialog(chime: RealApp) -> None:
    assert chime.window.isVisible()
    assert chime.window.findChildren(QMessageBox) == []


def replace_line(log: Path, index: int, new: bytes) -> bytes:
    lines = log.read_bytes().split(b"\n")
    lines[index] = new
    log.write_bytes(b"\n".join(lines))
    return log.read_bytes()


def test_a_logged_tool_call_nested_too_deeply_is_shown_as_it_is_on_every_start(
    open_app: Opener,
) -> None:
    def deep_call(chime: RealApp) -> None:
        session = chime.controller.current_session()
        assert session is not None
        live = session.session
        live.append(v.USER_MESSAGE, v.user_message("m9", "go", v.user_source("Europe/Berlin")))
        live.append(v.TURN_START, v.turn_start(3, len(live.events) - 1))
        calls = [{"id": "c9", "name": "schedule_create", "arguments": DEEP_TEXT}]
        model = {"provider": "t", "name": "m"}
        live.append(v.ASSISTANT_MESSAGE, v.assistant_message("a9", "", calls, model, "tool_calls"))
        live.append(v.TOOL_RESULT, v.tool_result("c9", "schedule_create", DEEP_TEXT, is_error=True))
        live.append(v.TURN_END, v.turn_end(3, "completed"))

    written_session(open_app, deep_call)
    for _ in range(2):
        with open_app() as chime:
            no_crash_dialog(chime)
            model = chime.window.transcript_model
            rows = [model.row_at(r) for r in range(model.rowCount())]
            tools = [row for row in rows if row is not None and row.kind == "tool"]
            assert tools[-1].detail == f"Arguments:\n{DEEP_TEXT}\n\nResult:\n{DEEP_TEXT}"


def test_a_middle_line_nested_too_deeply_opens_read_only_and_is_never_rewritten(
    open_app: Opener,
) -> None:
    log = written_session(open_app)
    damaged = replace_line(log, 3, DEEP)
    with open_app() as chime:
        no_crash_dialog(chime)
        banner = chime.window.banner.label.text()
        assert "corrupt at line 4: nested too deeply (more than 256 levels)" in banner
        assert "read-only" in banner
    assert log.read_bytes() == damaged


def test_a_last_line_nested_too_deeply_is_set_aside_as_a_torn_tail(open_app: Opener) -> None:
    log = written_session(open_app)
    good = log.read_bytes()
    log.write_bytes(good + DEEP + b"\n")
    with open_app() as chime:
        no_crash_dialog(chime)
        assert not chime.window.banner.isVisible()
        message = chime.window.message_bar.text()
        assert message.startswith("A session log's incomplete last write (never saved)")
        assert "set aside as session.jsonl.torn-" in message
        chime.send("still here?")
    torn = [p for p in log.parent.iterdir() if p.name.startswith("session.jsonl.torn-")]
    assert [p.read_bytes() for p in torn] == [DEEP + b"\n"]
    assert log.read_bytes().startswith(good)


def test_a_header_nested_too_deeply_is_refused_in_one_sentence_and_left_untouched(
    open_app: Opener,
) -> None:
    log = written_session(open_app)
    damaged = replace_line(log, 0, b"[" * 50_000)
    with open_app() as chime:
        no_crash_dialog(chime)
        assert chime.window.message_bar.text() == (
            "Could not open the session: the session header cannot be read: "
            "nested too deeply (more than 256 levels)"
        )
    assert log.read_bytes() == damaged


@pytest.mark.parametrize(
    "damage", [DEEP, b"\xff\xfe", b'{"version":3,' * 10], ids=["deep", "not-utf8", "garbage"]
)
def test_a_damaged_checkpoint_is_ignored_and_the_session_opens_as_before(
    open_app: Opener, damage: bytes
) -> None:
    log = written_session(open_app)
    with open_app() as chime:
        before = chime.transcript_texts()
    (log.parent / "checkpoint.json").write_bytes(damage)
    good = log.read_bytes()
    with open_app() as chime:
        no_crash_dialog(chime)
        assert chime.transcript_texts() == before
        assert not chime.window.banner.isVisible()
    assert log.read_bytes() == good


def started_on(open_app: Opener, path: Path, content: bytes) -> tuple[str, RealApp]:
    """Start (and quit) the app with ``path`` holding ``content``: the status bar's message."""
    path.write_bytes(content)
    with open_app() as chime:
        no_crash_dialog(chime)
        message = chime.window.message_bar.text()
    return message, chime


SETTINGS_DAMAGE = {
    "not-utf8": (b'{"provider": "\xff\xfe"}', "not valid UTF-8"),
    "deep": (b"[" * 100_000, "nested too deeply"),
    "wrong-values": (b'{"provider": 5, "theme": [1]}', "provider must be a string"),
    "lone-surrogate": (b'{"model": "\\ud800"}', "lone surrogate"),
    "huge": (b'{"model": "' + b"x" * (2 << 20) + b'"}', "too large"),
}


@pytest.mark.parametrize("damage", list(SETTINGS_DAMAGE))
def test_a_bad_settings_file_is_set_aside_and_the_window_says_so(
    open_app: Opener, tmp_path: Path, damage: str
) -> None:
    content, why = SETTINGS_DAMAGE[damage]
    message, chime = started_on(open_app, tmp_path / SETTINGS_FILE, content)
    assert message.startswith(f"{SETTINGS_FILE} is not valid: ")
    assert why in message
    assert message.endswith(
        ". It was set aside as settings.json.bad-1. The default settings apply."
    )
    assert chime.settings_flow.settings == Settings()
    assert (tmp_path / "settings.json.bad-1").read_bytes() == content
    assert load_settings(tmp_path) == Settings()


STATE_DAMAGE = {
    "deep": (b"[" * 100_000, "is not valid: nested too deeply"),
    "not-utf8": (b"\xff", "is not valid: not valid UTF-8"),
    "not-an-object": (b"[1, 2]", "is not a JSON object"),
    "geometry": ('{"geometry": "é"}'.encode(), "holds a window size Chime cannot read"),
    "window-state": (b'{"windowState": 5}', "holds a window size Chime cannot read"),
}


@pytest.mark.parametrize("damage", list(STATE_DAMAGE))
def test_a_bad_state_file_starts_fresh_and_the_window_says_so(
    open_app: Opener, tmp_path: Path, damage: str
) -> None:
    content, why = STATE_DAMAGE[damage]
    message, chime = started_on(open_app, tmp_path / STATE_FILE, content)
    assert message.startswith(STATE_FILE)
    assert why in message
    assert chime.controller.current is not None  # a new session to type into
    state = json.loads((tmp_path / STATE_FILE).read_bytes())
    assert state["openSessions"] == [chime.controller.current]
