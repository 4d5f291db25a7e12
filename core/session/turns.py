"""Fork points: where a fork may cut a parent's events (session-log.md §6). Pure: no I/O.

A fork copies events ``[0, cut)``. The cut must not fall inside a turn (``turn/start`` ..
``turn/end``, agent.md §3) nor inside an atomic group (session-log.md §3), so the chosen point moves
back: into a turn → to its ``turn/start``; into a group → to its first line.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.events import Entry, TurnEnd, TurnStart

GROUP_SEARCH = 256
"""How far back a group's first line is looked for (groups are a message and a few changes)."""


def fork_point(events: Sequence[Entry], cut: int) -> int:
    """The largest boundary ``<= cut`` (clamped to ``0..len(events)``) that splits no turn or group."""
    cut = max(0, min(cut, len(events)))
    while True:
        moved = _group_boundary(events, _turn_boundary(events, cut))
        if moved == cut:
            return cut
        cut = moved


def _turn_boundary(events: Sequence[Entry], cut: int) -> int:
    for index in range(cut - 1, -1, -1):
        event = events[index].event
        if isinstance(event, TurnEnd):
            return cut
        if isinstance(event, TurnStart):
            return index
    return cut


def _group_boundary(events: Sequence[Entry], cut: int) -> int:
    for index in range(cut - 1, max(-1, cut - 1 - GROUP_SEARCH), -1):
        size = events[index].group
        if size is not None:
            return index if index + size > cut else cut
    return cut
