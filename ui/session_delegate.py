"""How one row of the sessions sidebar is painted and edited in place. No I/O.

A conversation is two lines: its title (the whole first line of its first message, or the name it
was given, elided only by the list's width; a fork's " (fork)" mark is never elided) with the live
dot and the unread mark; then its age (or the search's snippet), "archived" while searching, and
the reminder badge. A group heading is one short line in small bold muted letters. Editing in
place (F2, double-click) puts a line edit over the title line: Enter commits, Esc cancels.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette, QPen
from PySide6.QtWidgets import QLineEdit, QStyledItemDelegate, QWidget

from core.organise import Heading
from core.visible_text import visible_name
from ui.late_qt import item_state
from ui.session_rows import SessionListItem, fork_parts
from ui.theme import CardColors, card_colors
from ui.timefmt import since

if TYPE_CHECKING:  # handed in by Qt with the first painted row (its enum classes: ~6 M)
    from PySide6.QtWidgets import QStyleOptionViewItem

Index = QModelIndex | QPersistentModelIndex


_COLORS: dict[tuple[tuple[int, ...], bool], CardColors] = {}
"""Row colours by the palette's colours (its cache key is not enough: a palette changed in place
by a theme switch can keep it) and selection."""
_ROLES = tuple(role for role in QPalette.ColorRole if role not in (QPalette.ColorRole.NColorRoles,))


class SessionDelegate(QStyledItemDelegate):
    """Paints conversations and headings (see the module docstring)."""

    def __init__(
        self,
        clock: Callable[[], datetime],
        bell: QIcon,
        summary_of: Callable[[Index], SessionListItem | Heading | None],
        parent: Any = None,
        snippet_of: Callable[[str], str] = lambda _id: "",
        archived: Callable[[str], bool] = lambda _id: False,
        heading_at: Callable[[Index], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self._heading_at = heading_at or (lambda index: isinstance(summary_of(index), Heading))
        self._sizes: dict[str, tuple[QSize, QSize]] = {}
        self._clock = clock
        self._bell = bell
        self._summary_of = summary_of
        self._snippet_of = snippet_of
        self._archived = archived

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        key = option.font.key()  # asked for every row at each layout: kept per font
        sizes = self._sizes.get(key)
        if sizes is None:
            line = QFontMetrics(option.font).height()
            sizes = self._sizes[key] = (QSize(200, line + 12), QSize(200, line * 2 + 18))
        return sizes[0] if self._heading_at(index) else sizes[1]

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        item = self._summary_of(index)
        if item is None:
            return
        painter.save()
        if isinstance(item, Heading):
            self._paint_heading(painter, option, index)
        else:
            self._paint_item(painter, option, item)
        painter.restore()

    def _paint_heading(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        colors = self.colors(option.palette, selected=False)
        font = QFont(option.font)
        font.setBold(True)
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        painter.setPen(colors.muted_text)
        rect = option.rect.adjusted(16, 6, -12, 0)
        text = QFontMetrics(font).elidedText(
            visible_name(str(index.data())), Qt.TextElideMode.ElideRight, rect.width()
        )
        painter.drawText(
            rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text
        )
        if option.state & item_state().State_HasFocus:
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 2))
            painter.drawRoundedRect(option.rect.adjusted(7, 3, -7, -1), 4, 4)

    def _paint_item(
        self, painter: QPainter, option: QStyleOptionViewItem, item: SessionListItem
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = option.palette
        rect = option.rect.adjusted(6, 2, -6, -2)
        selected = bool(option.state & item_state().State_Selected)
        colors = self.colors(palette, selected=selected)
        if selected:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.fill)
            painter.drawRoundedRect(rect, 6, 6)
        if option.state & item_state().State_HasFocus:
            ring = palette.color(
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight
            )
            painter.setPen(QPen(ring, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 6, 6)
        self._paint_lines(painter, option, item, rect, colors)

    @staticmethod
    def colors(palette: QPalette, *, selected: bool) -> CardColors:
        """The row's colours: on the sidebar's background, or in the selection colours (worked
        out once per palette: every row of every paint asks)."""
        key = (tuple(palette.color(role).rgba() for role in _ROLES), selected)
        found = _COLORS.get(key)
        if found is None:
            if len(_COLORS) > 16:  # palettes of themes no longer shown
                _COLORS.clear()
            background = palette.color(QPalette.ColorRole.Window)
            found = _COLORS[key] = card_colors(palette, selected=selected, background=background)
        return found

    @staticmethod
    def title_rect(rect: QRect, font: QFont, *, live: bool, unread: bool = False) -> QRect:
        """Where a row at ``rect`` draws its title (the editor goes there too): after the live
        dot, before the unread mark (the whole width when there is neither)."""
        inner = rect.adjusted(16, 8, -16, -8)
        left = inner.left() + (14 if live else 0)
        right = inner.right() - (14 if unread else 0)
        return QRect(left, inner.top(), right - left, QFontMetrics(font).height())

    def _paint_lines(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        item: SessionListItem,
        rect: QRect,
        colors: CardColors,
    ) -> None:
        color = colors.text
        line = QFontMetrics(option.font).height()
        inner = rect.adjusted(10, 6, -10, -6)
        title_font = QFont(option.font)
        title_font.setBold(item.unread)
        painter.setFont(title_font)
        painter.setPen(color)
        if item.live:
            painter.setBrush(QColor("#2fa84f"))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawEllipse(inner.left(), inner.top() + line // 2 - 4, 8, 8)
            painter.setPen(color)
        title_rect = self.title_rect(option.rect, title_font, live=item.live, unread=item.unread)
        painter.drawText(
            title_rect,
            int(Qt.AlignmentFlag.AlignVCenter),
            elided_title(item, title_font, title_rect),
        )
        if item.unread:
            painter.setBrush(QColor("#e49b0f"))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawEllipse(inner.right() - 8, inner.top() + line // 2 - 4, 8, 8)
        self._paint_second_line(painter, option, item, inner, colors)

    def _paint_second_line(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        item: SessionListItem,
        inner: QRect,
        colors: CardColors,
    ) -> None:
        small = QFont(option.font)
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.88))
        painter.setFont(small)
        metrics = QFontMetrics(small)
        top = inner.top() + QFontMetrics(option.font).height() + 2
        painter.setPen(colors.muted_text)
        parts = [since(item.last_activity, self._clock())]
        if item.read_only:
            parts.append(self.tr("read-only"))
        if self._archived(item.id):
            parts.insert(0, self.tr("archived"))
        if item.overdue:  # first: in a narrow list the age is what gets cut
            parts.insert(0, self.tr("overdue · opens to deliver"))
            painter.setPen(colors.text)
        line_rect = QRect(inner.left(), top, inner.width() - 40, metrics.height())
        snippet = self._snippet_of(item.id)
        if snippet:
            italic = QFont(small)
            italic.setItalic(True)
            painter.setFont(italic)
            elided = QFontMetrics(italic).elidedText(
                snippet, Qt.TextElideMode.ElideRight, line_rect.width()
            )
            painter.drawText(line_rect, 0, elided)
            painter.setFont(small)
        else:
            painter.drawText(line_rect, 0, " · ".join(parts))
        if item.reminder_count:
            self._paint_badge(painter, item.reminder_count, inner, top, metrics, colors)

    def _paint_badge(
        self,
        painter: QPainter,
        count: int,
        inner: QRect,
        top: int,
        metrics: QFontMetrics,
        colors: CardColors,
    ) -> None:
        text = str(count)
        icon = metrics.height() - 2
        width = metrics.horizontalAdvance(text) + icon + 14
        badge_rect = QRect(inner.right() - width, top, width, metrics.height())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.badge)
        painter.drawRoundedRect(badge_rect, 6, 6)
        self._bell.paint(painter, QRect(badge_rect.left() + 4, top + 1, icon, icon))
        painter.setPen(colors.text)
        text_rect = badge_rect.adjusted(icon + 6, 0, -4, 0)
        painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignCenter), text)

    # -- editing in place ----------------------------------------------------------------------
    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        editor = QLineEdit(parent)
        editor.setObjectName("session-title-editor")
        editor.setAccessibleName(
            self.tr("Folder name")
            if isinstance(self._summary_of(index), Heading)
            else self.tr("Title")
        )
        return editor

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, QLineEdit)
        editor.setText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
        editor.selectAll()

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> None:
        item = self._summary_of(index)
        if isinstance(item, SessionListItem):
            rect = self.title_rect(option.rect, option.font, live=item.live)
            editor.setGeometry(rect.adjusted(-2, -3, 4, 3))
        else:
            editor.setGeometry(option.rect.adjusted(10, 2, -10, -2))


def elided_title(item: SessionListItem, font: QFont, rect: QRect) -> str:
    """The title as it fits ``rect``: cut at the end, but a fork keeps its fork mark."""
    base, mark = fork_parts(visible_name(item.title)) if item.fork else (item.title, "")
    metrics = QFontMetrics(font)
    room = rect.width() - metrics.horizontalAdvance(mark)
    return metrics.elidedText(visible_name(base), Qt.TextElideMode.ElideRight, room) + mark
