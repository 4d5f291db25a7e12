"""Markdown transcript of a session (session-log.md §7). Pure: no I/O, no clock.

Renders the conversation a person reads: user messages (with the names of their attachments),
reminder follow-ups (marked as such), assistant answers, tool calls and results, failed or
interrupted turns and title changes, along the shown path (agent.md §7: other versions and hidden
exchanges are left out). Time-context readings, schedule changes, path, model and instruction
choices, malformed and unknown events are left out (the JSONL export has everything).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTitle,
    ToolResult,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.session.conversation import Conversation, shown
from core.session.lines import SessionHeader


def render_markdown(
    header: SessionHeader,
    title: str | None,
    entries: Iterable[Entry],
    conversation: Conversation | None = None,
) -> str:
    """The transcript as Markdown text: the shown path of ``conversation`` (every entry when
    None)."""
    lines = [
        f"# {title or 'Chime session'}",
        "",
        f"Session `{header.id}`, created {header.created_at}.",
    ]
    if header.parent_id is not None:
        lines.append(f"Forked from `{header.parent_id}` after event {header.seed_length}.")
    for entry in entries if conversation is None else shown(conversation, entries):
        lines.extend(_render(entry))
    return "\n".join(lines) + "\n"


def _render(entry: Entry) -> list[str]:
    at = entry.at
    match entry.event:
        case UserMessage(text=text) as message:
            heading = "⏰ Reminder" if message.is_reminder else "You"
            files = [f"📎 {file.name} ({file.size} bytes)" for file in message.attachments]
            return ["", f"## {heading} ({at})", "", text, *(["", *files] if files else [])]
        case AssistantMessage() as answer:
            return _assistant(at, answer)
        case ToolResult(name=name, content=content, is_error=is_error):
            label = "Tool error" if is_error else "Tool result"
            return ["", f"> {label} `{name}`: " + _quote(content)]
        case TurnEnd(turn=turn, status=status, error=error) if status != "completed":
            why = f": {error.message}" if error is not None else ""
            return ["", f"*Turn {turn} {status}{why}.*"]
        case SessionTitle(title=title):
            return ["", f"*Title set to “{title}”.*"]
        case (
            TurnEnd()
            | TurnStart()
            | ContextTime()
            | ScheduleChanged()
            | ExchangeHidden()
            | PathSelected()
            | SessionModel()
            | SessionInstructions()
            | UnknownEvent()
            | MalformedEvent()
        ):
            return []
        case unexpected:
            assert_never(unexpected)


def _assistant(at: str, answer: AssistantMessage) -> list[str]:
    lines = ["", f"## Assistant ({at})", "", answer.text]
    for call in answer.tool_calls:
        lines += ["", f"> Tool call `{call.name}`: `{call.arguments}`"]
    return lines


def _quote(text: str) -> str:
    return text.replace("\n", "\n> ")
