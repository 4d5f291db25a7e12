"""The offline assistant's answer to a reminder follow-up (agent.md §5.1). Pure: never raises.

The follow-up's text is read with the one strict parser, ``core.framing.parse_framing``; text that
does not parse gets the answer that the reminder could not be read. The prompt is data: it is
shown through ``render_prompt`` and never interpreted.
"""

from __future__ import annotations

from datetime import datetime

from core.framing import DueReminder, parse_framing
from core.llm.offline_text import display_zone, local_time_text, relative_text, render_prompt

LATE_AFTER_SECONDS = 60
"""A reminder delivered at least this long after its time is presented as late."""

UNREADABLE = (
    "⏰ A reminder is due, but I couldn't read its details. Say “list my reminders” to see "
    "what is still scheduled."
)


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
