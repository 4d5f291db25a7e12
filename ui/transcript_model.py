"""TranscriptModel: a session's events as list rows with custom roles. No I/O, no awaits.

New events append rows at the end; older history is loaded lazily at the top through Qt's
``canFetchMore``/``fetchMore`` protocol, so a session of 10,000 messages opens with only its last
turns built. Qt's views call ``fetchMore`` whenever the *last* row is visible (always true in a
chat that follows the bottom), so fetching is gated: the view calls ``want_older()`` when the user
reaches the top, and only then does ``canFetchMore`` answer True.

At most about ``MAX_ROWS`` rows are loaded: the loaded events are one contiguous range
``[loaded_from, loaded_to)`` that slides up (``fetchMore``) or down (``fetch_newer``) in whole
turns. New events are shown only while the range reaches the newest event (the tail); otherwise
they wait until the user scrolls back down (or ``load_tail``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from core.events import Entry, ToolResult, TurnStart, UnknownEvent, UserMessage
from ui.transcript_rows import (
    TranscriptRow,
    merge_tool_result,
    reminder_caption,
    reminder_text,
    row_for_event,
)

Index = QModelIndex | QPersistentModelIndex

INITIAL_EVENTS = 400
"""Events turned into rows when a session opens (its tail)."""
FETCH_EVENTS = 60
"""Events added per ``fetchMore`` (moved back to the start of the turn they fall in)."""
MAX_TURN_SCAN = 4000
"""How far back a batch start may move to reach its turn's start."""
MAX_ROWS = 500
"""Rows kept loaded: past this, loading older history unloads the newest rows (and the other way
round), so a re-layout never walks 10,000 rows in Python (bench/ui_bench.py)."""
TURN_OPENERS = (TurnStart, UserMessage)

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 4
EXPANDED_ROLE = Qt.ItemDataRole.UserRole + 5
SEQ_ROLE = Qt.ItemDataRole.UserRole + 6
CAPTION_ROLE = Qt.ItemDataRole.UserRole + 7


