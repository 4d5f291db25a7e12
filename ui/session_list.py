"""The sessions sidebar: newest activity first, badges, live and unread marks, a filter. No I/O.

The app gives it ``SessionListItem`` values; the filter matches the title and ``search_text`` (the
message text the app has for that session) at once, as the user types. Closed sessions are found
by their messages too: ``SEARCH_DELAY_MS`` after the typing stops (or at once on Enter) the panel
asks the app to search (``search_wanted``), and the app answers with ``set_matches``: the
sessions whose messages hold the text, each with a snippet around the match, shown on the row's
second line in place of its age. Actions (New, Rename, Fork, Export, Close, Delete) are the main
window's QActions, added here for the context menu.

Signals:
    session_chosen(str): the user picked this session.
    search_wanted(str): search every session's messages for this text ("" when cleared).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QIcon,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from core.visible_text import visible_name
from ui.late_qt import own_viewport
from ui.theme import CardColors, card_colors
from ui.timefmt import since
from ui.untrusted import literal

Index = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 2
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3
SEARCH_DELAY_MS = 200
"""How long after the last key press the messages of every session are searched."""


SNIPPET_LEAD = 12
"""Characters a snippet keeps before the match, so the match shows in a narrow sidebar."""


def search_key(text: str) -> str:
    """A query as it is compared: spaces folded, case-insensitive."""
    return " ".join(text.split()).casefold()


def snippet_from_match(snippet: str, query: str) -> str:
    """``snippet`` started shortly before the first match of ``query`` ("…" marks a cut)."""
    at = snippet.casefold().find(search_key(query))
    if at <= SNIPPET_LEAD:
        return snippet
    start = at - SNIPPET_LEAD
    space = snippet.find(" ", start, at)  # begin with a whole word
    return "…" + snippet[space + 1 if space >= 0 else start :]


@dataclass(frozen=True, slots=True)
class SessionListItem:
    """What the sidebar shows for one session (the app builds it from an open session or a
    stored one's ``core.session.summary.SessionFileSummary``)."""

    id: str
    title: str
    last_activity: datetime
    reminder_count: int = 0
    live: bool = False
    unread: bool = False
    read_only: bool = False
    search_text: str = ""
    overdue: bool = False
    """Closed, with a reminder already due: it is delivered when the conversation opens."""
    unread_count: int = 0


class SessionListModel(QAbstractListModel):
    """Session summaries, newest activity first."""

    def __init__(self, clock: Callable[[], datetime], parent: Any = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._items: list[SessionListItem] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._items)

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names[ID_ROLE] = QByteArray(b"sessionId")
        names[SEARCH_ROLE] = QByteArray(b"search")
        return names

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return item.title
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._accessible(item)
        if role == ID_ROLE:
            return item.id
        if role == SEARCH_ROLE:
            return f"{item.title}\n{item.search_text}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return literal(visible_name(item.title))  # the model's or the user's words, not HTML
        return None

    def _accessible(self, item: SessionListItem) -> str:
        parts = [item.title, since(item.last_activity, self._clock())]
        if item.reminder_count:
            parts.append(self.tr("%n active reminder(s)", "", item.reminder_count))
        if item.live:
            parts.append(self.tr("open"))
        if item.unread:
            parts.append(self.tr("unread reminder"))
        if item.overdue:
            parts.append(self.tr("a reminder is overdue: opening the conversation delivers it"))
        return ", ".join(parts)

    def set_sessions(self, items: Sequence[SessionListItem], *, hold_order: bool = False) -> None:
        """Replace the list, sorted newest activity first; ``hold_order`` (the pointer or the
        keyboard is on the list) keeps the rows already shown where they are (a new session goes
        on top), so a click aimed at one row never lands on another."""
        fresh = sorted(items, key=lambda s: (s.last_activity, s.id), reverse=True)
        if hold_order:
            place = {item.id: row for row, item in enumerate(self._items)}
            kept = sorted((i for i in fresh if i.id in place), key=lambda i: place[i.id])
            fresh = [i for i in fresh if i.id not in place] + kept
        if [i.id for i in fresh] == [i.id for i in self._items]:
            self._items = fresh
            if fresh:
                self.dataChanged.emit(self.index(0), self.index(len(fresh) - 1))
            return
        self.beginResetModel()
        self._items = fresh
        self.endResetModel()

    def in_order(self) -> bool:
        """Whether the rows are in activity order (not held)."""
        ordered = sorted(self._items, key=lambda s: (s.last_activity, s.id), reverse=True)
        return [i.id for i in ordered] == [i.id for i in self._items]

    def item(self, row: int) -> SessionListItem | None:
        """The summary at ``row`` (delegates read it here, not through QVariant)."""
        return self._items[row] if 0 <= row < len(self._items) else None

    def row_of(self, session_id: str) -> int:
        for row, item in enumerate(self._items):
            if item.id == session_id:
                return row
        return -1


class SessionFilter(QSortFilterProxyModel):
    """The typed text's sessions: a title or loaded message text holding it, or a session the
    app's search of every message found (``matches``, for the query they answer)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._typed = ""
        self._query = ""
        self._matches: dict[str, str] = {}

    def set_text(self, text: str) -> None:
        """The text typed into the filter box."""
        self._typed = text
        self.setFilterFixedString(text)

    def set_matches(self, query: str, matches: Mapping[str, str]) -> None:
        self.beginFilterChange()
        self._query = search_key(query)
        self._matches = {sid: snippet_from_match(text, query) for sid, text in matches.items()}
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def snippet(self, session_id: str) -> str:
        """The snippet of a session found by its messages for the text typed now ("" none)."""
        if not self._query or self._query != search_key(self._typed):
            return ""
        return self._matches.get(session_id, "")

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if super().filterAcceptsRow(source_row, source_parent):
            return True
        session_id = self.sourceModel().index(source_row, 0, source_parent).data(ID_ROLE)
        return isinstance(session_id, str) and bool(self.snippet(session_id))


class SessionDelegate(QStyledItemDelegate):
    """Two lines: title with the live dot; relative time (or the search's snippet), reminder
    badge and unread mark."""

    def __init__(
        self,
        clock: Callable[[], datetime],
        bell: QIcon,
        summary_of: Callable[[Index], SessionListItem | None],
        parent: Any = None,
        snippet_of: Callable[[str], str] = lambda _id: "",
    ) -> None:
        super().__init__(parent)
        self._clock = clock
        self._bell = bell
        self._summary_of = summary_of
        self._snippet_of = snippet_of

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        metrics = QFontMetrics(option.font)
        return QSize(200, metrics.height() * 2 + 18)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        item = self._summary_of(index)
        if item is None:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = option.palette
        rect = option.rect.adjusted(6, 2, -6, -2)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        colors = self.colors(palette, selected=selected)
        if selected:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.fill)
            painter.drawRoundedRect(rect, 6, 6)
        if option.state & QStyle.StateFlag.State_HasFocus:
            ring = palette.color(
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight
            )
            painter.setPen(QPen(ring, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 6, 6)
        self._paint_lines(painter, option, item, rect, colors)
        painter.restore()

    @staticmethod
    def colors(palette: QPalette, *, selected: bool) -> CardColors:
        """The row's colours: on the sidebar's background, or in the selection colours."""
        return card_colors(
            palette, selected=selected, background=palette.color(QPalette.ColorRole.Window)
        )

    def _paint_lines(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        item: SessionListItem,
        rect: QRect,
        colors: CardColors,
    ) -> None:
        color = colors.text
        metrics = QFontMetrics(option.font)
        line = metrics.height()
        inner = rect.adjusted(10, 6, -10, -6)
        title_font = QFont(option.font)
        title_font.setBold(item.unread)
        painter.setFont(title_font)
        painter.setPen(color)
        left = inner.left()
        if item.live:
            painter.setBrush(QColor("#2fa84f"))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawEllipse(left, inner.top() + line // 2 - 4, 8, 8)
            left += 14
            painter.setPen(color)
        title_rect = QRect(left, inner.top(), inner.right() - left - 30, line)
        elided = QFontMetrics(title_font).elidedText(
            visible_name(item.title), Qt.TextElideMode.ElideRight, title_rect.width()
        )
        painter.drawText(title_rect, int(Qt.AlignmentFlag.AlignVCenter), elided)
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
            count = str(item.reminder_count)
            icon = metrics.height() - 2
            width = metrics.horizontalAdvance(count) + icon + 14
            badge_rect = QRect(inner.right() - width, top, width, metrics.height())
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.badge)
            painter.drawRoundedRect(badge_rect, 6, 6)
            self._bell.paint(painter, QRect(badge_rect.left() + 4, top + 1, icon, icon))
            painter.setPen(colors.text)
            text_rect = badge_rect.adjusted(icon + 6, 0, -4, 0)
            painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignCenter), count)


class SessionListView(QListView):
    """The sessions list; when the filter leaves no row, it says so in the list."""

    def __init__(self, empty_text: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewport(own_viewport())  # before anything asks for it (ui.late_qt)
        self._empty_text = empty_text

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        text = self._empty_text()
        if self.model() is None or self.model().rowCount() or not text:
            return
        painter = QPainter(self.viewport())
        palette = self.palette()
        painter.setPen(
            card_colors(
                palette, selected=False, background=palette.color(QPalette.ColorRole.Window)
            ).muted_text
        )
        flags = int(
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
        )
        painter.drawText(self.viewport().rect().adjusted(8, 16, -8, 0), flags, text)
        painter.end()


class SessionListPanel(QWidget):
    """Filter box plus the sessions list.

    Signals:
        session_chosen(str): activate this session.
    """

    session_chosen = Signal(str)
    search_wanted = Signal(str)

    def __init__(
        self,
        clock: Callable[[], datetime],
        bell: QIcon | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("session-list")
        self.model = SessionListModel(clock, self)
        self.proxy = SessionFilter(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("session-filter")
        self.filter.setPlaceholderText(self.tr("Search all sessions"))
        self.filter.setAccessibleName(self.tr("Search sessions by title or message text"))
        self.filter.setClearButtonEnabled(True)
        self.list = SessionListView(self.empty_text, self)
        self.list.setObjectName("session-list-view")
        self.list.setAccessibleName(self.tr("Sessions"))
        self.list.setModel(self.proxy)
        self.list.setItemDelegate(
            SessionDelegate(clock, bell or QIcon(), self._summary_at, self.list, self.proxy.snippet)
        )
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.list.setUniformItemSizes(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        self.filter.textChanged.connect(self.proxy.set_text)
        self.filter.textChanged.connect(self.list.viewport().update)
        self._searching = False
        self._search_delay = QTimer(self)
        self._search_delay.setSingleShot(True)
        self._search_delay.setInterval(SEARCH_DELAY_MS)
        self._search_delay.timeout.connect(self.search_now)
        self.filter.textChanged.connect(lambda _text: self._search_delay.start())
        self.filter.returnPressed.connect(self.search_now)
        self.list.activated.connect(self._on_list_activated)
        self.list.clicked.connect(self._on_list_activated)
        self._current: str | None = None
        self._pointer_in = False
        self.list.installEventFilter(self)  # the list's own Enter/Leave cover its viewport too
        self._ages = QTimer(self)  # "5 min" ages are recomputed from the clock on repaint
        self._ages.setInterval(30_000)
        self._ages.timeout.connect(self.list.viewport().update)
        self._ages.start()

    def empty_text(self) -> str:
        """What the list says when the filter matches nothing ("" while it is not filtered)."""
        typed = self.filter.text().strip()
        if not typed or self.proxy.rowCount():
            return ""
        if self._searching:
            return self.tr("Searching the messages of every session for “{text}”…").format(
                text=typed
            )
        return self.tr(
            "No session matches “{text}”.\n\nTitles and message text are searched."
        ).format(text=typed)

    def search_now(self) -> None:
        """Ask for the search of every session's messages for the typed text now."""
        self._search_delay.stop()
        typed = self.filter.text().strip()
        self._searching = bool(typed)
        self.list.viewport().update()
        self.search_wanted.emit(typed)

    def stop_search(self) -> None:
        """The app is quitting: a delayed search not yet asked for is dropped."""
        self._search_delay.stop()

    def set_matches(self, query: str, matches: Mapping[str, str]) -> None:
        """The sessions whose messages hold ``query``, each with a snippet (by session id);
        shown while ``query`` is the text typed."""
        if search_key(query) == search_key(self.filter.text()):
            self._searching = False
        self.proxy.set_matches(query, matches)
        self.select(self._current)
        self.list.viewport().update()

    def _summary_at(self, index: Index) -> SessionListItem | None:
        source = self.proxy.mapToSource(self.proxy.index(index.row(), 0))
        return self.model.item(source.row()) if source.isValid() else None

    def add_actions(self, actions: Sequence[QAction]) -> None:
        """Offer these window actions in the list's context menu."""
        self.list.addActions(list(actions))

    def set_sessions(self, items: Sequence[SessionListItem], current: str | None) -> None:
        """Show these sessions and highlight ``current`` (the order holds still while the
        pointer or the keyboard is on the list: ``holding``)."""
        self._current = current
        self.model.set_sessions(items, hold_order=self.holding)
        self.select(current)

    @property
    def holding(self) -> bool:
        """Whether the pointer is over the list or the keyboard focus is in it."""
        return self._pointer_in or self.list.hasFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.Enter, QEvent.Type.Leave):
            self._pointer_in = kind == QEvent.Type.Enter
        if kind in (QEvent.Type.Leave, QEvent.Type.FocusOut) and not self.holding:
            self._settle()
        return super().eventFilter(watched, event)

    def _settle(self) -> None:
        """The list is let go: rows held in place move to their activity order."""
        if not self.model.in_order():
            self.model.set_sessions(
                [item for row in range(self.model.rowCount()) if (item := self.model.item(row))]
            )
            self.select(self._current)

    def select(self, session_id: str | None) -> None:
        """Highlight a session without emitting ``session_chosen``."""
        self._current = session_id
        row = self.model.row_of(session_id) if session_id else -1
        if row < 0:
            self.list.clearSelection()
            return
        index = self.proxy.mapFromSource(self.model.index(row))
        if not index.isValid():  # filtered out: no other row looks like the one on screen
            self.list.clearSelection()
            return
        blocker = self.list.selectionModel().blockSignals(True)
        self.list.setCurrentIndex(index)
        self.list.selectionModel().blockSignals(blocker)

    def selected_id(self) -> str | None:
        index = self.list.currentIndex()
        return str(index.data(ID_ROLE)) if index.isValid() else self._current

    def _on_list_activated(self, index: QModelIndex) -> None:
        session_id = index.data(ID_ROLE)
        if isinstance(session_id, str) and session_id != self._current:
            self.session_chosen.emit(session_id)
