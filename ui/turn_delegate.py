"""TurnDelegate: paints one transcript row from its ``ui.row_layout.RowLayout``. No I/O.

Colours come from the view's palette through ``ui.theme.surfaces`` (one palette source), so a
theme switch repaints every row in the new colours; the text selection, hovered buttons and code
boxes' sideways scroll come from the view's parts (``RowState``, set by the view once its parts
exist: ``watch``). Layouts are cached per row id and
column width; row values are read from the model directly, never through QVariant (PySide6 6.12
lost references to Python objects returned by ``data()``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QBrush,
    QColor,
    QFont,
    QIcon,
    QPainter,
    QPalette,
    QPen,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from core.readable import format_clock
from core.transcript.mcp import CallState
from ui.find_marks import Mark
from ui.quotes import quote_bars
from ui.row_layout import Button, CodeBox, Piece, RowLayout
from ui.row_layouts import RowLayouts
from ui.theme import Surfaces, is_dark, surfaces
from ui.transcript_model import TranscriptModel
from ui.transcript_roles import caption
from ui.transcript_rows import TranscriptRow

Index = QModelIndex | QPersistentModelIndex
LAYOUT_CACHE = 120
"""Row layouts kept: the rows of several screens around the reader. A layout holds its laid-out
text documents (tens of kB each); keeping one for each of the ~500 loaded rows held ~70 MB after a
long scroll. Heights are kept apart (``HEIGHT_CACHE``), so a row's size never needs its layout."""
HEIGHT_CACHE = 50_000
COPIED_MESSAGE = -2


class RowState(Protocol):
    """What the view knows about rows that changes without the row changing."""

    def selection_in(self, row: int) -> tuple[int, int] | None:
        """The selected positions ``[start, end)`` of the row at ``row`` (None: none)."""
        ...

    def code_offsets(self, uid: int) -> dict[int, int]:
        """How far each code box of the row is scrolled sideways (by box index)."""
        ...

    def hovered_button(self, uid: int) -> str:
        """The name of the button under the mouse in this row ("" when none)."""
        ...

    def shows_actions(self, uid: int) -> bool:
        """The row's action buttons are shown (hovered, or the keyboard's current row)."""
        ...

    def copied_box(self, uid: int) -> int:
        """What just copied in this row and says so: a code box's index, ``COPIED_MESSAGE`` for
        the message's own Copy button, -1 for nothing."""
        ...

    def find_marks(self, row: int) -> tuple[Sequence[Mark], int]:
        """The find bar's matches in the row at ``row`` and which of them is the current one
        (-1: none is)."""
        ...


