"""The tray icon: Chime's presence while its window is closed, with the unread count and a menu.

Where the desktop has no tray (``QSystemTrayIcon.isSystemTrayAvailable()`` is False) the app does
not build one and closing the window quits, as before. The menu lists the conversations with
unread turns; choosing one opens it. No I/O: the app feeds the unread list and reacts to signals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRect, Qt, Signal
from PySide6.QtGui import QAction, QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

ICON_SIZE = 64
TITLE_LIMIT = 40


@dataclass(frozen=True, slots=True)
class UnreadItem:
    """A conversation with unread turns, as the tray menu lists it."""

    session_id: str
    title: str
    count: int


def badge_text(count: int) -> str:
    """The number drawn on the icon: nothing at 0, ``99+`` past 99."""
    if count <= 0:
        return ""
    return "99+" if count > 99 else str(count)


def short_title(title: str) -> str:
    """A menu-sized title, one line (a title is the person's text: no ``&`` mnemonics)."""
    line = " ".join(title.split()) or "…"
    if len(line) > TITLE_LIMIT:
        line = line[: TITLE_LIMIT - 1].rstrip() + "…"
    return line.replace("&", "&&")


class TrayIcon(QObject):
    """Signals:
    show_requested(): the icon was clicked or "Show Chime" chosen.
    new_requested(): "New conversation".
    all_reminders_requested(): "All reminders".
    open_requested(str): a conversation of the unread list was chosen.
    quit_requested(): "Quit".
    """

    show_requested = Signal()
    new_requested = Signal()
    all_reminders_requested = Signal()
    open_requested = Signal(str)
    quit_requested = Signal()

    def __init__(self, icon: QIcon, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._base = icon
        self._unread: tuple[UnreadItem, ...] = ()
        self._menu = QMenu()
        self._icon = QSystemTrayIcon(icon, self)
        self._icon.setContextMenu(self._menu)
        self._icon.activated.connect(self._on_activated)
        self._menu.aboutToShow.connect(self._fill_menu)
        self._fill_menu()
        self._refresh()

    @staticmethod
    def available() -> bool:
        """Whether the desktop shows tray icons now."""
        return QSystemTrayIcon.isSystemTrayAvailable()

    def show(self) -> None:
        self._icon.show()

    def hide(self) -> None:
        self._icon.hide()

    def say(self, text: str) -> None:
        """A short message from the icon (the desktop shows it as a notification or balloon)."""
        self._icon.showMessage("Chime", text, QSystemTrayIcon.MessageIcon.Information, 8000)

    def set_unread(self, items: Sequence[UnreadItem]) -> None:
        """The conversations with unread turns (newest first); the badge is their total."""
        self._unread = tuple(items)
        self._refresh()

    def unread_total(self) -> int:
        return sum(item.count for item in self._unread)

    def menu_texts(self) -> list[str]:
        """The menu's entries as shown (separators as empty strings)."""
        self._fill_menu()
        return [action.text() for action in self._menu.actions()]

    def trigger(self, text: str) -> None:
        """Choose the menu entry whose text is ``text`` (what a click in the menu does)."""
        self._fill_menu()
        for action in self._menu.actions():
            if action.text() == text:
                action.trigger()
                return
        raise KeyError(text)

    def _fill_menu(self) -> None:
        self._menu.clear()
        self._add(self.tr("Show Chime"), self.show_requested.emit)
        self._add(self.tr("New conversation"), self.new_requested.emit)
        self._add(self.tr("All reminders"), self.all_reminders_requested.emit)
        if self._unread:
            self._menu.addSeparator()
            for item in self._unread:
                label = self.tr("%1 (%2 unread)").replace("%1", short_title(item.title))
                self._add(label.replace("%2", str(item.count)), self._opener(item.session_id))
        self._menu.addSeparator()
        self._add(self.tr("Quit Chime"), self.quit_requested.emit)

    def _add(self, text: str, slot: object) -> QAction:
        action = self._menu.addAction(text)
        action.triggered.connect(slot)
        return action

    def _opener(self, session_id: str) -> object:
        return lambda: self.open_requested.emit(session_id)

    def _refresh(self) -> None:
        total = self.unread_total()
        self._icon.setIcon(badged(self._base, total))
        if total:
            tip = self.tr("Chime: %n unread", "", total)
        else:
            tip = self.tr("Chime: reminders keep running")
        self._icon.setToolTip(tip)

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (
            QSystemTrayIcon.ActivationReason.Trigger,
            QSystemTrayIcon.ActivationReason.DoubleClick,
        ):
            self.show_requested.emit()


def badged(icon: QIcon, count: int) -> QIcon:
    """``icon`` with ``count`` drawn in a red disc at its corner (the icon itself at 0)."""
    text = badge_text(count)
    if not text:
        return icon
    pixmap = icon.pixmap(ICON_SIZE, ICON_SIZE)
    if pixmap.isNull():
        pixmap = QPixmap(ICON_SIZE, ICON_SIZE)
        pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    side = ICON_SIZE * 5 // 8
    disc = QRect(ICON_SIZE - side, 0, side, side)
    painter.setBrush(QColor("#d93025"))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(disc)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(side // 2 if len(text) < 3 else side // 3)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return QIcon(pixmap)
