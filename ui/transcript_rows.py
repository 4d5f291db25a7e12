"""Transcript rows: what each session event looks like on screen. Pure: no Qt, no I/O, no clock.

A row is a frozen value built from a typed entry (``core.events``), matched on its event's class.
Times are shown in the zone name the caller gives (the sampled system zone); the UI never reads
the machine.

Choices where the spec is silent (desktop.md §1):
- ``turn/start``, ``schedule/change`` and ``session/title`` make no row; ``context/time`` makes a
  row of kind ``context`` that the view hides unless "Show context" is on.
- A reminder follow-up (``user/message`` with the schedule plugin source) is a ``reminder`` row
  showing the reminders the framing parser read from it (``UserMessage.reminders``); it counts as
  late when delivered more than a minute after its intended ``occurrence_at``.
- Malformed and unknown events make no row (the JSONL export keeps them).
- ``turn/end`` makes a row only when the turn did not complete: ``error`` (failed, with Retry) or
  ``notice`` (cancelled / interrupted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal, assert_never
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    MalformedEvent,
    ScheduleChanged,
    SessionTitle,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.framing import DueReminder
from core.instant import read_instant

RowKind = Literal[
    "user", "reminder", "assistant", "tool", "context", "error", "notice", "streaming"
]

LATE_AFTER = timedelta(minutes=1)
PLAIN_FAILURES = {
    "invalid_selector": "the request was malformed",
    "invalid_prompt": "the reminder needs some text",
    "invalid_rule": "that time or delay isn't valid",
    "frequency_too_high": "it can repeat at most every 5 minutes",
    "invalid_time_zone": "that time zone isn't known",
    "not_future": "that time has already passed",
    "time_out_of_range": "that is past the year 9999",
    "corrupt_schedule_log": "this conversation's reminder log is damaged",
    "persistence_uncertain": "saving could not be confirmed",
    "internal_error": "something went wrong inside the reminder system",
    "schedule_not_found": "no such active reminder",
}
"""The tool row's sentence for each error code of schedule.md §5."""
TOOL_TITLES = {
    "schedule_create": "Create reminder",
    "schedule_list": "List reminders",
    "schedule_delete": "Delete reminder",
}


@dataclass(frozen=True, slots=True)
class TranscriptRow:
    """One visible transcript row.

    ``seq`` is the event's index (-1 for the live streaming row); ``at`` its append time.
    ``detail`` holds the expandable text (tool arguments and result, context reading).
    """

    kind: RowKind
    text: str
    seq: int = -1
    at: datetime | None = None
    title: str = ""
    detail: str = ""
    call_id: str = ""
    is_error: bool = False
    reminders: tuple[DueReminder, ...] = ()
    late: bool = False


def zone_or_utc(zone_name: str | None) -> ZoneInfo:
    """The named zone, or UTC when the name is unknown or missing."""
    try:
        return ZoneInfo(zone_name) if zone_name else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def format_clock(when: datetime | None, zone_name: str | None) -> str:
    """``10:45`` in the display zone (empty when unknown)."""
    if when is None:
        return ""
    return when.astimezone(zone_or_utc(zone_name)).strftime("%H:%M")


def row_for_event(entry: Entry, zone_name: str | None) -> list[TranscriptRow]:
    """The rows one entry adds (tool results are merged by ``merge_tool_result`` instead)."""
    seq, at = entry.seq, read_instant(entry.at)
    match entry.event:
        case UserMessage() as message:
            return [_user_row(message, seq, at)]
        case AssistantMessage() as answer:
            return _assistant_rows(answer, seq, at, zone_name)
        case ContextTime(text=text):
            return [TranscriptRow("context", text, seq, at, title="Time context")]
        case TurnEnd() as end:
            return _turn_end_rows(end, seq, at)
        case (
            TurnStart()
            | ToolResult()
            | SessionTitle()
            | ScheduleChanged()
            | UnknownEvent()
            | MalformedEvent()
        ):
            return []
        case unexpected:
            assert_never(unexpected)


def _user_row(message: UserMessage, seq: int, at: datetime | None) -> TranscriptRow:
    if not message.is_reminder:
        return TranscriptRow("user", message.text, seq, at)
    items = message.reminders or ()
    late = at is not None and any(at - item.occurrence_at > LATE_AFTER for item in items)
    return TranscriptRow("reminder", message.text, seq, at, reminders=items, late=late)


