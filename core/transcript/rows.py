"""Transcript rows: what each session event looks like on screen, as frozen values. Pure: no I/O,
no clock, no Qt, no words of the window's language (``ui.transcript_rows.words`` puts a row's
``note`` and a tool row's parts into words).

A row is built from a typed entry (``core.events``), matched on its event's class, so a new event
type is a type error here until it is given its rows. Times are shown in the zone name the caller
gives (the sampled system zone); nothing here reads the machine.

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
  words of the message and a Show button.
- An answer with no text, no tool call and not stopped is an ``assistant`` row with the note
  ``EMPTY_ANSWER`` (the row is the answer's, so Regenerate is at hand).
- An answer's reasoning (its thinking) is a part of its ``assistant`` row (``reasoning``,
  ``reasoning_ms``), never of its ``text``; an answer recorded before reasoning had a field of its
  own keeps a leading ``<think>…</think>`` block in its text, which is split off here the same way
  (``core.reasoning.split_think``: the log is unchanged). An answer that only thought is an
  ``assistant`` row with reasoning and no text.
- A turn's last answer that records ``reminderNotSet`` (agent.md §3) is followed by an ``unset``
  row: its ``arguments`` are the ``schedule_create`` arguments the offline assistant understood,
  and its ``result`` the id of the reminder once one with that text was created after it (None:
  not yet; ``mark_set``).
- A tool call recognised in the answer's text (``callsFromText``) is a ``tool`` row like any
  other, with ``from_text`` set.
- A call of an MCP server's tool is an ``mcp`` row (``core.transcript.mcp`` follows its state:
  waiting for the person, running, done or why not); a call of no known tool refused at once is
  an ordinary ``tool`` row.

Which verbs a row offers is a field of the row (``verbs``, decided by ``core.transcript.verbs``
when the row is placed), read by the painted buttons, the context menu and the keyboard alike.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Literal, assert_never

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
    SessionTools,
    ToolCall,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnError,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.framing import DueReminder
from core.frozen import frozen, replace
from core.instant import read_instant
from core.jsonread import TOOL_TEXT, parse_json
from core.readable import ToolOutcome, tool_outcome
from core.reasoning import Split, split_think
from core.transcript import mcp
from core.transcript.mcp import McpCall
from core.transcript.usage import TurnUsage
from core.transcript.verbs import Verb

RowKind = Literal[
    "user",
    "reminder",
    "assistant",
    "tool",
    "mcp",
    "context",
    "error",
    "notice",
    "streaming",
    "hidden",
    "unset",
]

LATE_AFTER = timedelta(minutes=1)
HIDDEN_SNIPPET_CHARS = 60


class Note(StrEnum):
    """A row whose words are the window's, not the log's: ``ui`` says them in its language."""

    NONE = ""
    EMPTY_ANSWER = "empty-answer"
    STOPPED = "stopped"
    INTERRUPTED = "interrupted"


@frozen
class TranscriptRow:
    """One visible transcript row.

    ``seq`` is where the row stands in the log's order: the event's index, except for a message,
    which stands at the ``turn/start`` that answers it (-1 for the live streaming row); ``at`` its
    append time. A tool row keeps its call's ``arguments`` and, once it arrived, its ``result``
    (None: not yet); ``detail`` is their shown form (``ui`` fills it, with headings in its
    language). ``queued``: a message typed while another answer runs, waiting for its turn.
    ``files``: the files attached to a user message. ``note``: words the window supplies
    (``text`` then holds the log's own words, possibly empty).
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
    note: Note = Note.NONE
    arguments: str = ""
    result: str | None = None
    outcome: ToolOutcome | None = None
    """A tool row's card as values (``core.readable``); ``title`` is its words."""
    error: TurnError | None = None
    """A failed turn's error (None: none was stored); ``text`` is its words."""
    verbs: tuple[Verb, ...] = ()
    """What the row offers (``core.transcript.verbs.verbs_of``), in the order they are shown."""
    reasoning: str = ""
    """An answer's thinking ("" when it showed none): shown apart, folded; never its ``text``."""
    reasoning_ms: int | None = None
    """How long it thought (None: not measured); while streaming, how long it has been thinking."""
    from_text: bool = False
    """A tool row whose call the model wrote as text (the server left it unparsed)."""
    call: McpCall | None = None
    """An ``mcp`` row's server, state, images and links (None for every other row)."""


def message_seq(row: TranscriptRow) -> int:
    """The seq of the message a row shows: a user message or reminder at its input's seq, an
    answer at its own (-1 for other rows)."""
    if row.kind in ("user", "reminder"):
        return row.input
    return row.seq if row.kind == "assistant" else -1


def reminder_text(row: TranscriptRow) -> str:
    """The reminders' own words, one per line (the framing text when it cannot be parsed)."""
    if not row.reminders:
        return row.text
    return "\n".join(item.prompt for item in row.reminders)


def hidden_row(entry: Entry, message: UserMessage) -> TranscriptRow:
    """The thin row standing for a hidden exchange: the first words of its message."""
    text = (
        reminder_text(_user_row(message, entry.seq, None)) if message.is_reminder else message.text
    )
    first = " ".join(text.split())
    if len(first) > HIDDEN_SNIPPET_CHARS:
        first = first[: HIDDEN_SNIPPET_CHARS - 1].rstrip() + "…"
    return TranscriptRow("hidden", first, entry.seq, read_instant(entry.at), input=entry.seq)


def row_for_event(entry: Entry, zone_name: str | None) -> list[TranscriptRow]:
    """The rows one entry adds (tool results are merged by ``merge_tool_result`` instead)."""
    seq, at = entry.seq, read_instant(entry.at)
    match entry.event:
        case UserMessage() as message:
            return [_user_row(message, seq, at)]
        case AssistantMessage() as answer:
            return _assistant_rows(answer, seq, at, zone_name)
        case ContextTime(text=text):
            return [TranscriptRow("context", text, seq, at)]
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
            | ToolStart()
            | SessionTools()
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


def answer_parts(answer: AssistantMessage) -> Split:
    """An answer's thinking and text: its ``reasoning`` field, or for an answer recorded before
    that field a leading ``<think>`` block of its text."""
    if answer.reasoning is not None:
        return Split(answer.reasoning.strip(), answer.text)
    return split_think(answer.text)


def _assistant_rows(
    answer: AssistantMessage, seq: int, at: datetime | None, zone_name: str | None
) -> list[TranscriptRow]:
    rows: list[TranscriptRow] = []
    parts = answer_parts(answer)
    if parts.answer.strip() or parts.reasoning:
        took = answer.reasoning_ms if parts.reasoning else None
        row = TranscriptRow("assistant", parts.answer, seq, at, reasoning=parts.reasoning)
        rows.append(replace(row, reasoning_ms=took))
    elif not answer.tool_calls and answer.finish != "interrupted":
        rows.append(TranscriptRow("assistant", "", seq, at, note=Note.EMPTY_ANSWER))
    from_text = answer.calls_from_text
    rows.extend(_tool_row(call, seq, at, zone_name, from_text) for call in answer.tool_calls)
    if answer.reminder_not_set is not None:
        rows.append(TranscriptRow("unset", "", seq, at, arguments=answer.reminder_not_set))
    return rows


def _tool_row(
    call: ToolCall, seq: int, at: datetime | None, zone_name: str | None, from_text: bool
) -> TranscriptRow:
    outcome = tool_outcome(call.name, call.arguments, None, zone_name)
    row = TranscriptRow(
        "tool",
        call.name,
        seq,
        at,
        call_id=call.id,
        arguments=call.arguments,
        outcome=outcome,
        from_text=from_text,
    )
    if mcp.may_be_mcp(call.name):
        return replace(row, kind="mcp", call=mcp.waiting(None, call.name))
    return row


def is_call_row(row: TranscriptRow) -> bool:
    """A tool call's row (a reminder tool's or an MCP server's)."""
    return row.kind in ("tool", "mcp") and bool(row.call_id)


def start_tool(row: TranscriptRow) -> TranscriptRow:
    """The call's row once ``tool/start`` says it runs."""
    return replace(row, kind="mcp", call=mcp.started(row.call, row.text))


def close_tool(row: TranscriptRow) -> TranscriptRow:
    """The call's row when its turn ended (``core.transcript.mcp.closed``)."""
    if row.call is None or row.call.state not in mcp.OPEN_STATES:
        return row
    call = mcp.closed(row.call)
    return replace(row, kind="mcp" if call is not None else "tool", call=call)


def unset_prompt(row: TranscriptRow) -> str:
    """The reminder text an ``unset`` row offers ("" when its arguments hold none)."""
    try:
        value = parse_json(row.arguments, TOOL_TEXT)
    except ValueError:  # not JSON, or beyond the bounded decode: nothing to offer
        return ""
    prompt = value.get("prompt") if isinstance(value, dict) else None
    return prompt if isinstance(prompt, str) else ""


def mark_set(row: TranscriptRow, change: ScheduleChanged) -> TranscriptRow | None:
    """An ``unset`` row once ``change`` created a reminder with its text (None: it did not)."""
    data = change.data
    if row.kind != "unset" or row.result is not None or not isinstance(data, dict):
        return None
    if data.get("operation") != "create":
        return None
    record = data.get("schedule")
    if not isinstance(record, dict) or record.get("prompt") != unset_prompt(row):
        return None
    schedule_id = record.get("id")
    shown_id = schedule_id if isinstance(schedule_id, str) else ""
    return replace(row, result=shown_id, verbs=())


def merge_tool_result(
    row: TranscriptRow, result: ToolResult, zone_name: str | None
) -> TranscriptRow:
    """The tool-call row once its ``tool/result`` arrived: its outcome includes the result."""
    content, is_error = result.content, result.is_error
    outcome = tool_outcome(row.text, row.arguments, content, zone_name, is_error=is_error)
    call = mcp.finished(row.call, row.text, result)
    kind: RowKind = "mcp" if call is not None else "tool"
    return replace(row, kind=kind, outcome=outcome, result=content, is_error=is_error, call=call)


def _turn_end_rows(end: TurnEnd, seq: int, at: datetime | None) -> list[TranscriptRow]:
    match end.status:
        case "failed":
            return [TranscriptRow("error", "", seq, at, is_error=True, error=end.error)]
        case "cancelled":
            return [TranscriptRow("notice", "", seq, at, note=Note.STOPPED)]
        case "interrupted":
            return [TranscriptRow("notice", "", seq, at, note=Note.INTERRUPTED)]
        case _:
            return []
