"""The loaded range of a transcript's rows and its streamed row. Pure: no I/O, no Qt, no clock.

``LoadedRows`` owns which part of the log is turned into rows: one contiguous range
``[loaded_from, loaded_to)`` in whole turns (``core.transcript.build``), rebuilt around a place
(the tail at open, a seq the reader goes to), grown by batches at the top (``older``) or bottom
(``newer``), and cut to about ``max_rows`` rows (``core.transcript.window``). It also owns the
streamed answer's row, which stands just above the messages waiting for a turn while the range
reaches the tail. What new entries do is ``core.transcript.appending``'s; when the shown path
changes, ``core.transcript.projection``'s.
"""

from __future__ import annotations

from core.events import ToolResult
from core.frozen import replace
from core.transcript.build import Built, Reading
from core.transcript.patch import Anchor, Patch, PatchedRows
from core.transcript.rows import TranscriptRow, is_call_row, merge_tool_result, message_seq
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


class LoadedRows(PatchedRows):
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
        self._thinking = ""
        self._thinking_ms: int | None = None
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

    def _rebuild_tail(self) -> list[Patch]:
        """The rows of the last ``INITIAL_EVENTS`` events (moved back to a turn's start)."""
        count = len(self.reading.events)
        return self._rebuild(count - INITIAL_EVENTS, count, None)

    def _rebuild_around(self, seq: int, anchor: Anchor | None) -> list[Patch]:
        """The rows of the events around ``seq``, with the tail when it is near."""
        count = len(self.reading.events)
        half = INITIAL_EVENTS // 2
        stop = min(count, seq + half)
        if count - stop < half:
            stop = count
        return self._rebuild(seq - half, stop, anchor)

    def _rebuild(self, start: int, stop: int, anchor: Anchor | None) -> list[Patch]:
        self._begin()
        reading = self.reading
        count = len(reading.events)
        reading.known_end = count
        reading.queue.catch_up(count, reading.event)
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
        streams = bool(self._stream or self._thinking)
        self._streaming = streams and not self.has_newer() and self._tail_showing
        if self._streaming:
            rows.insert(len(rows) - len(self._waiting), self._stream_row())
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
            streams = bool(self._stream or self._thinking)
            if not self.has_newer() and streams and self._tail_showing:
                self._show_stream_row()
            self._trim_top()
        return self._end()

    def _merge_result(self, result: ToolResult) -> None:
        """A tool result: its call's row (the newest with its id) shows it."""
        at = self._call_row(result.call_id)
        if at >= 0:
            self._replace(at, merge_tool_result(self.rows[at], result, self.reading.zone_name))

    def _call_row(self, call_id: str) -> int:
        """Where the row of the call ``call_id`` is (-1: not loaded)."""
        for at in range(len(self.rows) - 1, -1, -1):
            row = self.rows[at]
            if is_call_row(row) and row.call_id == call_id:
                return at
        return -1

    # -- the streamed answer -------------------------------------------------------------------
    def stream(self, text: str) -> list[Patch]:
        """The answer streamed so far (shown while the tail is loaded and its turn shown)."""
        self._begin()
        self._stream = text
        if (text or self._thinking) and not self.has_newer() and self._tail_showing:
            self._show_stream_row()
        return self._end()

    def think(self, thought: str, thinking_ms: int | None) -> list[Patch]:
        """The answer's thinking streamed so far, and how long it has been thinking (the window
        measures it): shown folded at the top of the streaming row."""
        self._thinking, self._thinking_ms = thought, thinking_ms
        return self.stream(self._stream)

    @property
    def stream_thinking(self) -> str:
        """The streamed answer's thinking so far ("" when none)."""
        return self._thinking

    def end_stream(self) -> list[Patch]:
        """The stream ended without a recorded answer taking its place: its row goes."""
        self._begin()
        self._stream, self._thinking = "", ""
        if self._streaming:
            self._streaming = False
            self._remove(self._tail() - 1, 1)
        return self._end()

    def _stream_row(self) -> TranscriptRow:
        row = TranscriptRow("streaming", self._stream, reasoning=self._thinking)
        return replace(row, reasoning_ms=self._thinking_ms)

    def _show_stream_row(self) -> None:
        row = self._stream_row()
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
