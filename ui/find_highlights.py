"""FindMarks: the find bar's matches as the transcript shows them, and going to the current one.

It keeps the text to highlight and the current match (the seq of its message, which match in
it), finds the marks of each painted row once per layout (``ui.find_marks``), and scrolls the
current match to the middle of the viewport, loading the events around it first when it is not
loaded. No I/O.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QListView

from core.transcript.patch import Anchor
from ui.find_marks import Mark, marks_in
from ui.follow_output import FollowOutput
from ui.row_layout import RowLayout
from ui.transcript_model import TranscriptModel, message_seq
from ui.turn_delegate import TurnDelegate


class FindMarks(QObject):
    """The find bar's matches as one transcript view shows them (see the module docstring).

    Signals:
        changed(): the text to highlight or the current match changed (the view repaints).
    """

    changed = Signal()

    def __init__(
        self,
        view: QListView,
        model: TranscriptModel,
        delegate: TurnDelegate,
        follow: FollowOutput,
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._delegate = delegate
        self._follow = follow
        self._query = ""
        self._target: tuple[int, int] | None = None
        """(the seq of the message holding the current match, which match in it)."""
        self._cache: dict[int, tuple[RowLayout, list[Mark]]] = {}

    def marks(self, row: int) -> tuple[list[Mark], int]:
        """The matches in the row at ``row`` and which of them is the current one (-1: none)."""
        if not self._query:
            return [], -1
        layout = self._delegate.layout_at(row)
        value = self._model.row_at(row)
        if layout is None or value is None or message_seq(value) < 0:
            return [], -1
        uid = self._model.uid_at(row)
        cached = self._cache.get(uid)
        if cached is None or cached[0] is not layout:
            cached = (layout, marks_in(layout, self._query))
            self._cache[uid] = cached
        marks = cached[1]
        target = self._target
        if target is None or target[0] != message_seq(value) or not marks:
            return marks, -1
        return marks, min(target[1], len(marks) - 1)

    def forget(self) -> None:
        """The rows were replaced: their marks are found again when painted."""
        self._cache.clear()

    def show(self, query: str, target: tuple[int, int] | None, *, scroll: bool = True) -> None:
        """Highlight every match of ``query`` in the rows shown; ``target`` is loaded if need be
        and scrolled to when ``scroll``. An empty query clears the highlights."""
        if query != self._query:
            self._cache.clear()
        self._query, self._target = query, target
        if target is not None and scroll:
            self._scroll_to(*target)
        self.changed.emit()

    def _scroll_to(self, seq: int, number: int) -> None:
        row = self._model.row_of_message(seq)
        if row < 0:  # not loaded: load the events around it
            self._model.history.reload_around(seq, Anchor(-1, seq))
            row = self._model.row_of_message(seq)
            if row < 0:
                return
        index = self._model.index(row)
        self._view.setCurrentIndex(index)
        marks, current = self.marks(row)
        layout = self._delegate.layout_at(row)
        y = 0
        if marks and layout is not None:
            mark = marks[current if current >= 0 else 0]
            y = int(layout.point_of(layout.pieces[mark.piece].base + mark.start).y())
        bar = self._view.verticalScrollBar()
        top = self._view.visualRect(index).top()
        with self._follow.hold():
            bar.setValue(bar.value() + top + y - self._view.viewport().height() // 2)
        self._follow.settle()
