"""RowPainter: draws one transcript row's ``ui.row_layout.RowLayout`` with what the view's parts
say about the row (``RowLook``). No I/O; keeps no row state.

``ui.turn_delegate.TurnDelegate`` lays rows out and caches their layouts; it gathers the row's
look from the view's parts (the text selection, find marks, code boxes' sideways scroll, the
hovered button, whether the footer's buttons show, what just copied, keyboard focus) and hands
both here. Painting order: the card, the reminder's bell and caption, code boxes, the text
pieces (selection and find marks drawn by the text layout), code scroll bars, the card's buttons,
the footer, the focus frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRect, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QBrush,
    QColor,
    QIcon,
    QPainter,
    QPalette,
    QPen,
    QTextCharFormat,
    QTextCursor,
)

from core.transcript.mcp import CallState
from ui.find_marks import Mark
from ui.quotes import quote_bars
from ui.row_layout import Button, CodeBox, Piece, RowLayout
from ui.row_layouts import RowLayouts
from ui.theme import Surfaces
from ui.transcript_rows import TranscriptRow

COPIED_MESSAGE = -2
"""``RowLook.copied`` when the message's own Copy button just copied (a code box's is its index)."""


@dataclass(frozen=True, slots=True)
class RowLook:
    """What the view's parts say about one row as it is painted."""

    selection: tuple[int, int] | None
    """The selected positions ``[start, end)`` (None: nothing selected in the row)."""
    offsets: dict[int, int]
    """How far each code box is scrolled sideways (by box index)."""
    copied: int
    """What just copied and says so: a box's index, ``COPIED_MESSAGE``, or -1."""
    marks: Sequence[Mark]
    """The find bar's matches in the row."""
    current: int
    """Which of ``marks`` is the current match (-1: none is)."""
    hovered: str
    """The name of the button under the mouse ("" when none)."""
    actions: bool
    """The footer's buttons show (the row is hovered, or the keyboard's current row)."""
    focus: QRect | None
    """The row's area when it has keyboard focus (framed; None: no focus)."""


