"""Search across sessions (core.session.search): closed sessions' text found through a derived,
incrementally refreshed index that is rebuilt whenever it cannot be trusted."""

from __future__ import annotations

import asyncio
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import (
    AssistantMessage,
    Attachment,
    ModelRef,
    SessionTitle,
    UserMessage,
    UserSource,
)
from core.session import jsonl_store as disk
from core.session import search as search_module
from core.session.search import INDEX_NAME, find, refresh, search
from core.session.store import SessionStore
from tests.core.session.helpers import make_store
from tests.fakes import FakeClock

MODEL = ModelRef("scripted", "m")


def write_session(store: SessionStore, texts: list[str]) -> str:
    async def scenario() -> str:
        session = await store.create()
        for n, text in enumerate(texts):
            if n % 2:
                session.append_event(AssistantMessage(f"a{n}", text, (), MODEL, "stop"))
            else:
                session.append_event(UserMessage(f"u{n}", text, UserSource(None)))
        session.append_event(SessionTitle("ignored by the index"))
        await session.close()
        return session.id

    return asyncio.run(scenario())


def append(store: SessionStore, session_id: str, text: str) -> None:
    async def scenario() -> None:
        session = await store.open(session_id)
        session.append_event(UserMessage("later", text, UserSource(None)))
        await session.close()

    asyncio.run(scenario())


def test_closed_sessions_are_found_by_their_messages_case_and_space_insensitively(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    oven = write_session(store, ["When is the pie done?", "Set the Oven\n\ntimer for 40 minutes."])
    other = write_session(store, ["hello", "hi there"])
    matches = search(tmp_path, [other, oven], "oven   TIMER")
    assert [(m.session_id, m.seq) for m in matches] == [(oven, 1)]
    assert matches[0].snippet == "Set the Oven timer for 40 minutes."
    assert search(tmp_path, [oven, other], "ignored by the index") == []
    assert search(tmp_path, [oven, other], "   ") == []
    assert search(tmp_path, ["no-such-session", oven], "pie")[0].session_id == oven


def test_the_index_grows_incrementally_and_is_rebuilt_when_the_log_changed(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["first words"])
    folder = disk.session_dir(tmp_path, sid)
    index = refresh(folder)
    before = index.read_text().split("\n", 2)
    append(store, sid, "second words")
    refresh(folder)
    after = index.read_text().split("\n", 2)
    assert after[1].startswith(before[1])  # the old places and texts are kept as they were
    assert after[2] == before[2] + "second words\n"
    assert find(folder, sid, "second") is not None
    assert find(folder, sid, "second").seq == 2  # type: ignore[union-attr]

    log = folder / disk.LOG_NAME
    lines = log.read_bytes().split(b"\n")
    log.write_bytes(b"\n".join(lines[:2]) + b"\n")  # the log lost its tail: the index is redone
    assert find(folder, sid, "second") is None
    assert find(folder, sid, "first") is not None


def test_a_missing_or_damaged_index_is_rebuilt(tmp_path: Path, clock: FakeClock) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["needle in a haystack"])
    folder = disk.session_dir(tmp_path, sid)
    hostile = [b"[" * 100_000 + b"]" * 100_000 + b"\n", b'{"version":1,"covered":1e999}\n']
    for damage in [b"", b"not json\n1\tneedle\n", b'{"version":9}\n', b"\xff\xfe", *hostile]:
        (folder / INDEX_NAME).write_bytes(damage)
        assert find(folder, sid, "haystack") is not None
    (folder / INDEX_NAME).unlink()
    assert find(folder, sid, "haystack") is not None


def test_attachment_names_are_searchable(tmp_path: Path, clock: FakeClock) -> None:
    store = make_store(tmp_path, clock)

    async def scenario() -> str:
        session = await store.create()
        file = Attachment("budget-2027.csv", "text/csv", "0" * 64, 10)
        session.append_event(
            UserMessage("u", "see the file", UserSource(None), attachments=(file,))
        )
        await session.close()
        return session.id

    sid = asyncio.run(scenario())
    assert search(tmp_path, [sid], "budget-2027") != []


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=8), st.integers(min_value=0))
def test_an_index_refreshed_in_steps_equals_one_built_at_once(texts: list[str], cut: int) -> None:
    with tempfile.TemporaryDirectory() as raw:
        root = Path(raw)
        clock = FakeClock(datetime(2026, 8, 5, 12, 0, tzinfo=UTC))
        store = make_store(root, clock)
        cut %= len(texts) + 1
        sid = write_session(store, texts[:cut])
        folder = disk.session_dir(root, sid)
        refresh(folder)
        for text in texts[cut:]:
            append(store, sid, text)
        stepped = refresh(folder).read_text()
        (folder / INDEX_NAME).unlink()
        assert refresh(folder).read_text() == stepped


def test_an_index_is_never_written_into_a_folder_that_went_away(tmp_path: Path) -> None:
    gone = tmp_path / "sessions" / "moved-to-the-trash"
    with pytest.raises(FileNotFoundError):
        disk.replace_derived(gone / INDEX_NAME, b"index")
    assert not gone.exists()  # no stray session folder is made again
    gone.mkdir(parents=True)
    disk.replace_derived(gone / INDEX_NAME, b"index")
    disk.replace_derived(gone / INDEX_NAME, b"newer")
    assert (gone / INDEX_NAME).read_bytes() == b"newer"
    assert sorted(p.name for p in gone.iterdir()) == [INDEX_NAME]  # no temporary file left


