"""The offline assistant's answer to a reminder follow-up (agent.md §5.1). Pure: never raises.

The follow-up's text is read with the one strict parser, ``core.framing.parse_framing``; text that
does not parse gets the answer that the reminder could not be read. The prompt is data: it is
shown through ``render_prompt`` and never interpreted. A recurring reminder that came due several
times while its conversation was closed arrives once, as its latest occurrence (schedule.md §7);
the answer says how many were skipped, from the message's ``skipped`` counts (agent.md §2).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from core.framing import DueReminder, parse_framing
from core.llm.offline.text import local_time_text, relative_text, render_prompt
from core.llm.offline.zones import load_zone

LATE_AFTER_SECONDS = 60
"""A reminder delivered at least this long after its time is presented as late."""

UNREADABLE = (
    "A reminder is due, but I couldn't read its details. Say “list my reminders” to see "
    "what is still scheduled."
)


def present_reminders(
    text: str, now: datetime, zone: str | None, skipped: Mapping[str, int] | None = None
) -> str:
    """The answer to a follow-up: one ``Reminder: …`` line per reminder, lateness and skipped
    occurrences included.

    Lines are separated by a blank line, because the window renders answers as Markdown, where a
    single line break would join them into one paragraph.
    """
    due = parse_framing(text)
    if due is None:
        return UNREADABLE
    counts = skipped or {}
    return "\n\n".join(_line(r, now, zone, counts.get(r.schedule_id, 0)) for r in due)


def _line(reminder: DueReminder, now: datetime, zone: str | None, skipped: int) -> str:
    line = f"Reminder: {render_prompt(reminder.prompt)}"
    notes: list[str] = []
    if (now - reminder.occurrence_at).total_seconds() >= LATE_AFTER_SECONDS:
        known = zone if zone is not None and load_zone(zone) is not None else None
        when = local_time_text(reminder.occurrence_at, now, known or "UTC")
        where = "" if known is not None else " UTC"
        ago = relative_text(reminder.occurrence_at, now)
        notes.append(f"due {when}{where}, {ago}; this conversation wasn't open then")
    if skipped > 0:
        times = "once" if skipped == 1 else f"{skipped} times"
        notes.append(f"missed {times} while this conversation was closed")
    return f"{line} ({'; '.join(notes)})" if notes else line
