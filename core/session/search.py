"""Search across sessions, closed ones included (desktop.md §1): a derived text index per session.

``sessions/<id>/search.txt`` holds only what a search compares: the text of the session's
messages (user inputs with the names of their attachments, and answers), each with its whitespace
folded to single spaces and then case-folded (``str.casefold``), one message per line, in UTF-8.
Its first line is a JSON header (how many bytes of the log it covers, the last bytes it saw there,
how many events and messages); its second line says, per message, its ``seq`` and the offset of
its line in the log. A search is then one ``bytes.find`` over the texts of each session (no
decoding, no per-line Python), faster than scanning the logs themselves; the snippet is cut from
the matching message as the log holds it (one line read back through its offset).

Like ``offsets.bin`` it is derived: deleting it costs one scan. ``refresh`` brings it up to date
incrementally: when the log grew and still holds the same bytes at the covered end, only the new
bytes are scanned and their lines added; a log that shrank or changed there is indexed anew, and
so is an index of another version or shape. Torn or corrupt lines are skipped (they are not
messages yet, or not readable ones).

Blocking: call from a worker thread. Matching is case-insensitive (``str.casefold``) on the
query's words in order, spaces folded like the index's: "Oven  TIMER" finds "the oven timer".
"""

from __future__ import annotations

import json
import os
from array import array
from dataclasses import dataclass, replace
from pathlib import Path

from core.errors import SessionError
from core.events import Event, UserMessage
from core.jsonread import LOG_HEADER, parse_json
from core.session import jsonl_store as disk
from core.session.find import findable_text
from core.session.scan import scan

INDEX_NAME = "search.txt"
INDEX_VERSION = 2
SNIPPET_CHARS = 80
_TAIL_BYTES = 32
_FIELDS = (str, str, int, int)
"""The types of a header's tail, stamp, covered and count."""
INDEX_LIMIT = 1 << 30
"""An index larger than this (bytes) is not read: it is rebuilt, like a damaged one."""
UNREADABLE = (OSError, ValueError, SessionError)
"""What ``refresh`` and ``find`` raise when a session cannot be read: its folder went to the trash
or its log vanished meanwhile (OSError or SessionNotFoundError, depending on which read saw it go),
or its header is not one (ValueError)."""


@dataclass(frozen=True, slots=True)
class Match:
    """A session whose messages hold the query: the first matching message's seq and a snippet
    around the match."""

    session_id: str
    seq: int
    snippet: str


@dataclass(frozen=True, slots=True)
class _Index:
    """An index as read: its header's numbers, and the file's bytes with where its parts start
    (slicing the texts out would copy them once per search)."""

    covered: int
    count: int
    tail: str
    stamp: str
    """The log's identity when the index was written (``_stamp``): equal now, it is unchanged."""
    raw: bytes
    places_at: int
    """Where the places line starts: ``seq offset`` pairs, one pair per text line."""
    texts_at: int
    """Where the folded texts start, each ending in ``\\n``, up to the end of ``raw``."""

    @property
    def places(self) -> bytes:
        return self.raw[self.places_at : self.texts_at - 1]


def fold_spaces(text: str) -> str:
    return " ".join(text.split())


def refresh(folder: Path) -> Path:
    """Bring ``folder``'s index up to date with its log; returns the index's path. One of
    ``UNREADABLE`` when the log cannot be read (the index is then left as it was)."""
    _refreshed(folder)
    return folder / INDEX_NAME


def _refreshed(folder: Path | str) -> _Index:
    """The up-to-date index of ``folder`` (written first when it was not)."""
    base = os.fspath(folder)  # plain strings: pathlib costs more than the read on a warm search
    size, stamp = _stamp(os.path.join(base, disk.LOG_NAME))
    known = _read(os.path.join(base, INDEX_NAME))
    if known is not None and known.covered == size and known.stamp == stamp:
        return known  # the log as the index saw it: no need to read its tail back
    index, log = Path(base, INDEX_NAME), Path(base, disk.LOG_NAME)
    if known is not None and known.covered <= size and _tail_of(log, known.covered) == known.tail:
        if known.covered == size:
            return _restamped(index, known, stamp)
        start, first_seq, old = known.covered, known.count, known
    else:
        start, first_seq, old = len(disk.read_head(log, LOG_HEADER.max_size)) + 1, 0, None
    seqs: array[int] = array("q")
    folded = bytearray()  # one buffer, not a string per message: a long log's index is large

    def sink(seq: int, _at: str, event: Event) -> None:
        text = _message_text(event)
        if text:
            seqs.append(seq)
            folded.extend(f"{text.casefold()}\n".encode())

    offsets: array[int] = array("q")
    reader = disk.LogFile(log, writable=False)  # mapped, its pages let go as they are read
    try:
        buffer = reader.buffer()
        result = scan(
            buffer,
            start=start,
            first_seq=first_seq,
            sink=sink,
            offsets=offsets,
            release=reader.release,
        )
    finally:
        reader.close()
    places = " ".join(f"{seq} {offsets[seq - first_seq]}" for seq in seqs).encode()
    texts = bytes(folded)
    folded.clear()  # its copy is all that is kept
    if old is not None:
        places = b" ".join(part for part in (old.places, places) if part)
        texts = old.raw[old.texts_at :] + texts
    end = result.committed
    tail = _tail_of(log, end)
    return _written(index, _Index(end, result.count, tail, stamp, places, 0, 0), texts)


