"""An imported conversation as the bytes of a new session log (session-log.md §2). Pure.

The header carries the conversation's own creation time; each event's ``at`` is its own time,
moved forward to the time before it where the source's times go back (a log's ``at`` never
decreases), and never before the header's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from core.events import Entry, Event
from core.instant import MAX_MS, format_instant_ms
from core.session.lines import SessionHeader, encode_entry


def header_line(session_id: str, created_ms: int) -> bytes:
    return SessionHeader(session_id, format_instant_ms(_bounded(created_ms))).line()


def event_lines(created_ms: int, events: Sequence[tuple[int, Event]]) -> Iterator[bytes]:
    """One line per event, ``seq`` from 0, ``at`` never going back."""
    last = _bounded(created_ms)
    for seq, (ms, event) in enumerate(events):
        last = max(last, _bounded(ms))
        yield encode_entry(Entry(seq, format_instant_ms(last), event))


def _bounded(ms: int) -> int:
    return min(max(ms, 0), MAX_MS)
