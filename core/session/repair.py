"""Closers for a log that ends inside a turn (session-log.md §4.4). Pure: no I/O, no clock.

A crash can leave a ``turn/start`` without its ``turn/end``. Before such a session goes live its
turn is closed: one error ``tool/result`` saying the outcome is unknown for every tool call that has
no result, then ``turn/end`` with status ``interrupted``. The events are returned, not appended:
the caller appends and flushes them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from core.events import Event, ToolResult, TurnEnd

OUTCOME_UNKNOWN = (
    "Outcome unknown: the app stopped before this tool call finished, so it may or may not have "
    "taken effect."
)
"""The ``content`` of the error result recorded for a tool call that never got one."""
STOPPED_DURING = (
    "Not finished: Chime stopped while this tool was running, so it may or may not have taken "
    "effect. It is not run again; call it again only if it is still needed."
)
"""The ``content`` for a call with a ``tool/start`` (an MCP call that had begun) and no result:
recorded with ``outcome: "unfinished"``."""


def closers(
    open_turn: int | None, open_calls: Mapping[str, str], started: Collection[str] = ()
) -> list[Event]:
    """The events that close ``open_turn`` (None: nothing is open, no closers).

    ``open_calls`` maps each unanswered tool call id to its tool name, in call order; ``started``
    names those that had a ``tool/start``.
    """
    if open_turn is None:
        return []
    results: list[Event] = [
        ToolResult(call_id, name, STOPPED_DURING, True, outcome="unfinished")
        if call_id in started
        else ToolResult(call_id, name, OUTCOME_UNKNOWN, is_error=True)
        for call_id, name in open_calls.items()
    ]
    return [*results, TurnEnd(open_turn, "interrupted")]
