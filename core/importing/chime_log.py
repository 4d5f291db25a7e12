"""A Chime JSONL export (session-log.md §7: the exact log) checked line by line as it is copied
into a new session (``ChimeLog``), and which kind of file an import was handed (``file_kind``).
Pure: no I/O.

The copy keeps every event as it was written (times, versions, reminders, choices) and gets a new
id; its header keeps ``createdAt`` and ``seedLength`` and drops ``parentId`` (the session it was
forked from is not in this Chime). A header Chime cannot read, a line that is not a valid event at
its index, or a log that ends inside an atomic group refuses the whole file.
"""

from __future__ import annotations

from typing import Literal

from core.errors import SessionFormatError
from core.session.lines import SessionHeader, parse_header, parse_line

FileKind = Literal["chatgpt", "chime"]


def file_kind(head: bytes) -> FileKind | None:
    """``chatgpt`` for a JSON list (``conversations.json``), ``chime`` for a log starting with a
    session header, None for anything else."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text.startswith(b"["):
        return "chatgpt"
    if text.startswith(b"{") and b'"type":"session"' in text.split(b"\n", 1)[0].replace(b" ", b""):
        return "chime"
    return None


class ChimeLog:
    """Feed the export's lines (without their ``\\n``) to ``line``: it returns the line to write.
    ``end`` returns the new header once every line was read; ValueError says what is wrong."""

    def __init__(self, session_id: str) -> None:
        self._id = session_id
        self.header: SessionHeader | None = None
        self.source_id = ""
        """The export's own session id (``core.importing.sources.chime_source``)."""
        self.count = 0
        self.last_at = ""
        self._group_left = 0

    def line(self, raw: bytes) -> bytes:
        if self.header is None:
            try:
                found = parse_header(raw)
            except SessionFormatError as error:
                raise ValueError(str(error)) from None
            self.header = SessionHeader(self._id, found.created_at, None, found.seed_length)
            self.source_id = found.id
            return self.header.line()
        try:
            at, _event, group = parse_line(raw, self.count)
        except ValueError as error:
            raise ValueError(f"line {self.count + 2}: {error}") from None
        if self._group_left:
            if group is not None:
                raise ValueError(f"line {self.count + 2}: a group starts inside another")
            self._group_left -= 1
        elif group is not None:
            self._group_left = group - 1
        self.count += 1
        self.last_at = at
        return raw + b"\n"

    def end(self) -> SessionHeader:
        if self.header is None:
            raise ValueError("the file is empty")
        if self._group_left:
            raise ValueError("the log ends inside a group of events that belong together")
        return self.header
