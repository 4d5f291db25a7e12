"""The rows of a range of the log, in the order they are shown. Pure: no I/O, no Qt.

``Reading`` is what the projection knows of the session (its entries, the shown path, the zone,
the newest turn) and turns ``[start, stop)`` of the log into rows: a message stands where the
turn that answers it starts (its ``turn/start``), so an answer is always directly under its
question; a retry shows the message once; messages no turn has taken yet are the last rows
(``Built.waiting``), and one no turn ever took (a crash between the two) stands where it is.
Which messages a turn took, and the newest turn, are read from the queue fold
(``core.transcript.queue``: the session's, continued with the entries fed since); bounded scans
only move a batch's edges to a turn's start or end.
"""

from __future__ import annotations

from collections.abc import Sequence
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
from core.frozen import replace
from core.transcript.path import EVERYTHING, PathView
from core.transcript.queue import TurnQueue
from core.transcript.rows import (
    TranscriptRow,
    close_tool,
    hidden_row,
    is_call_row,
    mark_set,
    merge_tool_result,
    row_for_event,
    start_tool,
)
from core.transcript.usage import TurnUsage
from core.transcript.verbs import is_cut, verbs_of

MAX_TURN_SCAN = 4000
"""How far a batch edge may move to reach a turn's start or end."""


class Built:
    """Rows built for a range of events; when the range reaches the tail, the seqs of the
    messages that wait for a turn (their rows are the last ones); results whose call row was
    built before the range (a batch that begins mid-turn). A plain slotted class: a dataclass
    costs a start more to define (``core.frozen``)."""

    __slots__ = ("results", "rows", "waiting")

    def __init__(
        self,
        rows: list[TranscriptRow],
        waiting: list[int] | None = None,
        results: list[ToolResult] | None = None,
    ) -> None:
        self.rows = rows
        self.waiting: list[int] = [] if waiting is None else waiting
        self.results: list[ToolResult] = [] if results is None else results


