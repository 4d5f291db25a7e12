"""RemindersPanel: a read-only projection of the session's schedule fold. No I/O, no awaits.

It shows the records it is given (the fold's active records, in creation order) with a live
countdown (seconds under a minute); when none is active it says so and lists the reminders
delivered recently. Reminders are managed by chat, so its actions go through the model's tool
path as a user message (desktop.md §1): "Delete" sends "Delete reminder <id>" at once, which the
model answers with its delete tool; "Ask to delete" only drafts that message for the user to edit
and send. Its once-a-second timer only re-renders the relative times from the injected clock.

Signals:
    ask_delete(str): draft a delete request for this reminder id.
    delete_requested(str): send the delete request for this reminder id now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
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
    QKeySequence,
    QPainter,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QStackedWidget,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from core.instant import format_instant
from ui.late_qt import item_state, own_viewport
from ui.screen import DeliveredView, ReminderView
from ui.theme import CardColors, card_colors
from ui.timefmt import day_time, every_label, relative

if TYPE_CHECKING:  # handed in by Qt with the first painted row (its enum classes: ~6 M)
    from PySide6.QtWidgets import QStyleOptionViewItem

Index = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 1
OVERDUE_ROLE = Qt.ItemDataRole.UserRole + 2


translate = QCoreApplication.translate  # pyside6-lupdate reads translate("RemindersPanel", …)

RECENT_SHOWN = 5
"""How many recently delivered reminders the empty panel lists."""
MAX_ROWS = 1000
"""The panel lists at most this many reminders (the first in creation order; the others are
managed by chat like all of them): every row is measured on each change and re-rendered each
second, which kept a session with 10^5 reminders busy when idle (seconds of CPU per second)."""


def kind_label(record: ReminderView) -> str:
    """``once`` (a delay or a time: the user does not care which) or ``every N min``."""
    if record.every_seconds is not None:
        return every_label(record.every_seconds)
    return translate("RemindersPanel", "once")


def countdown(target: datetime, now: datetime) -> str:
    """``in 20 s`` under a minute, else the panel's ``relative`` (``in 12 min``); ``overdue``."""
    seconds = (target - now).total_seconds()
    if seconds <= 0:
        return translate("RemindersPanel", "overdue")
    if seconds < 60:
        return translate("RemindersPanel", "in %1 s").replace("%1", str(int(seconds) or 1))
    return relative(target, now)


def delivered_lines(delivered: Sequence[DeliveredView], now: datetime, zone: str | None) -> str:
    """``• stretch — due today 10:45`` per recently delivered reminder, newest first."""
    line = translate("RemindersPanel", "• %1 — due %2")
    return "\n".join(
        line.replace("%2", day_time(item.due_at, now, zone)).replace("%1", item.prompt)
        for item in delivered[:RECENT_SHOWN]
    )


