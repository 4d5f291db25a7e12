"""TranscriptView: the transcript's list view (rows are painted by ui.turn_delegate). No I/O.

The view follows new output unless the user scrolled up, asks its model for older history when the
user reaches the top, hides ``context`` rows unless "Show context" is on, and copies the selected
rows' text (Ctrl+C or the context menu). Rows are painted by ``TurnDelegate`` from palette colours,
so light and dark schemes both work; row heights are cached per row and width.

Signals:
    retry_requested(): the user asked to retry the failed turn (error row's Retry, or Enter on it).
    settings_requested(): the user asked for Settings from an error row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QGuiApplication,
    QIcon,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMenu,
    QWidget,
)

from ui.transcript_model import TranscriptModel
from ui.turn_delegate import GAP, MARGIN, TurnDelegate, retry_rect

Index = QModelIndex | QPersistentModelIndex


class TranscriptView(QListView):
    """The transcript list: follows the bottom, fetches older rows at the top, copies text.

    Signals:
        retry_requested(): Retry on a failed turn.
        settings_requested(): Settings from an error row.
    """

    retry_requested = Signal()
    settings_requested = Signal()

    def __init__(self, model: TranscriptModel, bell: QIcon, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setAccessibleName(self.tr("Transcript"))
        self._model = model
        self._delegate = TurnDelegate(model, bell, self)
        self._show_context = False
        self._follow = True
        self._loading = False
        self.setModel(model)
        self.setItemDelegate(self._delegate)
        self._configure()
        self._connect()

    def _configure(self) -> None:
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Fixed: a height-only resize (the streaming pane appearing) must not re-lay out every
        # row; width changes are handled in resizeEvent (rows re-wrap).
        self.setResizeMode(QListView.ResizeMode.Fixed)
        # SinglePass: rows inserted at the top are laid out at once, so keeping the reading
        # position after loading older history is one scroll-range change (Batched made several).
        self.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setWordWrap(True)
        self.setUniformItemSizes(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.verticalScrollBar().setSingleStep(24)
        self._copy = QAction(self.tr("Copy"), self)
        self._copy.setShortcut(QKeySequence.StandardKey.Copy)
        self._copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self._copy.triggered.connect(self.copy_selection)
        self.addAction(self._copy)

    def _connect(self) -> None:
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scroll_value_changed)
        bar.rangeChanged.connect(self._on_scroll_range_changed)
        self._model.rowsInserted.connect(self._on_model_rows_inserted)
        self._model.modelReset.connect(self._on_model_reset)
        self._model.dataChanged.connect(self._on_model_data_changed)
        self.customContextMenuRequested.connect(self._on_context_menu)

    # -- public slots --------------------------------------------------------------------
    def set_show_context(self, show: bool) -> None:
        """Show or hide the time-context readings sent to the model."""
        self._model.set_show_context(show)

    def is_following(self) -> bool:
        """True while the view sticks to the newest output."""
        return self._follow

    def scroll_to_end(self) -> None:
        """Jump to the newest row and follow new output again (reloading the tail if the user had
        scrolled so far up that the newest rows were unloaded)."""
        if self._model.has_newer():
            self._model.load_tail()
        self._follow = True
        self.scrollToBottom()

    def copy_selection(self) -> None:
        """Copy the selected rows' text (Markdown source for answers) to the clipboard."""
        rows = sorted(index.row() for index in self.selectionModel().selectedIndexes())
        if not rows and self.currentIndex().isValid():
            rows = [self.currentIndex().row()]
        texts = [str(self._model.index(row).data()) for row in rows]
        if texts:
            QGuiApplication.clipboard().setText("\n\n".join(texts))

    def select_last(self) -> None:
        """Put keyboard focus on the newest row (for copying with the keyboard)."""
        last = self._model.rowCount() - 1
        if last >= 0:
            self.setCurrentIndex(self._model.index(last))

    # -- events --------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._model.rowCount() == 0:
            self._paint_empty_state()

    def _paint_empty_state(self) -> None:
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        area = self.viewport().rect().adjusted(40, 0, -40, 0)
        painter.drawText(
            area, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), self.empty_text()
        )
        painter.end()

    def empty_text(self) -> str:
        """What an empty conversation says (the first move)."""
        return self.tr(
            "Start a conversation below.\n\nTry “remind me in 10 minutes to stretch” — the reminder "
            "comes back here, in this conversation, while it is open."
        )

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self._delegate.set_width(self.viewport().width()):
            self.scheduleDelayedItemsLayout()
        super().resizeEvent(event)
        if self._follow:
            self.scrollToBottom()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
        if event.key() in keys and self._activate(self.currentIndex()):
            return
        super().keyPressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        row = self._model.row_at(index.row()) if index.isValid() else None
        if row is not None and row.kind == "error":
            self._on_error_click(index, event.position().toPoint())
        elif row is not None and row.kind in ("tool", "context"):
            self._model.toggle_expanded(index.row())
        super().mouseReleaseEvent(event)

    def _on_error_click(self, index: QModelIndex, point: QPoint) -> None:
        area = self.visualRect(index).adjusted(MARGIN, GAP, -MARGIN, -GAP)
        actions = retry_rect(area)
        if actions.contains(point):
            if point.x() > actions.right() - 70:
                self.settings_requested.emit()
            else:
                self.retry_requested.emit()

    def _activate(self, index: QModelIndex) -> bool:
        row = self._model.row_at(index.row()) if index.isValid() else None
        if row is None:
            return False
        if row.kind == "error":
            self.retry_requested.emit()
            return True
        if row.kind in ("tool", "context"):
            self._model.toggle_expanded(index.row())
            return True
        return False

    def _on_context_menu(self, point: QPoint) -> None:
        index = self.indexAt(point)
        if index.isValid() and not self.selectionModel().isSelected(index):
            self.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        menu = QMenu(self)
        menu.addAction(self._copy)
        row = self._model.row_at(index.row()) if index.isValid() else None
        if row is not None and row.kind == "error":
            menu.addAction(self.tr("Retry"), self.retry_requested.emit)
        menu.popup(self.viewport().mapToGlobal(point))

    def _on_scroll_value_changed(self, value: int) -> None:
        if self._loading:
            return
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 4 and not self._model.has_newer()
        if value == bar.minimum() and bar.maximum() > 0 and self._model.has_older():
            self._load_keeping_position(self._fetch_older)
        elif value == bar.maximum() and bar.maximum() > 0 and self._model.has_newer():
            self._load_keeping_position(self._model.fetch_newer)

    def _fetch_older(self) -> None:
        self._model.want_older()
        self._model.fetchMore(QModelIndex())

    def _load_keeping_position(self, load: Callable[[], None]) -> None:
        """Load rows above or below while the row at the top of the viewport stays in place."""
        index = self.indexAt(QPoint(MARGIN + 2, 2))
        anchor = self._model.row_at(index.row()) if index.isValid() else None
        offset = self.visualRect(index).top() if anchor is not None else 0
        self._loading = True
        try:
            load()
            self.doItemsLayout()  # SinglePass: the new geometry is known now
            position = self._model.position_of(anchor) if anchor is not None else -1
            if position >= 0:
                bar = self.verticalScrollBar()
                top = self.visualRect(self._model.index(position)).top()
                bar.setValue(bar.value() + top - offset)
        finally:
            self._loading = False

    def _on_scroll_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._follow and not self._loading:
            self.verticalScrollBar().setValue(maximum)

    def _on_model_rows_inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        if self._follow and not self._loading:
            self.scrollToBottom()

    def _on_model_reset(self) -> None:
        self._delegate.forget()
        self._follow = True
        self.scrollToBottom()

    def _on_model_data_changed(
        self, top_left: QModelIndex, _bottom_right: QModelIndex, _roles: Any = None
    ) -> None:
        self.scheduleDelayedItemsLayout()
        if self._follow:
            self.scrollToBottom()

    def event(self, event: QEvent) -> bool:
        if event.type() in (
            QEvent.Type.FontChange,
            QEvent.Type.PaletteChange,
            QEvent.Type.StyleChange,
        ):
            self._delegate.forget()
        return super().event(event)
