"""TranscriptModel: a session's events as list rows with custom roles. No I/O, no awaits.

New events add rows at the end; older history is loaded lazily at the top through Qt's
``canFetchMore``/``fetchMore`` protocol, so a session of 10,000 messages opens with only its last
turns built. Qt's views call ``fetchMore`` whenever the *last* row is visible (always true in a
chat that follows the bottom), so fetching is gated: the view calls ``want_older()`` when the user
reaches the top, and only then does ``canFetchMore`` answer True.

At most about ``MAX_ROWS`` rows are loaded: the loaded events are one contiguous range
``[loaded_from, loaded_to)`` that slides up (``fetchMore``) or down (``fetch_newer``) in whole
turns. New events are shown only while the range reaches the newest event (the tail); otherwise
they wait until the user scrolls back down (or ``load_tail``).

The order rows are shown in (choices where the spec is silent):
- A message is shown where the turn that answers it starts (its ``turn/start``), so an answer is
  always directly under its question. A message typed while another answer runs is appended to the
  log at once (agent.md §1), but shown *after* that answer, marked ``queued`` until its own turn
  starts. A retry (a new turn on the same input) shows the message once.
- Messages no turn has taken yet (every ``user/message`` after the input of the last
  ``turn/start``: the queue is first in, first out) are the last rows; a message no turn ever
  took (a log written by a crash between the two) is shown where it is in the log.
- The answer being streamed is a row of its own (``streaming``) right above the queued messages,
  updated in place at most once per ``STREAM_FRAME_MS`` however fast the pieces arrive; the
  recorded ``assistant/message`` replaces it in the same place.

Rows have ids (``uid_at``) that stay the same while the rows around them load, unload or move,
so a text selection, an expanded tool call or a scrolled code box stays with its row.

The shown path (agent.md §7): the rows are those of ``core.session.conversation.shown`` for the
conversation the app hands in (``ui.shown_path``): inputs off the path (other versions) and the
turns that are not their input's answer (a failed turn that was retried) make no row; a hidden
exchange is one ``hidden`` row at its input's place. Each loaded event is checked on its own
(``seq in path`` costs O(runs)), so loading stays windowed. An event that changes which events are
shown (``path/select``, ``exchange/hide``, a new version of an input, a turn that re-runs an
input) rebuilds the loaded window instead of adding rows: ``restructures`` tells the view, which
calls ``reload_tail`` (the new version or answer is at the end: follow it) or ``reload_around``
(keep the reader where they were).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)

from core.events import (
    AssistantMessage,
    Entry,
    ToolResult,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from ui.shown_path import EVERYTHING, PathView, ShownConversation, restructures
from ui.transcript_rows import (
    TranscriptRow,
    TurnUsage,
    hidden_row,
    merge_tool_result,
    reminder_caption,
    reminder_text,
    row_for_event,
)

Index = QModelIndex | QPersistentModelIndex

INITIAL_EVENTS = 200
"""Events turned into rows when a session opens (its tail)."""
FETCH_EVENTS = 20
"""Events added per ``fetchMore`` (moved back to the start of the turn they fall in)."""
MAX_TURN_SCAN = 4000
"""How far a batch edge may move to reach a turn's start, and how far a message's turn is looked
for."""
MIN_ROWS = 40
"""Rows a load reaches for: when the loaded events are mostly off the shown path (the tail after
an early message was edited), loading goes further back, so the view has rows to scroll."""
OLDER_SCAN = 4000
"""Events one load reads at most going back for rows (a long stretch off the shown path)."""
MAX_ROWS = 500
"""Rows kept loaded: past this, loading older history unloads the newest rows (and the other way
round), so a re-layout never walks 10,000 rows in Python (bench/ui_bench.py)."""
STREAM_FRAME_MS = 30
"""The streamed answer's row is updated at most this often (pieces arriving faster are joined)."""

