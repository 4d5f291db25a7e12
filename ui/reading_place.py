"""ReadingPlace: where the reader is in the transcript, kept over a rebuild of the loaded rows.
No I/O.

The shown path (agent.md §7): ``apply_entry`` feeds each new entry with the conversation after it
and the row the reader looks at; an entry that changes which events are shown rebuilds the loaded
rows, at the end (a new version: the view follows it) or around where the reader is (a hidden
exchange, another version). The rebuild carries its anchor (``core.transcript.patch.Anchor``,
decided by the projection): before the model's reset this notes where that row is on screen, and
after it puts the row back there. A reset without an anchor (another session) follows the end.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject
from PySide6.QtWidgets import QListView

from core.events import Entry
from core.transcript.patch import Anchor
from ui.follow_output import FollowOutput
from ui.lazy_rows import LazyRows
from ui.row_hits import RowHits
from ui.shown_path import ShownConversation
from ui.transcript_model import MESSAGE_ROWS, TranscriptModel


class ReadingPlace(QObject):
    """The reader's place in one transcript view (see the module docstring)."""

    def __init__(
        self,
        view: QListView,
        model: TranscriptModel,
        follow: FollowOutput,
        lazy: LazyRows,
        hits: RowHits,
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._follow = follow
        self._lazy = lazy
        self._hits = hits
        self._kept: tuple[int, int | None] = (-1, None)
        """Over a rebuild with an anchor: (the seq of the row the reader looked at, its top)."""
        model.modelAboutToBeReset.connect(self._before_reset)
        model.dataChanged.connect(self._on_data_changed)

    def apply_entry(self, entry: Entry, conversation: ShownConversation | None) -> None:
        """A new entry of the session on screen, with the conversation after it (None: it did
        not change), and the row the reader looks at."""
        index = self._hits.top_index()
        reader = self._anchor_seq(index.row()) if index.isValid() else -1
        following = self._follow.is_following()
        self._model.apply_entry(entry, conversation, reader=reader, following=following)

    def first_visible_seq(self) -> int:
        """The lowest seq of a message at the top of the viewport (-1: nothing is shown)."""
        return self._anchor_seq(self._hits.top_index().row())

    def after_reset(self) -> None:
        """The rows were replaced: put the reader back (a rebuild), else follow their end."""
        anchor = self._model.last_anchor
        if anchor is not None:
            self._keep_place(anchor)
            return
        self._follow.restart()
        self._lazy.fill_soon()

    def _before_reset(self) -> None:
        anchor = self._model.last_anchor
        if anchor is not None:  # note where the reader looks, to keep it there (_keep_place)
            self._follow.pause()
            row, offset = self._screen_anchor(anchor.shown)
            self._kept = (self._anchor_seq(row), offset)

    def _keep_place(self, anchor: Anchor) -> None:
        """After a rebuild: the row of input ``anchor.then`` (else the first one at or after the
        row the reader looked at) goes where that row was on screen."""
        anchor_seq, offset = self._kept
        self._kept = (-1, None)
        view = self._view
        try:
            view.doItemsLayout()
            found = self._row_for(anchor.then, anchor_seq)
            if found >= 0 and offset is not None:
                bar = view.verticalScrollBar()
                top = view.visualRect(self._model.index(found)).top()
                bar.setValue(bar.value() + top - offset)
        finally:
            self._follow.resume()
        self._follow.settle()
        self._lazy.fill_soon()

    def _screen_anchor(self, input_seq: int) -> tuple[int, int | None]:
        """(the row to keep in place, its top in the viewport): the row of ``input_seq`` when
        it is on screen, else the top row (None: nothing is shown)."""
        view = self._view
        height = view.viewport().height()
        for position in range(self._model.rowCount()):
            value = self._model.row_at(position)
            if value is not None and value.input == input_seq and value.kind in MESSAGE_ROWS:
                top = view.visualRect(self._model.index(position)).top()
                if -height < top < height:
                    return position, top
                break
        index = self._hits.top_index()
        if not index.isValid():
            return -1, None
        return index.row(), view.visualRect(index).top()

    def _anchor_seq(self, row: int) -> int:
        value = self._model.row_at(row)
        if value is None:
            return -1
        return value.input if value.input >= 0 else value.seq

    def _row_for(self, input_seq: int, seq: int) -> int:
        """The row of input ``input_seq``'s message (or hidden row), else the first row of the
        exchange at or after ``seq``."""
        later = -1
        for position in range(self._model.rowCount()):
            value = self._model.row_at(position)
            if value is None:
                continue
            if value.kind in MESSAGE_ROWS and value.input == input_seq >= 0:
                return position
            if later < 0 and max(value.input, value.seq) >= seq:
                later = position
        return later

    def _on_data_changed(
        self, _top_left: QModelIndex, _bottom_right: QModelIndex, _roles: Any = None
    ) -> None:
        """Rows changed size (a streamed answer grew): lay out again, at the end if following."""
        self._view.scheduleDelayedItemsLayout()
        self._follow.keep_at_end()
