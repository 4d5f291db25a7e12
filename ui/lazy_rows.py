"""LazyRows: the transcript loads older or newer rows as the reader reaches an end. No I/O.

The model keeps a window of rows (``ui.transcript_model``); reaching the top of the loaded rows
asks it for older ones, reaching the bottom of rows before the newest for newer ones, and the row
at the top of the viewport stays where it is on screen while they arrive. A few rows that do not
fill the viewport leave no scroll bar to reach older ones: older rows are then loaded, one batch
per turn of the event loop, until they fill it or none is left.

Signals:
    rows_loaded(): older or newer rows were loaded around the reader.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QObject, QTimer, Signal
from PySide6.QtWidgets import QListView

from ui.follow_output import FollowOutput
from ui.row_hits import RowHits
from ui.transcript_model import MIN_ROWS, TranscriptModel


class LazyRows(QObject):
    """Lazy loading at both ends of one transcript view (see the module docstring)."""

    rows_loaded = Signal()

    def __init__(
        self, view: QListView, model: TranscriptModel, follow: FollowOutput, hits: RowHits
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._follow = follow
        self._hits = hits
        self._fill_timer = QTimer(self)
        self._fill_timer.setSingleShot(True)
        self._fill_timer.setInterval(0)
        self._fill_timer.timeout.connect(self._fill_viewport)
        view.verticalScrollBar().valueChanged.connect(self._on_value_changed)

    def fill_soon(self) -> None:
        """Check in the next turn of the event loop that the rows fill the viewport."""
        self._fill_timer.start()

    def _fill_viewport(self) -> None:
        model = self._model
        if model.rowCount() >= MIN_ROWS or not model.history.has_older():
            return
        self._view.doItemsLayout()
        if self._view.verticalScrollBar().maximum() > 0:
            return
        self._load_keeping_position(self._fetch_older)
        self._fill_timer.start()

    def _on_value_changed(self, value: int) -> None:
        if self._follow.held():
            return
        bar = self._view.verticalScrollBar()
        if value == bar.minimum() and bar.maximum() > 0 and self._model.history.has_older():
            self._load_keeping_position(self._fetch_older)
        elif value == bar.maximum() and bar.maximum() > 0 and self._model.history.has_newer():
            self._load_keeping_position(self._model.history.fetch_newer)

    def _fetch_older(self) -> None:
        self._model.history.want_older()
        self._model.fetchMore(QModelIndex())

    def _load_keeping_position(self, load: Callable[[], None]) -> None:
        """Load rows above or below while the row at the top of the viewport stays in place."""
        index = self._hits.top_index()
        anchor = self._model.uid_at(index.row()) if index.isValid() else -1
        offset = self._view.visualRect(index).top() if anchor >= 0 else 0
        with self._follow.hold():
            load()
            self._view.doItemsLayout()  # SinglePass: the new geometry is known now
            position = self._model.row_of_uid(anchor) if anchor >= 0 else -1
            if position >= 0:
                bar = self._view.verticalScrollBar()
                top = self._view.visualRect(self._model.index(position)).top()
                bar.setValue(bar.value() + top - offset)
        self.rows_loaded.emit()
