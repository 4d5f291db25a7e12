"""The main window's smaller parts: the banner, the collapsing side panels, its dialogs. No I/O.

``Banner`` is the message strip above the transcript (with "Fork from last good turn");
``Collapsible`` makes a side panel collapse in a narrow window and come back in a wide one, and
``SidePanels`` does so for the sessions sidebar and the reminders dock, with their toggles;
``fit_rect`` fits a window's frame into its screen; ``show_shortcuts`` and ``ask_open_link`` are
the Help table of shortcuts and the question before a link opens. Their words keep the
translation context of the class they came from (``MainWindow``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtGui import QAction, QActionEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QWidget,
)

from ui.untrusted import literal, plain

REMINDERS_COLLAPSE = 1000
"""Below this window width the reminders panel collapses into a toggle."""
SIDEBAR_COLLAPSE = 860
"""Below this window width the sessions sidebar collapses too."""


class Banner(QFrame):
    """A message strip above the transcript, with an optional action button."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.label = plain(QLabel(self))  # quotes errors and paths
        self.label.setObjectName("banner-text")
        self.label.setWordWrap(True)
        self.button = QPushButton(self.tr("Fork from last good turn"), self)
        self.button.setObjectName("banner-fork")
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 8, 12, 8)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        self.hide()

    def show_message(self, text: str, *, offer_fork: bool, fork_label: str = "") -> None:
        self.label.setText(text)
        self.button.setText(fork_label or self.tr("Fork from last good turn"))
        self.setAccessibleName(text)
        self.button.setVisible(offer_fork)
        self.show()


class Collapsible:
    """A side panel that collapses when the window is narrower than ``threshold``.

    ``action`` (checkable) shows whether the panel is visible now and toggles it: in a wide
    window that is the user's choice, kept for later; in a narrow one it only reveals the panel
    for now."""

    def __init__(self, widget: QWidget, action: QAction, threshold: int) -> None:
        self.widget = widget
        self.action = action
        self.threshold = threshold
        self.preferred = True
        self.collapsed = False
        self.revealed = False

    def set_window_width(self, width: int) -> None:
        collapsed = width < self.threshold
        if collapsed != self.collapsed:
            self.collapsed = collapsed
            self.revealed = False
            self.apply()

    def set_shown(self, shown: bool) -> None:
        """The user toggled the panel."""
        if self.collapsed:
            self.revealed = shown
        else:
            self.preferred = shown
        self.apply()

    def visible(self) -> bool:
        return self.revealed if self.collapsed else self.preferred

    def apply(self) -> None:
        self.widget.setVisible(self.visible())
        blocker = self.action.blockSignals(True)
        self.action.setChecked(self.visible())
        self.action.blockSignals(blocker)