def _written(index: Path, fresh: _Index, texts: bytes) -> _Index:
    """Write ``fresh`` (whose ``raw`` holds only its places line) with ``texts`` to ``index``."""
    header = {
        "version": INDEX_VERSION,
        "covered": fresh.covered,
        "count": fresh.count,
        "tail": fresh.tail,
        "stamp": fresh.stamp,
    }
    head = json.dumps(header).encode()
    raw = b"\n".join([head, fresh.raw, texts])
    disk.replace_derived(index, raw)
    places_at = len(head) + 1
    return replace(fresh, raw=raw, places_at=places_at, texts_at=places_at + len(fresh.raw) + 1)


def _restamped(index: Path, known: _Index, stamp: str) -> _Index:
    """``known``, still true of its log, written again with the log's current stamp."""
    places = replace(known, stamp=stamp, raw=known.places, places_at=0, texts_at=0)
    return _written(index, places, known.raw[known.texts_at :])


def _stamp(log: str) -> tuple[int, str]:
    """The log's size, and its identity as a text: inode, size and modification time in ns."""
    status = os.stat(log)
    return status.st_size, f"{status.st_ino}:{status.st_size}:{status.st_mtime_ns}"


def find(folder: Path | str, session_id: str, query: str) -> Match | None:
    """The first message of the session in ``folder`` that holds ``query`` (index refreshed)."""
    needle = fold_spaces(query).casefold()
    if not needle:
        return None
    encoded = needle.encode("utf-8")
    place = _first(_refreshed(folder), encoded)
    if place is False:  # a damaged places line: index anew, once
        Path(folder, INDEX_NAME).unlink(missing_ok=True)
        place = _first(_refreshed(folder), encoded)
    if not isinstance(place, tuple):
        return None
    seq, offset = place
    return Match(
        session_id, seq, _snippet_at(os.path.join(folder, disk.LOG_NAME), offset, seq, needle)
    )


def _first(index: _Index, needle: bytes) -> tuple[int, int] | bool:
    """The seq and log offset of the first text holding ``needle``; True when none does, False
    when the places line has no pair for it (the index is damaged)."""
    raw = index.raw
    at = raw.find(needle, index.texts_at)
    if at < 0:
        return True
    line = raw.count(b"\n", index.texts_at, at)
    places = index.places.split(b" ", 2 * line + 2)
    try:
        return int(places[2 * line]), int(places[2 * line + 1])
    except (IndexError, ValueError):
        return False


def search(data_dir: Path, session_ids: list[str], query: str) -> list[Match]:
    """The sessions among ``session_ids`` whose messages hold ``query``, in the given order.
    A session that cannot be read is left out."""
    matches = []
    sessions = os.fspath(disk.session_dir(data_dir, ""))
    for session_id in session_ids:
        try:
            match = find(os.path.join(sessions, session_id), session_id, query)
        except UNREADABLE:
            continue
        if match is not None:
            matches.append(match)
    return matches


def _message_text(event: Event) -> str:
    text = findable_text(event)
    if text is None:
        return ""
    if isinstance(event, UserMessage):  # the names of its files are found too
        text = f"{text} {' '.join(file.name for file in event.attachments)}"
    return fold_spaces(text)


def _read(index: str) -> _Index | None:
    """The index at ``index``, or None when it is missing, of another version or shape."""
    try:
        with open(index, "rb", buffering=0) as handle:
            size = os.fstat(handle.fileno()).st_size
            raw = handle.read(size) if size <= INDEX_LIMIT else b""
    except OSError:
        return None
    if len(raw) != size:  # too large, or it changed while read: rebuilt
        return None
    places_at = raw.find(b"\n") + 1
    texts_at = raw.find(b"\n", places_at) + 1 if places_at else 0
    if not texts_at or (len(raw) > texts_at and not raw.endswith(b"\n")):
        return None  # a place per text line is checked where one is read (``_first``)
    try:
        header = parse_json(raw[: places_at - 1], LOG_HEADER)
        covered, count, tail = header["covered"], header["count"], header["tail"]
        stamp, version = header["stamp"], header["version"]
    except (ValueError, KeyError, TypeError):
        return None
    if version != INDEX_VERSION or tuple(map(type, (tail, stamp, covered, count))) != _FIELDS:
        return None
    return _Index(covered, count, tail, stamp, raw, places_at, texts_at)


def _tail_of(log: Path, end: int) -> str:
    return disk.read_range(log, max(0, end - _TAIL_BYTES), end).hex()


def _snippet_at(log: str, offset: int, seq: int, needle: str) -> str:
    """The snippet around ``needle`` in the message whose line starts at ``offset`` of ``log``,
    as the log holds it (the index has only the folded text)."""
    found: list[Event] = []
    scan(_line_at(log, offset), start=0, first_seq=seq, sink=lambda _s, _a, e: found.append(e))
    message = _message_text(found[0]) if found else ""
    at = message.casefold().find(needle)
    return _snippet(message, max(at, 0), len(needle))


def _line_at(log: str, offset: int) -> bytes:
    """The line of ``log`` starting at ``offset``, with its ``\n``."""
    chunks: list[bytes] = []
    size = 4096  # most lines are shorter: read little, then more
    with open(log, "rb", buffering=0) as handle:
        handle.seek(offset)
        while chunk := handle.read(size):
            end = chunk.find(b"\n")
            if end >= 0:
                chunks.append(chunk[: end + 1])
                break
            chunks.append(chunk)
            size = min(size * 4, 1 << 20)
    return b"".join(chunks)


def _snippet(message: str, at: int, length: int) -> str:
    start = max(0, at - SNIPPET_CHARS // 2)
    end = min(len(message), at + length + SNIPPET_CHARS // 2)
    prefix = "…" if start else ""
    suffix = "…" if end < len(message) else ""
    return prefix + message[start:end] + suffix