class TranscriptModel(QAbstractListModel):
    """The rows of one session's transcript.

    Feed it with ``reset(entries, zone_name)`` (the session's entry sequence, possibly lazy), then
    ``append_event(entry)`` for every new entry and ``set_streaming(text)`` for live text.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[TranscriptRow] = []
        self._expanded: set[int] = set()
        self._serial_base = 0
        self._calls: dict[str, int] = {}
        self._events: Sequence[Entry] = ()
        self._loaded_from = 0
        self._loaded_to = 0
        self._known_end = 0
        self._zone_name: str | None = None
        self._older_wanted = False
        self._streaming = False
        self._show_context = False

    # -- Qt model interface ------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._plain_text(row)
        if role == KIND_ROLE:
            return row.kind
        if role == TITLE_ROLE:
            return row.title
        if role == DETAIL_ROLE:
            return row.detail
        if role == EXPANDED_ROLE:
            return (index.row() + self._serial_base) in self._expanded
        if role == SEQ_ROLE:
            return row.seq
        if role == CAPTION_ROLE:
            return self.caption(row)
        return None

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        for role, name in (
            (KIND_ROLE, b"kind"),
            (TITLE_ROLE, b"title"),
            (DETAIL_ROLE, b"detail"),
            (EXPANDED_ROLE, b"expanded"),
            (SEQ_ROLE, b"seq"),
            (CAPTION_ROLE, b"caption"),
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
        start = self._turn_start(max(0, self._loaded_from - FETCH_EVENTS))
        rows = self._build(start, self._loaded_from, prepend=True)
        self._loaded_from = start
        if not rows:
            return
        self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
        self._rows[:0] = rows
        self._serial_base -= len(rows)
        self.endInsertRows()
        self._trim_bottom()

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
        rows = self._build(self._loaded_to, stop, prepend=False)
        self._loaded_to = stop
        if rows:
            self._append_rows(rows)
        self._trim_top()

    def load_tail(self) -> None:
        """Show the newest turns again (after the user had scrolled far up)."""
        self.reset(self._events, self._zone_name)

    def _trim_bottom(self) -> None:
        if len(self._rows) <= MAX_ROWS:
            return
        cut = MAX_ROWS
        while cut > 0 and self._rows[cut - 1].seq == self._rows[cut].seq:
            cut -= 1
        first_unloaded = self._rows[cut].seq
        if cut == 0 or first_unloaded < 0:
            return
        self.beginRemoveRows(QModelIndex(), cut, len(self._rows) - 1)
        del self._rows[cut:]
        self._streaming = False
        self.endRemoveRows()
        self._loaded_to = first_unloaded

    def _trim_top(self) -> None:
        excess = len(self._rows) - MAX_ROWS
        if excess <= 0:
            return
        cut = next(
            (
                i
                for i in range(excess, len(self._rows))
                if self._rows[i].kind in ("user", "reminder")
            ),
            None,
        )
        if cut is None or self._rows[cut].seq < 0:
            return
        self.beginRemoveRows(QModelIndex(), 0, cut - 1)
        del self._rows[:cut]
        self._serial_base += cut
        self.endRemoveRows()
        self._loaded_from = self._rows[0].seq

    # -- feeding -----------------------------------------------------------------------------
    def reset(self, events: Sequence[Entry], zone_name: str | None) -> None:
        """Show a new session: rows for the tail of ``events`` (older ones load on demand)."""
        self.beginResetModel()
        self._events = events
        self._zone_name = zone_name
        self._rows = []
        self._expanded = set()
        self._calls = {}
        self._serial_base = 0
        self._older_wanted = False
        self._streaming = False
        count = len(events)
        self._loaded_from = self._turn_start(max(0, count - INITIAL_EVENTS))
        self._rows = self._build(self._loaded_from, count, prepend=False)
        self._loaded_to = self._known_end = count
        self.endResetModel()

    def set_show_context(self, show: bool) -> None:
        """Include the time-context readings as rows (rebuilds the loaded rows)."""
        if show == self._show_context:
            return
        self._show_context = show
        self.beginResetModel()
        self._rows, self._expanded, self._calls, self._serial_base = [], set(), {}, 0
        self._streaming = False
        self._rows = self._build(self._loaded_from, self._loaded_to, prepend=False)
        self.endResetModel()

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
        if seq != self._loaded_to:
            return
        self._loaded_to = seq + 1
        if isinstance(entry.event, ToolResult):
            self._merge_result(entry.event)
            return
        rows = self._visible(row_for_event(entry, self._zone_name))
        if self._streaming:
            rows = self._finish_streaming(rows)
        if rows:
            self._append_rows(rows)

    def set_streaming(self, text: str) -> None:
        """Show (or update) the live streaming row at the bottom."""
        row = TranscriptRow("streaming", text)
        if self._streaming:
            self._rows[-1] = row
            index = self.index(len(self._rows) - 1)
            self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole])
            return
        self._streaming = True
        self._append_rows([row])

    def clear_streaming(self) -> None:
        """Drop the live streaming row (the turn ended without a recorded answer text)."""
        if not self._streaming:
            return
        self._streaming = False
        last = len(self._rows) - 1
        self.beginRemoveRows(QModelIndex(), last, last)
        self._rows.pop()
        self.endRemoveRows()

    def toggle_expanded(self, row: int) -> None:
        """Expand or collapse a tool or context row's details."""
        if not 0 <= row < len(self._rows):
            return
        serial = row + self._serial_base
        self._expanded ^= {serial}
        index = self.index(row)
        self.dataChanged.emit(index, index, [EXPANDED_ROLE])

    def position_of(self, row: TranscriptRow) -> int:
        """Where this exact row value is now (-1 when it is not loaded)."""
        return next((i for i, item in enumerate(self._rows) if item is row), -1)

    def is_expanded(self, row: int) -> bool:
        return (row + self._serial_base) in self._expanded

    def caption(self, row: TranscriptRow) -> str:
        """The reminder card's caption line (due time, late delivery)."""
        return reminder_caption(row, self._zone_name) if row.kind == "reminder" else ""

    def row_at(self, row: int) -> TranscriptRow | None:
        """The row value (delegates read rows here, never through QVariant: PySide6 6.12 loses
        references to Python objects returned from ``data()``)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    # -- internals ---------------------------------------------------------------------------
    def _append_rows(self, rows: list[TranscriptRow]) -> None:
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        for offset, row in enumerate(rows):
            if row.kind == "tool" and row.call_id:
                self._calls[row.call_id] = first + offset + self._serial_base
        self._rows.extend(rows)
        self.endInsertRows()

    def _finish_streaming(self, rows: list[TranscriptRow]) -> list[TranscriptRow]:
        self._streaming = False
        last = len(self._rows) - 1
        if rows and rows[0].kind == "assistant":
            self._rows[last] = rows[0]
            index = self.index(last)
            self.dataChanged.emit(index, index)
            return rows[1:]
        self.beginRemoveRows(QModelIndex(), last, last)
        self._rows.pop()
        self.endRemoveRows()
        return rows

    def _merge_result(self, result: ToolResult) -> None:
        serial = self._calls.get(result.call_id)
        if serial is None:
            return
        row = serial - self._serial_base
        if 0 <= row < len(self._rows):
            self._rows[row] = merge_tool_result(self._rows[row], result, self._zone_name)
            index = self.index(row)
            self.dataChanged.emit(index, index)

    def _turn_start(self, start: int) -> int:
        """``start`` moved back to the ``turn/start`` of the turn it falls in (bounded scan)."""
        floor = max(0, start - MAX_TURN_SCAN)
        index = start
        while index > floor:
            if isinstance(self._event(index).event, TURN_OPENERS):
                return index
            index -= 1
        return index

    def _turn_end(self, stop: int) -> int:
        """``stop`` moved forward to the start of the next turn (bounded scan)."""
        ceiling = min(self._known_end, stop + MAX_TURN_SCAN)
        index = stop
        while index < ceiling and not isinstance(self._event(index).event, TURN_OPENERS):
            index += 1
        return index

    def _event(self, index: int) -> Entry:
        """``entries[index]``, or a stand-in that makes no row for a line that does not decode: a
        warm open shows a session before its checkpoint is verified, so a corrupt covered line
        can be read here; the session then turns read-only and its banner names the line."""
        try:
            return self._events[index]
        except ValueError:  # not an event line (JSON, UTF-8 or the envelope)
            return Entry(index, "", UnknownEvent("unreadable", None))

    def _build(self, start: int, stop: int, *, prepend: bool) -> list[TranscriptRow]:
        rows: list[TranscriptRow] = []
        local_calls: dict[str, int] = {}
        for seq in range(start, stop):
            entry = self._event(seq)
            if isinstance(entry.event, ToolResult):
                self._merge_into(rows, local_calls, entry.event)
                continue
            for row in self._visible(row_for_event(entry, self._zone_name)):
                if row.kind == "tool" and row.call_id:
                    local_calls[row.call_id] = len(rows)
                rows.append(row)
        base = self._serial_base - len(rows) if prepend else self._serial_base + len(self._rows)
        for call_id, position in local_calls.items():
            self._calls.setdefault(call_id, base + position)
        return rows

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

    @staticmethod
    def _plain_text(row: TranscriptRow) -> str:
        if row.kind == "tool":
            return row.title
        if row.kind == "reminder":
            return reminder_text(row)
        return row.text
