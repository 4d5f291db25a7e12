"""CodeScroll: how far each code box of the transcript is scrolled sideways. No I/O.

A code box wider than the reading column (code is not wrapped) scrolls sideways: by dragging the
thin bar painted under it, or with a sideways wheel (or Shift+wheel) over it. Offsets are kept by
row id and box index, and dropped when the rows are replaced or code starts wrapping.

Signals:
    changed(): an offset changed (the view repaints).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QWheelEvent

from ui.row_hits import Hit, RowHits
from ui.row_layout import RowLayout
from ui.turn_delegate import TurnDelegate


@dataclass(frozen=True, slots=True)
class BarDrag:
    """A drag of a code box's bar: the row (by id and position), the box, where the drag grabbed
    the bar, and content pixels per bar pixel."""

    uid: int
    row: int
    box: int
    grab: int
    share: float


class CodeScroll(QObject):
    """The code boxes' sideways scroll (see the module docstring)."""

    changed = Signal()

    def __init__(self, delegate: TurnDelegate, parent: QObject) -> None:
        super().__init__(parent)
        self._delegate = delegate
        self._hits: RowHits | None = None
        self._offsets: dict[int, dict[int, int]] = {}
        self._drag: BarDrag | None = None

    def attach(self, hits: RowHits) -> None:
        """The hit testing it reads (which itself reads these offsets)."""
        self._hits = hits

    def offsets(self, uid: int) -> dict[int, int]:
        """How far each code box of the row ``uid`` is scrolled (by box index)."""
        return self._offsets.get(uid, {})

    def clear(self) -> None:
        self._offsets.clear()

    def press(self, hit: Hit) -> bool:
        """A press on a code box's bar starts a drag (True: it did)."""
        layout = hit.layout
        bar = layout.scrollbar_at(hit.x, hit.y) if layout is not None else -1
        if layout is None or bar < 0:
            return False
        offset = self.offsets(hit.uid).get(bar, 0)
        box = layout.boxes[bar]
        share = box.content_width / max(1, box.body.width())
        self._drag = BarDrag(hit.uid, hit.row, bar, hit.x - int(offset / share), share)
        return True

    def drag(self, point: QPoint) -> bool:
        """The mouse moved: True while a bar is dragged (the box follows it)."""
        drag, hits = self._drag, self._hits
        if drag is None or hits is None:
            return False
        layout = self._delegate.layout_at(drag.row)
        if layout is not None and drag.box < len(layout.boxes):
            x = point.x() - hits.row_origin(drag.row).x()
            self._set(drag.uid, drag.box, int((x - drag.grab) * drag.share), layout)
        return True

    def release(self) -> bool:
        """The button was released: True when it ended a drag."""
        dragging, self._drag = self._drag is not None, None
        return dragging

    def wheel(self, hit: Hit, event: QWheelEvent) -> bool:
        """Sideways over a code box wider than its box scrolls the box (True: it did)."""
        delta = event.angleDelta()
        shifted = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        sideways = delta.x() if delta.x() else (delta.y() if shifted else 0)
        if hit.layout is None or not sideways:
            return False
        box = hit.layout.box_at(hit.x, hit.y)
        if box < 0 or hit.layout.boxes[box].overflow <= 0:
            return False
        offset = self.offsets(hit.uid).get(box, 0)
        self._set(hit.uid, box, offset - sideways // 2, hit.layout)
        return True

    def _set(self, uid: int, box: int, offset: int, layout: RowLayout) -> None:
        limit = layout.boxes[box].overflow
        self._offsets.setdefault(uid, {})[box] = max(0, min(limit, offset))
        self.changed.emit()
