"""MainWindow: sessions sidebar, transcript, composer, reminders dock, menus, status bar. No I/O.

It builds its children and renders what the app hands it: a whole session as one
``ui.screen.SessionScreen`` (``show_session``), then small updates of it (``add_entry``,
``show_stream``, ``set_busy``, ``set_reminders``, ...). The app connects to the children's
signals (``sessions``, ``composer``, ``window_actions``) but never reaches into the children to
change what they show; the window never reaches the engine. Window-local actions (focus moves,
panel toggles, Help) are wired here.

Signals:
    fork_requested(): the banner's "Fork from last good turn".
    close_requested(): the user closed the window (the app flushes and quits).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from itertools import pairwise

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAccessible, QAccessibleEvent, QCloseEvent, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.events import AssistantMessage, Entry
from ui.actions import MENUS, WindowActions
from ui.composer import Composer
from ui.reminders_panel import RemindersPanel
from ui.screen import ReminderView, SessionAccess, SessionScreen
from ui.session_list import SessionListPanel, SessionSummary
from ui.transcript_model import TranscriptModel
from ui.transcript_view import TranscriptView

APP_NAME = "Chime"


def window_title(session_title: str | None) -> str:
    """``<session title> — Chime``, or just ``Chime`` before the session has a title."""
    return f"{session_title} — {APP_NAME}" if session_title else APP_NAME


class Banner(QFrame):
    """A message strip above the transcript, with an optional action button."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.label = QLabel(self)
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


