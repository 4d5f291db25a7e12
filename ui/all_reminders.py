"""All reminders in one place: every active reminder of every conversation, open or closed, in due
order under "Overdue", "Today", "Tomorrow" and "Later". No I/O: the app hands in the lines (read
from the live folds and the closed sessions' derived summaries) and opens a conversation when one
is chosen.

Signals:
    open_requested(str): show this conversation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QListView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from core.readable import zone_or_utc
from ui.i18n import QT_TRANSLATE_NOOP
from ui.late_qt import item_state
from ui.reminders_panel import kind_label
from ui.screen import ReminderView
from ui.theme import card_colors
from ui.timefmt import day_time

Index = QModelIndex | QPersistentModelIndex
translate = QCoreApplication.translate
State = Literal["live", "waiting", "overdue"]
Group = Literal["overdue", "today", "tomorrow", "later"]
SESSION_ROLE = Qt.ItemDataRole.UserRole + 1
LINES_ROLE = Qt.ItemDataRole.UserRole + 2
STATE_ROLE = Qt.ItemDataRole.UserRole + 3
"""(the reminder's line, the line about it), or None for a heading."""
PAD = 6

GROUPS: tuple[tuple[Group, str], ...] = (
    ("overdue", QT_TRANSLATE_NOOP("AllReminders", "Overdue")),
    ("today", QT_TRANSLATE_NOOP("AllReminders", "Today")),
    ("tomorrow", QT_TRANSLATE_NOOP("AllReminders", "Tomorrow")),
    ("later", QT_TRANSLATE_NOOP("AllReminders", "Later")),
)
STATES: dict[State, str] = {
    "live": QT_TRANSLATE_NOOP("AllReminders", "live"),
    "waiting": QT_TRANSLATE_NOOP("AllReminders", "waiting until its conversation is opened"),
    "overdue": QT_TRANSLATE_NOOP("AllReminders", "overdue · opens to deliver"),
}


@dataclass(frozen=True, slots=True)
class ReminderLine:
    """One active reminder and where it lives."""

    session_id: str
    conversation: str
    reminder: ReminderView
    live: bool

    def state(self, now: datetime) -> State:
        """``live`` in an open conversation (its owner delivers it on time); in a closed one,
        ``overdue`` once due (it is delivered when the conversation opens), else ``waiting``."""
        if self.live:
            return "live"
        return "overdue" if self.reminder.scheduled_at <= now else "waiting"


def group_of(due_at: datetime, now: datetime, zone_name: str | None) -> Group:
    """Which heading a reminder due at ``due_at`` goes under, by the local calendar day."""
    if due_at <= now:
        return "overdue"
    zone = zone_or_utc(zone_name)
    day = due_at.astimezone(zone).date()
    today = now.astimezone(zone).date()
    if day == today:
        return "today"
    return "tomorrow" if day == today + timedelta(days=1) else "later"


@dataclass(frozen=True, slots=True)
class _Row:
    heading: str = ""
    line: ReminderLine | None = None


class AllRemindersModel(QAbstractListModel):
    """Headings and reminder lines, in due order."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[_Row] = []
        self._now: datetime | None = None
        self._zone: str | None = None

    def set_lines(self, lines: Sequence[ReminderLine], now: datetime, zone: str | None) -> None:
        self.beginResetModel()
        self._now, self._zone = now, zone
        ordered = sorted(lines, key=lambda x: (x.reminder.scheduled_at, x.conversation))
        self._rows = []
        for group, label in GROUPS:
            members = [x for x in ordered if group_of(x.reminder.scheduled_at, now, zone) == group]
            if members:
                self._rows.append(_Row(heading=translate("AllReminders", label)))
                self._rows.extend(_Row(line=x) for x in members)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if row.line is None:
            return self._heading(row.heading, role)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.text(row.line)
        if role == SESSION_ROLE:
            return row.line.session_id
        if role == LINES_ROLE:
            return tuple(self.text(row.line).split("\n", 1))
        if role == STATE_ROLE:
            assert self._now is not None
            return row.line.state(self._now)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        row = self._rows[index.row()] if index.isValid() else None
        if row is None or row.line is None:
            return Qt.ItemFlag.ItemIsEnabled
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def text(self, line: ReminderLine) -> str:
        """``today 14:30 · stretch`` over ``Conversation · once · live``."""
        assert self._now is not None
        when = day_time(line.reminder.scheduled_at, self._now, self._zone)
        state = translate("AllReminders", STATES[line.state(self._now)])
        about = " · ".join((line.conversation, kind_label(line.reminder), state))
        return f"{when} · {line.reminder.prompt}\n{about}"

    def _heading(self, heading: str, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return heading
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def lines(self) -> list[ReminderLine]:
        return [row.line for row in self._rows if row.line is not None]

    def headings(self) -> list[str]:
        return [row.heading for row in self._rows if row.line is None]


class AllRemindersDelegate(QStyledItemDelegate):
    """A heading in bold; a reminder as its time and text over a muted line (conversation, repeat,
    state), each cut to the width rather than wrapped."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        line = QFontMetrics(option.font).lineSpacing()
        lines = index.data(LINES_ROLE)
        height = 2 * line + 3 * PAD if lines else line + 2 * PAD + PAD
        return QSize(option.rect.width() or 300, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        lines = index.data(LINES_ROLE)
        selected = bool(option.state & item_state().State_Selected)
        colors = card_colors(option.palette, selected=selected)
        rect = option.rect
        font = QFont(option.font)
        painter.save()
        if lines is None:
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(colors.muted_text)
            text_rect = rect.adjusted(PAD, 2 * PAD, -PAD, 0)
            painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignLeft), str(index.data()))
            painter.restore()
            return
        if selected:
            painter.fillRect(rect, colors.fill)
        metrics = QFontMetrics(font)
        width = rect.width() - 2 * PAD
        first = QRect(rect.left() + PAD, rect.top() + PAD, width, metrics.lineSpacing())
        painter.setPen(colors.text)
        painter.setFont(font)
        painter.drawText(first, 0, metrics.elidedText(lines[0], Qt.TextElideMode.ElideRight, width))
        small = QFont(font)
        small.setPointSizeF(max(6.0, font.pointSizeF() * 0.9))
        painter.setFont(small)
        overdue = index.data(STATE_ROLE) == "overdue"
        painter.setPen(colors.warning_text if overdue else colors.muted_text)
        second = first.translated(0, metrics.lineSpacing() + PAD // 2)
        text = QFontMetrics(small).elidedText(lines[1], Qt.TextElideMode.ElideRight, width)
        painter.drawText(second, 0, text)
        painter.restore()


class AllRemindersDialog(QDialog):
    """A window listing every active reminder; Enter or a click opens its conversation."""

    open_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("all-reminders")
        self.setWindowTitle(self.tr("All reminders — Chime"))
        self.model = AllRemindersModel(self)
        self.view = QListView(self)
        self.view.setObjectName("all-reminders-list")
        self.view.setAccessibleName(self.tr("All reminders"))
        self.view.setModel(self.model)
        self.view.setItemDelegate(AllRemindersDelegate(self.view))
        self.view.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.empty = QLabel(self.tr("No reminders are set in any conversation."), self)
        self.empty.setObjectName("all-reminders-empty")
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(self.view, 1)
        self.view.activated.connect(self._on_activated)
        self.view.clicked.connect(self._on_activated)
        self.resize(520, 560)

    def set_lines(self, lines: Sequence[ReminderLine], now: datetime, zone: str | None) -> None:
        self.model.set_lines(lines, now, zone)
        self.empty.setVisible(not lines)
        self.view.setVisible(bool(lines))
        if lines:  # the first reminder, not its heading, takes the keyboard
            self.view.setCurrentIndex(self.model.index(1))

    def _on_activated(self, index: QModelIndex) -> None:
        session_id = index.data(SESSION_ROLE)
        if isinstance(session_id, str):
            self.open_requested.emit(session_id)
