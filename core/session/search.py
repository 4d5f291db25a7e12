"""Search across sessions, closed ones included (desktop.md §1): a derived text index per session.

``sessions/<id>/search.txt`` holds the text of the session's messages (user inputs with the names
of their attachments, and answers), one message per line with its whitespace folded to single
spaces, after a header line saying how many bytes of the log it covers and the last bytes it saw
there. Like ``offsets.bin`` it is derived: deleting it costs one scan. ``refresh`` brings it up to
date incrementally: when the log grew and still holds the same bytes at the covered end, only the
new bytes are scanned and their lines added; a log that shrank or changed there is indexed anew.
Torn or corrupt lines are skipped (they are not messages yet, or not readable ones).

Blocking: call from a worker thread. Matching is case-insensitive (``str.casefold``) on the
query's words in order, spaces folded like the index's: "Oven  TIMER" finds "the oven timer".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from core.errors import SessionError
from core.events import Event, UserMessage
from core.jsonread import LOG_HEADER, parse_json
from core.session import jsonl_store as disk
from core.session.find import findable_text
from core.session.scan import scan

INDEX_NAME = "search.txt"
INDEX_VERSION = 1
SNIPPET_CHARS = 80
_TAIL_BYTES = 32
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


def fold_spaces(text: str) -> str:
    return " ".join(text.split())


def refresh(folder: Path) -> Path:
    """Bring ``folder``'s index up to date with its log; returns the index's path. One of
    ``UNREADABLE`` when the log cannot be read (the index is then left as it was)."""
    index = folder / INDEX_NAME
    log = folder / disk.LOG_NAME
    size = disk.log_length(log)
    covered, count, tail, body = _read(index)
    if covered is not None and covered <= size and _tail_matches(log, covered, tail):
        if covered == size:
            return index
        start, lines, first_seq = covered, [body] if body else [], count
    else:
        head = disk.read_head(log, LOG_HEADER.max_size)
        start, lines, first_seq = len(head) + 1, [], 0
    found: list[str] = []

    def sink(seq: int, _at: str, event: Event) -> None:
        text = _message_text(event)
        if text:
            found.append(f"{seq}\t{text}\n")

    result = scan(disk.read_range(log, start), start=0, first_seq=first_seq, sink=sink)
    end = start + result.committed
    tail_hex = _tail_of(log, end)
    header = {"version": INDEX_VERSION, "covered": end, "count": result.count, "tail": tail_hex}
    payload = json.dumps(header).encode() + b"\n" + "".join([*lines, *found]).encode("utf-8")
    disk.replace_derived(index, payload)
    return index


def find(folder: Path, session_id: str, query: str) -> Match | None:
    """The first message of the session in ``folder`` that holds ``query`` (index refreshed)."""
    needle = fold_spaces(query).casefold()
    if not needle:
        return None
    text = refresh(folder).read_text("utf-8", errors="replace")
    for line in text.split("\n")[1:]:
        seq_text, _, message = line.partition("\t")
        at = message.casefold().find(needle)
        if at >= 0:
            return Match(session_id, int(seq_text), _snippet(message, at, len(needle)))
    return None


def search(data_dir: Path, session_ids: list[str], query: str) -> list[Match]:
    """The sessions among ``session_ids`` whose messages hold ``query``, in the given order.
    A session that cannot be read is left out."""
    matches = []
    for session_id in session_ids:
        try:
            match = find(disk.session_dir(data_dir, session_id), session_id, query)
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


_UNUSABLE: tuple[None, int, str, str] = (None, 0, "", "")


def _read(index: Path) -> tuple[int | None, int, str, str]:
    """The covered length and event count, tail and body of an index (``_UNUSABLE`` when it is
    missing or of another shape)."""
    raw = disk.read_file(index, INDEX_LIMIT)
    if raw is None or len(raw) > INDEX_LIMIT:
        return _UNUSABLE
    head, _, body = raw.partition(b"\n")
    try:
        header = parse_json(head, LOG_HEADER)
        covered, count, tail = header["covered"], header["count"], header["tail"]
        if header["version"] != INDEX_VERSION or type(tail) is not str:
            return _UNUSABLE
        if type(covered) is not int or type(count) is not int:
            return _UNUSABLE
        return covered, count, tail, body.decode("utf-8")
    except (ValueError, KeyError, TypeError):
        return _UNUSABLE


def _tail_of(log: Path, end: int) -> str:
    return disk.read_range(log, max(0, end - _TAIL_BYTES), end).hex()


def _tail_matches(log: Path, covered: int, tail: str) -> bool:
    return _tail_of(log, covered) == tail


def _snippet(message: str, at: int, length: int) -> str:
    start = max(0, at - SNIPPET_CHARS // 2)
    end = min(len(message), at + length + SNIPPET_CHARS // 2)
    prefix = "…" if start else ""
    suffix = "…" if end < len(message) else ""
    return prefix + message[start:end] + suffix
