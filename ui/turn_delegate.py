"""TurnDelegate: lays out each transcript row (``ui.row_layout.RowLayout``), caches the layouts and
their heights, and has ``ui.row_painter.RowPainter`` paint them. No I/O.

Colours come from the view's palette through ``ui.theme.surfaces`` (one palette source), so a
theme switch repaints every row in the new colours; the text selection, hovered buttons and code
boxes' sideways scroll come from the view's parts (``RowState``, set by the view once its parts
exist: ``watch``), gathered per painted row into a ``RowLook``. Layouts are cached per row id and
column width; row values are read from the model directly, never through QVariant (PySide6 6.12
lost references to Python objects returned by ``data()``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize
from PySide6.QtGui import QFont, QIcon, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from core.readable import format_clock
from ui.find_marks import Mark
from ui.row_layout import RowLayout
from ui.row_layouts import RowLayouts
from ui.row_painter import RowLook, RowPainter
from ui.theme import Surfaces, is_dark, surfaces
from ui.transcript_model import TranscriptModel
from ui.transcript_roles import caption
from ui.transcript_rows import TranscriptRow

Index = QModelIndex | QPersistentModelIndex
LAYOUT_CACHE = 120
"""Row layouts kept: the rows of several screens around the reader. A layout holds its laid-out
text documents (tens of kB each); keeping one for each of the ~500 loaded rows held ~70 MB after a
long scroll. Heights are kept apart (``HEIGHT_CACHE``), so a row's size never needs its layout."""
HEIGHT_CACHE = 50_000


class RowState(Protocol):
    """What the view knows about rows that changes without the row changing."""

    def selection_in(self, row: int) -> tuple[int, int] | None:
        """The selected positions ``[start, end)`` of the row at ``row`` (None: none)."""
        ...

    def code_offsets(self, uid: int) -> dict[int, int]:
        """How far each code box of the row is scrolled sideways (by box index)."""
        ...

    def hovered_button(self, uid: int) -> str:
        """The name of the button under the mouse in this row ("" when none)."""
        ...

    def shows_actions(self, uid: int) -> bool:
        """The row's action buttons are shown (hovered, or the keyboard's current row)."""
        ...

    def copied_box(self, uid: int) -> int:
        """What just copied in this row and says so: a code box's index,
        ``ui.row_painter.COPIED_MESSAGE`` for the message's own Copy button, -1 for nothing."""
        ...

    def find_marks(self, row: int) -> tuple[Sequence[Mark], int]:
        """The find bar's matches in the row at ``row`` and which of them is the current one
        (-1: none is)."""
        ...


class TurnDelegate(QStyledItemDelegate):
    """Lays out and paints transcript rows: bubble, Markdown blocks, code boxes, cards, footer."""

    def __init__(self, model: TranscriptModel, bell: QIcon, parent: Any = None) -> None:
        super().__init__(parent)
        self._model = model
        self._state: RowState | None = None
        self.layouts = RowLayouts()
        self._painter = RowPainter(self.layouts, bell, self)
        self._viewport_width = 600
        self._column = 560
        self._layouts: OrderedDict[int, tuple[TranscriptRow, int, bool, RowLayout]] = OrderedDict()
        self._heights: dict[int, tuple[TranscriptRow, int, bool, int]] = {}
        self._surfaces: Surfaces | None = None
        self.pending_highlight = False
        """A painted code box is still plain (the frame's budget was spent): paint again."""

    def watch(self, state: RowState) -> None:
        """Paint rows with what ``state`` says (selection, hover, scroll, copied, find)."""
        self._state = state

    def configure(self, font: QFont, palette: QPalette) -> None:
        """New fonts or colours: every layout is built again."""
        self._surfaces = surfaces(palette)
        self.layouts.configure(font, self._surfaces, is_dark(palette))
        self.forget()

    def set_wrap_code(self, wrap: bool) -> None:
        self.layouts.wrap_code = wrap
        self.forget()

    def set_writable(self, writable: bool) -> bool:
        """Rows offer the buttons that write only when ``writable``; True when that changed."""
        if writable == self.layouts.writable:
            return False
        self.layouts.writable = writable
        self.forget()
        return True

    def set_width(self, viewport_width: int) -> bool:
        """The viewport width changed; True when the reading column changed with it (rows are
        laid out again)."""
        if viewport_width <= 0:
            return False
        self._viewport_width = viewport_width
        column = self.layouts.column_width(viewport_width)
        if column == self._column:
            return False
        self._column = column
        self.forget()
        return True

    def column_left(self) -> int:
        """Where the reading column starts in the viewport."""
        return max(0, (self._viewport_width - self._column) // 2)

    def forget(self) -> None:
        """Drop every cached layout (a new session, a font or colour change)."""
        self._layouts.clear()
        self._heights.clear()

    # -- layouts -------------------------------------------------------------------------
    def layout_at(self, row_index: int) -> RowLayout | None:
        """The layout of the row at ``row_index`` (cached by row id while the row is unchanged)."""
        row = self._model.row_at(row_index)
        if row is None:
            return None
        uid = self._model.uid_at(row_index)
        expanded = self._model.is_expanded(row_index)
        cached = self._layouts.get(uid)
        if cached is not None and cached[0] is row and cached[1:3] == (self._column, expanded):
            self._layouts.move_to_end(uid)
            return cached[3]
        layout = self.layouts.layout(
            row,
            self._column,
            expanded=expanded,
            caption=caption(row, self._model.zone_name()),
            time=format_clock(row.at, self._model.zone_name()),
        )
        self._layouts[uid] = (row, self._column, expanded, layout)
        if len(self._layouts) > LAYOUT_CACHE:
            self._layouts.popitem(last=False)
        self._heights[uid] = (row, self._column, expanded, layout.height)
        return layout

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        row_index = index.row()
        row = self._model.row_at(row_index)
        if row is None:
            return QSize(0, 0)
        uid = self._model.uid_at(row_index)
        cached = self._heights.get(uid)
        expanded = self._model.is_expanded(row_index)
        if cached is not None and cached[0] is row and cached[1:3] == (self._column, expanded):
            return QSize(self._viewport_width, cached[3])
        if len(self._heights) > HEIGHT_CACHE:
            self._heights.clear()
        layout = self.layout_at(row_index)
        return QSize(self._viewport_width, layout.height if layout is not None else 0)

    # -- painting ------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        at = index.row()
        layout = self.layout_at(at)
        row = self._model.row_at(at)
        state = self._state
        if layout is None or row is None or self._surfaces is None or state is None:
            return
        look = self._look(state, at, option)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(option.rect.left() + self.column_left(), option.rect.top())
        if self._painter.paint(painter, row, layout, look, self._surfaces, option.palette):
            self.pending_highlight = True
        painter.restore()

    def _look(self, state: RowState, at: int, option: QStyleOptionViewItem) -> RowLook:
        """What the view's parts say about the row at ``at`` (``RowState``)."""
        uid = self._model.uid_at(at)
        marks, current = state.find_marks(at)
        focused = option.state & QStyle.StateFlag.State_HasFocus
        focus = QRect(0, 2, self._column, option.rect.height() - 4) if focused else None
        return RowLook(
            selection=state.selection_in(at),
            offsets=state.code_offsets(uid),
            copied=state.copied_box(uid),
            marks=marks,
            current=current,
            hovered=state.hovered_button(uid),
            actions=state.shows_actions(uid),
            focus=focus,
        )