class RowPainter(QObject):
    """Paints a row's layout: card, caption, code boxes, text, scroll bars, buttons, footer."""

    def __init__(self, layouts: RowLayouts, bell: QIcon, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._layouts = layouts
        self._bell = bell

    def paint(
        self,
        painter: QPainter,
        row: TranscriptRow,
        layout: RowLayout,
        look: RowLook,
        colors: Surfaces,
        palette: QPalette,
    ) -> bool:
        """Paint the row at the painter's origin; True when a code box is still plain (the
        frame's highlighting budget was spent: paint again)."""
        plain = False
        self._paint_card(painter, colors, row, layout)
        self._paint_caption(painter, colors, layout)
        for number, box in enumerate(layout.boxes):
            if not self._layouts.highlight(layout, number):
                plain = True
            self._paint_box(painter, colors, box, look.copied == number)
        for number, piece in enumerate(layout.pieces):
            found = [
                (mark.start, mark.end, at == look.current)
                for at, mark in enumerate(look.marks)
                if mark.piece == number
            ]
            self._paint_piece(
                painter, colors, palette, layout, piece, look.selection, look.offsets, found
            )
        for number, box in enumerate(layout.boxes):
            self._paint_scrollbar(painter, colors, box, look.offsets.get(number, 0))
        self._paint_buttons(painter, colors, layout.buttons, look.hovered)
        copied = look.copied == COPIED_MESSAGE
        self._paint_footer(painter, colors, layout, look.actions, look.hovered, copied=copied)
        if look.focus is not None:
            self._paint_focus(painter, colors, layout, look.focus)
        return plain

    def _paint_card(
        self, painter: QPainter, colors: Surfaces, row: TranscriptRow, layout: RowLayout
    ) -> None:
        if layout.card is None:
            return
        fills = {
            "user": (colors.user_bubble, None),
            "reminder": (colors.reminder_card, colors.reminder_border),
            "error": (colors.error_card, colors.error_border),
        }
        fill, border = fills.get(row.kind, (colors.tool_card, _call_border(row, colors)))
        pen = QPen(border) if border is not None else Qt.PenStyle.NoPen
        if row.queued:
            pen = QPen(colors.muted_text, 1, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(layout.card).adjusted(0.5, 0.5, -0.5, -0.5), 10, 10)

    def _paint_caption(self, painter: QPainter, colors: Surfaces, layout: RowLayout) -> None:
        if layout.bell is not None:
            self._bell.paint(painter, layout.bell)
        if layout.caption is not None:
            self._draw_doc(painter, layout.caption, colors.text, None)

    def _paint_box(self, painter: QPainter, colors: Surfaces, box: CodeBox, copied: bool) -> None:
        painter.setPen(QPen(colors.code_border))
        painter.setBrush(colors.code_background)
        painter.drawRoundedRect(QRectF(box.rect).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8)
        line = box.header.bottom()
        painter.drawLine(box.header.left() + 1, line, box.header.right() - 1, line)
        painter.setFont(self._layouts.fonts.small)
        painter.setPen(colors.muted_text)
        label_rect = box.header.adjusted(10, 0, -box.copy.width() - 16, 0)
        flags = int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
        painter.drawText(label_rect, flags, box.label)
        text = self.tr("Copied ✓") if copied else self.tr("Copy")
        self._paint_button(painter, colors, Button("copy-code", text, box.copy), hovered=False)

    def _paint_piece(
        self,
        painter: QPainter,
        colors: Surfaces,
        palette: QPalette,
        layout: RowLayout,
        piece: Piece,
        selection: tuple[int, int] | None,
        offsets: dict[int, int],
        found: Sequence[tuple[int, int, bool]] = (),
    ) -> None:
        chosen = None
        if selection is not None:
            low, high = max(selection[0], piece.base), min(selection[1], piece.last)
            if low < high:
                chosen = (low - piece.base, high - piece.base)
        color = colors.muted_text if piece.muted else colors.text
        marks = [_find_selection(piece, mark, colors) for mark in found]
        if piece.box < 0:
            self._paint_quote_bars(painter, colors, piece)
            self._draw_doc(painter, piece, color, chosen, palette=palette, marks=marks)
            return
        body = layout.boxes[piece.box].body
        shift = offsets.get(piece.box, 0)
        clip = QRect(
            body.left() - piece.x + shift, body.top() - piece.y, body.width(), body.height()
        )
        self._draw_doc(
            painter, piece, color, chosen, palette=palette, shift=shift, clip=clip, marks=marks
        )

    def _paint_quote_bars(self, painter: QPainter, colors: Surfaces, piece: Piece) -> None:
        """The bar at the left of each quote level (``ui.quotes``)."""
        bars = quote_bars(piece.doc)
        if not bars:
            return
        painter.save()
        painter.translate(piece.x, piece.y)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.code_border)
        for bar in bars:
            painter.drawRoundedRect(bar, 1.5, 1.5)
        painter.restore()

    def _draw_doc(
        self,
        painter: QPainter,
        piece: Piece,
        color: QColor,
        chosen: tuple[int, int] | None,
        *,
        palette: QPalette | None = None,
        shift: int = 0,
        clip: QRect | None = None,
        marks: Sequence[QAbstractTextDocumentLayout.Selection] = (),
    ) -> None:
        """Draw a piece's document in ``color``, the find bar's ``marks`` highlighted, ``chosen``
        positions in the selection colours, shifted left by ``shift`` and clipped to ``clip``
        (piece coordinates)."""
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, color)
        selections = list(marks)
        if chosen is not None and palette is not None:
            selections.append(_selection(piece, chosen, palette))
        if selections:
            context.selections = selections
        painter.save()
        painter.translate(piece.x - shift, piece.y)
        if clip is not None:
            painter.setClipRect(clip)
            context.clip = QRectF(clip)
        piece.doc.documentLayout().draw(painter, context)
        painter.restore()

    def _paint_scrollbar(
        self, painter: QPainter, colors: Surfaces, box: CodeBox, offset: int
    ) -> None:
        if box.scrollbar is None or box.overflow <= 0:
            return
        track = box.scrollbar
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.code_header)
        painter.drawRoundedRect(QRectF(track), 3, 3)
        share = box.body.width() / max(1, box.content_width)
        width = max(24, int(track.width() * share))
        left = track.left() + int((track.width() - width) * offset / box.overflow)
        painter.setBrush(colors.muted_text)
        painter.drawRoundedRect(QRectF(left, track.top(), width, track.height()), 3, 3)

    def _paint_buttons(
        self, painter: QPainter, colors: Surfaces, buttons: list[Button], hovered: str
    ) -> None:
        for button in buttons:
            self._paint_button(painter, colors, button, hovered=button.name == hovered)

    def _paint_button(
        self, painter: QPainter, colors: Surfaces, button: Button, *, hovered: bool
    ) -> None:
        painter.setPen(QPen(colors.code_border))
        painter.setBrush(colors.button_hover if hovered and button.enabled else colors.button)
        painter.drawRoundedRect(QRectF(button.rect).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        painter.setFont(self._layouts.fonts.small)
        painter.setPen(colors.text if button.enabled else colors.muted_text)
        painter.drawText(button.rect, int(Qt.AlignmentFlag.AlignCenter), button.text)

    def _paint_footer(
        self,
        painter: QPainter,
        colors: Surfaces,
        layout: RowLayout,
        show_actions: bool,
        hovered: str,
        *,
        copied: bool,
    ) -> None:
        if layout.footer is None or layout.footer_text_rect is None:
            return
        painter.setFont(self._layouts.fonts.small)
        painter.setPen(colors.muted_text)
        flags = int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
        painter.drawText(layout.footer_text_rect, flags, layout.footer_text)
        if layout.switcher_rect is not None:
            center = int(Qt.AlignmentFlag.AlignCenter)
            painter.drawText(layout.switcher_rect, center, layout.switcher_text)
        if not show_actions and not copied:
            return
        for button in layout.footer_buttons:
            shown = button
            if copied and button.name == "copy":
                shown = Button(button.name, self.tr("Copied ✓"), button.rect, button.tip)
            self._paint_button(painter, colors, shown, hovered=button.name == hovered)

    def _paint_focus(
        self, painter: QPainter, colors: Surfaces, layout: RowLayout, row_area: QRect
    ) -> None:
        area = layout.card if layout.card is not None else row_area
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colors.focus, 2))
        painter.drawRoundedRect(QRectF(area).adjusted(-3, -2, 3, 2), 10, 10)


