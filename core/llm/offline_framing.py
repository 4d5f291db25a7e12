"""Reads the reminder follow-up framing (schedule.md §10.6) and presents it. Pure: never raises.

``parse_framing(text)`` is strict: lines split on LF only (U+2028, U+2029 and U+0085 are not line
breaks here), the header and field names must be exact, the id and prompt must be JSON string
literals, and ``occurrence_at`` a canonical instant. The instruction line is not compared, so a
rewording of it on the writing side does not make reminders unreadable. Anything else gives None,
and the assistant answers that it could not read the reminder. The prompt is data: it is shown
through ``render_prompt`` and never interpreted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from core.llm.offline_text import (
    display_zone,
    local_time_text,
    parse_instant,
    relative_text,
    render_prompt,
)

ONE_SHOT = "[SCHEDULE REMINDER]"
BATCH = "[SCHEDULE REMINDER BATCH]"
LATE_AFTER_SECONDS = 60
"""A reminder delivered at least this long after its time is presented as late."""

UNREADABLE = (
    "⏰ A reminder is due, but I couldn't read its details. Say “list my reminders” to see "
    "what is still scheduled."
)


@dataclass(frozen=True, slots=True)
class DueReminder:
    """One due reminder: its id, intended time (``occurrence_at``) and text."""

    schedule_id: str
    occurrence_at: datetime
    prompt: str


def parse_framing(text: str) -> tuple[DueReminder, ...] | None:
    """The reminders in a one-shot or batch framing, in order; None if it does not parse."""
    lines = text.split("\n")
    if len(lines) == 5 and lines[0] == ONE_SHOT:
        one = _one_shot(lines[2], lines[3], lines[4])
        return None if one is None else (one,)
    if len(lines) == 3 and lines[0] == BATCH:
        return _batch(lines[2])
    return None


def _field(line: str, name: str) -> str | None:
    prefix = f"{name}: "
    return line[len(prefix) :] if line.startswith(prefix) else None


def _json_string(literal: str | None) -> str | None:
    if literal is None or not literal.startswith('"'):
        return None
    try:
        value = json.loads(literal)
    except ValueError:
        return None
    return value if isinstance(value, str) and value else None


def _one_shot(id_line: str, at_line: str, prompt_line: str) -> DueReminder | None:
    schedule_id = _json_string(_field(id_line, "schedule_id_json"))
    occurrence = parse_instant(_field(at_line, "occurrence_at"))
    prompt = _json_string(_field(prompt_line, "reminder_prompt_json"))
    if schedule_id is None or occurrence is None or prompt is None:
        return None
    return DueReminder(schedule_id, occurrence, prompt)


def _batch(line: str) -> tuple[DueReminder, ...] | None:
    literal = _field(line, "reminders_json")
    if literal is None or not literal.startswith("["):
        return None
    try:
        items = json.loads(literal)
    except ValueError:
        return None
    if not isinstance(items, list) or not items:
        return None
    found = [_batch_item(item) for item in items]
    return tuple(r for r in found if r is not None) if None not in found else None


def _batch_item(item: object) -> DueReminder | None:
    if not isinstance(item, dict) or set(item) != {
        "schedule_id",
        "occurrence_at",
        "reminder_prompt",
    }:
        return None
    schedule_id, prompt = item["schedule_id"], item["reminder_prompt"]
    occurrence = parse_instant(item["occurrence_at"])
    if (
        not isinstance(schedule_id, str)
        or not isinstance(prompt, str)
        or not schedule_id
        or not prompt
    ):
        return None
    return None if occurrence is None else DueReminder(schedule_id, occurrence, prompt)


def present_reminders(text: str, now: datetime, zone: str | None) -> str:
    """The answer to a follow-up: one ``⏰ Reminder: …`` line per reminder, lateness included.

    Lines are separated by a blank line, because the window renders answers as Markdown, where a
    single line break would join them into one paragraph.
    """
    due = parse_framing(text)
    if due is None:
        return UNREADABLE
    shown = display_zone(zone)
    return "\n\n".join(_line(reminder, now, shown) for reminder in due)


def _line(reminder: DueReminder, now: datetime, zone: str) -> str:
    line = f"⏰ Reminder: {render_prompt(reminder.prompt)}"
    late = (now - reminder.occurrence_at).total_seconds()
    if late < LATE_AFTER_SECONDS:
        return line
    when = local_time_text(reminder.occurrence_at, now, zone)
    ago = relative_text(reminder.occurrence_at, now)
    return f"{line} (due {when} {zone}, {ago} — delivered late because this conversation wasn't open then)"