MESSAGE_ROWS = ("user", "reminder", "hidden")
"""Rows that stand at the start of an exchange."""

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 4
EXPANDED_ROLE = Qt.ItemDataRole.UserRole + 5
SEQ_ROLE = Qt.ItemDataRole.UserRole + 6
CAPTION_ROLE = Qt.ItemDataRole.UserRole + 7
QUEUED_ROLE = Qt.ItemDataRole.UserRole + 8


@dataclass(frozen=True, slots=True)
class _Built:
    """Rows built for a range of events, and, when the range reaches the tail, the messages that
    wait for a turn (their rows are the last ones)."""

    rows: list[TranscriptRow]
    waiting: list[int]


class TranscriptModel(QAbstractListModel):
    """The rows of one session's transcript.

    Feed it with ``reset(entries, zone_name)`` (the session's entry sequence, possibly lazy), then
    ``append_event(entry)`` for every new entry and ``append_stream(piece)`` / ``end_stream()``
    for the answer being streamed.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[TranscriptRow] = []
        self._uids: list[int] = []
        self._next_uid = 0
        self._expanded: set[int] = set()
        self._calls: dict[str, int] = {}
        self._events: Sequence[Entry] = ()
        self._loaded_from = 0
        self._loaded_to = 0
        self._known_end = 0
        self._zone_name: str | None = None
        self._older_wanted = False
        self._show_context = False
        self._waiting: list[int] = []
        """Seqs of the messages shown as the last rows, waiting for a turn."""
        self._tail_input = -1
        """The input of the newest ``turn/start`` (-1: none): later messages wait."""
        self._turn_open = False
        self._path = PathView(EVERYTHING)
        self._tail_showing = True
        """The newest turn's events are shown (its input is on the path, it is the answer)."""
        self._tail_usage = TurnUsage()
        self._streaming = False
        """A streaming row is shown (just above the waiting rows)."""
        self._stream_pieces: list[str] = []
        self._stream_timer = QTimer(self)
        self._stream_timer.setSingleShot(True)
        self._stream_timer.setInterval(STREAM_FRAME_MS)
        self._stream_timer.timeout.connect(self._flush_stream)

    # -- Qt model interface ------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return plain_text(row)
        values = {
            KIND_ROLE: row.kind,
            TITLE_ROLE: row.title,
            DETAIL_ROLE: row.detail,
            EXPANDED_ROLE: self._uids[index.row()] in self._expanded,
            SEQ_ROLE: row.seq,
            QUEUED_ROLE: row.queued,
        }
        if role == CAPTION_ROLE:
            return self.caption(row)
        return values.get(role)

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        for role, name in (
            (KIND_ROLE, b"kind"),
            (TITLE_ROLE, b"title"),
            (DETAIL_ROLE, b"detail"),
            (EXPANDED_ROLE, b"expanded"),
            (SEQ_ROLE, b"seq"),
            (CAPTION_ROLE, b"caption"),
            (QUEUED_ROLE, b"queued"),
        ):
            names[role] = QByteArray(name)
        return names

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._older_wanted and self._loaded_from > 0

    def fetchMore(self, parent: Index) -> None:
        if not self.canFetchMore(parent):
            return
        self._older_wanted = False
        rows = self._older_rows(FETCH_EVENTS, 1)
        if not rows:
            return
        self._insert(0, rows)
        self._trim_bottom()

    def _older_rows(self, batch: int, wanted: int) -> list[TranscriptRow]:
        """The rows of the events before the loaded ones, going back ``batch`` events at a time
        (to a turn's start) until there are ``wanted`` rows or ``OLDER_SCAN`` events were read
        (events off the shown path make no row); moves ``_loaded_from`` back."""
        rows: list[TranscriptRow] = []
        floor = max(0, self._loaded_from - OLDER_SCAN)
        while len(rows) < wanted and self._loaded_from > floor:
            start = self._turn_start(max(floor, self._loaded_from - batch))
            rows = self._build(start, self._loaded_from).rows + rows
            self._loaded_from = start
        return rows

    def has_newer(self) -> bool:
        """True while events newer than the last row are not loaded (the user scrolled far up).

        Measured against the events announced so far (``append_event``), not ``len(events)``: a
        group append makes several events visible before the first one is announced."""
        return self._loaded_to < self._known_end

    def fetch_newer(self) -> None:
        """Load the next turns below the last row (and unload the oldest rows past the cap)."""
        if not self.has_newer():
            return
        stop = self._turn_end(min(self._known_end, self._loaded_to + FETCH_EVENTS))
        built = self._build(self._loaded_to, stop)
        self._loaded_to = stop
        if built.rows:
            self._insert(len(self._rows), built.rows)
        self._waiting = built.waiting
        if not self.has_newer() and self._stream_pieces and self._tail_showing:
            self._show_stream_row()
        self._trim_top()

    def load_tail(self) -> None:
        """Show the newest turns again (after the user had scrolled far up)."""
        self.reset(self._events, self._zone_name, keep_stream=True)

    # -- feeding -----------------------------------------------------------------------------
    def reset(
        self,
        events: Sequence[Entry],
        zone_name: str | None,
        *,
        keep_stream: bool = False,
        conversation: ShownConversation | None = None,
    ) -> None:
        """Show a new session: rows for the tail of ``events`` (older ones load on demand), of
        the shown path of ``conversation`` (None: the one shown so far; a new session without
        one shows every event). ``keep_stream``: the same session again, whose answer may still
        be streaming."""
        if conversation is not None:
            self._path = PathView(conversation)
        elif not keep_stream:
            self._path = PathView(EVERYTHING)
        count = len(events)
        self._reload(events, zone_name, count - INITIAL_EVENTS, count, keep_stream=keep_stream)

    def reload_tail(self) -> None:
        """Rebuild the rows of the tail (the shown path changed at its end: a new version)."""
        self.reset(self._events, self._zone_name, keep_stream=True)

    def reload_around(self, seq: int) -> None:
        """Rebuild the rows of the events around ``seq`` (the shown path changed there: a hidden
        exchange, another version); the tail is included when it is near."""
        count = len(self._events)
        half = INITIAL_EVENTS // 2
        stop = min(count, seq + half)
        if count - stop < half:
            stop = count
        self._reload(self._events, self._zone_name, seq - half, stop, keep_stream=True)

    def _reload(
        self,
        events: Sequence[Entry],
        zone_name: str | None,
        start: int,
        stop: int,
        *,
        keep_stream: bool,
    ) -> None:
        self.beginResetModel()
        self._events = events
        self._zone_name = zone_name
        self._clear_rows()
        self._older_wanted = False
        if not keep_stream:
            self._stream_pieces = []
            self._stream_timer.stop()
        count = len(events)
        self._tail_input, self._turn_open = self._last_turn(count)
        self._tail_showing, self._tail_usage = self._tail_state(count)
        self._known_end = count
        self._loaded_from = self._turn_start(max(0, start))
        self._loaded_to = count if stop >= count else self._turn_end(max(stop, self._loaded_from))
        built = self._build(self._loaded_from, self._loaded_to)
        if len(built.rows) < MIN_ROWS:
            older = self._older_rows(INITIAL_EVENTS, MIN_ROWS - len(built.rows))
            built = _Built(older + built.rows, built.waiting)
        self._fill(built)
        self.endResetModel()

    def set_conversation(self, conversation: ShownConversation) -> None:
        """The conversation changed without changing the rows shown so far (a new input, a new
        turn): later rows follow it."""
        self._path = PathView(conversation)

    def restructures(self, entry: Entry, conversation: ShownConversation) -> bool:
        """True when ``entry`` changes which of the events already there are shown (see
        ``ui.shown_path.restructures``): the loaded rows must be rebuilt."""
        return restructures(entry, conversation)

    def set_show_context(self, show: bool) -> None:
        """Include the time-context readings as rows (rebuilds the loaded rows)."""
        if show == self._show_context:
            return
        self._show_context = show
        self.beginResetModel()
        self._clear_rows()
        self._fill(self._build(self._loaded_from, self._loaded_to))
        self.endResetModel()

    def _clear_rows(self) -> None:
        self._rows, self._uids, self._expanded, self._calls = [], [], set(), {}
        self._waiting = []
        self._streaming = False

    def _fill(self, built: _Built) -> None:
        """The rows of a reset (inside begin/endResetModel)."""
        for row in built.rows:
            self._rows.append(row)
            self._uids.append(self._register(row))
        self._waiting = built.waiting
        if self._stream_pieces and not self.has_newer() and self._tail_showing:
            at = self._tail()
            self._rows.insert(at, TranscriptRow("streaming", self._stream_text()))
            self._uids.insert(at, self._new_uid())
            self._streaming = True

    def has_older(self) -> bool:
        """True while history older than the first row has not been loaded."""
        return self._loaded_from > 0

    def want_older(self) -> None:
        """The user reached the top: let the next ``fetchMore`` load an older batch."""
        self._older_wanted = self._loaded_from > 0

    def append_event(self, entry: Entry) -> None:
        """Show one new entry (tool results update their call's row instead of adding one).

        Ignored while the loaded range does not reach the tail: it is loaded on scrolling down.
        """
        seq = entry.seq
        self._known_end = max(self._known_end, seq + 1)
        self._track_turn(entry)
        if seq != self._loaded_to:
            return
        self._loaded_to = seq + 1
        match entry.event:
            case ToolResult() as result:
                if self._tail_showing:
                    self._merge_result(result)
            case UserMessage():
                self._add_waiting(entry)
            case TurnStart(input=input_seq):
                if self._path.shows_turn(input_seq, seq):
                    self._take_input(input_seq, seq)
            case AssistantMessage() as answer if self._tail_showing:
                rows = self._answer_rows(entry, answer, self._tail_input, self._tail_usage)
                self._add_answer(rows)
            case AssistantMessage():
                self._add_answer([])
            case _ if self._tail_showing:
                self._add_rows(self._in_turn(entry, self._tail_input))
            case _:
                pass

    def _track_turn(self, entry: Entry) -> None:
        """The queue's state follows every announced event, shown or not."""
        match entry.event:
            case TurnStart(input=input_seq):
                self._turn_open = True
                self._tail_input = input_seq
                self._tail_showing = self._path.turn_shown(input_seq, entry.seq)
                self._tail_usage = TurnUsage()
            case TurnEnd():
                self._turn_open = False
            case AssistantMessage() as answer:
                self._tail_usage = self._tail_usage.plus(answer)
            case _:
                pass

    def _tail_state(self, count: int) -> tuple[bool, TurnUsage]:
        """Whether the newest turn's events are shown, and what its steps cost so far."""
        usage = TurnUsage()
        steps: list[AssistantMessage] = []
        for index in range(count - 1, max(-1, count - 1 - MAX_TURN_SCAN), -1):
            match self._event(index).event:
                case TurnStart(input=input_seq):
                    for answer in reversed(steps):
                        usage = usage.plus(answer)
                    return self._path.turn_shown(input_seq, index), usage
                case AssistantMessage() as answer:
                    steps.append(answer)
                case _:
                    pass
        return True, usage

    def _in_turn(self, entry: Entry, input_seq: int) -> list[TranscriptRow]:
        """The visible rows of an event of the turn answering ``input_seq``."""
        rows = self._visible(row_for_event(entry, self._zone_name))
        return [replace(row, input=input_seq, typed=self._typed(row, input_seq)) for row in rows]

    def _typed(self, row: TranscriptRow, input_seq: int) -> bool:
        """False for the error row of a reminder's turn (its input is no typed message)."""
        if row.kind != "error" or not 0 <= input_seq < len(self._events):
            return True
        event = self._event(input_seq).event
        return not isinstance(event, UserMessage) or not event.is_reminder

    def _answer_rows(
        self, entry: Entry, answer: AssistantMessage, input_seq: int, usage: TurnUsage
    ) -> list[TranscriptRow]:
        """An answer step's rows; the step that ends its turn carries the turn's usage."""
        rows = self._in_turn(entry, input_seq)
        if (
            usage.reported
            and answer.finish != "tool_calls"
            and rows
            and rows[0].kind == "assistant"
        ):
            rows[0] = replace(rows[0], usage=usage)
        return rows

    def _add_waiting(self, entry: Entry) -> None:
        row = self._message_row(entry, queued=self._turn_open)
        if row is None:
            return
        self._insert(len(self._rows), [row])
        self._waiting.append(entry.seq)

    def _take_input(self, input_seq: int, seq: int) -> None:
        """A turn starts on the message at ``input_seq``: it stops waiting and stands here."""
        if input_seq not in self._waiting:
            event = self._event(input_seq) if 0 <= input_seq < seq else None
            row = self._message_row(event) if event is not None else None
            if row is not None:
                self._insert(self._tail(), [replace(row, seq=seq)])
            return
        position = self._tail() + self._waiting.index(input_seq)
        first = self._tail()
        if position != first:
            self.beginMoveRows(QModelIndex(), position, position, QModelIndex(), first)
            self._rows.insert(first, self._rows.pop(position))
            self._uids.insert(first, self._uids.pop(position))
            self.endMoveRows()
        self._waiting.remove(input_seq)
        self._replace(first, replace(self._rows[first], seq=seq, queued=False))

    def _add_answer(self, rows: list[TranscriptRow]) -> None:
        """A recorded answer: it takes the streamed text's place (and ends the stream)."""
        self._stream_timer.stop()
        self._stream_pieces = []
        if self._streaming:
            self._streaming = False
            at = self._tail() - 1
            if rows and rows[0].kind == "assistant":
                self._replace(at, rows[0])
                rows = rows[1:]
            else:
                self._remove(at)
        self._add_rows(rows)

    def _add_rows(self, rows: list[TranscriptRow]) -> None:
        """Rows of the running turn: above the waiting messages."""
        if rows:
            self._insert(self._tail(), rows)

    # -- the streamed answer -----------------------------------------------------------------
    def append_stream(self, piece: str) -> None:
        """More of the answer being streamed (shown within ``STREAM_FRAME_MS``)."""
        if not piece:
            return
        self._stream_pieces.append(piece)
        if not self._stream_timer.isActive():
            self._stream_timer.start()

    @property
    def is_streaming(self) -> bool:
        """Some of an answer has arrived and is shown or about to be."""
        return self._streaming or bool(self._stream_pieces)

    def end_stream(self) -> None:
        """The stream ended without a recorded answer taking its place: drop its row."""
        self._stream_timer.stop()
        self._stream_pieces = []
        if self._streaming:
            self._streaming = False
            self._remove(self._tail() - 1)

    def flush_stream(self) -> None:
        """Show the pieces received so far at once (tests, and the end of a frame)."""
        self._stream_timer.stop()
        self._flush_stream()

    def _flush_stream(self) -> None:
        if not self._stream_pieces or self.has_newer() or not self._tail_showing:
            return
        self._show_stream_row()

    def _show_stream_row(self) -> None:
        row = TranscriptRow("streaming", self._stream_text())
        if self._streaming:
            self._replace(self._tail() - 1, row)
            return
        self._insert(self._tail(), [row])
        self._streaming = True

    def _stream_text(self) -> str:
        text = "".join(self._stream_pieces)
        self._stream_pieces = [text]
        return text

    # -- rows by id --------------------------------------------------------------------------
    def toggle_expanded(self, row: int) -> None:
        """Expand or collapse a tool or context row's details."""
        if not 0 <= row < len(self._rows):
            return
        self._expanded ^= {self._uids[row]}
        index = self.index(row)
        self.dataChanged.emit(index, index, [EXPANDED_ROLE])

    def is_expanded(self, row: int) -> bool:
        return 0 <= row < len(self._uids) and self._uids[row] in self._expanded

    def uid_at(self, row: int) -> int:
        """The id of the row at ``row`` (-1 when there is none)."""
        return self._uids[row] if 0 <= row < len(self._uids) else -1

    def row_of_uid(self, uid: int) -> int:
        """Where the row with this id is now (-1 when it is not loaded)."""
        for position in range(len(self._uids) - 1, -1, -1):
            if self._uids[position] == uid:
                return position
        return -1

    def row_of_message(self, seq: int) -> int:
        """The row showing the user or assistant message at ``seq`` (-1 when it is not loaded)."""
        for position, row in enumerate(self._rows):
            if message_seq(row) == seq:
                return position
        return -1

    def caption(self, row: TranscriptRow) -> str:
        """The reminder card's caption line (due time, late delivery)."""
        return reminder_caption(row, self._zone_name) if row.kind == "reminder" else ""

    def row_at(self, row: int) -> TranscriptRow | None:
        """The row value (delegates read rows here, never through QVariant: PySide6 6.12 loses
        references to Python objects returned from ``data()``)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def zone_name(self) -> str | None:
        return self._zone_name

    # -- changing rows -----------------------------------------------------------------------
    def _tail(self) -> int:
        """Where rows of the running turn go: above the waiting messages."""
        return len(self._rows) - len(self._waiting)

    def _new_uid(self) -> int:
        self._next_uid += 1
        return self._next_uid

    def _insert(self, at: int, rows: list[TranscriptRow]) -> None:
        self.beginInsertRows(QModelIndex(), at, at + len(rows) - 1)
        self._rows[at:at] = rows
        self._uids[at:at] = [self._register(row) for row in rows]
        self.endInsertRows()

    def _register(self, row: TranscriptRow) -> int:
        """A new id for ``row`` (a tool call's row is also found by its call id)."""
        uid = self._new_uid()
        if row.kind == "tool" and row.call_id:
            self._calls.setdefault(row.call_id, uid)
        return uid

    def _remove(self, at: int) -> None:
        self.beginRemoveRows(QModelIndex(), at, at)
        del self._rows[at]
        del self._uids[at]
        self.endRemoveRows()

    def _replace(self, at: int, row: TranscriptRow) -> None:
        self._rows[at] = row
        index = self.index(at)
        self.dataChanged.emit(index, index)

    def _merge_result(self, result: ToolResult) -> None:
        uid = self._calls.get(result.call_id)
        position = self.row_of_uid(uid) if uid is not None else -1
        if position >= 0:
            merged = merge_tool_result(self._rows[position], result, self._zone_name)
            self._replace(position, merged)

    def _trim_bottom(self) -> None:
        """Unload the newest rows past the cap (never inside the running turn's rows, which the
        tail rebuilds from its ``turn/start``)."""
        if len(self._rows) <= MAX_ROWS:
            return
        cut = min(MAX_ROWS, self._running_start())
        while 0 < cut < len(self._rows) and self._rows[cut - 1].seq == self._rows[cut].seq:
            cut -= 1
        if cut <= 0 or cut >= len(self._rows) or self._rows[cut].seq < 0:
            return
        first_unloaded = self._rows[cut].seq
        self.beginRemoveRows(QModelIndex(), cut, len(self._rows) - 1)
        del self._rows[cut:]
        del self._uids[cut:]
        self._waiting = []
        self._streaming = False
        self.endRemoveRows()
        self._loaded_to = first_unloaded

    def _running_start(self) -> int:
        """The first row of the running turn and the waiting messages (the row count when none
        wait and nothing streams)."""
        end = self._tail() - (1 if self._streaming else 0)
        if end == len(self._rows) and not self._turn_open:
            return end
        for position in range(end - 1, -1, -1):
            if self._rows[position].kind in MESSAGE_ROWS:
                return position
        return 0

    def _trim_top(self) -> None:
        excess = len(self._rows) - MAX_ROWS
        if excess <= 0:
            return
        cut = next(
            (i for i in range(excess, self._tail()) if self._rows[i].kind in MESSAGE_ROWS),
            None,
        )
        if cut is None or self._rows[cut].seq < 0:
            return
        self.beginRemoveRows(QModelIndex(), 0, cut - 1)
        del self._rows[:cut]
        del self._uids[:cut]
        self.endRemoveRows()
        self._loaded_from = self._rows[0].seq

    # -- reading the log ---------------------------------------------------------------------
    def _event(self, index: int) -> Entry:
        """``entries[index]``, or a stand-in that makes no row for a line that does not decode: a
        warm open shows a session before its checkpoint is verified, so a corrupt covered line
        can be read here; the session then turns read-only and its banner names the line."""
        try:
            return self._events[index]
        except ValueError:  # not an event line (JSON, UTF-8 or the envelope)
            return Entry(index, "", UnknownEvent("unreadable", None))

    def _turn_start(self, start: int) -> int:
        """``start`` moved back to the ``turn/start`` of the turn it falls in (bounded scan)."""
        floor = max(0, start - MAX_TURN_SCAN)
        index = start
        while index > floor:
            if isinstance(self._event(index).event, TurnStart):
                return index
            index -= 1
        return index

    def _turn_end(self, stop: int) -> int:
        """``stop`` moved forward to the start of the next turn (bounded scan)."""
        ceiling = min(self._known_end, stop + MAX_TURN_SCAN)
        index = stop
        while index < ceiling and not isinstance(self._event(index).event, TurnStart):
            index += 1
        return index

    def _last_turn(self, count: int) -> tuple[int, bool]:
        """(input of the newest ``turn/start``, whether that turn is still open) (bounded scan)."""
        ended = False
        for index in range(count - 1, max(-1, count - 1 - MAX_TURN_SCAN), -1):
            match self._event(index).event:
                case TurnStart(input=input_seq):
                    return input_seq, not ended
                case TurnEnd():
                    ended = True
                case _:
                    pass
        return -1, False

    def _turn_before(self, start: int) -> tuple[int, bool]:
        """(the input of the turn open at ``start``, whether its events are shown); (-1, True)
        when ``start`` is between turns (or no ``turn/start`` is within the scan)."""
        for index in range(start - 1, max(-1, start - 1 - MAX_TURN_SCAN), -1):
            match self._event(index).event:
                case TurnStart(input=input_seq):
                    return input_seq, self._path.turn_shown(input_seq, index)
                case TurnEnd():
                    return -1, True
                case _:
                    pass
        return -1, True

    def _taken_later(self, seq: int) -> bool:
        """A ``turn/start`` after ``seq`` (within the scan) takes the message at ``seq``."""
        ceiling = min(self._known_end, seq + 1 + MAX_TURN_SCAN)
        for index in range(seq + 1, ceiling):
            event = self._event(index).event
            if isinstance(event, TurnStart) and event.input == seq:
                return True
        return False

    def _message_row(self, entry: Entry, *, queued: bool = False) -> TranscriptRow | None:
        """The row of an input: its message (with its versions), a ``hidden`` row, or None when
        it is off the shown path (or not a message)."""
        event = entry.event
        if not isinstance(event, UserMessage):
            return None
        state = self._path.input_state(entry.seq)
        if state == "off":
            return None
        if state == "hidden":
            return hidden_row(entry, event)
        rows = row_for_event(entry, self._zone_name)
        if not rows or rows[0].kind not in ("user", "reminder"):
            return None
        version = self._path.version(entry.seq)
        return replace(rows[0], queued=queued, input=entry.seq, version=version)

    def _build(self, start: int, stop: int) -> _Built:
        """The rows of events ``[start, stop)`` of the shown path, in the order they are shown."""
        rows: list[TranscriptRow] = []
        held: dict[int, TranscriptRow] = {}
        calls: dict[str, int] = {}
        turn_input, showing = self._turn_before(start)
        usage = TurnUsage()
        for seq in range(start, stop):
            entry = self._event(seq)
            match entry.event:
                case ToolResult() as result:
                    if showing:
                        self._merge_into(rows, calls, result)
                case UserMessage():
                    self._place_message(entry, rows, held)
                case TurnStart(input=input_seq):
                    turn_input, usage = input_seq, TurnUsage()
                    showing = self._path.turn_shown(input_seq, seq)
                    if self._path.shows_turn(input_seq, seq):
                        self._place_input(input_seq, seq, rows, held)
                case AssistantMessage() as answer:
                    usage = usage.plus(answer)
                    if showing:
                        self._add_built(
                            rows, calls, self._answer_rows(entry, answer, turn_input, usage)
                        )
                case TurnEnd():
                    if showing:
                        self._add_built(rows, calls, self._in_turn(entry, turn_input))
                    turn_input, showing = -1, True
                case _:
                    if showing:
                        self._add_built(rows, calls, self._in_turn(entry, turn_input))
        waiting = self._waiting_rows(rows, stop) if stop >= self._known_end else []
        return _Built(rows, waiting)

    def _add_built(
        self, rows: list[TranscriptRow], calls: dict[str, int], new: list[TranscriptRow]
    ) -> None:
        for row in new:
            if row.kind == "tool" and row.call_id:
                calls[row.call_id] = len(rows)
            rows.append(row)

    def _place_message(
        self, entry: Entry, rows: list[TranscriptRow], held: dict[int, TranscriptRow]
    ) -> None:
        """A message stands at the start of the turn that answers it; a message no turn took
        yet is added by ``_waiting_rows`` (after the newest turn's input) or stands where it is
        (before it: a log written by a crash between the two)."""
        row = self._message_row(entry)
        if row is None:
            return
        if self._taken_later(entry.seq):
            held[entry.seq] = row
        elif entry.seq <= self._tail_input:
            rows.append(row)

    def _place_input(
        self, input_seq: int, seq: int, rows: list[TranscriptRow], held: dict[int, TranscriptRow]
    ) -> None:
        """The turn at ``seq`` is the answer of ``input_seq``: its message (or hidden row)
        stands here."""
        row = held.pop(input_seq, None)
        if row is None:
            row = self._message_row(self._event(input_seq)) if 0 <= input_seq < seq else None
        if row is not None:
            rows.append(replace(row, seq=seq))

    def _waiting_rows(self, rows: list[TranscriptRow], stop: int) -> list[int]:
        """Append the rows of the messages that wait for a turn; returns their seqs."""
        floor = max(self._tail_input + 1, stop - MAX_TURN_SCAN)
        waiting = []
        for seq in range(floor, stop):
            entry = self._event(seq)
            if isinstance(entry.event, UserMessage) and not self._taken_later(seq):
                row = self._message_row(entry, queued=self._turn_open)
                if row is not None:
                    rows.append(row)
                    waiting.append(seq)
        return waiting

    def _merge_into(
        self, rows: list[TranscriptRow], calls: dict[str, int], result: ToolResult
    ) -> None:
        position = calls.get(result.call_id)
        if position is not None:
            rows[position] = merge_tool_result(rows[position], result, self._zone_name)
        elif result.call_id in self._calls:  # its call was loaded earlier (a batch began mid-turn)
            self._merge_result(result)

    def _visible(self, rows: list[TranscriptRow]) -> list[TranscriptRow]:
        if self._show_context:
            return rows
        return [row for row in rows if row.kind != "context"]


def message_seq(row: TranscriptRow) -> int:
    """The seq of the message a row shows: a user message or reminder at its input's seq, an
    answer at its own (-1 for other rows)."""
    if row.kind in ("user", "reminder"):
        return row.input
    return row.seq if row.kind == "assistant" else -1


def plain_text(row: TranscriptRow) -> str:
    """A row as plain text (the display role; copying a whole row uses its Markdown source)."""
    if row.kind == "tool":
        return row.title
    if row.kind == "reminder":
        return reminder_text(row)
    return row.text