class StreamingPane(QScrollArea):
    """The answer being streamed, shown under the transcript until it is recorded as a row.

    Kept out of the transcript list so a token never re-lays out a 10,000-row view: the list
    gets the finished ``assistant/message`` once (bench/ui_bench.py measures the stall).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("streaming")
        self.setAccessibleName(self.tr("Answer in progress"))
        self.label = QLabel(self)
        self.label.setObjectName("streaming-text")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()

    def show_text(self, text: str) -> None:
        """Show the streamed text so far ("" hides the pane)."""
        if not text:
            self.label.clear()
            self.hide()
            return
        self.label.setText(text + " ▍")
        lines = min(
            8,
            max(
                2,
                self.label.heightForWidth(self.viewport().width())
                // max(1, self.fontMetrics().lineSpacing()),
            ),
        )
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + 18)
        self.show()
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())


class MainWindow(QMainWindow):
    """The one window.

    Signals:
        fork_requested(): fork the current session from its last good turn.
        close_requested(): the window was asked to close (the app decides how to quit).
    """

    fork_requested = Signal()
    close_requested = Signal()

    def __init__(
        self, clock: Callable[[], datetime], bell: QIcon, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("main-window")
        self.setWindowTitle(window_title(None))
        self.window_actions = WindowActions(self)
        self.transcript_model = TranscriptModel(self)
        self.transcript = TranscriptView(self.transcript_model, bell, self)
        self.composer = Composer(self)
        self.sessions = SessionListPanel(clock, bell, self)
        self.reminders = RemindersPanel(clock, bell, self)
        self.banner = Banner(self)
        self.streaming = StreamingPane(self)
        self._allow_close = False
        self._build_center()
        self._build_dock()
        self._build_menus()
        self._build_status()
        self._connect_local()
        self._set_tab_order()
        self.resize(1100, 720)

    # -- building ------------------------------------------------------------------------
    def _build_center(self) -> None:
        center = QWidget(self)
        center.setObjectName("center")
        column = QVBoxLayout(center)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.banner)
        column.addWidget(self.transcript, 1)
        column.addWidget(self.streaming)
        column.addWidget(self.composer)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("main-splitter")
        splitter.addWidget(self.sessions)
        splitter.addWidget(center)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([250, 850])
        splitter.setChildrenCollapsible(False)
        self.sessions.setMinimumWidth(180)
        self.setCentralWidget(splitter)

    def _build_dock(self) -> None:
        self.reminders_dock = QDockWidget(self.tr("Reminders"), self)
        self.reminders_dock.setObjectName("reminders-dock")
        self.reminders_dock.setWidget(self.reminders)
        self.reminders_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        self.reminders_dock.setMinimumWidth(240)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.reminders_dock)
        self.window_actions.action("toggle_reminders").setChecked(True)

    def _build_menus(self) -> None:
        for menu_name in MENUS:
            menu = self.menuBar().addMenu(self.tr(f"&{menu_name}"))
            for action in self.window_actions.in_menu(menu_name):
                menu.addAction(action)
                if action is self.window_actions.action("undo_delete"):
                    menu.addSeparator()
        names = ("new_session", "rename_session", "fork_session", "export_markdown", "export_jsonl")
        self.sessions.add_actions(
            [self.window_actions.action(n) for n in (*names, "close_session", "delete_session")]
        )

    def _build_status(self) -> None:
        self.zone_label = QLabel(self)
        self.zone_label.setObjectName("status-zone")
        self.provider_label = QLabel(self)
        self.provider_label.setObjectName("status-provider")
        self.state_label = QLabel(self)
        self.state_label.setObjectName("status-state")
        self.persistence_label = QLabel(self)
        self.persistence_label.setObjectName("status-persistence")
        self.persistence_label.hide()
        bar = self.statusBar()
        bar.addWidget(self.state_label)
        bar.addWidget(self.persistence_label)
        bar.addPermanentWidget(self.provider_label)
        bar.addPermanentWidget(self.zone_label)

    def _connect_local(self) -> None:
        act = self.window_actions.action
        act("focus_composer").triggered.connect(self.focus_composer)
        act("focus_transcript").triggered.connect(self._on_focus_transcript)
        act("focus_sessions").triggered.connect(self._on_focus_sessions)
        act("search_sessions").triggered.connect(self._on_search_sessions)
        act("toggle_reminders").toggled.connect(self._on_toggle_reminders)
        self.reminders_dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        act("show_context").toggled.connect(self.transcript.set_show_context)
        act("copy").triggered.connect(self.transcript.copy_selection)
        act("shortcuts").triggered.connect(self.show_shortcuts)
        act("about").triggered.connect(self._on_about)
        self.banner.button.clicked.connect(self.fork_requested)
        self.reminders.ask_delete.connect(self._on_reminders_ask_delete)
        self.transcript.settings_requested.connect(act("settings").trigger)
        self.transcript.retry_requested.connect(act("retry").trigger)

    def _set_tab_order(self) -> None:
        order = [
            self.sessions.filter,
            self.sessions.list,
            self.banner.button,
            self.transcript,
            self.composer.editor,
            self.composer.send_button,
            self.composer.stop_button,
            self.reminders.list,
            self.reminders.delete_button,
        ]
        for first, second in pairwise(order):
            QWidget.setTabOrder(first, second)

    # -- what the app shows ----------------------------------------------------------------
    def show_session(self, screen: SessionScreen) -> None:
        """Put a whole session on screen: transcript (following its end), reminders, title,
        zone, access (state, banner, composer), busy and the persistence warning."""
        self.transcript_model.reset(screen.entries, screen.zone_name)
        self.transcript.scroll_to_end()
        self.set_reminders(screen.reminders, screen.zone_name)
        self.set_session_title(screen.title)
        self.set_zone(screen.zone_name)
        self.set_access(screen.access)
        self.set_busy(screen.busy)
        self.streaming.show_text("")
        self.set_persistence_warning(screen.persistence_failed)

    def show_no_session(self, access: SessionAccess, zone_name: str | None) -> None:
        """Nothing can be shown (no session could be opened or created): an empty window that
        says why."""
        self.transcript_model.reset((), zone_name)
        self.set_reminders((), zone_name)
        self.set_session_title(None)
        self.set_access(access)

    def add_entry(self, entry: Entry) -> None:
        """A new entry of the session on screen (a finished answer replaces the streamed text)."""
        if isinstance(entry.event, AssistantMessage):
            self.streaming.show_text("")
        self.transcript_model.append_event(entry)

    def show_stream(self, text: str) -> None:
        """The answer streamed so far ("" when the stream ended)."""
        self.streaming.show_text(text)

    def set_busy(self, busy: bool) -> None:
        self.composer.set_busy(busy)

    def set_reminders(self, records: Sequence[ReminderView], zone_name: str | None) -> None:
        self.reminders.set_records(records, zone_name)

    def set_access(self, access: SessionAccess) -> None:
        """The session's state in the status bar, its banner and whether the composer writes."""
        self.set_state(access.state, access.detail)
        if access.banner is None:
            self.hide_banner()
        else:
            self.show_banner(
                access.banner, offer_fork=access.offer_fork, fork_label=access.fork_label
            )
        self.composer.set_writable(access.writable, access.placeholder)

    def set_sessions(self, items: Sequence[SessionSummary], current: str | None) -> None:
        self.sessions.set_sessions(list(items), current)

    def notify(self, text: str, milliseconds: int = 8000) -> None:
        """A short message in the status bar."""
        self.statusBar().showMessage(text, milliseconds)

    def scroll_to_end(self) -> None:
        self.transcript.scroll_to_end()

    def set_draft(self, text: str) -> None:
        """Put ``text`` into the message box (a refused message goes back there)."""
        self.composer.set_text(text)

    def saved_geometry(self) -> str:
        """The window's geometry and state as Qt saves it, base64 (for state.json)."""
        return bytes(self.saveGeometry().toBase64().data()).decode("ascii")

    def set_session_title(self, title: str | None) -> None:
        self.setWindowTitle(window_title(title))

    def set_zone(self, zone_name: str | None) -> None:
        self.zone_label.setText(zone_name or self.tr("zone unknown"))
        self.zone_label.setToolTip(self.tr("The system time zone, sampled for each turn"))

    def set_provider(self, text: str) -> None:
        self.provider_label.setText(text)

    def set_state(self, state: str, detail: str = "") -> None:
        """``live``, ``cold``, ``read-only: open elsewhere`` or ``corrupt``, shown in the status bar."""
        self.state_label.setText(self.tr("Session: ") + state)
        self.state_label.setToolTip(detail)

    def set_persistence_warning(self, failed: bool) -> None:
        """Show or clear the warning that a save (persistence barrier) failed."""
        self.persistence_label.setText(
            self.tr("⚠ Could not save to disk — recent messages may be lost if the app closes now.")
        )
        self.persistence_label.setVisible(failed)

    def show_banner(self, text: str, *, offer_fork: bool, fork_label: str = "") -> None:
        self.banner.show_message(text, offer_fork=offer_fork, fork_label=fork_label)

    def hide_banner(self) -> None:
        self.banner.hide()

    def focus_composer(self) -> None:
        self.composer.editor.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def announce(self, text: str) -> None:
        """Tell screen readers about a new reminder turn (an Alert on the transcript)."""
        self.transcript.setAccessibleDescription(text)
        QAccessible.updateAccessibility(QAccessibleEvent(self.transcript, QAccessible.Event.Alert))

    def show_shortcuts(self) -> None:
        lines = "".join(
            f"<tr><td>{label}</td><td>&nbsp;&nbsp;<b>{keys}</b></td></tr>"
            for label, keys in self.window_actions.shortcut_lines()
        )
        box = QMessageBox(self)
        box.setObjectName("shortcuts-dialog")
        box.setWindowTitle(self.tr("Keyboard shortcuts — Chime"))
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(f"<table>{lines}</table>")
        box.open()

    def allow_close(self) -> None:
        """The app finished flushing: the next close really closes."""
        self._allow_close = True

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._allow_close:
            event.accept()
            return
        event.ignore()
        self.close_requested.emit()

    # -- handlers ------------------------------------------------------------------------
    def _on_focus_transcript(self) -> None:
        self.transcript.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self.transcript.currentIndex().isValid():
            self.transcript.select_last()

    def _on_focus_sessions(self) -> None:
        self.sessions.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_search_sessions(self) -> None:
        self.sessions.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.sessions.filter.selectAll()

    def _on_toggle_reminders(self, visible: bool) -> None:
        self.reminders_dock.setVisible(visible)
        if visible:
            self.reminders.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_dock_visibility_changed(self, visible: bool) -> None:
        if not self.isVisible():
            return
        action = self.window_actions.action("toggle_reminders")
        blocker = action.blockSignals(True)
        action.setChecked(visible)
        action.blockSignals(blocker)

    def _on_reminders_ask_delete(self, schedule_id: str) -> None:
        self.composer.set_text(self.tr("Delete reminder ") + schedule_id)

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            self.tr("About Chime"),
            self.tr("Chime %1").replace("%1", QApplication.applicationVersion())
            + "\n\n"
            + self.tr(
                "Chime — a chat app whose assistant can set reminders that come back as turns of "
                "the same conversation, while that conversation is open."
            ),
        )


def request_attention(window: QWidget) -> None:
    """Ask the desktop to flag the window (taskbar flash) without stealing focus."""
    QApplication.alert(window)