def _find_selection(
    piece: Piece, mark: tuple[int, int, bool], colors: Surfaces
) -> QAbstractTextDocumentLayout.Selection:
    """A find match in the piece: every match on the match colour, the current one stronger."""
    start, end, current = mark
    if current:
        return _painted(piece, start, end, colors.find_current, colors.find_current_text)
    return _painted(piece, start, end, colors.find_match, colors.text)


def _selection(
    piece: Piece, chosen: tuple[int, int], palette: QPalette
) -> QAbstractTextDocumentLayout.Selection:
    """Positions ``chosen`` of a piece, in the palette's selection colours."""
    background = palette.color(QPalette.ColorRole.Highlight)
    return _painted(piece, *chosen, background, palette.color(QPalette.ColorRole.HighlightedText))


def _painted(
    piece: Piece, start: int, end: int, background: QColor, foreground: QColor
) -> QAbstractTextDocumentLayout.Selection:
    """Positions ``[start, end)`` of a piece drawn on ``background`` in ``foreground``."""
    selection = QAbstractTextDocumentLayout.Selection()
    cursor = QTextCursor(piece.doc)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    selection.cursor = cursor
    fmt = QTextCharFormat()
    fmt.setBackground(QBrush(background))
    fmt.setForeground(QBrush(foreground))
    selection.format = fmt
    return selection


def _call_border(row: TranscriptRow, colors: Surfaces) -> QColor | None:
    """An MCP call's card is outlined while it waits for the person (the reminder's accent) and
    when it did not run to its end (the error's); a done one has no outline."""
    state = row.call.state if row.call is not None else CallState.DONE
    if state is CallState.WAITING:
        return colors.reminder_border
    if state in (CallState.DONE, CallState.RUNNING):
        return None
    return colors.error_border
