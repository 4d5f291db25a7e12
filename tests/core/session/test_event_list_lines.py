"""The lazy entry sequence against the plain list it stands for (core.session.event_list): its
entries, its raw lines and the line holding a byte, with the offsets split between a mapped
checkpoint part and the part found since; and the mapped log's pages let go while reading."""

from __future__ import annotations

import os
from array import array
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.events import Entry, UserMessage, UserSource
from core.session import event_list, scan
from core.session.event_list import EventList
from core.session.jsonl_store import LogFile, MappedOffsets
from core.session.lines import encode_entry

AT = "2026-08-05T12:00:00.000Z"


def written(folder: Path, texts: list[str], split: int) -> tuple[list[Entry], bytes, EventList]:
    """``texts`` as a log of messages, opened lazily with the offsets of its first ``split``
    lines mapped (a checkpoint's ``offsets.bin``) and the rest in memory."""
    entries = [
        Entry(seq, AT, UserMessage(f"u{seq}", text, UserSource(None)))
        for seq, text in enumerate(texts)
    ]
    lines = [encode_entry(entry) for entry in entries]
    body = b"".join(lines)
    (folder / "session.jsonl").write_bytes(body)
    starts = array("Q", [sum(map(len, lines[:i])) for i in range(len(lines))])
    (folder / "offsets.bin").write_bytes(starts[:split].tobytes())
    base = None
    if split:
        fd = os.open(folder / "offsets.bin", os.O_RDONLY)
        base = MappedOffsets(fd)
        os.close(fd)
    log = LogFile(folder / "session.jsonl", writable=False)
    lazy = EventList(log, base=base, tail=starts[split:], durable_length=len(body))
    return entries, body, lazy


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.text(max_size=40), min_size=1, max_size=30),
    st.data(),
    st.integers(1, 400),
)
def test_the_lazy_sequence_reads_what_the_plain_list_holds(
    tmp_path: Path, texts: list[str], data: st.DataObject, limit: int
) -> None:
    split = data.draw(st.integers(0, len(texts)))
    entries, body, lazy = written(tmp_path, texts, split)
    released: list[int] = []
    log = lazy._log
    assert log is not None
    try:
        with (
            mock.patch.object(event_list, "RELEASE_BYTES", 64),
            mock.patch.object(event_list, "CACHE_SIZE", 5),
            mock.patch.object(event_list, "CACHE_BYTES", 300),
            mock.patch.object(log, "release", side_effect=lambda: released.append(1)),
        ):
            assert list(lazy) == entries
            assert [lazy[i] for i in reversed(range(len(entries)))] == entries[::-1]
            assert [lazy[i] for i in range(len(entries))] == entries
            cache = lazy._cache
            assert 1 <= len(cache) <= 5
            assert lazy._cached_bytes == sum(size for _entry, size in cache.values())
            assert lazy._cached_bytes <= 300 or len(cache) == 1
            first, pieces = 0, []
            while first < len(entries):
                stop, block = lazy.lines(first, limit)
                assert stop > first
                assert block.count(b"\n") == stop - first
                pieces.append(block)
                first = stop
        assert b"".join(pieces) == body
        assert lazy.lines(len(entries), limit) == (len(entries), b"")
        for offset in range(0, len(body), 7):
            index = lazy.index_at(offset)
            start, end = lazy.span(index)
            assert start <= offset < end
        assert lazy.index_at(len(body) + 5) == len(entries) - 1
        assert released or len(body) <= 64 * 2
    finally:
        lazy.close()
        log.close()


def test_a_scan_lets_go_of_what_it_read_as_it_goes(tmp_path: Path) -> None:
    texts = [f"message {n}" for n in range(50)]
    _entries, body, lazy = written(tmp_path, texts, 0)
    lazy.close()
    assert lazy._log is not None
    lazy._log.close()
    told: list[int] = []
    with mock.patch.object(scan, "RELEASE_EVERY", 200):
        result = scan.scan(body, start=0, first_seq=0, release=told.append)
    assert result.count == 50
    assert told == sorted(told)
    assert len(told) > 3
    assert all(0 < end <= result.committed for end in told)
    assert scan.scan(body, start=0, first_seq=0) == result


def test_a_log_file_lets_go_of_its_pages_and_reads_them_again(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"x" * 20000 + b"\n")
    log = LogFile(path, writable=False)
    try:
        log.release()  # nothing mapped yet: nothing to do
        before = log.read(0, 20001)
        log.release()
        log.release(4096)
        assert log.read(0, 20001) == before
    finally:
        log.close()
