"""Markdown transcript of a session (session-log.md §7). Pure: no I/O, no clock.

Renders the conversation a person reads: user messages, reminder follow-ups (marked as such),
assistant answers, tool calls and results, failed or interrupted turns and title changes.
Time-context readings, schedule changes and unknown event types are left out (the JSONL export
has everything).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.session import vocabulary as v
from core.session.events import SessionHeader


def render_markdown(
    header: SessionHeader, title: str | None, events: Iterable[Mapping[str, Any]]
) -> str:
    """The transcript as Markdown text."""
    lines = [
        f"# {title or 'Chime session'}",
        "",
        f"Session `{header.id}`, created {header.created_at}.",
    ]
    if header.parent_id is not None:
        lines.append(f"Forked from `{header.parent_id}` after event {header.seed_length}.")
    for event in events:
        data = event.get("data")
        if isinstance(data, Mapping):
            lines.extend(_render(str(event.get("type")), str(event.get("at")), data))
    return "\n".join(lines) + "\n"


def _render(kind: str, at: str, data: Mapping[str, Any]) -> list[str]:
    if kind == v.USER_MESSAGE:
        source = data.get("source")
        reminder = isinstance(source, Mapping) and source.get("kind") == "plugin"
        heading = "⏰ Reminder" if reminder else "You"
        return ["", f"## {heading} ({at})", "", str(data.get("text", ""))]
    if kind == v.ASSISTANT_MESSAGE:
        return _assistant(at, data)
    if kind == v.TOOL_RESULT:
        label = "Tool error" if data.get("isError") is True else "Tool result"
        return ["", f"> {label} `{data.get('name')}`: " + _quote(str(data.get("content", "")))]
    if kind == v.TURN_END and data.get("status") != "completed":
        return ["", f"*Turn {data.get('turn')} {data.get('status')}{_error(data)}.*"]
    if kind == v.SESSION_TITLE:
        return ["", f"*Title set to “{data.get('title')}”.*"]
    return []


def _assistant(at: str, data: Mapping[str, Any]) -> list[str]:
    lines = ["", f"## Assistant ({at})", "", str(data.get("text", ""))]
    calls = data.get("toolCalls")
    for call in calls if isinstance(calls, list) else []:
        if isinstance(call, Mapping):
            lines += ["", f"> Tool call `{call.get('name')}`: `{call.get('arguments')}`"]
    return lines


def _error(data: Mapping[str, Any]) -> str:
    error = data.get("error")
    return f": {error.get('message')}" if isinstance(error, Mapping) else ""


def _quote(text: str) -> str:
    return text.replace("\n", "\n> ")
