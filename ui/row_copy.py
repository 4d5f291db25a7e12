"""RowCopy: copying from the transcript, and the "Copied" a row shows for a moment. No I/O.

Ctrl+C copies the selection as plain text (the clipboard also gets it as ``text/markdown``);
without a selection it copies the current message as written. A message's Copy button and a code
box's Copy copy the message or exactly the code, and say "Copied" there for ``COPIED_MS``.

Signals:
    changed(): a row's "Copied" appeared or went (the view repaints).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QObject, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from ui.row_hits import RowHits
from ui.row_painter import COPIED_MESSAGE
from ui.text_selection import TextSelection
from ui.transcript_model import TranscriptModel
from ui.transcript_roles import plain_text
from ui.turn_delegate import TurnDelegate

COPIED_MS = 1500


class RowCopy(QObject):
    """The copy commands of one transcript view (see the module docstring)."""

    changed = Signal()

    def __init__(
        self,
        model: TranscriptModel,
        delegate: TurnDelegate,
        selection: TextSelection,
        hits: RowHits,
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._delegate = delegate
        self._selection = selection
        self._hits = hits
        self._copied = (-1, -1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COPIED_MS)
        self._timer.timeout.connect(self._on_expired)

    def copied_box(self, uid: int) -> int:
        """What just copied in this row and says so: a code box's index, ``COPIED_MESSAGE`` for
        the message's own Copy button, -1 for nothing."""
        return self._copied[1] if self._copied[0] == uid else -1

    def copy_selection(self) -> None:
        """Copy the selection (plain text, and Markdown as ``text/markdown``); without one, the
        current message."""
        if not self._selection.has_selection():
            self.copy_current_message()
            return
        data = QMimeData()
        data.setText(self._selection.selected_text())
        markdown = self._selection.selected_text(markdown=True)
        data.setData("text/markdown", markdown.encode("utf-8"))
        QGuiApplication.clipboard().setMimeData(data)

    def copy_selection_markdown(self) -> None:
        QGuiApplication.clipboard().setText(self._selection.selected_text(markdown=True))

    def copy_current_message(self) -> None:
        """Copy the current row's text as written (an answer's Markdown source)."""
        self.copy_row(self._hits.current_row())

    def copy_row(self, row: int) -> None:
        value = self._model.row_at(row)
        text = plain_text(value) if value is not None else ""
        if text:
            QGuiApplication.clipboard().setText(text)
            self._show(self._model.uid_at(row), COPIED_MESSAGE)

    def copy_code(self, row: int, box: int) -> None:
        """Copy exactly the code of a code box."""
        layout = self._delegate.layout_at(row)
        if layout is not None and 0 <= box < len(layout.boxes):
            QGuiApplication.clipboard().setText(layout.boxes[box].code)
            self._show(self._model.uid_at(row), box)

    def _show(self, uid: int, what: int) -> None:
        self._copied = (uid, what)
        self._timer.start()
        self.changed.emit()

    def _on_expired(self) -> None:
        self._copied = (-1, -1)
        self.changed.emit()
