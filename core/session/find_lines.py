"""Which raw lines of a session log find must decode: those that may hold the query, and those
that may be a turn's start or end. Pure: no I/O, no decoding of events.

The pick never misses a line: the query is looked for as a log line writes it (its JSON escapes),
ASCII case-folded byte by byte; a line holding a ``\\u`` or ``\\/`` escape (a writer may escape any
character so) is always picked, and so is one holding a non-ASCII letter that ``re.IGNORECASE``
matches with an ASCII ``i``, ``k`` or ``s`` of the query; a query with other non-ASCII letters is
looked for with its own case-insensitive pattern in the block's decoded text. A turn's edge is a
line holding ``turn/`` (the type ``turn/start`` or ``turn/end``) or an escape. Lines picked for
nothing else may be decoded for nothing (a word in an escape, ``turn/`` in a message): the caller
judges every picked line by its decoded event.
"""

from __future__ import annotations

import json
import re
from typing import AnyStr, Protocol, runtime_checkable

_ESCAPES = re.compile(rb"\\[u/]")
_EDGE = b"turn/"
_SPECIAL = {"i": ("\u0130", "\u0131"), "k": ("\u212a",), "s": ("\u017f",)}
"""The non-ASCII letters ``re.IGNORECASE`` matches with an ASCII letter (checked over every code
point by ``tests/core/session/test_find_lines.py``)."""


@runtime_checkable
class RawLines(Protocol):
    """Entries whose durable lines can be read undecoded (``core.session.event_list.EventList``)."""

    @property
    def durable_count(self) -> int: ...

    def lines(self, first: int, limit: int) -> tuple[int, bytes]: ...


class LinePicker:
    """The lines of a block of log lines (each ending in ``\\n``) that find decodes."""

    def __init__(self, query: str) -> None:
        written = json.dumps(query, ensure_ascii=False)[1:-1]  # as a log line holds it
        self._needle = written.lower().encode() if written.isascii() else None
        self._pattern = re.compile(re.escape(written), re.IGNORECASE)
        folded = query.lower()
        specials = [s for letter in sorted(_SPECIAL) if letter in folded for s in _SPECIAL[letter]]
        self._specials = re.compile("|".join(specials).encode()) if specials else None

    def pick(self, block: bytes) -> tuple[list[int], list[int]]:
        """The numbers (from 0, ascending) of the lines of ``block`` that may hold the query, and
        of those that may be a turn's start or end."""
        matching: set[int] = set()
        escaped: set[int] = set()
        if self._needle is not None:
            _mark(block.lower(), self._needle, matching)
        else:
            _mark(block.decode("utf-8", "replace"), self._pattern, matching)
        _mark(block, _ESCAPES, escaped)
        if self._specials is not None and not block.isascii():
            _mark(block, self._specials, matching)
        edges = set(escaped)
        _mark(block, _EDGE, edges)
        return sorted(matching | escaped), sorted(edges)


def _mark(block: AnyStr, needle: AnyStr | re.Pattern[AnyStr], marked: set[int]) -> None:
    """Add the number of every line of ``block`` that holds ``needle`` (a text or a pattern)."""
    newline = block[-1:]  # a block ends with its last line's newline
    at, line, counted = _next(block, needle, 0), 0, 0
    while at >= 0:
        line += block.count(newline, counted, at)
        marked.add(line)
        counted = block.find(newline, at)
        at = _next(block, needle, counted) if counted >= 0 else -1


def _next(block: AnyStr, needle: AnyStr | re.Pattern[AnyStr], start: int) -> int:
    if isinstance(needle, re.Pattern):
        match = needle.search(block, start)
        return match.start() if match is not None else -1
    return block.find(needle, start)