class Reading:
    """The session as the transcript reads it (see the module docstring): ``events``, the
    ``zone_name``, the shown ``path``, ``show_context``, ``known_end`` and ``queue``, which
    messages a turn took and the newest turn, as of ``known_end``. Changed in place by the
    projection."""

    __slots__ = ("events", "known_end", "path", "queue", "show_context", "zone_name")

    def __init__(self) -> None:
        self.events: Sequence[Entry] = ()
        self.zone_name: str | None = None
        self.path = PathView(EVERYTHING)
        self.show_context = False
        self.known_end = 0
        self.queue = TurnQueue()

    @property
    def tail_input(self) -> int:
        """The input of the newest ``turn/start`` (-1: none): later messages wait."""
        return self.queue.newest[0]

    @property
    def turn_open(self) -> bool:
        """The newest turn has not ended."""
        return self.queue.open

    def event(self, index: int) -> Entry:
        """``events[index]``, or a stand-in that makes no row for a line that does not decode: a
        warm open shows a session before its checkpoint is verified, so a corrupt covered line
        can be read here; the session then turns read-only and its banner names the line."""
        try:
            return self.events[index]
        except ValueError:  # not an event line (JSON, UTF-8 or the envelope)
            return Entry(index, "", UnknownEvent("unreadable", None))

    # -- bounded scans -----------------------------------------------------------------------
    def turn_start(self, start: int) -> int:
        """``start`` moved back to the ``turn/start`` of the turn it falls in."""
        floor = max(0, start - MAX_TURN_SCAN)
        index = start
        while index > floor:
            if isinstance(self.event(index).event, TurnStart):
                return index
            index -= 1
        return index

    def turn_end(self, stop: int) -> int:
        """``stop`` moved forward to the start of the next turn."""
        ceiling = min(self.known_end, stop + MAX_TURN_SCAN)
        index = stop
        while index < ceiling and not isinstance(self.event(index).event, TurnStart):
            index += 1
        return index

    def tail_state(self, count: int) -> tuple[bool, TurnUsage]:
        """Whether the newest turn's events are shown, and what its steps cost so far (read
        from its ``turn/start`` on)."""
        input_seq, start = self.queue.newest
        if start < 0:
            return True, TurnUsage()
        usage = TurnUsage()
        for index in range(start + 1, count):
            event = self.event(index).event
            if isinstance(event, AssistantMessage):
                usage = usage.plus(event)
        return self.path.turn_shown(input_seq, start), usage

    def turn_before(self, start: int) -> tuple[int, bool]:
        """(the input of the turn open at ``start``, whether its events are shown); (-1, True)
        when ``start`` is between turns (or no ``turn/start`` is within the scan)."""
        for index in range(start - 1, max(-1, start - 1 - MAX_TURN_SCAN), -1):
            match self.event(index).event:
                case TurnStart(input=input_seq):
                    return input_seq, self.path.turn_shown(input_seq, index)
                case TurnEnd():
                    return -1, True
                case _:
                    pass
        return -1, True

    # -- rows --------------------------------------------------------------------------------
    def message_row(self, entry: Entry, *, queued: bool = False) -> TranscriptRow | None:
        """The row of an input: its message (with its versions), a ``hidden`` row, or None when
        it is off the shown path (or not a message)."""
        event = entry.event
        if not isinstance(event, UserMessage):
            return None
        state = self.path.input_state(entry.seq)
        if state == "off":
            return None
        if state == "hidden":
            return replace(hidden_row(entry, event), verbs=verbs_of("hidden"))
        rows = row_for_event(entry, self.zone_name)
        version = self.path.version(entry.seq)
        verbs = verbs_of(rows[0].kind, version=version)
        return replace(rows[0], queued=queued, input=entry.seq, version=version, verbs=verbs)

    def in_turn(self, entry: Entry, input_seq: int) -> list[TranscriptRow]:
        """The visible rows of an event of the turn answering ``input_seq``."""
        rows = row_for_event(entry, self.zone_name)
        if not self.show_context:
            rows = [row for row in rows if row.kind != "context"]
        typed = self._typed(input_seq)
        return [
            replace(row, input=input_seq, typed=typed, verbs=verbs_of(row.kind, typed=typed))
            for row in rows
        ]

    def _typed(self, input_seq: int) -> bool:
        """False for a reminder's turn (its input is no typed message)."""
        if not 0 <= input_seq < len(self.events):
            return True
        event = self.event(input_seq).event
        return not isinstance(event, UserMessage) or not event.is_reminder

    def answer_rows(
        self, entry: Entry, answer: AssistantMessage, input_seq: int, usage: TurnUsage
    ) -> list[TranscriptRow]:
        """An answer step's rows; the step that ends its turn carries the turn's usage."""
        rows = self.in_turn(entry, input_seq)
        ends_turn = usage.reported and answer.finish != "tool_calls"
        if ends_turn and rows and rows[0].kind == "assistant":
            rows[0] = replace(rows[0], usage=usage)
        first = rows[0] if rows else None
        calls = len(answer.tool_calls)
        if first and first.kind == "assistant" and is_cut(answer.finish, first.text, calls):
            rows[0] = replace(first, verbs=verbs_of("assistant", cut=True))
        return rows

    def build(self, start: int, stop: int) -> Built:
        """The rows of events ``[start, stop)`` of the shown path, in the order they are shown."""
        return _RangeBuild(self, start).run(stop)


UNSET_SCAN = 40
"""How many rows back a created reminder looks for the ``unset`` row it answers."""


def mark_unset(rows: list[TranscriptRow], change: ScheduleChanged) -> int:
    """The newest ``unset`` row (within ``UNSET_SCAN`` rows) whose reminder ``change`` created,
    marked set in ``rows``; returns its index (-1: none)."""
    for at in range(len(rows) - 1, max(-1, len(rows) - 1 - UNSET_SCAN), -1):
        marked = mark_set(rows[at], change)
        if marked is not None:
            rows[at] = marked
            return at
    return -1


