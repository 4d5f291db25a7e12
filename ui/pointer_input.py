"""PointerInput: the mouse over the transcript's viewport, routed to the view's parts. No I/O.

An event filter on the viewport (Qt sends the viewport's mouse, wheel and tooltip events through
it before the view sees them). A press on a painted button or a code box's bar goes to
``ui.hover_buttons`` or ``ui.code_scroll``, else starts a selection (``ui.text_selection``); a
right press makes the row current for its menu. A click that selected nothing follows a link
(asking the window first: ``link_activated``) or opens and closes a tool call, an MCP call or a
time reading. A double click selects a word, a sideways wheel over a wide code box scrolls the
box; every other wheel scrolls the transcript as Qt does.

Signals:
    link_activated(str): a link in a message was clicked (its target).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QHelpEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QListView

from ui.code_scroll import CodeScroll
from ui.hover_buttons import HoverButtons
from ui.row_hits import RowHits
from ui.text_selection import TextSelection
from ui.transcript_model import TranscriptModel

_MOUSE = (
    QEvent.Type.MouseButtonPress,
    QEvent.Type.MouseMove,
    QEvent.Type.MouseButtonRelease,
    QEvent.Type.MouseButtonDblClick,
)


class PointerInput(QObject):
    """The mouse in one transcript view (see the module docstring)."""

    link_activated = Signal(str)

    def __init__(
        self,
        view: QListView,
        model: TranscriptModel,
        hits: RowHits,
        selection: TextSelection,
        hover: HoverButtons,
        code_scroll: CodeScroll,
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._hits = hits
        self._selection = selection
        self._hover = hover
        self._code_scroll = code_scroll
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in _MOUSE and isinstance(event, QMouseEvent):
            self._mouse(kind, event)
            return True
        if kind == QEvent.Type.Wheel and isinstance(event, QWheelEvent):
            return self._wheel(event)
        if kind == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            self._hover.tooltip(event)
            return True
        return super().eventFilter(watched, event)

    def _mouse(self, kind: QEvent.Type, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        if kind == QEvent.Type.MouseButtonPress:
            self._press(point, event)
        elif kind == QEvent.Type.MouseMove:
            if not (self._code_scroll.drag(point) or self._selection.drag(point, event.buttons())):
                self._hover.hover(point)
        elif kind == QEvent.Type.MouseButtonRelease:
            self._release(point)
        elif event.button() == Qt.MouseButton.LeftButton:  # a double click
            hit = self._hits.hit(point)
            on_text = hit.layout is not None and hit.layout.button_at(hit.x, hit.y) is None
            self._selection.double_click(
                hit.row if on_text else -1, point, float(event.timestamp())
            )

    def _press(self, point: QPoint, event: QMouseEvent) -> None:
        self._selection.note_press(point)
        hit = self._hits.hit(point)
        view = self._view
        if event.button() != Qt.MouseButton.LeftButton or hit.layout is None:
            if hit.layout is None:
                self._selection.clear()
            if event.button() == Qt.MouseButton.RightButton and hit.row >= 0:
                view.setCurrentIndex(self._model.index(hit.row))
            return
        view.setFocus(Qt.FocusReason.MouseFocusReason)
        view.setCurrentIndex(self._model.index(hit.row))
        if self._hover.press(hit) or self._code_scroll.press(hit):
            return
        self._selection.press(point, event)

    def _release(self, point: QPoint) -> None:
        self._selection.stop_scrolling()
        if self._code_scroll.release() or self._hover.release(point):
            return
        if self._selection.release(point):
            self._click(point)

    def _click(self, point: QPoint) -> None:
        """A click that selected nothing: follow a link, or expand a tool call."""
        hit = self._hits.hit(point)
        if hit.layout is None:
            return
        link = self._hits.link_at(hit)
        row = self._model.row_at(hit.row)
        if link:
            self.link_activated.emit(link)
        elif row is not None and row.kind in ("tool", "mcp", "context"):
            self._model.toggle_expanded(hit.row)

    def _wheel(self, event: QWheelEvent) -> bool:
        """Sideways over a code box that is wider than its box scrolls the box (True: done)."""
        if self._code_scroll.wheel(self._hits.hit(event.position().toPoint()), event):
            event.accept()
            return True
        return False
