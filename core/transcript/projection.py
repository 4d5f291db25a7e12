"""TranscriptProjection: a session's transcript as rows, fed entry by entry, answering with
patches. Pure: no I/O, no Qt, no clock.

It holds the rows of one contiguous range of the log, ``[loaded_from, loaded_to)``, in whole
turns (``core.transcript.build`` turns a range into rows): a session of 10,000 messages opens with
its tail built (``open``), older history is added at the top (``older``) and newer at the bottom
(``newer``), and at most about ``max_rows`` rows are kept (loading one end unloads the other).
New entries (``append``) are shown only while the range reaches the newest entry (the tail).

Every change is returned as patches (``core.transcript.patch``) in the order they apply; a view
mirrors the rows by applying them. The answer being streamed is a row of its own (``streaming``)
right above the messages waiting for a turn; the recorded ``assistant/message`` replaces it in
place (a ``Replace``, so a view keeps the row's identity), and the turn's end drops what is left
of it. The waiting messages are marked ``queued`` while a turn runs and unmarked when it ends
(a choice where the spec is silent: "sent when the answer above is done" is true only then).

The shown path (agent.md §7): the rows are those of the conversation the app hands in
(``core.transcript.path``): inputs off the path make no row, a hidden exchange is one ``hidden``
row at its input's place. An entry that changes which events are shown (``restructures``)
rebuilds the loaded range instead (``rebuild_tail`` / ``rebuild_around``, whose ``Rebuild`` patch
carries the reader's anchor).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
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
from core.transcript.build import Built, Reading
from core.transcript.patch import Anchor, Patch, PatchedRows
from core.transcript.path import EVERYTHING, PathView, ShownConversation, switched
from core.transcript.rows import TranscriptRow, merge_tool_result, message_seq
from core.transcript.usage import TurnUsage
from core.transcript.window import bottom_cut, running_start, top_cut

INITIAL_EVENTS = 200
"""Events turned into rows when a session opens (its tail)."""
FETCH_EVENTS = 20
"""Events added per ``older``/``newer`` step (moved to the edge of the turn they fall in)."""
MIN_ROWS = 40
"""Rows a load reaches for: when the loaded events are mostly off the shown path (the tail after
an early message was edited), loading goes further back, so the view has rows to scroll."""
OLDER_SCAN = 4000
"""Events one load reads at most going back for rows (a long stretch off the shown path)."""
MAX_ROWS = 500
"""Rows kept loaded: past this, loading one end unloads the other (bench/ui_bench.py)."""


class TranscriptProjection(PatchedRows):
    """The loaded rows of one session's transcript (see the module docstring)."""

    def __init__(self, *, max_rows: int = MAX_ROWS) -> None:
        super().__init__()
        self.max_rows = max_rows
        self.reading = Reading()
        self.loaded_from = 0
        self.loaded_to = 0
        self._waiting: list[int] = []
        """Seqs of the messages shown as the last rows, waiting for a turn."""
        self._tail_showing = True
        """The newest turn's events are shown (its input is on the path, it is the answer)."""
        self._tail_usage = TurnUsage()
        self._stream = ""
        self._streaming = False
        """A streaming row is shown (just above the waiting rows)."""

    # -- reading -----------------------------------------------------------------------------
    @property
    def zone_name(self) -> str | None:
        return self.reading.zone_name

    @property
    def stream_text(self) -> str:
        """The streamed answer's text so far ("" when none streams)."""
        return self._stream

    def has_older(self) -> bool:
        """True while history older than the first row is not loaded."""
        return self.loaded_from > 0

    def has_newer(self) -> bool:
        """True while entries newer than the last row are not loaded (measured against the
        entries announced so far: a group append makes several visible before the first one is
        announced)."""
        return self.loaded_to < self.reading.known_end

    def row_of_message(self, seq: int) -> int:
        """The row showing the user or assistant message at ``seq`` (-1 when it is not loaded)."""
        return next((at for at, row in enumerate(self.rows) if message_seq(row) == seq), -1)

    # -- opening and rebuilding --------------------------------------------------------------
    def open(
        self,
        events: Sequence[Entry],
        zone_name: str | None,
        *,
        conversation: ShownConversation | None = None,
        keep_stream: bool = False,
    ) -> list[Patch]:
        """Show a session: rows for the tail of ``events``, of the shown path of
        ``conversation`` (None: the one shown so far, or for a new session every event).
        ``keep_stream``: the same session again, whose answer may still be streaming."""
        if conversation is not None:
            self.reading.path = PathView(conversation)
        elif not keep_stream:
            self.reading.path = PathView(EVERYTHING)
        if not keep_stream:
            self._stream = ""
        count = len(events)
        return self._rebuild(events, zone_name, count - INITIAL_EVENTS, count, None)

    def rebuild_tail(self) -> list[Patch]:
        """Rebuild the rows of the tail (the shown path changed at its end: a new version)."""
        return self.open(self.reading.events, self.reading.zone_name, keep_stream=True)

    def rebuild_around(self, seq: int, anchor: Anchor | None = None) -> list[Patch]:
        """Rebuild the rows of the events around ``seq`` (the shown path changed there, or the
        reader goes there); the tail is included when it is near. ``anchor`` rides in the
        patch: where the reader's eye stays."""
        count = len(self.reading.events)
        half = INITIAL_EVENTS // 2
        stop = min(count, seq + half)
        if count - stop < half:
            stop = count
        return self._rebuild(self.reading.events, self.reading.zone_name, seq - half, stop, anchor)

    def restructure(
        self, entry: Entry, conversation: ShownConversation, *, reader: int, following: bool
    ) -> list[Patch]:
        """``entry`` changed which events are shown (``restructures``): the loaded rows are
        rebuilt, and the patch says where the reader's eye stays. A hidden or shown exchange
        keeps its own row in place, a version switch puts the new version where the old one was
        (``switched``); otherwise the reader at the end follows the new version or answer there,
        and one reading older history (``reader``: the seq at the top of their screen) stays
        where they are."""
        before = self.reading.path.conversation
        self.set_conversation(conversation)
        match entry.event:
            case ExchangeHidden(input=input_seq):
                return self.rebuild_around(input_seq, Anchor(input_seq, input_seq))
            case PathSelected():
                shown, then = switched(before, conversation)
                return self.rebuild_around(then if then >= 0 else reader, Anchor(shown, then))
            case _ if following:
                return self.rebuild_tail()
            case _:
                return self.rebuild_around(reader, Anchor(-1))

    def set_conversation(self, conversation: ShownConversation) -> None:
        """The conversation changed without changing the rows shown so far (a new input, a new
        turn): later rows follow it."""
        self.reading.path = PathView(conversation)

    def set_show_context(self, show: bool) -> list[Patch]:
        """Include the time-context readings as rows (rebuilds the loaded rows)."""
        if show == self.reading.show_context:
            return []
        self.reading.show_context = show
        self._begin()
        self._fill(self.reading.build(self.loaded_from, self.loaded_to), None)
        return self._end()

    def _rebuild(
        self,
        events: Sequence[Entry],
        zone_name: str | None,
        start: int,
        stop: int,
        anchor: Anchor | None,
    ) -> list[Patch]:
        self._begin()
        reading = self.reading
        reading.events, reading.zone_name = events, zone_name
        count = len(events)
        reading.known_end = count
        reading.tail_input, reading.turn_open = reading.last_turn(count)
        self._tail_showing, self._tail_usage = reading.tail_state(count)
        self.loaded_from = reading.turn_start(max(0, start))
        self.loaded_to = count if stop >= count else reading.turn_end(max(stop, self.loaded_from))
        built = reading.build(self.loaded_from, self.loaded_to)
        if len(built.rows) < MIN_ROWS:
            older = self._older_rows(INITIAL_EVENTS, MIN_ROWS - len(built.rows))
            built = Built(older + built.rows, built.waiting)
        self._fill(built, anchor)
        return self._end()

    def _fill(self, built: Built, anchor: Anchor | None) -> None:
        rows = list(built.rows)
        self._waiting = built.waiting
        self._streaming = bool(self._stream) and not self.has_newer() and self._tail_showing
        if self._streaming:
            rows.insert(len(rows) - len(self._waiting), TranscriptRow("streaming", self._stream))
        self._rebuild_rows(rows, anchor)

    # -- loading more ------------------------------------------------------------------------
    def older(self) -> list[Patch]:
        """Rows of older history at the top (and the newest ones unloaded past the cap)."""
        self._begin()
        rows = self._older_rows(FETCH_EVENTS, 1)
        if rows:
            self._insert(0, rows)
            self._trim_bottom()
        return self._end()

    def _older_rows(self, batch: int, wanted: int) -> list[TranscriptRow]:
        """The rows of the events before the loaded ones, going back ``batch`` events at a time
        (to a turn's start) until there are ``wanted`` rows or ``OLDER_SCAN`` events were read;
        moves ``loaded_from`` back."""
        rows: list[TranscriptRow] = []
        floor = max(0, self.loaded_from - OLDER_SCAN)
        while len(rows) < wanted and self.loaded_from > floor:
            start = self.reading.turn_start(max(floor, self.loaded_from - batch))
            built = self.reading.build(start, self.loaded_from)
            rows = built.rows + rows
            self.loaded_from = start
        return rows

    def newer(self) -> list[Patch]:
        """The next turns below the last row (and the oldest rows unloaded past the cap)."""
        self._begin()
        if self.has_newer():
            reading = self.reading
            stop = reading.turn_end(min(reading.known_end, self.loaded_to + FETCH_EVENTS))
            built = reading.build(self.loaded_to, stop)
            self.loaded_to = stop
            for result in built.results:
                self._merge_result(result)
            if built.rows:
                self._insert(len(self.rows), built.rows)
            self._waiting = built.waiting
            if not self.has_newer() and self._stream and self._tail_showing:
                self._show_stream_row()
            self._trim_top()
        return self._end()

    # -- new entries ---------------------------------------------------------------------------
    def append(self, entry: Entry) -> list[Patch]:
        """One new entry (a tool result updates its call's row instead of adding one); nothing
        while the loaded range does not reach the tail."""
        self._begin()
        seq = entry.seq
        reading = self.reading
        reading.known_end = max(reading.known_end, seq + 1)
        self._track_turn(entry)
        if seq == self.loaded_to:
            self.loaded_to = seq + 1
            self._show(entry)
        return self._end()

    def _show(self, entry: Entry) -> None:
        reading = self.reading
        match entry.event:
            case ToolResult() as result:
                if self._tail_showing:
                    self._merge_result(result)
            case UserMessage():
                self._add_waiting(entry)
            case TurnStart(input=input_seq):
                if reading.path.shows_turn(input_seq, entry.seq):
                    self._take_input(input_seq, entry.seq)
                self._requeue()
            case TurnEnd():
                self._add_answer([])  # a stream does not outlive its turn
                if self._tail_showing:
                    self._add_rows(reading.in_turn(entry, reading.tail_input))
                self._requeue()
            case AssistantMessage() as answer:
                shown = self._tail_showing
                rows = reading.answer_rows(entry, answer, reading.tail_input, self._tail_usage)
                self._add_answer(rows if shown else [])
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
                if self._tail_showing:  # a time reading's row (the others make none)
                    self._add_rows(reading.in_turn(entry, reading.tail_input))
            case unexpected:
                assert_never(unexpected)

    def _track_turn(self, entry: Entry) -> None:
        """The newest turn's state follows every announced entry, shown or not."""
        reading = self.reading
        match entry.event:
            case TurnStart(input=input_seq):
                reading.turn_open, reading.tail_input = True, input_seq
                self._tail_showing = reading.path.turn_shown(input_seq, entry.seq)
                self._tail_usage = TurnUsage()
            case TurnEnd():
                reading.turn_open = False
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
        self._stream = ""
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

    def _merge_result(self, result: ToolResult) -> None:
        for at in range(len(self.rows) - 1, -1, -1):
            row = self.rows[at]
            if row.kind == "tool" and row.call_id == result.call_id:
                self._replace(at, merge_tool_result(row, result, self.reading.zone_name))
                return

    # -- the streamed answer -------------------------------------------------------------------
    def stream(self, text: str) -> list[Patch]:
        """The answer streamed so far (shown while the tail is loaded and its turn shown)."""
        self._begin()
        self._stream = text
        if text and not self.has_newer() and self._tail_showing:
            self._show_stream_row()
        return self._end()

    def end_stream(self) -> list[Patch]:
        """The stream ended without a recorded answer taking its place: its row goes."""
        self._begin()
        self._stream = ""
        if self._streaming:
            self._streaming = False
            self._remove(self._tail() - 1, 1)
        return self._end()

    def _show_stream_row(self) -> None:
        row = TranscriptRow("streaming", self._stream)
        if self._streaming:
            self._replace(self._tail() - 1, row)
            return
        self._insert(self._tail(), [row])
        self._streaming = True

    # -- the cap -------------------------------------------------------------------------------
    def _trim_bottom(self) -> None:
        """Unload the newest rows past the cap."""
        end = self._tail() - (1 if self._streaming else 0)
        running = running_start(self.rows, end, self.reading.turn_open)
        cut = bottom_cut(self.rows, self.max_rows, running)
        if cut is not None:
            first_unloaded = self.rows[cut].seq
            self._remove(cut, len(self.rows) - cut)
            self._waiting = []
            self._streaming = False
            self.loaded_to = first_unloaded

    def _trim_top(self) -> None:
        """Unload the oldest rows past the cap."""
        cut = top_cut(self.rows, self.max_rows, self._tail())
        if cut is not None:
            self._remove(0, cut)
            self.loaded_from = self.rows[0].seq

    def _tail(self) -> int:
        """Where rows of the running turn go: above the waiting messages."""
        return len(self.rows) - len(self._waiting)
