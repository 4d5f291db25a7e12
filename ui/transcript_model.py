"""TranscriptModel: the transcript's rows as a Qt list model. No I/O, no awaits.

A thin adapter over ``core.transcript.projection.TranscriptProjection``, which decides every row
(order, queued messages, the shown path, lazy windows of a long session) and answers each feed
with patches; this model applies them as Qt's begin/end calls (``_apply``) and keeps only Qt's
concerns: the rows in the words of the window's language (``ui.transcript_rows.words``, applied
as a row arrives) and row ids that stay the same while the rows around them load, unload or move
(so a text selection, an expanded tool call or a scrolled code box stays with its row). Its parts:

- ``history`` (``ui.history_window.HistoryWindow``): which stretch of a long conversation is
  loaded, loading older and newer rows, the tail again or the rows around an event, and the gate
  on Qt's ``fetchMore``;
- ``stream`` (``ui.stream_frames.StreamFrames``): the streamed answer's pieces and thinking,
  shown at most once a frame;
- what each Qt role reads of a row is ``ui.transcript_roles``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from core.events import AssistantMessage, Entry, TurnEnd
from core.transcript.patch import Anchor, Insert, Move, Patch, Rebuild, Remove, Replace
from core.transcript.path import ShownConversation, restructures
from core.transcript.projection import (
    FETCH_EVENTS,
    INITIAL_EVENTS,
    MAX_ROWS,
    MIN_ROWS,
    TranscriptProjection,
)
from core.transcript.rows import TranscriptRow, message_seq
from core.transcript.window import MESSAGE_ROWS
from ui.history_window import HistoryWindow
from ui.stream_frames import StreamFrames
from ui.transcript_roles import EXPANDED_ROLE, ROLE_NAMES, role_value
from ui.transcript_rows import words

__all__ = [
    "FETCH_EVENTS",
    "INITIAL_EVENTS",
    "MAX_ROWS",
    "MESSAGE_ROWS",
    "MIN_ROWS",
    "TranscriptModel",
    "message_seq",
]

Index = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractListModel):
    """The rows of one session's transcript.

    Feed it with ``reset(entries, zone_name)`` (the session's entry sequence, possibly lazy), then
    ``apply_entry(entry, conversation)`` (or ``append_event(entry)``) for every new entry, and
    ``stream`` with the answer being streamed.

    Signal ``rows_coming()``: rows are about to be inserted or to replace the rows shown (the
    view builds its painting parts on the first, ``ui.transcript_view``).
    """

    rows_coming = Signal()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._projection = TranscriptProjection()
        self._rows: list[TranscriptRow] = []
        self._uids: list[int] = []
        self._next_uid = 0
        self._expanded: set[int] = set()
        self.last_anchor: Anchor | None = None
        """The anchor of the rebuild under way or last done (where the reader's eye stays;
        None: the view follows the end)."""
        self.history = HistoryWindow(self._projection, self._apply)
        self.stream = StreamFrames(self._projection, self._apply, self)

    # -- Qt model interface ------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        at = index.row()
        if not index.isValid() or not 0 <= at < len(self._rows):
            return None
        zone = self._projection.zone_name
        return role_value(self._rows[at], role, expanded=self.is_expanded(at), zone=zone)

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names.update((role, QByteArray(name)) for role, name in ROLE_NAMES.items())
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
        return not parent.isValid() and self.history.may_fetch_older()

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            self.history.fetch_older()

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
        if not keep_stream:
            self.stream.drop()
        projection = self._projection
        self.history.rebuild(
            projection.open(events, zone_name, conversation=conversation, keep_stream=keep_stream)
        )

    def apply_entry(
        self,
        entry: Entry,
        conversation: ShownConversation | None,
        *,
        reader: int = -1,
        following: bool = True,
    ) -> None:
        """A new entry with the conversation after it (None: it did not change): rows are added,
        or, when it changes which events are shown (``core.transcript.path.restructures``), the
        loaded rows rebuilt with the reader's anchor (``last_anchor``: ``reader`` is the seq at
        the top of the screen, ``following`` whether the view follows the end)."""
        if conversation is None or not restructures(entry, conversation):
            if conversation is not None:
                self._projection.set_conversation(conversation)
            self.append_event(entry)
            return
        projection = self._projection
        self.history.rebuild(
            projection.restructure(entry, conversation, reader=reader, following=following)
        )

    def append_event(self, entry: Entry) -> None:
        """Show one new entry (tool results update their call's row instead of adding one);
        ignored while the loaded rows do not reach the tail (loaded on scrolling down)."""
        projection = self._projection
        ends = isinstance(entry.event, AssistantMessage | TurnEnd)
        if ends and entry.seq == projection.loaded_to:
            self.stream.drop()  # the recorded answer takes the streamed text's place
        self._apply(projection.append(entry))

    def set_show_context(self, show: bool) -> None:
        """Include the time-context readings as rows (rebuilds the loaded rows)."""
        self._apply(self._projection.set_show_context(show))

    # -- rows by position and by id ----------------------------------------------------------
    def row_at(self, row: int) -> TranscriptRow | None:
        """The row value (delegates read rows here, never through QVariant: PySide6 6.12 loses
        references to Python objects returned from ``data()``)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

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
        return self._projection.row_of_message(seq)

    def is_expanded(self, row: int) -> bool:
        """Whether a tool or context row's details are shown."""
        return 0 <= row < len(self._uids) and self._uids[row] in self._expanded

    def toggle_expanded(self, row: int) -> None:
        """Expand or collapse a tool or context row's details."""
        if not 0 <= row < len(self._rows):
            return
        self._expanded ^= {self._uids[row]}
        index = self.index(row)
        self.dataChanged.emit(index, index, [EXPANDED_ROLE])

    def zone_name(self) -> str | None:
        """The zone the rows' times are read in."""
        return self._projection.zone_name

    # -- applying patches --------------------------------------------------------------------
    def _apply(self, patches: list[Patch]) -> None:
        if any(isinstance(patch, Insert | Rebuild) and patch.rows for patch in patches):
            self.rows_coming.emit()
        for patch in patches:
            self._apply_one(patch)

    def _apply_one(self, patch: Patch) -> None:
        match patch:
            case Insert(at=at, rows=rows):
                self.beginInsertRows(QModelIndex(), at, at + len(rows) - 1)
                self._rows[at:at] = [words(row) for row in rows]
                self._uids[at:at] = [self._new_uid() for _ in rows]
                self.endInsertRows()
            case Replace(at=at, row=row):
                self._rows[at] = words(row)
                index = self.index(at)
                self.dataChanged.emit(index, index)
            case Remove(at=at, count=count):
                self.beginRemoveRows(QModelIndex(), at, at + count - 1)
                del self._rows[at : at + count]
                del self._uids[at : at + count]
                self.endRemoveRows()
            case Move(source=source, to=to):
                self.beginMoveRows(QModelIndex(), source, source, QModelIndex(), to)
                self._rows.insert(to, self._rows.pop(source))
                self._uids.insert(to, self._uids.pop(source))
                self.endMoveRows()
            case Rebuild(rows=rows, anchor=anchor):
                self.last_anchor = anchor  # read by the view from modelAboutToBeReset on
                self.beginResetModel()
                self._rows = [words(row) for row in rows]
                self._uids = [self._new_uid() for _ in rows]
                self._expanded = set()
                self.endResetModel()
            case unexpected:
                assert_never(unexpected)

    def _new_uid(self) -> int:
        self._next_uid += 1
        return self._next_uid
