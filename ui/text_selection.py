"""TextSelection: the transcript's text selection across rows, and how the mouse makes it. No I/O.

A selection runs from an anchor to a head, each a row (by id, so it survives rows loaded above)
and a position in that row's text. Drag across any text (across messages too), double-click a
word, triple-click a paragraph, Shift+click to extend; a drag past the viewport's edge scrolls it
(every ``AUTO_SCROLL_MS``). The selected text reads as shown, or as Markdown.

Signals:
    changed(): what is selected changed (the view repaints).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QGuiApplication, QMouseEvent, QTextCursor
from PySide6.QtWidgets import QListView

from ui.row_hits import RowHits, TextPoint
from ui.transcript_model import TranscriptModel
from ui.transcript_roles import plain_text
from ui.turn_delegate import TurnDelegate

AUTO_SCROLL_MS = 30
EDGE = 8
"""Pixels from the viewport's top or bottom where a drag scrolls it."""

Ordered = tuple[tuple[int, int], tuple[int, int]]
"""((first row, position), (last row, position)) of a selection, in reading order."""


class TextSelection(QObject):
    """The text selection of one transcript view (see the module docstring)."""

    changed = Signal()

    def __init__(
        self, view: QListView, model: TranscriptModel, delegate: TurnDelegate, hits: RowHits
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._delegate = delegate
        self._hits = hits
        self._anchor: TextPoint | None = None
        self._head: TextPoint | None = None
        self._selecting = False
        self._press_point = QPoint()
        self._last_double: tuple[float, QPoint] = (float("-inf"), QPoint())
        self._frame: Ordered | None = None
        self._painting = False
        self._auto_scroll = QTimer(self)
        self._auto_scroll.setInterval(AUTO_SCROLL_MS)
        self._auto_scroll.timeout.connect(self._on_auto_scroll)

    # -- reading ---------------------------------------------------------------------------
    def ordered(self) -> Ordered | None:
        if self._anchor is None or self._head is None:
            return None
        a = (self._model.row_of_uid(self._anchor.uid), self._anchor.pos)
        b = (self._model.row_of_uid(self._head.uid), self._head.pos)
        if a[0] < 0 or b[0] < 0:
            return None
        return (a, b) if a <= b else (b, a)

    def begin_frame(self) -> None:
        """A paint begins: the selection is ordered once per frame, not once per painted row."""
        self._frame, self._painting = self.ordered(), True

    def end_frame(self) -> None:
        self._painting = False

    def selection_in(self, row: int) -> tuple[int, int] | None:
        """The selected positions ``[start, end)`` of the row at ``row`` (None: none)."""
        ordered = self._frame if self._painting else self.ordered()
        if ordered is None:
            return None
        (first_row, first_pos), (last_row, last_pos) = ordered
        if not first_row <= row <= last_row:
            return None
        start = first_pos if row == first_row else 0
        end = last_pos if row == last_row else 1 << 30
        return (start, end) if start < end else None

    def has_selection(self) -> bool:
        ordered = self.ordered()
        return ordered is not None and ordered[0] != ordered[1]

    def selected_text(self, *, markdown: bool = False) -> str:
        """The selected text, plain (as shown) or as Markdown (a whole row: as written)."""
        ordered = self.ordered()
        if ordered is None:
            return ""
        (first_row, first_pos), (last_row, last_pos) = ordered
        parts = []
        for row in range(first_row, last_row + 1):
            layout = self._delegate.layout_at(row)
            if layout is None:
                continue
            start = first_pos if row == first_row else 0
            end = last_pos if row == last_row else layout.length
            whole = start == 0 and end >= layout.length - 1
            value = self._model.row_at(row)
            if whole and markdown and value is not None:
                text = plain_text(value)
            else:
                text = layout.text(start, end, markdown=markdown)
            if text:
                parts.append(text)
        return "\n\n".join(parts)

    # -- changing --------------------------------------------------------------------------
    def select_all(self) -> None:
        """Select the text of every loaded row."""
        count = self._model.rowCount()
        last = self._delegate.layout_at(count - 1) if count else None
        if last is None:
            return
        self._set(
            TextPoint(self._model.uid_at(0), 0),
            TextPoint(self._model.uid_at(count - 1), last.length),
        )

    def select_text(self, row: int, start: int, end: int) -> None:
        """Select positions ``[start, end)`` of one row."""
        uid = self._model.uid_at(row)
        self._set(TextPoint(uid, start), TextPoint(uid, end))

    def clear(self) -> None:
        if self._anchor is not None:
            self._set(None, None)

    def forget(self) -> None:
        """The rows were replaced: nothing stays selected (no repaint: the reset repaints)."""
        self._anchor = self._head = None

    def _set(self, anchor: TextPoint | None, head: TextPoint | None) -> None:
        self._anchor, self._head = anchor, head
        self.changed.emit()

    # -- the mouse -------------------------------------------------------------------------
    def press(self, point: QPoint, event: QMouseEvent) -> None:
        """A left press on text: start a selection there (Shift: extend it; after a double
        click: the paragraph)."""
        self._press_point = point
        target = self._hits.text_point(point)
        if target is None:
            return
        if self._is_triple_click(point, event):
            self._select_piece(target)
            return
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        anchor = self._anchor if shift and self._anchor is not None else target
        self._selecting = True
        self._set(anchor, target)

    def note_press(self, point: QPoint) -> None:
        """A press that starts no selection (it still counts for a click's distance)."""
        self._press_point = point

    def drag(self, point: QPoint, buttons: Qt.MouseButton) -> bool:
        """The mouse moved; True when it extends a selection being made."""
        if not (self._selecting and buttons & Qt.MouseButton.LeftButton):
            return False
        self._extend_to(point)
        inside = self._view.viewport().rect().adjusted(0, EDGE, 0, -EDGE).contains(point)
        if inside:
            self._auto_scroll.stop()
        elif not self._auto_scroll.isActive():
            self._auto_scroll.start()
        return True

    def release(self, point: QPoint) -> bool:
        """The button was released; True when the press selected nothing (a click)."""
        self._auto_scroll.stop()
        if not self._selecting:
            return False
        self._selecting = False
        distance = (point - self._press_point).manhattanLength()
        moved = distance >= QGuiApplication.styleHints().startDragDistance()
        if moved or self._anchor != self._head:
            return False
        self.clear()
        return True

    def stop_scrolling(self) -> None:
        self._auto_scroll.stop()

    def double_click(self, row: int, point: QPoint, timestamp: float) -> None:
        """A double click selects the word there when it is on text (``row`` >= 0); a third
        click soon after, where it was, selects the paragraph."""
        self._last_double = (timestamp, point)
        if row < 0:
            return
        target = self._hits.text_point(point)
        layout = self._delegate.layout_at(row)
        piece = layout.piece_of(target.pos) if layout is not None and target else None
        if target is None or piece is None:
            return
        cursor = QTextCursor(piece.doc)
        cursor.setPosition(max(0, min(target.pos - piece.base, piece.length - 1)))
        cursor.select(QTextCursor.SelectionType.WordUnderCursor)
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        self.select_text(row, piece.base + start, piece.base + end)
        self._selecting = False

    def _select_piece(self, target: TextPoint) -> None:
        row = self._model.row_of_uid(target.uid)
        layout = self._delegate.layout_at(row)
        piece = layout.piece_of(target.pos) if layout is not None else None
        if piece is not None:
            self.select_text(row, piece.base, piece.last)
        self._selecting = False

    def _is_triple_click(self, point: QPoint, event: QMouseEvent) -> bool:
        """A press soon after a double click, where it was."""
        at, where = self._last_double
        hints = QGuiApplication.styleHints()
        soon = event.timestamp() - at < hints.mouseDoubleClickInterval()
        return soon and (point - where).manhattanLength() < hints.startDragDistance()

    def _extend_to(self, point: QPoint) -> None:
        target = self._hits.text_point(point)
        if target is not None and target != self._head:
            self._set(self._anchor, target)

    def _on_auto_scroll(self) -> None:
        if not self._selecting:
            self._auto_scroll.stop()
            return
        viewport = self._view.viewport()
        point = viewport.mapFromGlobal(QCursor.pos())
        bar = self._view.verticalScrollBar()
        if point.y() < EDGE:
            bar.setValue(bar.value() - max(EDGE, EDGE - point.y()))
        elif point.y() > viewport.height() - EDGE:
            bar.setValue(bar.value() + max(EDGE, point.y() - viewport.height() + EDGE))
        self._extend_to(point)
