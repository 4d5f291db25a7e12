"""HoverButtons: what the mouse is over in the transcript, and the painted buttons it presses. No I/O.

A row's footer buttons show while the mouse is over the row (or it is the keyboard's current
row); a button, a code box's Copy or a link under the mouse takes the pointing hand, text the
I-beam. A press on a button and the release over the same button is a click (a disabled button
does nothing). A link under the mouse is announced (the window shows its target in the status
bar) and a button's tip, or the link, is the tooltip.

Signals:
    changed(): the hovered row or button changed (the view repaints).
    link_hovered(str): the mouse is over a link with this target ("" when it left).
    clicked(int, str): a button was clicked (the row, the button's name; a code box's Copy is
        ``copy-code:<box>``).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QListView, QToolTip

from ui.row_files import link_tip
from ui.row_hits import Hit, RowHits
from ui.row_layout import RowLayout
from ui.transcript_model import TranscriptModel
from ui.untrusted import literal

COPY_CODE = "copy-code:"
"""The name prefix of a code box's Copy, followed by the box's index."""


class HoverButtons(QObject):
    """Hover state and button clicks of one transcript view (see the module docstring)."""

    changed = Signal()
    link_hovered = Signal(str)
    clicked = Signal(int, str)

    def __init__(self, view: QListView, model: TranscriptModel, hits: RowHits) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._hits = hits
        self._uid = -1
        self._button = ""
        self._link = ""
        self._pressed: tuple[int, str] | None = None

    def hovered_button(self, uid: int) -> str:
        """The name of the button under the mouse in this row ("" when none)."""
        return self._button if uid == self._uid else ""

    def shows_actions(self, uid: int) -> bool:
        """The row's action buttons are shown (hovered, or the keyboard's current row)."""
        if uid == self._uid:
            return True
        view = self._view
        return view.hasFocus() and uid == self._model.uid_at(view.currentIndex().row())

    def press(self, hit: Hit) -> bool:
        """A left press on a shown button or a code box's Copy (True: it is one)."""
        layout = hit.layout
        if layout is None:
            return False
        button = layout.button_at(hit.x, hit.y)
        if button is not None and (button in layout.buttons or self.shows_actions(hit.uid)):
            self._pressed = (hit.uid, button.name)
            return True
        box = layout.copy_box_at(hit.x, hit.y)
        if box >= 0:
            self._pressed = (hit.uid, f"{COPY_CODE}{box}")
            return True
        return False

    def release(self, point: QPoint) -> bool:
        """The button was released: True when a press on a button started it (a click when it
        is still over that button)."""
        pressed, self._pressed = self._pressed, None
        if pressed is None:
            return False
        uid, name = pressed
        hit = self._hits.hit(point)
        if hit.uid != uid or hit.layout is None:
            return True
        over = hit.layout.button_at(hit.x, hit.y)
        box = hit.layout.copy_box_at(hit.x, hit.y)
        on_copy = name.startswith(COPY_CODE) and box == int(name.removeprefix(COPY_CODE))
        on_button = over is not None and over.name == name and over.enabled
        if on_copy or on_button:
            self.clicked.emit(hit.row, name)
        return True

    def hover(self, point: QPoint) -> None:
        """The mouse moved over the viewport (no button held)."""
        hit = self._hits.hit(point)
        link = self._hits.link_at(hit)
        button, cursor = self._under(hit, link)
        if (hit.uid, button) != (self._uid, self._button):
            self._uid, self._button = hit.uid, button
            self.changed.emit()
        self._view.viewport().setCursor(cursor)
        if link != self._link:
            self._link = link
            self.link_hovered.emit(link)

    def _under(self, hit: Hit, link: str) -> tuple[str, Qt.CursorShape]:
        """The button under a hit ("" when none) and the cursor there: the pointing hand over a
        button or a link, the I-beam over text."""
        layout = hit.layout
        if layout is None:
            return "", Qt.CursorShape.ArrowCursor
        found = layout.button_at(hit.x, hit.y)
        if found is not None:
            return found.name, Qt.CursorShape.PointingHandCursor
        box = layout.copy_box_at(hit.x, hit.y)
        if box >= 0:
            return f"{COPY_CODE}{box}", Qt.CursorShape.PointingHandCursor
        if link:
            return "", Qt.CursorShape.PointingHandCursor
        if _over_text(layout, hit):
            return "", Qt.CursorShape.IBeamCursor
        return "", Qt.CursorShape.ArrowCursor

    def leave(self) -> None:
        """The mouse left the view."""
        if self._uid == -1 and not self._link:
            return
        self._uid, self._button = -1, ""
        if self._link:
            self._link = ""
            self.link_hovered.emit("")
        self.changed.emit()

    def tooltip(self, event: QHelpEvent) -> None:
        """Show the tip of the button under the mouse, else the hovered link's target (for an
        attached file, "Open photo.png")."""
        hit = self._hits.hit(event.pos())
        button = hit.layout.button_at(hit.x, hit.y) if hit.layout is not None else None
        if button is not None and button.tip:
            QToolTip.showText(event.globalPos(), button.tip, self._view)
        elif self._link:
            row = self._model.row_at(hit.row)
            tip = link_tip(self._link, row.files if row is not None else ())
            QToolTip.showText(event.globalPos(), literal(tip), self._view)  # as written
        else:
            QToolTip.hideText()


def _over_text(layout: RowLayout, hit: Hit) -> bool:
    return any(
        piece.y <= hit.y < piece.y + piece.height and piece.x <= hit.x for piece in layout.pieces
    )