def test_a_session_moved_away_in_the_middle_of_a_refresh_is_left_out_of_a_search(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = make_store(tmp_path, clock)
    kept = write_session(store, ["water the basil"])
    moved = write_session(store, ["water the ferns"])
    moved_dir = disk.session_dir(tmp_path, moved)
    stamp = search_module._stamp

    def trashed_after_measuring(path: str) -> tuple[int, str]:
        measured = stamp(path)
        if Path(path).parent == moved_dir:  # the trash move lands between the size and the read
            disk.move_session(moved_dir, tmp_path / "trash" / moved)
        return measured

    monkeypatch.setattr(search_module, "_stamp", trashed_after_measuring)
    assert [m.session_id for m in search(tmp_path, [moved, kept], "water")] == [kept]
    assert not moved_dir.exists()


def test_the_index_holds_only_folded_text_and_finds_nothing_in_its_places(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["Straße  NACH\tHause", "zero"])
    folder = disk.session_dir(tmp_path, sid)
    _header, places, texts = refresh(folder).read_text().split("\n", 2)
    assert texts == "strasse nach hause\nzero\n"
    first_offset = places.split()[1]
    assert find(folder, sid, first_offset) is None  # a number of the places line is no text
    match = find(folder, sid, "STRASSE nach")
    assert match is not None
    assert match.snippet == "Straße NACH Hause"  # cut from the message as the log holds it


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.text(alphabet="aAßSsİi  \n1", min_size=1, max_size=10), min_size=1, max_size=6),
    st.text(alphabet="aAßSsİi 1", min_size=1, max_size=4),
)
def test_find_answers_like_a_plain_scan_of_the_messages(texts: list[str], query: str) -> None:
    with tempfile.TemporaryDirectory() as raw:
        root = Path(raw)
        store = make_store(root, FakeClock(datetime(2026, 8, 5, 12, 0, tzinfo=UTC)))
        sid = write_session(store, texts)
        needle = " ".join(query.split()).casefold()
        expected = next(
            (
                seq
                for seq, text in enumerate(texts)
                if " ".join(text.split()) and needle in " ".join(text.split()).casefold()
            ),
            None,
        )
        match = find(disk.session_dir(root, sid), sid, query)
        assert (None if match is None else match.seq) == (expected if needle else None)


def test_a_log_changed_in_place_is_indexed_anew_and_an_old_index_is_replaced(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["the quick fox"])
    folder = disk.session_dir(tmp_path, sid)
    (folder / INDEX_NAME).write_text('{"version":1,"covered":1,"count":0,"tail":""}\n0\tstale\n')
    assert find(folder, sid, "stale") is None  # another version: rebuilt from the log
    assert find(folder, sid, "quick") is not None
    log = folder / disk.LOG_NAME
    data = log.read_bytes()
    changed = data.replace(b"the quick fox", b"the quiet fox").replace(b"index", b"INDEX")
    log.write_bytes(changed)  # the same size, another end: its stamp and tail tell
    os.utime(log, ns=(1, 1))
    assert find(folder, sid, "quick") is None
    match = find(folder, sid, "quiet")
    assert match is not None
    assert match.snippet == "the quiet fox"


def test_a_damaged_places_line_or_header_field_gets_the_index_rebuilt(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["alpha", "beta gamma"])
    folder = disk.session_dir(tmp_path, sid)
    header, places, texts = refresh(folder).read_text().split("\n", 2)
    for damaged in [
        f"{header}\n0\n{texts}",  # a places line without the pair of the second text
        f"{header}\n0 x 1 y\n{texts}",
        header.replace('"stamp": "', '"stamp": 1, "x": "') + f"\n{places}\n{texts}",
        header.replace('"count": ', '"count": "').replace(', "tail"', '", "tail"')
        + f"\n{places}\n{texts}",
        f"{header}\n{places}\n{texts}torn",
        f"{header}",
    ]:
        (folder / INDEX_NAME).write_text(damaged)
        match = find(folder, sid, "GAMMA")
        assert match is not None
        assert (match.seq, match.snippet) == (1, "beta gamma")


def test_an_index_true_of_a_touched_log_is_kept_and_restamped(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["alpha"])
    folder = disk.session_dir(tmp_path, sid)
    before = refresh(folder).read_text()
    os.utime(folder / disk.LOG_NAME, ns=(5, 5))  # touched, not changed: the tail still matches
    after = refresh(folder).read_text()
    assert after.split("\n", 1)[1] == before.split("\n", 1)[1]
    assert after.split("\n", 1)[0] != before.split("\n", 1)[0]  # the new stamp


def test_a_long_message_gets_its_snippet_from_its_whole_line(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    long = "word " * 30_000 + "needle at the end"
    sid = write_session(store, ["short", long])
    match = find(disk.session_dir(tmp_path, sid), sid, "NEEDLE")
    assert match is not None
    assert match.snippet.endswith("word needle at the end")


def test_an_index_over_the_size_limit_is_not_read_but_rebuilt(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = make_store(tmp_path, clock)
    sid = write_session(store, ["alpha"])
    folder = disk.session_dir(tmp_path, sid)
    refresh(folder)
    monkeypatch.setattr(search_module, "INDEX_LIMIT", 10)
    (folder / INDEX_NAME).write_text("x" * 11)
    assert find(folder, sid, "alpha") is not None