class TurnDelegate(QStyledItemDelegate):
    """Paints one transcript row: bubble, Markdown blocks, code boxes, cards, footer buttons."""

    def __init__(self, model: TranscriptModel, bell: QIcon, parent: Any = None) -> None:
        super().__init__(parent)
        self._model = model
        self._bell = bell
        self._state: RowState | None = None
        self.layouts = RowLayouts()
        self._viewport_width = 600
        self._column = 560
        self._layouts: OrderedDict[int, tuple[TranscriptRow, int, bool, RowLayout]] = OrderedDict()
        self._heights: dict[int, tuple[TranscriptRow, int, bool, int]] = {}
        self._surfaces: Surfaces | None = None
        self.pending_highlight = False
        """A painted code box is still plain (the frame's budget was spent): paint again."""

    def watch(self, state: RowState) -> None:
        """Paint rows with what ``state`` says (selection, hover, scroll, copied, find)."""
        self._state = state

    def configure(self, font: QFont, palette: QPalette) -> None:
        """New fonts or colours: every layout is built again."""
        self._surfaces = surfaces(palette)
        self.layouts.configure(font, self._surfaces, is_dark(palette))
        self.forget()

    def set_wrap_code(self, wrap: bool) -> None:
        self.layouts.wrap_code = wrap
        self.forget()

    def set_writable(self, writable: bool) -> bool:
        """Rows offer the buttons that write only when ``writable``; True when that changed."""
        if writable == self.layouts.writable:
            return False
        self.layouts.writable = writable
        self.forget()
        return True

    def set_width(self, viewport_width: int) -> bool:
        """The viewport width changed; True when the reading column changed with it (rows are
        laid out again)."""
        if viewport_width <= 0:
            return False
        self._viewport_width = viewport_width
        column = self.layouts.column_width(viewport_width)
        if column == self._column:
            return False
        self._column = column
        self.forget()
        return True

    def column_left(self) -> int:
        """Where the reading column starts in the viewport."""
        return max(0, (self._viewport_width - self._column) // 2)

    def forget(self) -> None:
        """Drop every cached layout (a new session, a font or colour change)."""
        self._layouts.clear()
        self._heights.clear()

    # -- layouts -------------------------------------------------------------------------
    def layout_at(self, row_index: int) -> RowLayout | None:
        """The layout of the row at ``row_index`` (cached by row id while the row is unchanged)."""
        row = self._model.row_at(row_index)
        if row is None:
            return None
        uid = self._model.uid_at(row_index)
        expanded = self._model.is_expanded(row_index)
        cached = self._layouts.get(uid)
        if cached is not None and cached[0] is row and cached[1:3] == (self._column, expanded):
            self._layouts.move_to_end(uid)
            return cached[3]
        layout = self.layouts.layout(
            row,
            self._column,
            expanded=expanded,
            caption=caption(row, self._model.zone_name()),
            time=format_clock(row.at, self._model.zone_name()),
        )
        self._layouts[uid] = (row, self._column, expanded, layout)
        if len(self._layouts) > LAYOUT_CACHE:
            self._layouts.popitem(last=False)
        self._heights[uid] = (row, self._column, expanded, layout.height)
        return layout

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        row_index = index.row()
        row = self._model.row_at(row_index)
        if row is None:
            return QSize(0, 0)
        uid = self._model.uid_at(row_index)
        cached = self._heights.get(uid)
        expanded = self._model.is_expanded(row_index)
        if cached is not None and cached[0] is row and cached[1:3] == (self._column, expanded):
            return QSize(self._viewport_width, cached[3])
        if len(self._heights) > HEIGHT_CACHE:
            self._heights.clear()
        layout = self.layout_at(row_index)
        return QSize(self._viewport_width, layout.height if layout is not None else 0)

    # -- painting ------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        layout = self.layout_at(index.row())
        row = self._model.row_at(index.row())
        state = self._state
        if layout is None or row is None or self._surfaces is None or state is None:
            return
        uid = self._model.uid_at(index.row())
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(option.rect.left() + self.column_left(), option.rect.top())
        colors = self._surfaces
        self._paint_card(painter, colors, row, layout)
        self._paint_caption(painter, colors, layout)
        offsets = state.code_offsets(uid)
        for number, box in enumerate(layout.boxes):
            if not self.layouts.highlight(layout, number):
                self.pending_highlight = True
            self._paint_box(painter, colors, box, state.copied_box(uid) == number)
        selection = state.selection_in(index.row())
        palette = option.palette
        marks, current = state.find_marks(index.row())
        for number, piece in enumerate(layout.pieces):
            found = [
                (mark.start, mark.end, at == current)
                for at, mark in enumerate(marks)
                if mark.piece == number
            ]
            self._paint_piece(painter, colors, palette, layout, piece, selection, offsets, found)
        for number, box in enumerate(layout.boxes):
            self._paint_scrollbar(painter, colors, box, offsets.get(number, 0))
        hovered = state.hovered_button(uid)
        self._paint_buttons(painter, colors, layout.buttons, hovered)
        copied = state.copied_box(uid) == COPIED_MESSAGE
        footer = state.shows_actions(uid)
        self._paint_footer(painter, colors, layout, footer, hovered, copied=copied)
        if option.state & QStyle.StateFlag.State_HasFocus:
            self._paint_focus(painter, colors, layout, option.rect.height())
        painter.restore()

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
        painter.setFont(self.layouts.fonts.small)
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
        painter.setFont(self.layouts.fonts.small)
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
        painter.setFont(self.layouts.fonts.small)
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
        self, painter: QPainter, colors: Surfaces, layout: RowLayout, height: int
    ) -> None:
        area = layout.card if layout.card is not None else QRect(0, 2, self._column, height - 4)
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