class _RangeBuild:
    """One pass of ``Reading.build`` over a range (its rows, held messages, open turn)."""

    def __init__(self, reading: Reading, start: int) -> None:
        self.reading = reading
        self.built = Built([])
        self.held: dict[int, TranscriptRow] = {}
        self.calls: dict[str, int] = {}
        self.turn_calls: list[int] = []
        """Where the running turn's call rows are (closed when it ends)."""
        self.turn_input, self.showing = reading.turn_before(start)
        self.usage = TurnUsage()
        self.start = start

    def run(self, stop: int) -> Built:
        reading = self.reading
        for seq in range(self.start, stop):
            self.read(seq, reading.event(seq))
        if stop >= reading.known_end:
            self.add_waiting(stop)
        return self.built

    def read(self, seq: int, entry: Entry) -> None:
        """The entry at index ``seq`` (a turn stands at its index, whatever its envelope says:
        a log found corrupt lists what it has)."""
        reading = self.reading
        match entry.event:
            case ToolResult() | ToolStart() as step:
                if self.showing:
                    self.merge(step)
            case UserMessage():
                self.place_message(entry)
            case TurnStart(input=input_seq):
                self.turn_calls = []
                self.turn_input, self.usage = input_seq, TurnUsage()
                self.showing = reading.path.turn_shown(input_seq, seq)
                if reading.path.shows_turn(input_seq, seq):
                    self.place_input(input_seq, seq)
            case AssistantMessage() as answer:
                self.usage = self.usage.plus(answer)
                if self.showing:
                    self.add(reading.answer_rows(entry, answer, self.turn_input, self.usage))
            case TurnEnd():
                if self.showing:
                    self.close_calls()
                    self.add(reading.in_turn(entry, self.turn_input))
                self.turn_input, self.showing = -1, True
            case (
                ContextTime()
                | SessionTitle()
                | ScheduleChanged()
                | ExchangeHidden()
                | PathSelected()
                | SessionModel()
                | SessionInstructions()
                | SessionTools()
                | UnknownEvent()
                | MalformedEvent()
            ):
                self.other(entry)
            case unexpected:
                assert_never(unexpected)

    def other(self, entry: Entry) -> None:
        """An entry that makes no row of its own but a time reading's; a created reminder marks
        the safety net's line that offered it."""
        if isinstance(entry.event, ScheduleChanged):
            mark_unset(self.built.rows, entry.event)
        elif self.showing:
            self.add(self.reading.in_turn(entry, self.turn_input))

    def add(self, new: list[TranscriptRow]) -> None:
        rows = self.built.rows
        for row in new:
            if is_call_row(row):
                self.calls[row.call_id] = len(rows)
                self.turn_calls.append(len(rows))
            rows.append(row)

    def close_calls(self) -> None:
        """The turn ended: its calls still waiting or running are closed (``close_tool``)."""
        rows = self.built.rows
        for position in self.turn_calls:
            rows[position] = close_tool(rows[position])
        self.turn_calls = []

    def merge(self, step: ToolResult | ToolStart) -> None:
        """A call's ``tool/start`` or result updates its row."""
        position = self.calls.get(step.call_id)
        rows = self.built.rows
        match step:
            case ToolStart():
                if position is not None:  # (a turn is built whole: its call row is here)
                    rows[position] = start_tool(rows[position])
            case ToolResult() if position is None:  # its call was built before this range
                self.built.results.append(step)
            case ToolResult():
                rows[position] = merge_tool_result(rows[position], step, self.reading.zone_name)

    def place_message(self, entry: Entry) -> None:
        """A message stands at the start of the turn that answers it; a message no turn took
        yet is added by ``add_waiting`` (after the newest turn's input) or stands where it is
        (before it: a log written by a crash between the two)."""
        row = self.reading.message_row(entry)
        if row is None:
            return
        if self.reading.queue.is_taken(entry.seq):
            self.held[entry.seq] = row
        elif entry.seq <= self.reading.tail_input:
            self.built.rows.append(row)

    def place_input(self, input_seq: int, seq: int) -> None:
        """The turn at ``seq`` is the answer of ``input_seq``: its message (or hidden row)
        stands here."""
        row = self.held.pop(input_seq, None)
        if row is None and 0 <= input_seq < seq:
            row = self.reading.message_row(self.reading.event(input_seq))
        if row is not None:
            self.built.rows.append(replace(row, seq=seq))

    def add_waiting(self, stop: int) -> None:
        """The rows of the messages that wait for a turn, and their seqs."""
        reading = self.reading
        for seq in reading.queue.waiting(reading.tail_input, stop):
            entry = reading.event(seq)
            row = reading.message_row(entry, queued=reading.turn_open)
            if row is not None:
                self.built.rows.append(row)
                self.built.waiting.append(seq)