class CountedToggle(QToolButton):
    """A collapsed panel's toggle: its action's words and, when there is something to count, the
    count ("Sessions sidebar · 2 unread"), so a folded panel still says a reminder arrived."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._suffix = ""

    def set_suffix(self, suffix: str) -> None:
        self._suffix = suffix
        self._show_text()

    def actionEvent(self, event: QActionEvent) -> None:
        super().actionEvent(event)  # Qt copies the action's text back here on every change
        self._show_text()

    def _show_text(self) -> None:
        actions = self.actions()  # the default action, once set
        base = actions[0].text() if actions else ""
        self.setText(f"{base} · {self._suffix}" if self._suffix else base)


class SidePanels:
    """The sessions sidebar and the reminders dock in a window of some width: each collapses
    below its threshold, and a bar above the transcript (``bar``, hidden while neither is
    collapsed) then holds their toggles. Its widgets take their parent when laid out."""

    def __init__(
        self, sessions: QWidget, dock: QDockWidget, show_sessions: QAction, show_reminders: QAction
    ) -> None:
        self.bar = QFrame()
        self.bar.setObjectName("panel-toggles")
        row = QHBoxLayout(self.bar)
        row.setContentsMargins(8, 4, 8, 4)
        self.sessions_toggle = CountedToggle(self.bar)
        self.sessions_toggle.setObjectName("toggle-sessions")
        self.reminders_toggle = CountedToggle(self.bar)
        self.reminders_toggle.setObjectName("toggle-reminders")
        row.addWidget(self.sessions_toggle)
        row.addStretch(1)
        row.addWidget(self.reminders_toggle)
        self.bar.hide()
        self.sessions = Collapsible(sessions, show_sessions, SIDEBAR_COLLAPSE)
        self.reminders = Collapsible(dock, show_reminders, REMINDERS_COLLAPSE)
        show_sessions.setChecked(True)
        self.sessions_toggle.setDefaultAction(show_sessions)
        self.reminders_toggle.setDefaultAction(show_reminders)
        self._dock = dock
        dock.visibilityChanged.connect(self._on_dock_visibility_changed)

    def apply_width(self, width: int) -> None:
        """Collapse or restore the panels for a window ``width`` wide."""
        self.sessions.set_window_width(width)
        self.reminders.set_window_width(width)
        self.bar.setVisible(self.sessions.collapsed or self.reminders.collapsed)
        self.sessions_toggle.setVisible(self.sessions.collapsed)
        self.reminders_toggle.setVisible(self.reminders.collapsed)

    def set_counts(self, unread: int, reminders: int) -> None:
        """What the toggles count: unread reminder turns elsewhere, this session's reminders."""
        unread_text = QCoreApplication.translate("SidePanels", "%1 unread").replace(
            "%1", str(unread)
        )
        self.sessions_toggle.set_suffix(unread_text if unread else "")
        self.reminders_toggle.set_suffix(str(reminders) if reminders else "")

    def reveal_sessions(self) -> None:
        if not self.sessions.visible():
            self.sessions.set_shown(True)

    def session_chosen(self) -> None:
        """A session was chosen: a sidebar revealed in a narrow window collapses again."""
        if self.sessions.collapsed and self.sessions.revealed:
            self.sessions.set_shown(False)

    def _on_dock_visibility_changed(self, visible: bool) -> None:
        """The dock's own close button hid it: that is the user's choice too."""
        hidden_by_user = not visible and self._dock.isHidden()
        window = self._dock.parentWidget()
        shown = window is not None and window.isVisible()
        if shown and hidden_by_user and self.reminders.visible():
            self.reminders.set_shown(False)


def fit_rect(rect: QRect, available: QRect) -> QRect:
    """``rect`` made no larger than ``available`` and moved inside it (a window's frame on its
    screen)."""
    width = min(rect.width(), available.width())
    height = min(rect.height(), available.height())
    left = min(max(rect.left(), available.left()), available.right() + 1 - width)
    top = min(max(rect.top(), available.top()), available.bottom() + 1 - height)
    return QRect(left, top, width, height)


def show_shortcuts(parent: QWidget, lines: Sequence[tuple[str, str]]) -> None:
    """Every shortcut, (what it does, its keys) a row, in a box that is not modal."""
    from PySide6.QtGui import QTextDocument  # when asked for, not at every start
    from PySide6.QtWidgets import QMessageBox

    rows = "".join(
        f"<tr><td>{label}</td><td>&nbsp;&nbsp;<b>{keys}</b></td></tr>" for label, keys in lines
    )
    box = QMessageBox(parent)
    box.setObjectName("shortcuts-dialog")
    box.setWindowTitle(QCoreApplication.translate("MainWindow", "Keyboard shortcuts — Chime"))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(f"<table>{rows}</table>")
    # QMessageBox wraps its text at a width of its own: the longer German rows wrapped and
    # the box grew taller than a small screen. The table gets the width it needs unwrapped.
    label = box.findChild(QLabel, "qt_msgbox_label")
    if label is not None:
        table = QTextDocument()
        table.setDefaultFont(label.font())
        table.setHtml(box.text())
        label.setMinimumWidth(math.ceil(table.idealWidth()) + 8)
    box.open()


def ask_open_link(parent: QWidget, url: str, open_url: Callable[[str], object]) -> None:
    """Ask whether to open ``url`` (its whole target shown); ``open_url`` it if the user says so."""
    from PySide6.QtCore import QUrl  # when asked for, not at every start
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setObjectName("open-link-question")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(QCoreApplication.translate("MainWindow", "Open link — Chime"))
    box.setText(QCoreApplication.translate("MainWindow", "Open this link in your browser?"))
    box.setInformativeText(literal(QUrl(url).toString()))
    opening = box.addButton(
        QCoreApplication.translate("MainWindow", "Open"), QMessageBox.ButtonRole.AcceptRole
    )
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(opening)

    def answered(_result: int) -> None:
        if box.clickedButton() is opening:
            open_url(url)

    box.finished.connect(answered)
    box.open()


def bring_forward(window: QWidget) -> None:
    """Show ``window`` again, wherever it went (minimized, or hidden in the tray), in front."""
    if window.isMinimized():
        window.showNormal()
    elif not window.isVisible():
        window.show()
    window.raise_()
    window.activateWindow()
