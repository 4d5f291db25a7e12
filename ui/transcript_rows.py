"""Transcript rows: what each session event looks like on screen. Pure: no I/O, no clock, no Qt
but its translations (``translate("TranscriptRows", …)``: the captions in the window's language).

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
- ``turn/end`` makes a row only when the turn did not complete: ``error`` (failed, with Retry,
  Edit and Discard) or ``notice`` (cancelled / interrupted).
- A hidden exchange (agent.md §7) is one thin ``hidden`` row at its input's place, with the first
  words of the message and a Show button (the transcript model makes it).
- Usage under an answer is summed over the model steps of its turn: prompt tokens and completion
  tokens as the endpoint reported them for each step, and tokens per second over the time the
  model spent writing: the completion tokens of the steps whose first text and end were both
  timed, over the time between (a step without text, or whose text came whole, unstreamed, is not
  counted: it was not seen being written; no rate when no step was). The wait for the turn's
  first text (the steps before it included) is shown when it took a second or more (a local model
  reading a long prompt). It is shown under the row of the step that ends the turn (a step
  without tool calls); nothing when no step reported usage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal, assert_never

from PySide6.QtCore import QCoreApplication

from core.events import (
    AssistantMessage,
    Attachment,
    ContextTime,
    Entry,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
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
from core.jsonread import TOOL_TEXT, parse_json
from core.readable import format_clock, tool_outcome
from ui.wording import tool_title, turn_error_text

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("TranscriptRows", …)

RowKind = Literal[
    "user", "reminder", "assistant", "tool", "context", "error", "notice", "streaming", "hidden"
]

LATE_AFTER = timedelta(minutes=1)
HIDDEN_SNIPPET_CHARS = 60


MIN_WRITING_MS = 100
"""A step written faster than this (its text came whole) says nothing about the model's speed."""


@dataclass(frozen=True, slots=True)
class TurnUsage:
    """Tokens an answer's steps cost (see the module docstring): ``written`` completion tokens
    over ``writing_ms`` (the steps timed from their first text to their end); ``first_text_ms``,
    how long the turn took to its first text (None: no text yet), and ``before_text_ms``, the
    steps before it (tool calls without words)."""

    prompt: int = 0
    completion: int = 0
    reported: bool = False
    written: int = 0
    writing_ms: int = 0
    before_text_ms: int = 0
    first_text_ms: int | None = None

    def plus(self, answer: AssistantMessage) -> TurnUsage:
        total, first = answer.duration_ms, answer.first_text_ms
        before, first_text = self.before_text_ms, self.first_text_ms
        if first_text is None and first is not None:
            first_text = before + first
        elif first_text is None and total is not None:
            before += total
        usage = answer.usage
        if usage is None:  # its time still counts towards the wait for the first words
            return replace(self, before_text_ms=before, first_text_ms=first_text)
        written, writing = self.written, self.writing_ms
        if total is not None and first is not None and total - first >= MIN_WRITING_MS:
            written, writing = written + usage.completion_tokens, writing + total - first
        return TurnUsage(
            self.prompt + usage.prompt_tokens,
            self.completion + usage.completion_tokens,
            True,
            written,
            writing,
            before,
            first_text,
        )

    @property
    def per_second(self) -> float | None:
        """Completion tokens per second while the model wrote; None when no step can tell."""
        return self.written * 1000 / self.writing_ms if self.writing_ms > 0 else None


