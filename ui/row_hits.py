"""RowHits: what is under a point of the transcript's viewport. Reads geometry only; no I/O.

The transcript's feature objects (selection, hover buttons, code scrolling, the row menu) ask it
which row a point is over, where that row's coordinates start and which text position is there.
It keeps no state of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPoint
from PySide6.QtWidgets import QListView

from ui.row_layout import RowLayout
from ui.transcript_model import TranscriptModel
from ui.turn_delegate import TurnDelegate


@dataclass(frozen=True, slots=True)
class TextPoint:
    """A place in the transcript's text: a row (by id) and a position in it."""

    uid: int
    pos: int


@dataclass(frozen=True, slots=True)
class Hit:
    """What is under a point of the viewport."""

    row: int = -1
    uid: int = -1
    x: int = 0
    y: int = 0
    layout: RowLayout | None = None


class RowHits:
    """Hit testing over the view's rows (``offsets``: a row's code boxes' sideways scroll)."""

    def __init__(
        self,
        view: QListView,
        model: TranscriptModel,
        delegate: TurnDelegate,
        offsets: Callable[[int], dict[int, int]],
    ) -> None:
        self._view = view
        self._model = model
        self._delegate = delegate
        self._offsets = offsets

    def row_origin(self, row: int) -> QPoint:
        """Where row coordinates start in the viewport (the reading column's left, the row's
        top)."""
        rect = self._view.visualRect(self._model.index(row))
        return QPoint(rect.left() + self._delegate.column_left(), rect.top())

    def top_index(self) -> QModelIndex:
        """The row at the top of the viewport (invalid when nothing is shown)."""
        return self._view.indexAt(QPoint(self._view.viewport().width() // 2, 2))

    def current_row(self) -> int:
        """The keyboard's current row, else the last one (-1: no rows)."""
        index = self._view.currentIndex()
        return index.row() if index.isValid() else self._model.rowCount() - 1

    def hit(self, point: QPoint) -> Hit:
        index = self._view.indexAt(point)
        if not index.isValid():
            return Hit()
        origin = self.row_origin(index.row())
        layout = self._delegate.layout_at(index.row())
        uid = self._model.uid_at(index.row())
        return Hit(index.row(), uid, point.x() - origin.x(), point.y() - origin.y(), layout)

    def text_point(self, point: QPoint) -> TextPoint | None:
        """The text position under (or nearest to) a viewport point; above or below the rows,
        the first or last position."""
        hit = self.hit(point)
        if hit.layout is None:
            count = self._model.rowCount()
            if not count:
                return None
            if point.y() < 0 or point.y() < self._view.visualRect(self._model.index(0)).top():
                return TextPoint(self._model.uid_at(0), 0)
            last = self._delegate.layout_at(count - 1)
            return TextPoint(self._model.uid_at(count - 1), last.length if last else 0)
        return TextPoint(hit.uid, hit.layout.position_at(hit.x, hit.y, self._offsets(hit.uid)))

    def link_at(self, hit: Hit) -> str:
        """The link target under a hit ("" when none)."""
        if hit.layout is None:
            return ""
        return hit.layout.anchor_at(hit.x, hit.y, self._offsets(hit.uid))
