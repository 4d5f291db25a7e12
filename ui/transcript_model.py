"""TranscriptModel: the transcript's rows as a Qt list model. No I/O, no awaits.

A thin adapter over ``core.transcript.projection.TranscriptProjection``, which decides every row
(order, queued messages, the shown path, lazy windows of a long session) and answers each feed
with patches; this model applies them as Qt's begin/end calls (``_apply``) and keeps only Qt's
concerns: the roles, the words of the window's language (``ui.transcript_rows.words``, applied as
a row arrives), row ids that stay the same while the rows around them load, unload or move (so a
text selection, an expanded tool call or a scrolled code box stays with its row), the gate on
Qt's ``fetchMore``; the streamed answer's pieces wait for their frame in ``ui.stream_frames``.

Qt's views call ``fetchMore`` whenever the *last* row is visible (always true in a chat that
follows the bottom), so fetching is gated: the view calls ``want_older()`` when the user reaches
the top, and only then does ``canFetchMore`` answer True.
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
from ui.stream_frames import StreamFrames
from ui.transcript_rows import reminder_caption, reminder_text, words

__all__ = [
    "FETCH_EVENTS",
    "INITIAL_EVENTS",
    "MAX_ROWS",
    "MESSAGE_ROWS",
    "MIN_ROWS",
    "TranscriptModel",
    "message_seq",
    "plain_text",
]

Index = QModelIndex | QPersistentModelIndex

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 4
EXPANDED_ROLE = Qt.ItemDataRole.UserRole + 5
SEQ_ROLE = Qt.ItemDataRole.UserRole + 6
CAPTION_ROLE = Qt.ItemDataRole.UserRole + 7
QUEUED_ROLE = Qt.ItemDataRole.UserRole + 8


class TranscriptModel(QAbstractListModel):
    """The rows of one session's transcript.

    Feed it with ``reset(entries, zone_name)`` (the session's entry sequence, possibly lazy), then
    ``append_event(entry)`` for every new entry and ``append_stream(piece)`` / ``end_stream()``
    for the answer being streamed.

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
        self._older_wanted = False
        self.last_anchor: Anchor | None = None
        """The anchor of the rebuild under way or last done (where the reader's eye stays;
        None: the view follows the end)."""
        self._frames = StreamFrames(self._projection, self._apply, self)

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
        return not parent.isValid() and self._older_wanted and self._projection.has_older()

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            self._older_wanted = False
            self._apply(self._projection.older())

    # -- the window of loaded rows -----------------------------------------------------------
    def has_older(self) -> bool:
        """True while history older than the first row has not been loaded."""
        return self._projection.has_older()

    def loaded_span(self) -> tuple[int, int, int]:
        """(the first event loaded, the event after the last one loaded, the events known): where
        the loaded rows stand in the whole conversation (``ui.conversation_bar``)."""
        projection = self._projection
        return projection.loaded_from, projection.loaded_to, projection.reading.known_end

    def want_older(self) -> None:
        """The user reached the top: let the next ``fetchMore`` load an older batch."""
        self._older_wanted = self._projection.has_older()

    def has_newer(self) -> bool:
        """True while events newer than the last row are not loaded (the user scrolled far up)."""
        return self._projection.has_newer()

    def fetch_newer(self) -> None:
        """Load the next turns below the last row (and unload the oldest rows past the cap)."""
        self._apply(self._projection.newer())

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
            self._frames.drop()
        self._older_wanted = False
        projection = self._projection
        self._apply(
            projection.open(events, zone_name, conversation=conversation, keep_stream=keep_stream)
        )

    def reload_tail(self) -> None:
        """Rebuild the rows of the tail: the newest turns again after the user had scrolled far
        up, or the shown path changed at its end (a new version)."""
        self._older_wanted = False
        self._apply(self._projection.rebuild_tail())

    def reload_around(self, seq: int, anchor: Anchor | None = None) -> None:
        """Rebuild the rows of the events around ``seq`` (the shown path changed there: a hidden
        exchange, another version); the tail is included when it is near."""
        self._older_wanted = False
        self._apply(self._projection.rebuild_around(seq, anchor))

    def set_conversation(self, conversation: ShownConversation) -> None:
        """The conversation changed without changing the rows shown so far (a new input, a new
        turn): later rows follow it."""
        self._projection.set_conversation(conversation)

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
        self._older_wanted = False
        projection = self._projection
        self._apply(projection.restructure(entry, conversation, reader=reader, following=following))

    def set_show_context(self, show: bool) -> None:
        """Include the time-context readings as rows (rebuilds the loaded rows)."""
        self._apply(self._projection.set_show_context(show))

    def append_event(self, entry: Entry) -> None:
        """Show one new entry (tool results update their call's row instead of adding one);
        ignored while the loaded rows do not reach the tail (loaded on scrolling down)."""
        projection = self._projection
        ends = isinstance(entry.event, AssistantMessage | TurnEnd)
        if ends and entry.seq == projection.loaded_to:
            self._frames.drop()  # the recorded answer takes the streamed text's place
        self._apply(projection.append(entry))

    # -- the streamed answer (``ui.stream_frames``) ----------------------------------------
    def append_stream(self, piece: str) -> None:
        """More of the answer being streamed (shown within a frame: ``ui.stream_frames``)."""
        self._frames.add_text(piece)

    def append_thinking(self, piece: str, thinking_ms: int | None) -> None:
        """More of the streamed answer's thinking, and how long it has been thinking (shown
        within a frame, folded at the top of the streaming row)."""
        self._frames.add_thinking(piece, thinking_ms)

    def set_thinking_ms(self, thinking_ms: int) -> None:
        """How long the streamed answer has been thinking (its "Thinking… 12 s" ticks)."""
        self._frames.tick(thinking_ms)

    @property
    def is_streaming(self) -> bool:
        """Some of an answer has arrived and is shown or about to be."""
        return self._frames.streaming

    def end_stream(self) -> None:
        """The stream ended without a recorded answer taking its place: drop its row."""
        self._frames.drop()
        self._apply(self._projection.end_stream())

    def flush_stream(self) -> None:
        """Show the pieces received so far at once (tests, and the end of a frame)."""
        self._frames.flush()

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
        return self._projection.row_of_message(seq)

    def caption(self, row: TranscriptRow) -> str:
        """The reminder card's caption line (due time, late delivery)."""
        zone = self._projection.zone_name
        return reminder_caption(row, zone) if row.kind == "reminder" else ""

    def row_at(self, row: int) -> TranscriptRow | None:
        """The row value (delegates read rows here, never through QVariant: PySide6 6.12 loses
        references to Python objects returned from ``data()``)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def zone_name(self) -> str | None:
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


def plain_text(row: TranscriptRow) -> str:
    """A row as plain text (the display role; copying a whole row uses its Markdown source)."""
    if row.kind in ("tool", "mcp"):
        return row.title
    if row.kind == "reminder":
        return reminder_text(row)
    return row.text
