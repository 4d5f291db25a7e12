"""Where the loaded rows of a long transcript may be cut, so at most about ``max_rows`` stay
loaded (``TranscriptProjection`` unloads one end when it loads the other). Pure.

A cut never splits an exchange's rows from its message at the top, nor the running turn's rows
at the bottom (the tail rebuilds those from its ``turn/start``), nor falls on the streaming row.
"""

from __future__ import annotations

from core.transcript.rows import TranscriptRow

MESSAGE_ROWS = ("user", "reminder", "hidden")
"""Rows that stand at the start of an exchange."""


def running_start(rows: list[TranscriptRow], end: int, turn_open: bool) -> int:
    """The first row of the running turn, whose rows end at ``end`` (``end`` itself when no turn
    runs and nothing waits)."""
    if end == len(rows) and not turn_open:
        return end
    for position in range(end - 1, -1, -1):
        if rows[position].kind in MESSAGE_ROWS:
            return position
    return 0


def bottom_cut(rows: list[TranscriptRow], max_rows: int, running: int) -> int | None:
    """The first row to unload at the bottom (None: nothing to unload), ``running`` the first
    row of the running turn."""
    if len(rows) <= max_rows:
        return None
    cut = min(max_rows, running)
    while 0 < cut < len(rows) and rows[cut - 1].seq == rows[cut].seq:
        cut -= 1
    if cut <= 0 or cut >= len(rows) or rows[cut].seq < 0:
        return None
    return cut


def top_cut(rows: list[TranscriptRow], max_rows: int, tail: int) -> int | None:
    """How many rows to unload at the top (None: none), at an exchange's start before ``tail``."""
    excess = len(rows) - max_rows
    if excess <= 0:
        return None
    cut = next((i for i in range(excess, tail) if rows[i].kind in MESSAGE_ROWS), None)
    if cut is None or rows[cut].seq < 0:
        return None
    return cut
