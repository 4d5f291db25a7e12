"""TurnDelegate: paints one transcript row (bubble, Markdown answer, tool/reminder/error card).

No I/O. Colours come from the palette, so light and dark schemes both work; laid-out documents
and row heights are cached per row value and width. Rows are read from the model directly, never
through QVariant (PySide6 6.12 lost references to Python objects returned by ``data()``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QIcon,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
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
