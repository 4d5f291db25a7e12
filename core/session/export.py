"""Markdown transcript of a session (session-log.md §7). Pure: no I/O, no clock, no system zone.

Renders the conversation a person reads, in the zone the caller names (the user's): a heading per
day, then each message under "You", "⏰ Reminder: …" or "Assistant" with its local time. The JSONL
export stays the exact log; this one is for reading.

Choices where the spec is silent:
- A reminder follow-up is shown by what it reminds of (``⏰ Reminder: stretch``) with the time it
  was due and the time it was delivered, never the framing text sent to the model; a follow-up
  Chime cannot read is quoted as it is.
- Each tool call is one line under its answer (the transcript's card title, e.g. ``Create
  reminder — stretch, 10:45 · schedule-3``, its result included); an answer step without text
  adds no section, so a turn's tool calls and words are one "Assistant" section.
- A message is shown where the turn that answers it starts, as in the window (a message typed
  while another answer ran comes after that answer); a retry shows it once; a message no turn
  answered is shown before the next one that was (or at the end).
- A turn that did not complete ends its section with one italic line (failed, with the reason;
  stopped; interrupted). Time-context readings, titles, schedule changes, path, model and
  instruction choices, malformed and unknown events are left out.
- An answer's reasoning comes first in its section, folded: ``<details><summary>Thinking (12 s)
  </summary>`` … ``</details>`` (a leading ``<think>`` block of a text recorded before reasoning
  had its own field is shown the same way).
- Given the conversation (agent.md §7), only its shown path is rendered: other versions and
  hidden exchanges are left out. A message's attachments are named under it (📎 name, size).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
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
    SessionTools,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.instant import read_instant
from core.llm.reasoning import split_think
from core.readable import format_clock, tool_summary, zone_or_utc
from core.session.conversation import Conversation, shown
from core.session.lines import SessionHeader

ENDINGS = {
    "failed": "The answer failed",
    "cancelled": "Stopped",
    "interrupted": "Interrupted (Chime closed during the answer)",
}


@dataclass
class _Section:
    """One heading and the lines under it (tool lines keep their call id until the result)."""

    heading: str
    at: datetime | None
    lines: list[str] = field(default_factory=list)
    calls: dict[str, tuple[int, str, str]] = field(default_factory=dict)
    """call id → (its line, the tool's name, its arguments)."""


@dataclass
class _Transcript:
    """What is rendered so far: the sections, the messages waiting for their turn."""

    zone_name: str | None
    sections: list[_Section] = field(default_factory=list)
    waiting: dict[int, _Section] = field(default_factory=dict)
    last_input: int = -1
    answering: _Section | None = None


def render_markdown(
    header: SessionHeader,
    title: str | None,
    entries: Iterable[Entry],
    zone_name: str | None = None,
    conversation: Conversation | None = None,
) -> str:
    """The transcript as Markdown text, its times in ``zone_name`` (UTC when None): the shown
    path of ``conversation`` (every entry when None)."""
    transcript = _Transcript(zone_name)
    for entry in entries if conversation is None else shown(conversation, entries):
        _take(transcript, entry)
    transcript.sections.extend(transcript.waiting.values())
    return "\n".join([*_preamble(header, title, zone_name), *_body(transcript)]) + "\n"


def _preamble(header: SessionHeader, title: str | None, zone_name: str | None) -> list[str]:
    created = read_instant(header.created_at)
    zone = zone_name or "UTC"
    when = f", created {_day(created, zone_name)} {format_clock(created, zone_name)}"
    lines = [f"# {title or 'Chime session'}", ""]
    lines.append(
        f"Exported from Chime: session `{header.id}`{when if created else ''}. Times are {zone}."
    )
    if header.parent_id is not None:
        lines += ["", f"Forked from `{header.parent_id}` after event {header.seed_length}."]
    return lines


def _body(transcript: _Transcript) -> list[str]:
    lines: list[str] = []
    day = ""
    for section in transcript.sections:
        today = _day(section.at, transcript.zone_name) if section.at else day
        if today != day:
            lines += ["", f"## {today}"]
            day = today
        lines += ["", section.heading, "", *section.lines]
    return lines


def _day(moment: datetime | None, zone_name: str | None) -> str:
    if moment is None:
        return ""
    local = moment.astimezone(zone_or_utc(zone_name))
    return f"{local.strftime('%A')} {local.day} {local.strftime('%B %Y')}"


def _take(transcript: _Transcript, entry: Entry) -> None:
    at = read_instant(entry.at)
    match entry.event:
        case UserMessage() as message:
            transcript.waiting[entry.seq] = _message(message, at, transcript.zone_name)
        case TurnStart(input=input_seq):
            _start_turn(transcript, input_seq)
        case AssistantMessage() as answer:
            _answer(transcript, answer, at)
        case ToolResult() as result:
            _result(transcript, result)
        case TurnEnd(status=status, error=error):
            if status != "completed":
                why = f": {error.message}" if error is not None and error.message else ""
                section = _section(transcript, at)
                section.lines += ([""] if section.lines else []) + [f"*{ENDINGS[status]}{why}.*"]
            transcript.answering = None
        case (
            ContextTime()
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
            pass
        case unexpected:
            assert_never(unexpected)


def _start_turn(transcript: _Transcript, input_seq: int) -> None:
    """The message a turn answers is shown here (once, however often it is retried); older
    messages still waiting will never be answered (the queue is first in, first out) and are shown
    before it."""
    for seq in [seq for seq in transcript.waiting if seq < input_seq]:
        transcript.sections.append(transcript.waiting.pop(seq))
    message = transcript.waiting.pop(input_seq, None)
    if message is not None and input_seq != transcript.last_input:
        transcript.sections.append(message)
    transcript.last_input = input_seq
    transcript.answering = None


def _section(transcript: _Transcript, at: datetime | None) -> _Section:
    """The running turn's "Assistant" section (started on its first line)."""
    if transcript.answering is None:
        heading = f"### Assistant · {format_clock(at, transcript.zone_name)}"
        transcript.answering = _Section(heading, at)
        transcript.sections.append(transcript.answering)
    return transcript.answering


def _answer(transcript: _Transcript, answer: AssistantMessage, at: datetime | None) -> None:
    text, thought = answer.text, answer.reasoning
    if thought is None:  # recorded before reasoning had a field of its own
        split = split_think(text)
        text, thought = split.answer, split.reasoning
    if not text.strip() and not answer.tool_calls and not (thought and thought.strip()):
        return
    section = _section(transcript, at)
    if thought and thought.strip():
        section.lines += ([""] if section.lines else []) + _thinking(thought, answer.reasoning_ms)
    if text.strip():
        section.lines += ([""] if section.lines else []) + [text.strip("\n")]
    for call in answer.tool_calls:
        summary = tool_summary(call.name, call.arguments, None, transcript.zone_name)
        if section.lines and not section.lines[-1].startswith("- 🛠"):
            section.lines.append("")
        section.calls[call.id] = (len(section.lines), call.name, call.arguments)
        section.lines.append(f"- 🛠 {summary}")


def _thinking(thought: str, thought_ms: int | None) -> list[str]:
    """The reasoning as a folded section: HTML ``<details>``, which Markdown readers show closed."""
    took = "" if thought_ms is None else f" ({max(1, round(thought_ms / 1000))} s)"
    body = thought.strip("\n").replace("</details>", "&lt;/details>")
    return [f"<details><summary>Thinking{took}</summary>", "", body, "", "</details>"]


def _result(transcript: _Transcript, result: ToolResult) -> None:
    """A tool result completes its call's line (its outcome, its id)."""
    for section in reversed(transcript.sections):
        call = section.calls.get(result.call_id)
        if call is None:
            continue
        position, name, arguments = call
        summary = tool_summary(
            name, arguments, result.content, transcript.zone_name, is_error=result.is_error
        )
        section.lines[position] = f"- 🛠 {summary}"
        return


def _message(message: UserMessage, at: datetime | None, zone_name: str | None) -> _Section:
    clock = format_clock(at, zone_name)
    if not message.is_reminder:
        files = [f"📎 {file.name} ({file.size} bytes)" for file in message.attachments]
        lines = [message.text.strip("\n"), *(["", *files] if files else [])]
        return _Section(f"### You · {clock}", at, lines)
    due = message.reminders or ()
    if not due:
        quoted = "> " + message.text.replace("\n", "\n> ")
        return _Section(f"### ⏰ Reminder · {clock}", at, [quoted])
    if len(due) == 1:
        item = due[0]
        heading = f"### ⏰ Reminder: {item.prompt}"
        when = f"Due {format_clock(item.occurrence_at, zone_name)}, delivered {clock}."
        return _Section(heading, at, [when])
    lines = [
        f"- ⏰ Reminder: {item.prompt} (due {format_clock(item.occurrence_at, zone_name)})"
        for item in due
    ]
    return _Section(f"### ⏰ {len(due)} reminders · delivered {clock}", at, lines)
