"""Closers for a log that ends inside a turn (session-log.md §4.4). Pure: no I/O, no clock.

A crash can leave a ``turn/start`` without its ``turn/end``. Before such a session goes live its
turn is closed: one error ``tool/result`` saying the outcome is unknown for every tool call that has
no result, then ``turn/end`` with status ``interrupted``. The events are returned, not appended:
the caller appends and flushes them.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.events import Event, ToolResult, TurnEnd

OUTCOME_UNKNOWN = (
    "Outcome unknown: the app stopped before this tool call finished, so it may or may not have "
    "taken effect."
)
"""The ``content`` of the error result recorded for a tool call that never got one."""


def closers(open_turn: int | None, open_calls: Mapping[str, str]) -> list[Event]:
    """The events that close ``open_turn`` (None: nothing is open, no closers).

    ``open_calls`` maps each unanswered tool call id to its tool name, in call order.
    """
    if open_turn is None:
        return []
    results: list[Event] = [
        ToolResult(call_id, name, OUTCOME_UNKNOWN, is_error=True)
        for call_id, name in open_calls.items()
    ]
    return [*results, TurnEnd(open_turn, "interrupted")]
