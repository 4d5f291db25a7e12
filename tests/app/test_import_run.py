"""``run_import`` on its own (the window's tests run it in a Qt worker thread, which coverage does
not follow): what it writes, what it refuses, a cancel, and the staging a crash left."""

from __future__ import annotations

import json
import shutil
import threading
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.import_run import AlreadyImported, Cancelled, ImportRefused, run_import
from core.session import jsonl_store as disk
from core.session.lines import SessionHeader
from tests.core.importing.chatgpt_export import Conversation, branched, export, with_code_and_image

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def run(path: Path, data: Path, cancelled: threading.Event | None = None) -> tuple:
    seen: list[tuple[int, int, int]] = []
    result = run_import(path, data, NOW, lambda *a: seen.append(a), cancelled or threading.Event())
    return result, seen


def test_a_chatgpt_export_is_written_and_progress_told(tmp_path: Path) -> None:
    source = tmp_path / "conversations.json"
    source.write_bytes(export(branched(), with_code_and_image()))
    (tmp_path / "data" / "import-old" / "x").mkdir(parents=True)  # a crash's leftover
    result, seen = run(source, tmp_path / "data")
    assert result.kind == "chatgpt"
    assert len(result.session_ids) == 2
    assert result.images == 1
    assert disk.session_ids(tmp_path / "data") == sorted(result.session_ids)
    assert [count for _done, _total, count in seen] == [1, 2]
    assert seen[-1][1] == source.stat().st_size
    assert not list((tmp_path / "data").glob("import-*"))


def test_a_chime_log_is_copied_with_a_new_id(tmp_path: Path) -> None:
    source = tmp_path / "mine.jsonl"
    header = SessionHeader("old", "2024-01-01T00:00:00.000Z", "parent", 0).line()
    line = (
        b'{"seq":0,"at":"2024-01-01T00:00:01.000Z","type":"session/title","data":{"title":"t"}}\n'
    )
    source.write_bytes(header + line * 1)
    result, _seen = run(source, tmp_path / "data")
    (sid,) = result.session_ids
    copied = (disk.session_dir(tmp_path / "data", sid) / disk.LOG_NAME).read_bytes()
    assert copied.endswith(line)
    assert b'"parentId":null' in copied


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"[]", "it holds no conversations"),
        (b'[{"mapping": {}}', "conversation 2: the text ends before"),
        (b'[{"mapping": 3}]', "conversation 1: a conversation without its messages"),
        (b'[{"mapping": {}, "x": nul}]', "conversation 1: not JSON"),
        (SessionHeader("a", "2024-01-01T00:00:00.000Z").line() + b"{}\n", "line 2: seq None"),
    ],
)
def test_what_cannot_be_imported_leaves_nothing(tmp_path: Path, data: bytes, reason: str) -> None:
    source = tmp_path / "file"
    source.write_bytes(data)
    with pytest.raises(ImportRefused, match=reason):
        run(source, tmp_path / "data")
    assert disk.session_ids(tmp_path / "data") == []
    assert not list((tmp_path / "data").glob("import-*"))


def test_a_cancel_leaves_nothing(tmp_path: Path) -> None:
    source = tmp_path / "conversations.json"
    source.write_bytes(export(branched()))
    cancelled = threading.Event()
    cancelled.set()
    with pytest.raises(Cancelled):
        run(source, tmp_path / "data", cancelled)
    assert disk.session_ids(tmp_path / "data") == []
    chime = tmp_path / "mine.jsonl"
    chime.write_bytes(SessionHeader("a", "2024-01-01T00:00:00.000Z").line() + b"x" * (1 << 21))
    with pytest.raises((Cancelled, ImportRefused)):
        run(chime, tmp_path / "data", cancelled)
    assert not list((tmp_path / "data").glob("import-*"))


def peak_of_import(tmp_path: Path, count: int) -> tuple[int, int]:
    """(file size, peak Python memory while importing it) for ``count`` conversations of ~30 KB."""
    conversations = []
    for n in range(count):
        c = Conversation(f"Chat {n}")
        parent = "sys"
        for turn in range(5):
            user = c.say(f"u{turn}", parent, "user", f"question {turn} " + "words " * 400)
            parent = c.say(f"a{turn}", user, "assistant", "answer " * 400)
        conversations.append(c)
    source = tmp_path / f"conversations-{count}.json"
    source.write_bytes(export(*conversations))
    tracemalloc.start()
    try:
        result, _seen = run(source, tmp_path / f"data-{count}")
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(result.session_ids) == count
    return source.stat().st_size, peak


def test_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """Four times the conversations, not four times the memory: the file is read in pieces and
    one conversation is held at a time (bench/import_bench.py measures a 100 MB export)."""
    small_size, small_peak = peak_of_import(tmp_path, 40)
    big_size, big_peak = peak_of_import(tmp_path, 160)
    assert big_size > 4 * small_size * 0.95
    assert big_peak < small_peak * 1.5
    assert big_peak < big_size


def test_a_cancel_after_the_last_line_still_leaves_nothing(tmp_path: Path) -> None:
    source = tmp_path / "mine.jsonl"
    source.write_bytes(SessionHeader("old", "2024-01-01T00:00:00.000Z").line())
    cancelled = threading.Event()
    with pytest.raises(Cancelled):
        run_import(source, tmp_path / "data", NOW, lambda *_: cancelled.set(), cancelled)
    assert disk.session_ids(tmp_path / "data") == []


def test_a_deleted_import_comes_in_again_and_a_bad_index_forgets_nothing_else(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    path = tmp_path / "conversations.json"
    path.write_bytes(export(branched()))
    first = run_import(path, data, NOW, lambda *_: None, threading.Event())
    with pytest.raises(AlreadyImported):
        run_import(path, data, NOW, lambda *_: None, threading.Event())
    (sid,) = first.session_ids
    shutil.rmtree(data / "sessions" / sid)  # deleted (the trash is not the list)
    again = run_import(path, data, NOW, lambda *_: None, threading.Event())
    assert len(again.session_ids) == 1
    (data / "imported.json").write_bytes(b"{torn")  # unreadable: nothing is known
    third = run_import(path, data, NOW, lambda *_: None, threading.Event())
    assert third.already == 0
    assert json.loads((data / "imported.json").read_bytes())["version"] == 1


def test_an_index_that_cannot_be_read_or_written_only_forgets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``imported.json`` made a folder (neither readable nor replaceable): each import goes in
    whole, says nothing to the person and logs why the index was not kept."""
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    (data / "imported.json" / "in-the-way").mkdir(parents=True)
    path = tmp_path / "conversations.json"
    path.write_bytes(export(branched()))
    first = run_import(path, data, NOW, lambda *_: None, threading.Event())
    again = run_import(path, data, NOW, lambda *_: None, threading.Event())
    assert (len(first.session_ids), len(again.session_ids), again.already) == (1, 1, 0)
    assert "could not write imported.json" in caplog.text


def test_a_hand_edited_index_naming_no_session_is_ignored(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    path = tmp_path / "conversations.json"
    path.write_bytes(export(branched()))
    first = run_import(path, data, NOW, lambda *_: None, threading.Event())
    index = json.loads((data / "imported.json").read_bytes())
    (data / "elsewhere").mkdir()  # a folder the index's path would reach
    index["sources"] = dict.fromkeys(index["sources"], "../elsewhere")
    (data / "imported.json").write_text(json.dumps(index), encoding="utf-8")
    again = run_import(path, data, NOW, lambda *_: None, threading.Event())
    assert again.session_ids != first.session_ids
    assert again.already == 0
