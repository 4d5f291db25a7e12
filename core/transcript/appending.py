"""New entries at the end of a transcript: where each one's rows go. Pure: no I/O, no Qt.

``AppendedRows`` (over ``core.transcript.loading.LoadedRows``) takes the log's new entries one by
one (``append``): every entry moves the queue fold and the newest turn's state on, and while the
loaded range reaches the tail its rows are added. A message no turn took yet is one of the last
rows (waiting; ``queued`` while a turn runs); the ``turn/start`` that takes it moves it above the
waiting ones, where the turn's rows then go; a recorded answer takes the streamed row's place (a
``Replace``); a call's ``tool/start`` and result update its row, and the turn's end closes the
calls still waiting or running.
"""

from __future__ import annotations

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
from core.transcript.build import mark_unset
from core.transcript.loading import LoadedRows
from core.transcript.patch import Patch
from core.transcript.rows import TranscriptRow, close_tool, start_tool
from core.transcript.usage import TurnUsage


class AppendedRows(LoadedRows):
    """The loaded rows, fed the log's new entries (see the module docstring)."""

    # -- new entries ---------------------------------------------------------------------------
    def append(self, entry: Entry) -> list[Patch]:
        """One new entry (a tool result updates its call's row instead of adding one); nothing
        while the loaded range does not reach the tail."""
        self._begin()
        seq = entry.seq
        reading = self.reading
        reading.known_end = max(reading.known_end, seq + 1)
        reading.queue.catch_up(seq, reading.event)
        reading.queue.feed(seq, entry.event)
        self._track_turn(entry)
        if seq == self.loaded_to:
            self.loaded_to = seq + 1
            self._show(entry)
        return self._end()

    def _show(self, entry: Entry) -> None:
        reading = self.reading
        match entry.event:
            case ToolResult() | ToolStart() as step:
                if self._tail_showing:
                    self._follow_call(step)
            case UserMessage():
                self._add_waiting(entry)
            case TurnStart(input=input_seq):
                if reading.path.shows_turn(input_seq, entry.seq):
                    self._take_input(input_seq, entry.seq)
                self._requeue()
            case TurnEnd():
                self._add_answer([])  # a stream does not outlive its turn
                if self._tail_showing:
                    self._close_calls()
                    self._add_rows(reading.in_turn(entry, reading.tail_input))
                self._requeue()
            case AssistantMessage() as answer:
                shown = self._tail_showing
                rows = reading.answer_rows(entry, answer, reading.tail_input, self._tail_usage)
                self._add_answer(rows if shown else [])
            case ScheduleChanged() as change:
                self._mark_unset(change)
            case (
                ContextTime()
                | SessionTitle()
                | ExchangeHidden()
                | PathSelected()
                | SessionModel()
                | SessionInstructions()
                | SessionTools()
                | UnknownEvent()
                | MalformedEvent()
            ):
                if self._tail_showing:  # a time reading's row (the others make none)
                    self._add_rows(reading.in_turn(entry, reading.tail_input))
            case unexpected:
                assert_never(unexpected)

    def _mark_unset(self, change: ScheduleChanged) -> None:
        """A reminder created after a model answered a reminder request in words: the ``unset``
        row that offered it says it is set."""
        rows = list(self.rows)
        at = mark_unset(rows, change)
        if at >= 0:
            self._replace(at, rows[at])

    def _follow_call(self, step: ToolResult | ToolStart) -> None:
        """A call's ``tool/start`` or result updates its row."""
        if isinstance(step, ToolResult):
            self._merge_result(step)
            return
        at = self._call_row(step.call_id)
        if at >= 0:
            self._replace(at, start_tool(self.rows[at]))

    def _close_calls(self) -> None:
        """The tail turn ended: its calls still waiting or running are closed."""
        for at in range(len(self.rows) - 1, -1, -1):
            row = self.rows[at]
            closed = close_tool(row)
            if closed is not row:
                self._replace(at, closed)

    def _track_turn(self, entry: Entry) -> None:
        """The newest turn's state follows every announced entry, shown or not."""
        reading = self.reading
        match entry.event:
            case TurnStart(input=input_seq):
                self._tail_showing = reading.path.turn_shown(input_seq, entry.seq)
                self._tail_usage = TurnUsage()
            case AssistantMessage() as answer:
                self._tail_usage = self._tail_usage.plus(answer)
            case _:
                pass

    def _add_waiting(self, entry: Entry) -> None:
        row = self.reading.message_row(entry, queued=self.reading.turn_open)
        if row is not None:
            self._insert(len(self.rows), [row])
            self._waiting.append(entry.seq)

    def _take_input(self, input_seq: int, seq: int) -> None:
        """A turn starts on the message at ``input_seq``: it stops waiting and stands here."""
        first = self._tail()
        if input_seq not in self._waiting:
            entry = self.reading.event(input_seq) if 0 <= input_seq < seq else None
            row = self.reading.message_row(entry) if entry is not None else None
            if row is not None:
                self._insert(first, [replace(row, seq=seq)])
            return
        position = first + self._waiting.index(input_seq)
        if position != first:
            self._move(position, first)
        self._waiting.remove(input_seq)
        self._replace(first, replace(self.rows[first], seq=seq, queued=False))

    def _requeue(self) -> None:
        """The waiting messages are queued while a turn runs (and no longer once it ended); a
        hidden one says nothing."""
        for at in range(self._tail(), len(self.rows)):
            queued = self.reading.turn_open and self.rows[at].kind != "hidden"
            if self.rows[at].queued != queued:
                self._replace(at, replace(self.rows[at], queued=queued))

    def _add_answer(self, rows: list[TranscriptRow]) -> None:
        """A recorded answer: it takes the streamed text's place (and ends the stream)."""
        self._stream, self._thinking = "", ""
        if self._streaming:
            self._streaming = False
            at = self._tail() - 1
            if rows and rows[0].kind == "assistant":
                self._replace(at, rows[0])
                rows = rows[1:]
            else:
                self._remove(at, 1)
        self._add_rows(rows)

    def _add_rows(self, rows: list[TranscriptRow]) -> None:
        """Rows of the running turn: above the waiting messages."""
        if rows:
            self._insert(self._tail(), rows)
