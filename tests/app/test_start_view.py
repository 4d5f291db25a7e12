"""A start that shows the person's day at once: the sidebar, the current conversation's tail and its
reminders appear before the engine runs, from the derived start-view.json written at quit; a
missing or damaged file is ignored (the engine's reading is the truth)."""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.start_view import START_VIEW, StartView, TailEntries, read_start_view, write_start_view
from core.events import Entry, UserMessage, UserSource
from tests.app.window import Opener, running
from tests.fakes import FakeClock
from ui.screen import ReminderView
from ui.session_list import SessionListItem

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


titles = st.text(min_size=1, max_size=30).filter(lambda t: "\x00" not in t)
items = st.builds(
    SessionListItem,
    st.uuids().map(str),
    titles,
    st.integers(0, 10**6).map(lambda s: NOW - timedelta(seconds=s)),
    reminder_count=st.integers(0, 50),
    overdue=st.booleans(),
)


@given(st.lists(items, max_size=20), st.lists(titles, max_size=8))
def test_what_is_written_is_what_is_read(
    sessions: list[SessionListItem], prompts: list[str]
) -> None:
    import tempfile

    reminders = tuple(
        ReminderView(f"schedule-{n}", "after", p, NOW + timedelta(minutes=n))
        for n, p in enumerate(prompts)
    )
    tail = tuple(
        Entry(10 + n, "2026-08-05T12:00:00.000Z", UserMessage(f"m{n}", p, UserSource("UTC")))
        for n, p in enumerate(prompts)
    )
    view = StartView(
        tuple(sessions),
        sessions[0].id if sessions else None,
        "Plants",
        reminders,
        tail,
        10 + len(tail),
    )
    with tempfile.TemporaryDirectory() as folder:
        write_start_view(Path(folder), view)
        read = read_start_view(Path(folder))
    assert read is not None
    assert [
        (i.id, i.title, i.last_activity, i.reminder_count, i.overdue) for i in read.sessions
    ] == [(i.id, i.title, i.last_activity, i.reminder_count, i.overdue) for i in sessions]
    assert read.reminders == reminders
    assert [(e.seq, e.event) for e in read.tail] == [(e.seq, e.event) for e in tail]
    assert (read.current, read.title, read.count) == (view.current, "Plants", view.count)


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b'{"version": 2}', b'{"version": 1}', b"[1, 2]", b'{"version":1,' * 10],
    ids=["empty", "text", "other-version", "incomplete", "list", "torn"],
)
def test_a_damaged_or_foreign_file_is_ignored(tmp_path: Path, content: bytes) -> None:
    (tmp_path / START_VIEW).write_bytes(content)
    assert read_start_view(tmp_path) is None
    assert read_start_view(tmp_path / "missing") is None


def test_only_the_tail_is_known_and_an_older_index_says_so() -> None:
    tail = [
        Entry(8, "", UserMessage("a", "x", UserSource("UTC"))),
        Entry(9, "", UserMessage("b", "y", UserSource("UTC"))),
    ]
    entries = TailEntries(tail, 10)
    assert len(entries) == 10
    assert entries[9].seq == 9
    assert entries[-1].seq == 9
    assert [e.seq for e in entries] == [8, 9]
    assert [e.seq for e in entries[8:]] == [8, 9]
    with pytest.raises(ValueError, match="start view"):
        entries[7]
    with pytest.raises(IndexError):
        entries[10]


@pytest.mark.slow
def test_the_first_paint_shows_the_list_the_tail_and_the_reminders_before_the_engine_runs(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:  # a day of use
        chime.send("remind me in 30 minutes to stretch")
        first = chime.controller.current
        chime.run(chime.controller.new_session())
        chime.send("hello")
        shown = chime.controller.current
        expected_rows = chime.transcript_texts()
        expected_sidebar = chime.sidebar()
    assert (tmp_path / START_VIEW).exists()
    with open_app(start=False) as again:  # the window is up; the engine is not composed yet
        assert again.chime.started is None
        assert again.sidebar() == expected_sidebar
        assert again.transcript_texts() == expected_rows
        assert again.window.windowTitle().startswith("hello")
        again.run(again.chime.start())
        again.until(lambda: again.controller.current == shown)
        assert again.transcript_texts() == expected_rows  # the engine's reading: the same rows
        assert first in again.controller.open


def test_without_a_start_view_the_window_starts_as_before(open_app: Opener, tmp_path: Path) -> None:
    (tmp_path / START_VIEW).write_text(json.dumps({"version": 99}), encoding="utf-8")
    with open_app(start=False) as chime:
        assert chime.sidebar() == []
        chime.run(chime.chime.start())
        assert chime.controller.current is not None
