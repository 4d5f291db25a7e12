"""TranscriptView and TurnDelegate: the transcript's list view and row painting. No I/O.

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
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QAction,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QGuiApplication,
    QIcon,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ui.transcript_model import TranscriptModel
from ui.transcript_rows import TranscriptRow, reminder_text

Index = QModelIndex | QPersistentModelIndex

MARGIN = 14
GAP = 5
PAD = 10
CACHE_LIMIT = 50000
DOC_CACHE = 300


def _mix(a: QColor, b: QColor, amount: float) -> QColor:
    """``a`` moved ``amount`` (0..1) of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * amount),
        round(a.green() + (b.green() - a.green()) * amount),
        round(a.blue() + (b.blue() - a.blue()) * amount),
    )


def _is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


class TurnDelegate(QStyledItemDelegate):
    """Paints one transcript row: bubble, Markdown answer, tool card, reminder card, error card."""

    def __init__(self, model: TranscriptModel, bell: QIcon, parent: Any = None) -> None:
        super().__init__(parent)
        self._model = model
        self._bell = bell
        self._width = 600
        self._heights: dict[int, tuple[TranscriptRow, int, bool, int]] = {}
        self._docs: dict[tuple[TranscriptRow, int, bool], QTextDocument] = {}
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def set_width(self, width: int) -> bool:
        """The viewport width changed; returns True when cached heights were dropped."""
        if width == self._width or width <= 0:
            return False
        self._width = width
        self._heights.clear()
        self._docs.clear()
        return True

    def forget(self) -> None:
        """Drop every cached layout (a new session, a font change)."""
        self._heights.clear()
        self._docs.clear()

    # -- geometry ------------------------------------------------------------------------
    def content_width(self, row: TranscriptRow) -> int:
        full = max(120, self._width - 2 * MARGIN)
        if row.kind == "user":
            return max(120, int(full * 0.78)) - 2 * PAD
        if row.kind in ("assistant", "streaming", "notice"):
            return full
        return full - 2 * PAD - (26 if row.kind == "reminder" else 0)

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        row = self._model.row_at(index.row())
        if row is None:
            return QSize(0, 0)
        expanded = self._model.is_expanded(index.row())
        cached = self._heights.get(id(row))
        if (
            cached is not None
            and cached[0] is row
            and cached[1] == self._width
            and cached[2] == expanded
        ):
            return QSize(self._width, cached[3])
        height = self._measure(row, option.font, expanded, index)
        if len(self._heights) > CACHE_LIMIT:
            self._heights.clear()
        self._heights[id(row)] = (row, self._width, expanded, height)
        return QSize(self._width, height)

    def _measure(self, row: TranscriptRow, font: QFont, expanded: bool, index: Index) -> int:
        doc = self.document(row, font, expanded, index)
        body = int(doc.size().height())
        if row.kind in ("assistant", "streaming", "notice"):
            return body + 2 * GAP
        extra = self._caption_height(font) if row.kind in ("reminder", "error") else 0
        return body + extra + 2 * PAD + 2 * GAP

    def _caption_height(self, font: QFont) -> int:
        small = QFont(font)
        small.setPointSizeF(max(6.0, font.pointSizeF() * 0.9))
        small.setBold(True)
        return QFontMetrics(small).height() + 4

    # -- documents -----------------------------------------------------------------------
    def document(
        self, row: TranscriptRow, font: QFont, expanded: bool, index: Index
    ) -> QTextDocument:
        """The laid-out text of ``row`` at the current width (cached for visible rows)."""
        key = (row, self._width, expanded)
        doc = self._docs.get(key)
        if doc is not None:
            return doc
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self._font_for(row, font))
        self._fill(doc, row, expanded, index)
        doc.setTextWidth(self.content_width(row))
        self._docs[key] = doc
        if len(self._docs) > DOC_CACHE:
            del self._docs[next(iter(self._docs))]  # least recently created
        return doc

    def _font_for(self, row: TranscriptRow, font: QFont) -> QFont:
        if row.kind == "context":
            mono = QFont(self._mono)
            mono.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
            return mono
        if row.kind in ("tool", "notice"):
            small = QFont(font)
            small.setPointSizeF(max(6.0, font.pointSizeF() * 0.92))
            small.setItalic(row.kind == "notice")
            return small
        return font

    def _fill(self, doc: QTextDocument, row: TranscriptRow, expanded: bool, index: Index) -> None:
        if row.kind == "assistant":
            doc.setMarkdown(row.text)
            self._monospace_code(doc)
        elif row.kind == "streaming":
            doc.setPlainText(row.text + " ▍")
        elif row.kind == "tool":
            marker = "▾" if expanded else "▸"
            doc.setPlainText(f"{marker}  {row.title}")
            if expanded:
                self._append_mono(doc, "\n" + row.detail)
        elif row.kind == "reminder":
            doc.setPlainText(reminder_text(row))
        else:
            doc.setPlainText(row.text)

    def _append_mono(self, doc: QTextDocument, text: str) -> None:
        cursor = QTextCursor(doc)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        fmt = QTextCharFormat()
        mono = QFont(self._mono)
        mono.setPointSizeF(doc.defaultFont().pointSizeF())
        fmt.setFont(mono)
        cursor.insertText(text, fmt)

    def _monospace_code(self, doc: QTextDocument) -> None:
        """Code spans and blocks in the system monospace font (Qt marks them fixed-pitch)."""
        cursor = QTextCursor(doc)
        block = doc.begin()
        while block.isValid():
            is_code = block.blockFormat().hasProperty(0x1090)  # QTextFormat.BlockCodeFence
            iterator = block.begin()
            while not iterator.atEnd():
                fragment = iterator.fragment()
                fmt = fragment.charFormat()
                if is_code or fmt.fontFixedPitch():
                    mono = QTextCharFormat()
                    mono.setFontFamilies(self._mono.families())
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(
                        fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor
                    )
                    cursor.mergeCharFormat(mono)
                iterator += 1
            block = block.next()

    # -- painting ------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        row = self._model.row_at(index.row())
        if row is None:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = option.palette
        expanded = self._model.is_expanded(index.row())
        doc = self.document(row, option.font, expanded, index)
        rect = option.rect.adjusted(MARGIN, GAP, -MARGIN, -GAP)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        focused = bool(option.state & QStyle.StateFlag.State_HasFocus)
        card = self._card_rect(row, rect, doc)
        if card is not None:
            self._paint_card(painter, palette, row, card)
        if selected or focused:
            self._paint_focus(painter, palette, card or rect, selected=selected)
        self._paint_text(painter, palette, row, doc, card or rect, index)
        painter.restore()

    def _card_rect(self, row: TranscriptRow, rect: QRect, doc: QTextDocument) -> QRect | None:
        if row.kind == "user":
            width = min(rect.width(), int(doc.idealWidth()) + 2 * PAD + 2)
            return QRect(rect.right() - width + 1, rect.top(), width, rect.height())
        if row.kind in ("tool", "reminder", "error", "context"):
            return rect
        return None

    def _paint_card(
        self, painter: QPainter, palette: QPalette, row: TranscriptRow, card: QRect
    ) -> None:
        base = palette.color(QPalette.ColorRole.Base)
        dark = _is_dark(palette)
        tint = {
            "user": palette.color(QPalette.ColorRole.Highlight),
            "reminder": QColor("#f0a020"),
            "error": QColor("#d03030"),
            "tool": palette.color(QPalette.ColorRole.Mid),
            "context": palette.color(QPalette.ColorRole.Mid),
        }[row.kind]
        amount = {"user": 0.22, "reminder": 0.22, "error": 0.16}.get(row.kind, 0.10)
        fill = _mix(base, tint, amount + (0.08 if dark else 0.0))
        painter.setPen(
            _mix(base, tint, 0.55) if row.kind in ("reminder", "error") else Qt.PenStyle.NoPen
        )
        painter.setBrush(fill)
        painter.drawRoundedRect(card.adjusted(0, 0, -1, -1), 8, 8)

    def _paint_focus(
        self, painter: QPainter, palette: QPalette, rect: QRect, *, selected: bool
    ) -> None:
        color = palette.color(QPalette.ColorRole.Highlight)
        if selected:
            shade = QColor(color)
            shade.setAlpha(40)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(shade)
            painter.drawRoundedRect(rect.adjusted(-4, -2, 4, 2), 8, 8)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(color)
        painter.drawRoundedRect(rect.adjusted(-4, -2, 3, 1), 8, 8)

    def _paint_text(
        self,
        painter: QPainter,
        palette: QPalette,
        row: TranscriptRow,
        doc: QTextDocument,
        area: QRect,
        index: Index,
    ) -> None:
        text_color = palette.color(QPalette.ColorRole.Text)
        if row.kind in ("notice", "context"):
            text_color = palette.color(QPalette.ColorRole.PlaceholderText)
        left = area.left() + (0 if row.kind in ("assistant", "streaming", "notice") else PAD)
        top = area.top() + (0 if row.kind in ("assistant", "streaming", "notice") else PAD)
        if row.kind in ("reminder", "error"):
            top = self._paint_caption(painter, palette, row, area, index)
            left += 26 if row.kind == "reminder" else 0
        painter.translate(left, top)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, text_color)
        doc.documentLayout().draw(painter, context)
        painter.translate(-left, -top)

    def _paint_caption(
        self, painter: QPainter, palette: QPalette, row: TranscriptRow, area: QRect, index: Index
    ) -> int:
        small = QFont(painter.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.9))
        small.setBold(True)
        painter.setFont(small)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        left = area.left() + PAD
        if row.kind == "reminder":
            self._bell.paint(painter, QRect(left, area.top() + PAD, 18, 18))
            caption = self._model.caption(row) or self.tr("Reminder")
            painter.drawText(QRect(left + 26, area.top() + PAD, area.width() - 40, 20), 0, caption)
        else:
            painter.drawText(
                QRect(left, area.top() + PAD, area.width() - 2 * PAD, 20),
                0,
                self.tr("Something went wrong"),
            )
            painter.drawText(
                retry_rect(area),
                int(Qt.AlignmentFlag.AlignRight),
                self.tr("Retry (Enter)  ·  Settings"),
            )
        return area.top() + PAD + QFontMetrics(small).height() + 4


def retry_rect(card: QRect) -> QRect:
    """Where an error card shows its actions (top right)."""
    return QRect(card.right() - 230, card.top() + PAD, 220, 20)


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