@dataclass(frozen=True, slots=True)
class TranscriptRow:
    """One visible transcript row.

    ``seq`` is where the row stands in the log's order: the event's index, except for a message,
    which stands at the ``turn/start`` that answers it (-1 for the live streaming row); ``at`` its
    append time. ``detail`` holds the expandable text (tool arguments and result, context
    reading). ``queued``: a message typed while another answer runs, waiting for its turn.
    ``files``: the files attached to a user message.
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
    queued: bool = False
    files: tuple[Attachment, ...] = ()
    input: int = -1
    """The seq of the input whose exchange the row belongs to (-1: none, e.g. streaming)."""
    version: tuple[int, int] = (0, 0)
    """A message with versions: (which one, of how many); (0, 0) without."""
    usage: TurnUsage | None = None
    """Under the answer that ends a turn: what its steps cost (None: nothing reported)."""
    typed: bool = True
    """An error row whose input the user typed (False: a reminder's turn, which has no text to
    edit: its row offers no Edit)."""


def hidden_row(entry: Entry, message: UserMessage) -> TranscriptRow:
    """The thin row standing for a hidden exchange: the first words of its message."""
    text = (
        reminder_text(_user_row(message, entry.seq, None)) if message.is_reminder else message.text
    )
    first = " ".join(text.split())
    if len(first) > HIDDEN_SNIPPET_CHARS:
        first = first[: HIDDEN_SNIPPET_CHARS - 1].rstrip() + "…"
    return TranscriptRow("hidden", first, entry.seq, read_instant(entry.at), input=entry.seq)


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


def row_for_event(entry: Entry, zone_name: str | None) -> list[TranscriptRow]:
    """The rows one entry adds (tool results are merged by ``merge_tool_result`` instead)."""
    seq, at = entry.seq, read_instant(entry.at)
    match entry.event:
        case UserMessage() as message:
            return [_user_row(message, seq, at)]
        case AssistantMessage() as answer:
            return _assistant_rows(answer, seq, at, zone_name)
        case ContextTime(text=text):
            return [
                TranscriptRow(
                    "context", text, seq, at, title=translate("TranscriptRows", "Time context")
                )
            ]
        case TurnEnd() as end:
            return _turn_end_rows(end, seq, at)
        case (
            TurnStart()
            | ToolResult()
            | SessionTitle()
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


def _user_row(message: UserMessage, seq: int, at: datetime | None) -> TranscriptRow:
    if not message.is_reminder:
        return TranscriptRow("user", message.text, seq, at, files=message.attachments)
    items = message.reminders or ()
    late = at is not None and any(at - item.occurrence_at > LATE_AFTER for item in items)
    return TranscriptRow("reminder", message.text, seq, at, reminders=items, late=late)


def _assistant_rows(
    answer: AssistantMessage, seq: int, at: datetime | None, zone_name: str | None
) -> list[TranscriptRow]:
    rows: list[TranscriptRow] = []
    if answer.text.strip():
        rows.append(TranscriptRow("assistant", answer.text, seq, at))
    elif not answer.tool_calls and answer.finish != "interrupted":
        # Nothing at all: say so, or the turn ends with no trace (a small local model does
        # this); the row is the answer's, so Regenerate is at hand.
        nothing = translate("TranscriptRows", "The model sent an empty answer.")
        rows.append(TranscriptRow("assistant", f"*{nothing}*", seq, at))
    rows.extend(_tool_row(call, seq, at, zone_name) for call in answer.tool_calls)
    return rows


def _tool_row(
    call: ToolCall, seq: int, at: datetime | None, zone_name: str | None
) -> TranscriptRow:
    title = tool_title(tool_outcome(call.name, call.arguments, None, zone_name))
    detail = _detail(call.arguments, None)
    return TranscriptRow("tool", call.name, seq, at, title=title, detail=detail, call_id=call.id)


def merge_tool_result(
    row: TranscriptRow, result: ToolResult, zone_name: str | None
) -> TranscriptRow:
    """The tool-call row once its ``tool/result`` arrived: summary and detail include the result."""
    arguments = _arguments_of(row.detail)
    content, is_error = result.content, result.is_error
    title = tool_title(tool_outcome(row.text, arguments, content, zone_name, is_error=is_error))
    return replace(row, title=title, detail=_detail(arguments, content), is_error=is_error)


def _detail(arguments: str, content: str | None) -> str:
    parts = [f"{_arguments_heading()}\n{_pretty(arguments)}"]
    if content is not None:
        parts.append(f"{_result_heading()}\n{_pretty(content)}")
    return "\n\n".join(parts)


def _arguments_of(detail: str) -> str:
    head = detail.split(f"\n\n{_result_heading()}\n", 1)[0]
    return head.removeprefix(f"{_arguments_heading()}\n")


def _arguments_heading() -> str:
    return translate("TranscriptRows", "Arguments:")


def _result_heading() -> str:
    return translate("TranscriptRows", "Result:")


def _pretty(text: str) -> str:
    try:
        return json.dumps(parse_json(text, TOOL_TEXT), indent=2, ensure_ascii=False)
    except ValueError:  # not JSON, or beyond the bounded decode's limits: shown as it is
        return text


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


def reminder_text(row: TranscriptRow) -> str:
    """The reminders' own words, one per line (the framing text when it cannot be parsed)."""
    if not row.reminders:
        return row.text
    return "\n".join(item.prompt for item in row.reminders)


def _turn_end_rows(end: TurnEnd, seq: int, at: datetime | None) -> list[TranscriptRow]:
    status = end.status
    if status == "failed":
        return [TranscriptRow("error", turn_error_text(end.error), seq, at, is_error=True)]
    if status == "cancelled":
        return [TranscriptRow("notice", translate("TranscriptRows", "Stopped."), seq, at)]
    if status == "interrupted":
        return [
            TranscriptRow(
                "notice",
                translate("TranscriptRows", "This turn was interrupted (the app closed)."),
                seq,
                at,
            )
        ]
    return []
