"""A long conversation in the real window (issue 23), kept small enough for the suite (the 10^6
figures are bench/find_bench.py's and bench/memory_bench.py's): a session on disk whose loaded
rows are only its end; Ctrl+Home shows the first message, Ctrl+End the newest, the scroll bar
dragged to the top shows the first message, and find reaches a word only in the first message
through the log's raw lines."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.find_flow import FindFlow
from core.events import (
    AssistantMessage,
    Entry,
    ModelRef,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.find_lines import RawLines
from core.session.jsonl_store import publish_session
from core.session.lines import SessionHeader, encode_entry
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock

EXCHANGES = 500
SESSION = "long"
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def open_long(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    """The app started on a folder holding ``write_long_session``'s session, shown."""
    write_long_session(tmp_path)
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock, session_arg=SESSION)


def write_long_session(folder: Path) -> None:
    """``EXCHANGES`` answered questions, the first one holding "aardvark", written as the store
    writes a session (one durable log), before the app starts: it opens the log cold and loads
    only its end."""
    model, at = ModelRef("test", "test"), "2026-08-05T12:00:00.000Z"
    entries: list[Entry] = []
    for n in range(EXCHANGES):
        seq = len(entries)
        words = "the aardvark" if n == 0 else "a question"
        events = [
            UserMessage(f"u{n}", f"question {n}: {words}", UserSource("UTC")),
            TurnStart(n + 1, seq),
            AssistantMessage(f"a{n}", f"answer {n}", (), model, "stop"),
            TurnEnd(n + 1, "completed"),
        ]
        entries += [Entry(seq + i, at, event) for i, event in enumerate(events)]
    header = SessionHeader(SESSION, at).line()
    publish_session(folder / "sessions" / SESSION, header, map(encode_entry, entries))


def shown_long_session(chime: RealApp) -> None:
    """The long session is the one shown, and find can read its lines undecoded."""
    opened = chime.controller.current_session()
    assert opened is not None
    assert opened.id == SESSION
    entries = opened.session.entries
    assert isinstance(entries, RawLines)
    assert len(entries) == 4 * EXCHANGES
    assert entries.durable_count == len(entries)


def on_screen(chime: RealApp, seq: int) -> bool:
    """The message at ``seq`` is loaded and inside the viewport."""
    view, model = chime.window.transcript, chime.window.transcript_model
    row = model.row_of_message(seq)
    return row >= 0 and view.visualRect(model.index(row)).intersects(view.viewport().rect())


def test_ctrl_home_ctrl_end_and_the_bar_reach_both_ends(open_long: Opener) -> None:
    with open_long() as chime:
        shown_long_session(chime)
        view = chime.window.transcript
        newest = 4 * (EXCHANGES - 1) + 2
        chime.until(lambda: on_screen(chime, newest))
        assert chime.window.transcript_model.row_of_message(0) < 0  # not loaded
        chime.inside(view.setFocus)
        chime.inside(lambda: chime.qtbot.keyClick(view, Qt.Key.Key_Home, CTRL))
        assert on_screen(chime, 0)
        chime.inside(lambda: chime.qtbot.keyClick(view, Qt.Key.Key_End, CTRL))
        assert on_screen(chime, newest)
        assert view.follow.is_following()
        bar = view.position.bar
        assert bar.maximum() + bar.pageStep() == 4 * EXCHANGES

        def drag_to_top() -> None:
            bar.setSliderDown(True)
            bar.setValue(0)

        chime.inside(drag_to_top)
        chime.until(lambda: on_screen(chime, 0))
        chime.inside(lambda: bar.setSliderDown(False))
        assert bar.value() == 0


def test_find_reaches_a_word_only_in_the_first_message(open_long: Opener) -> None:
    with open_long() as chime:
        shown_long_session(chime)
        chime.activate()
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_F, CTRL))
        flow = chime.controller.findChild(FindFlow)
        assert flow is not None
        find_bar = chime.window.finder.bar
        chime.inside(lambda: find_bar.edit.setText("AARDVARK"))
        chime.until(lambda: flow.job is not None and flow.job.done)
        assert find_bar.count_label.text() == "1 of 1"
        assert on_screen(chime, 0)
        assert max(flow.slices) < 0.05