def _assistant_rows(
    answer: AssistantMessage, seq: int, at: datetime | None, zone_name: str | None
) -> list[TranscriptRow]:
    rows: list[TranscriptRow] = []
    if answer.text.strip():
        rows.append(TranscriptRow("assistant", answer.text, seq, at))
    rows.extend(_tool_row(call, seq, at, zone_name) for call in answer.tool_calls)
    return rows


def _tool_row(
    call: ToolCall, seq: int, at: datetime | None, zone_name: str | None
) -> TranscriptRow:
    title = tool_summary(call.name, call.arguments, None, zone_name)
    detail = _detail(call.arguments, None)
    return TranscriptRow("tool", call.name, seq, at, title=title, detail=detail, call_id=call.id)


def merge_tool_result(
    row: TranscriptRow, result: ToolResult, zone_name: str | None
) -> TranscriptRow:
    """The tool-call row once its ``tool/result`` arrived: summary and detail include the result."""
    arguments = _arguments_of(row.detail)
    content, is_error = result.content, result.is_error
    title = tool_summary(row.text, arguments, content, zone_name, is_error=is_error)
    return replace(row, title=title, detail=_detail(arguments, content), is_error=is_error)


def _detail(arguments: str, content: str | None) -> str:
    parts = [f"Arguments:\n{_pretty(arguments)}"]
    if content is not None:
        parts.append(f"Result:\n{_pretty(content)}")
    return "\n\n".join(parts)


def _arguments_of(detail: str) -> str:
    head = detail.split("\n\nResult:\n", 1)[0]
    return head.removeprefix("Arguments:\n")


def _pretty(text: str) -> str:
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def _json_object(text: str | None) -> Any:
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def tool_summary(
    name: str,
    arguments: str,
    content: str | None,
    zone_name: str | None,
    *,
    is_error: bool = False,
) -> str:
    """A compact card title: ``Create reminder — stretch, 10:45 · schedule-3`` (schedule.md §13)."""
    title = TOOL_TITLES.get(name, name or "Tool")
    args = _json_object(arguments)
    result = _json_object(content)
    if is_error or (isinstance(result, dict) and "code" in result and "deleted" not in result):
        code = result.get("code") if isinstance(result, dict) else None
        reason = (
            PLAIN_FAILURES.get(code, "it failed") if isinstance(code, str) else "it was refused"
        )
        return f"{title} — not done: {reason}"
    if name == "schedule_create":
        return _create_summary(title, args, result, zone_name)
    if name == "schedule_list":
        count = f" — {len(result)} active" if isinstance(result, list) else ""
        return f"{title}{count}"
    if name == "schedule_delete":
        target = args.get("id") if isinstance(args, dict) else None
        outcome = ""
        if isinstance(result, dict):
            outcome = " · deleted" if result.get("deleted") else " · not found"
        return f"{title} — {target}{outcome}" if target else title
    return title


def _create_summary(title: str, args: Any, result: Any, zone_name: str | None) -> str:
    prompt = args.get("prompt") if isinstance(args, dict) else None
    text = f"{title} — {str(prompt).strip()}" if prompt else title
    if isinstance(result, dict) and "scheduledAt" in result:
        text += f", {format_clock(read_instant(result['scheduledAt']), zone_name)}"
        text += f" · {result.get('id', '')}"
    return text


def reminder_caption(row: TranscriptRow, zone_name: str | None) -> str:
    """``Reminder · due 10:45`` plus ``· delivered 11:02 (late)`` when late."""
    due = ", ".join(format_clock(i.occurrence_at, zone_name) for i in row.reminders)
    caption = f"Reminder · due {due}" if due else "Reminder"
    if row.late:
        caption += f" · delivered {format_clock(row.at, zone_name)} (late)"
    return caption


def reminder_text(row: TranscriptRow) -> str:
    """The reminders' own words, one per line (the framing text when it cannot be parsed)."""
    if not row.reminders:
        return row.text
    return "\n".join(item.prompt for item in row.reminders)


def _turn_end_rows(end: TurnEnd, seq: int, at: datetime | None) -> list[TranscriptRow]:
    status = end.status
    if status == "failed":
        message = end.error.message if end.error is not None else ""
        return [TranscriptRow("error", message or "The turn failed.", seq, at, is_error=True)]
    if status == "cancelled":
        return [TranscriptRow("notice", "Stopped.", seq, at)]
    if status == "interrupted":
        return [TranscriptRow("notice", "This turn was interrupted (the app closed).", seq, at)]
    return []
