"""The transcript's rows in the window's language: ``words`` turns a row's data
(``core.transcript.rows``) into the words shown. Pure but for Qt's translations
(``translate("TranscriptRows", …)``).

The rows themselves (which events make which rows, in which order, offering which verbs) are
``core.transcript``'s; here are only the words: the notes of rows the window speaks for (an empty
answer, a stopped or interrupted turn), a failed turn's error (``ui.wording``), the time-context
row's title, a tool row's title (its ``ToolOutcome``, ``ui.wording``) and detail (its arguments
and result under headings, JSON pretty-printed), the reminder card's caption and the usage line's
numbers.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QCoreApplication

from core.events import Entry, ToolResult
from core.frozen import replace
from core.jsonread import TOOL_TEXT, parse_json
from core.readable import format_clock
from core.transcript import rows as core_rows
from core.transcript.rows import Note, TranscriptRow, reminder_text
from core.transcript.usage import TurnUsage
from ui.wording import call_title, tool_title, turn_error_text

__all__ = [
    "TranscriptRow",
    "TurnUsage",
    "first_text_wait",
    "merge_tool_result",
    "reminder_caption",
    "reminder_text",
    "row_for_event",
    "thought_seconds",
    "usage_numbers",
    "words",
]

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("TranscriptRows", …)


def words(row: TranscriptRow) -> TranscriptRow:
    """``row`` with the words the window supplies (the row itself when it needs none)."""
    match row.kind:
        case "tool":
            title = tool_title(row.outcome) if row.outcome is not None else row.text
            if row.from_text:  # the model wrote the call as text; Chime read it as a call
                title = translate("TranscriptRows", "%1 · written as text").replace("%1", title)
            return replace(row, title=title, detail=_detail(row.arguments, row.result))
        case "mcp" if row.call is not None:
            result = None if row.result is None else _bounded(row.result)
            return replace(row, title=call_title(row.call), detail=_detail(row.arguments, result))
        case "error":
            return replace(row, text=turn_error_text(row.error))
        case "context":
            return replace(row, title=translate("TranscriptRows", "Time context"))
        case _ if row.note is not Note.NONE:
            return replace(row, text=_note(row.note))
        case _:
            return row


def _note(note: Note) -> str:
    match note:
        case Note.EMPTY_ANSWER:
            nothing = translate("TranscriptRows", "The model sent an empty answer.")
            return f"*{nothing}*"
        case Note.STOPPED:
            return translate("TranscriptRows", "Stopped.")
        case Note.INTERRUPTED:
            return translate("TranscriptRows", "This turn was interrupted (the app closed).")
        case Note.NONE:
            return ""


def row_for_event(entry: Entry, zone_name: str | None) -> list[TranscriptRow]:
    """The rows one entry adds, in words (``core.transcript.rows.row_for_event``)."""
    return [words(row) for row in core_rows.row_for_event(entry, zone_name)]


def merge_tool_result(
    row: TranscriptRow, result: ToolResult, zone_name: str | None
) -> TranscriptRow:
    """The tool-call row once its ``tool/result`` arrived, in words."""
    return words(core_rows.merge_tool_result(row, result, zone_name))


def _detail(arguments: str, content: str | None) -> str:
    heading = translate("TranscriptRows", "Arguments:")
    parts = [f"{heading}\n{_pretty(arguments)}"]
    if content is not None:
        heading = translate("TranscriptRows", "Result:")
        parts.append(f"{heading}\n{_pretty(content)}")
    return "\n\n".join(parts)


MAX_RESULT_CHARS = 20_000
"""An MCP result longer than this shows its start and says how much more it holds (Copy copies
what is shown; the log and the export keep it whole)."""


def _bounded(text: str) -> str:
    if len(text) <= MAX_RESULT_CHARS:
        return text
    more = translate("TranscriptRows", "… (%1 more characters)").replace(
        "%1", f"{len(text) - MAX_RESULT_CHARS:,}"
    )
    return text[:MAX_RESULT_CHARS] + "\n" + more


def _pretty(text: str) -> str:
    try:
        return json.dumps(parse_json(text, TOOL_TEXT), indent=2, ensure_ascii=False)
    except ValueError:  # not JSON, or beyond the bounded decode's limits: shown as it is
        return text


def usage_numbers(usage: TurnUsage) -> tuple[str, str, str]:
    """(prompt tokens, completion tokens, tokens per second or "") written with thousands
    separators: ``("1,234", "256", "41")``."""
    rate = usage.per_second
    shown_rate = "" if rate is None else (f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}")
    return f"{usage.prompt:,}", f"{usage.completion:,}", shown_rate


def first_text_wait(usage: TurnUsage) -> str:
    """The wait for the turn's first text in seconds ("14", "2.5"), or "" under a second."""
    waited = usage.first_text_ms
    if waited is None or waited < 1000:
        return ""
    seconds = waited / 1000
    return f"{seconds:,.0f}" if seconds >= 10 else f"{seconds:.1f}"


def thought_seconds(usage: TurnUsage) -> str:
    """How long the turn's steps thought in whole seconds ("12"), or "" when they did not."""
    if usage.thought_ms <= 0:
        return ""
    return f"{max(1, round(usage.thought_ms / 1000)):,}"


def reminder_caption(row: TranscriptRow, zone_name: str | None) -> str:
    """``Reminder · due 10:45`` plus ``· delivered 11:02 (late)`` when late."""
    due = ", ".join(format_clock(i.occurrence_at, zone_name) for i in row.reminders)
    caption = (
        translate("TranscriptRows", "Reminder · due %1").replace("%1", due)
        if due
        else translate("TranscriptRows", "Reminder")
    )
    if row.late:
        delivered = format_clock(row.at, zone_name)
        caption += translate("TranscriptRows", " · delivered %1 (late)").replace("%1", delivered)
    return caption