class RemindersModel(QAbstractListModel):
    """Active reminders as list rows; the display text is recomputed from ``now`` on every call."""

    def __init__(self, clock: Callable[[], datetime], parent: Any = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._records: list[ReminderView] = []
        self._zone_name: str | None = None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._records)

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names[ID_ROLE] = QByteArray(b"scheduleId")
        names[OVERDUE_ROLE] = QByteArray(b"overdue")
        return names

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._records):
            return None
        record = self._records[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(record)
        if role == ID_ROLE:
            return record.id
        if role == OVERDUE_ROLE:
            return self._overdue(record)
        if role == Qt.ItemDataRole.ToolTipRole:
            return format_instant(record.scheduled_at)
        if role == Qt.ItemDataRole.ForegroundRole and self._overdue(record):
            return QColor("#c0392b")
        return None

    def set_records(self, records: Sequence[ReminderView], zone_name: str | None) -> None:
        """Replace the projection with the fold's active records (the first ``MAX_ROWS``)."""
        self.beginResetModel()
        self._records = list(records[:MAX_ROWS])
        self._zone_name = zone_name
        self.endResetModel()

    def refresh_times(self) -> None:
        """Re-render the relative times (the clock moved)."""
        if self._records:
            self.dataChanged.emit(self.index(0), self.index(len(self._records) - 1))

    def _overdue(self, record: ReminderView) -> bool:
        return record.scheduled_at <= self._clock()

    def _text(self, record: ReminderView) -> str:
        now, target = self._clock(), record.scheduled_at
        when = f"{day_time(target, now, self._zone_name)} · {countdown(target, now)}"
        return f"{record.prompt}\n{kind_label(record)} · {when}\n{record.id}"


class ReminderDelegate(QStyledItemDelegate):
    """Three parts: the prompt in bold, kind and next target, the id in muted text; the first two
    wrap in a narrow panel rather than run past the card."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        line = QFontMetrics(option.font).lineSpacing()
        prompt, when = _parts(index)[:2]
        lines = self._lines(option, prompt, bold=True) + self._lines(option, when)
        return QSize(option.rect.width(), line * (lines + 1) + 16)

    def _lines(self, option: QStyleOptionViewItem, text: str, *, bold: bool = False) -> int:
        """How many lines ``text`` takes in the card at this width."""
        font = QFont(option.font)
        font.setBold(bold)
        width = max(60, option.rect.width() - 20)
        bounds = QFontMetrics(font).boundingRect(
            QRect(0, 0, width, 10000), int(Qt.TextFlag.TextWordWrap), text
        )
        return max(1, bounds.height() // max(1, QFontMetrics(font).lineSpacing()))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = option.palette
        rect = option.rect.adjusted(2, 2, -2, -2)
        selected = bool(option.state & item_state().State_Selected)
        colors = card_colors(palette, selected=selected)
        painter.setPen(colors.border)
        painter.setBrush(colors.fill)
        painter.drawRoundedRect(rect, 6, 6)
        if option.state & item_state().State_HasFocus:
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 6, 6)
        self._paint_lines(painter, option, index, rect.adjusted(8, 6, -8, -6), colors)
        painter.restore()

    def _paint_lines(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: Index,
        area: QRect,
        colors: CardColors,
    ) -> None:
        prompt, when, schedule_id = _parts(index)
        bold = QFont(option.font)
        bold.setBold(True)
        line = QFontMetrics(option.font).lineSpacing()
        prompt_height = line * self._lines(option, prompt, bold=True)
        painter.setFont(bold)
        painter.setPen(colors.text)
        flags = int(Qt.TextFlag.TextWordWrap)
        painter.drawText(QRect(area.left(), area.top(), area.width(), prompt_height), flags, prompt)
        painter.setFont(option.font)
        overdue = bool(index.data(OVERDUE_ROLE))
        painter.setPen(colors.warning_text if overdue else colors.text)
        top = area.top() + prompt_height
        when_height = line * self._lines(option, when)
        painter.drawText(QRect(area.left(), top, area.width(), when_height), flags, when)
        painter.setPen(colors.muted_text)
        painter.drawText(QRect(area.left(), top + when_height, area.width(), line), 0, schedule_id)


def _parts(index: Index) -> list[str]:
    """The three lines of a reminder's display text: prompt, when, id."""
    return [*str(index.data() or "").split("\n"), "", ""][:3]


class RemindersPanel(QWidget):
    """The dock's contents: the list, "Delete" and "Ask to delete", the session-local note, and
    an empty state that lists the recently delivered reminders.

    Signals:
        ask_delete(str): draft "Delete reminder <id>".
        delete_requested(str): send "Delete reminder <id>" now.
    """

    ask_delete = Signal(str)
    delete_requested = Signal(str)

    def __init__(
        self, clock: Callable[[], datetime], bell: QIcon, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reminders-panel")
        self.setAccessibleName(self.tr("Reminders"))
        self.model = RemindersModel(clock, self)
        self.list = QListView(self)
        self.list.setViewport(own_viewport())  # before anything asks for it (ui.late_qt)
        self.list.setObjectName("reminders-list")
        self.list.setAccessibleName(self.tr("Active reminders"))
        self.list.setModel(self.model)
        self.list.setWordWrap(True)
        self.list.setSpacing(3)
        self.list.setItemDelegate(ReminderDelegate(self.list))
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.remove_button = QPushButton(self.tr("Delete"), self)
        self.remove_button.setObjectName("reminders-delete")
        self.remove_button.setAccessibleName(self.tr("Delete the selected reminder"))
        self.remove_button.setToolTip(
            self.tr("Sends “Delete reminder <id>” to the assistant, which deletes it")
        )
        self.delete_button = QPushButton(self.tr("Ask to delete"), self)
        self.delete_button.setObjectName("reminders-ask-delete")
        self.delete_button.setAccessibleName(self.tr("Ask to delete the selected reminder"))
        self.delete_button.setToolTip(self.tr("Puts the delete request into the message box"))
        self._writable = True
        self._delivered: tuple[DeliveredView, ...] = ()
        self._zone_name: str | None = None
        self._clock = clock
        self.empty = QLabel(self)
        self.empty.setObjectName("reminders-empty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.note = QLabel(
            self.tr(
                "Reminders fire only while this session is open. Closed sessions catch up when reopened."
            ),
            self,
        )
        self.note.setObjectName("reminders-note")
        self.note.setWordWrap(True)
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self.empty)
        self._stack.addWidget(self.list)
        self._build(bell)
        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        # A repaint, not the model's dataChanged: the view lays out every row again on any
        # dataChanged, which cost more than the repaint of the rows on screen by far.
        self._timer.timeout.connect(self.list.viewport().update)
        self._timer.start()
        self.list.selectionModel().currentChanged.connect(self._on_list_current_changed)
        self.delete_button.clicked.connect(self._on_ask_clicked)
        self.remove_button.clicked.connect(self._on_delete_clicked)
        delete_key = QAction(self.tr("Delete reminder"), self.list)
        delete_key.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete_key.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete_key.triggered.connect(self._on_delete_clicked)
        self.list.addAction(delete_key)
        self._show_state()

    def _build(self, bell: QIcon) -> None:
        header = QHBoxLayout()
        icon = QLabel(self)
        icon.setPixmap(bell.pixmap(18, 18))
        title = QLabel(self.tr("Active reminders"), self)
        title.setObjectName("panel-title")
        header.addWidget(icon)
        header.addWidget(title, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addLayout(header)
        layout.addWidget(self._stack, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.delete_button)
        layout.addLayout(buttons)
        layout.addWidget(self.note)

    def sizeHint(self) -> QSize:
        """About 40 characters wide at any text size (its labels wrap), so a larger text size
        does not take the transcript's room."""
        metrics = self.fontMetrics()
        return QSize(metrics.averageCharWidth() * 40 + 20, super().sizeHint().height())

    def set_records(
        self,
        records: Sequence[ReminderView],
        zone_name: str | None,
        delivered: Sequence[DeliveredView] = (),
    ) -> None:
        """Show the fold's active records (creation order) and, for the empty state, the
        recently delivered reminders (newest first)."""
        current = self.selected_id()
        self.model.set_records(records, zone_name)
        self._delivered = tuple(delivered)
        self._zone_name = zone_name
        for row in range(self.model.rowCount()):
            if self.model.index(row).data(ID_ROLE) == current:
                self.list.setCurrentIndex(self.model.index(row))
        self._show_state()

    def set_writable(self, writable: bool) -> None:
        """Whether the session takes messages (a read-only one cannot delete)."""
        self._writable = writable
        self._show_state()

    def selected_id(self) -> str | None:
        index = self.list.currentIndex()
        return str(index.data(ID_ROLE)) if index.isValid() else None

    def empty_text(self) -> str:
        """What the panel says when no reminder is active."""
        if not self._delivered:
            return self.tr(
                "No active reminders.\n\nAsk for one in the chat, for example:\n"
                "“remind me in 10 minutes to stretch”\n“every 30 minutes remind me to drink water”"
            )
        recent = delivered_lines(self._delivered, self._clock(), self._zone_name)
        return self.tr("No active reminders.\n\nRecently delivered:\n") + recent

    def _show_state(self) -> None:
        has_rows = self.model.rowCount() > 0
        self.empty.setText(self.empty_text())
        self._stack.setCurrentWidget(self.list if has_rows else self.empty)
        self._enable(has_rows and self.selected_id() is not None)

    def _enable(self, selected: bool) -> None:
        self.delete_button.setEnabled(selected and self._writable)
        self.remove_button.setEnabled(selected and self._writable)

    def _on_list_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._enable(current.isValid())

    def _on_ask_clicked(self) -> None:
        selected = self.selected_id()
        if selected:
            self.ask_delete.emit(selected)

    def _on_delete_clicked(self) -> None:
        selected = self.selected_id()
        if selected and self._writable:
            self.delete_requested.emit(selected)
