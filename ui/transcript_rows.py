"""Transcript rows: what each session event looks like on screen. Pure: no Qt, no I/O, no clock.

A row is a frozen value built from plain event envelopes (agent.md §2 vocabulary). Times are shown
in the zone name the caller gives (the sampled system zone); the UI never reads the machine.

Choices where the spec is silent (desktop.md §1):
- ``turn/start``, ``schedule/change`` and ``session/title`` make no row; ``context/time`` makes a
  row of kind ``context`` that the view hides unless "Show context" is on.
- A reminder follow-up (``user/message`` with the schedule plugin source) is a ``reminder`` row; it
  counts as late when delivered more than a minute after its intended ``occurrence_at``.
- ``turn/end`` makes a row only when the turn did not complete: ``error`` (failed, with Retry) or
  ``notice`` (cancelled / interrupted).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

RowKind = Literal[
    "user", "reminder", "assistant", "tool", "context", "error", "notice", "streaming"
]

LATE_AFTER = timedelta(minutes=1)
TOOL_TITLES = {
    "schedule_create": "Create reminder",
    "schedule_list": "List reminders",
    "schedule_delete": "Delete reminder",
}


@dataclass(frozen=True, slots=True)
class ReminderItem:
    """One reminder inside a follow-up: its id, intended time and prompt."""

    schedule_id: str
    occurrence_at: datetime | None
    prompt: str


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
    reminders: tuple[ReminderItem, ...] = field(default=())
    late: bool = False


def parse_instant(text: object) -> datetime | None:
    """A canonical (or any ISO 8601) UTC instant as an aware datetime; None when unreadable."""
    if not isinstance(text, str):
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


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


def parse_reminders(text: str) -> tuple[ReminderItem, ...]:
    """The reminders named in a follow-up framing text (schedule.md §10.6); () when none parse."""
    lines = text.split("\n")
    if lines and lines[0] == "[SCHEDULE REMINDER BATCH]":
        return _parse_batch(lines)
    fields: dict[str, str] = {}
    for line in lines[1:]:
        key, sep, value = line.partition(": ")
        if sep:
            fields[key] = value
    try:
        schedule_id = json.loads(fields["schedule_id_json"])
        prompt = json.loads(fields["reminder_prompt_json"])
    except (KeyError, ValueError):
        return ()
    when = parse_instant(fields.get("occurrence_at"))
    return (ReminderItem(str(schedule_id), when, str(prompt)),)


def _parse_batch(lines: list[str]) -> tuple[ReminderItem, ...]:
    for line in lines:
        if line.startswith("reminders_json: "):
            try:
                items = json.loads(line[len("reminders_json: ") :])
            except ValueError:
                return ()
            return tuple(
                ReminderItem(
                    str(item.get("schedule_id", "")),
                    parse_instant(item.get("occurrence_at")),
                    str(item.get("reminder_prompt", "")),
                )
                for item in items
                if isinstance(item, dict)
            )
    return ()


def row_for_event(event: Mapping[str, Any], zone_name: str | None) -> list[TranscriptRow]:
    """The rows one event adds (tool results are merged by ``merge_tool_result`` instead)."""
    kind = event.get("type")
    data = event.get("data")
    if not isinstance(data, Mapping):
        return []
    seq = event.get("seq", -1)
    seq = seq if isinstance(seq, int) else -1
    at = parse_instant(event.get("at"))
    if kind == "user/message":
        return [_user_row(data, seq, at)]
    if kind == "assistant/message":
        return _assistant_rows(data, seq, at, zone_name)
    if kind == "context/time":
        text = str(data.get("text", ""))
        return [TranscriptRow("context", text, seq, at, title="Time context")]
    if kind == "turn/end":
        return _turn_end_rows(data, seq, at)
    return []


def _user_row(data: Mapping[str, Any], seq: int, at: datetime | None) -> TranscriptRow:
    text = str(data.get("text", ""))
    source = data.get("source")
    if isinstance(source, Mapping) and source.get("kind") == "plugin":
        items = parse_reminders(text)
        late = any(
            item.occurrence_at is not None
            and at is not None
            and at - item.occurrence_at > LATE_AFTER
            for item in items
        )
        return TranscriptRow("reminder", text, seq, at, reminders=items, late=late)
    return TranscriptRow("user", text, seq, at)


def _assistant_rows(
    data: Mapping[str, Any], seq: int, at: datetime | None, zone_name: str | None
) -> list[TranscriptRow]:
    rows: list[TranscriptRow] = []
    text = str(data.get("text", ""))
    if text.strip():
        rows.append(TranscriptRow("assistant", text, seq, at))
    calls = data.get("toolCalls")
    if isinstance(calls, list):
        rows.extend(_tool_row(c, seq, at, zone_name) for c in calls if isinstance(c, Mapping))
    return rows


def _tool_row(
    call: Mapping[str, Any], seq: int, at: datetime | None, zone_name: str | None
) -> TranscriptRow:
    name = str(call.get("name", ""))
    arguments = str(call.get("arguments", ""))
    title = tool_summary(name, arguments, None, zone_name)
    return TranscriptRow(
        "tool",
        name,
        seq,
        at,
        title=title,
        detail=_detail(arguments, None),
        call_id=str(call.get("id", "")),
    )


def merge_tool_result(
    row: TranscriptRow, data: Mapping[str, Any], zone_name: str | None
) -> TranscriptRow:
    """The tool-call row once its ``tool/result`` arrived: summary and detail include the result."""
    arguments = _arguments_of(row.detail)
    content = str(data.get("content", ""))
    is_error = bool(data.get("isError", False))
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
        message = result.get("code") if isinstance(result, dict) else None
        return f"{title} — failed ({message or 'error'})"
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
        text += f", {format_clock(parse_instant(result['scheduledAt']), zone_name)}"
        text += f" · {result.get('id', '')}"
    return text


def reminder_caption(row: TranscriptRow, zone_name: str | None) -> str:
    """``Reminder · due 10:45`` plus ``· delivered 11:02 (late)`` when late."""
    due = ", ".join(
        format_clock(i.occurrence_at, zone_name) for i in row.reminders if i.occurrence_at
    )
    caption = f"Reminder · due {due}" if due else "Reminder"
    if row.late:
        caption += f" · delivered {format_clock(row.at, zone_name)} (late)"
    return caption


def reminder_text(row: TranscriptRow) -> str:
    """The reminders' own words, one per line (the framing text when it cannot be parsed)."""
    if not row.reminders:
        return row.text
    return "\n".join(item.prompt for item in row.reminders)


def _turn_end_rows(data: Mapping[str, Any], seq: int, at: datetime | None) -> list[TranscriptRow]:
    status = data.get("status")
    if status == "failed":
        error = data.get("error")
        message = str(error.get("message", "")) if isinstance(error, Mapping) else ""
        return [TranscriptRow("error", message or "The turn failed.", seq, at, is_error=True)]
    if status == "cancelled":
        return [TranscriptRow("notice", "Stopped.", seq, at)]
    if status == "interrupted":
        return [TranscriptRow("notice", "This turn was interrupted (the app closed).", seq, at)]
    return []
