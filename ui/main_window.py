"""MainWindow: composes the sessions sidebar, transcript, composer, reminders dock, menus and
status bar, and renders what the app hands it. No I/O.

The window is built from small feature objects, each with its own signals, in the manner of a
browser tab's members: ``status`` (``ui.window_status``), ``finder`` (``ui.window_find``),
``reminder_dock`` (``ui.window_reminders``), ``answers`` (``ui.window_answers``), ``placement``
(``ui.window_placement``), ``help`` (``ui.window_help``), ``moves`` (``ui.window_moves``) and
``drops`` (``ui.window_drops``), beside the widgets that have their own (``sessions``,
``composer``, ``transcript``, ``message_bar``). A whole session comes as one
``ui.screen.SessionScreen`` (``show_session``), then small updates of it (``add_entry``,
``show_stream_piece``, ``set_busy``, ``set_reminders``, ``notify``, ...). The app connects to the
window's and its features' signals but never reaches into the widgets to change what they show;
the window never reaches the engine. What is hidden at the first paint (the find bar, the reminders
panel in a narrow window, dialogs) is built when first needed.

Choices where the spec is silent:
- Feedback for what the user did (deleted, restored, exported, could not ...) is a message bar
  above the message box (``ui.message_bar``), with Undo where it applies; the status bar keeps the
  session's state, the provider, the zone, and shows a link's target while the mouse is on it.
- Small windows: below ``REMINDERS_COLLAPSE`` px the reminders panel collapses, below
  ``SIDEBAR_COLLAPSE`` px the sessions sidebar too; a bar above the transcript then holds their
  toggles. Their shortcuts keep working: Ctrl+R shows the reminders, Ctrl+K or Ctrl+F the sidebar
  (which collapses again once a session is chosen). Widening the window brings back what the user
  had open. The window is never smaller than 640×480 (or the screen) and a saved geometry is fitted
  into the screen it opens on (``ui.window_placement``).
- A link opens in the system browser only after a question that shows its whole target; only
  ``http``, ``https`` and ``mailto`` links open at all (``ui.window_help``).
- Files dropped anywhere on the window are offered as attachments, like the composer's paperclip
  (``composer.files_offered``); the model picker and the instructions button are in the
  composer's tools row (``ui.composer_tools``).
- Find in conversation (Ctrl+F) is a bar above the transcript (``ui.find_bar``); the app searches
  and hands back the count and the current match (``finder.show``). F3 / Shift+F3 open it when it is
  closed, else go to the next / previous match. Searching all sessions' titles and text is the
  sidebar's filter (Ctrl+Shift+F).
- Editing a sent message (``begin_edit``) shows the edit bar above the message box; showing
  another session cancels the edit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QResizeEvent,
)
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QVBoxLayout, QWidget

from core.events import Attachment, Entry
from ui.actions import MENU_TITLES, MENUS, WindowActions, translated
from ui.answer_wait import AnswerWait
from ui.attachment_links import attachment_sha, find_file
from ui.composer import Composer
from ui.late_qt import alert
from ui.message_bar import MessageBar
from ui.screen import DeliveredView, ReminderView, SessionAccess, SessionScreen
from ui.session_list import SessionListItem, SessionListPanel
from ui.shown_path import ShownConversation
from ui.transcript_model import TranscriptModel
from ui.transcript_view import TranscriptView
from ui.window_answers import AnswerProgress
from ui.window_drops import FileDrops
from ui.window_find import FindInConversation
from ui.window_help import WindowHelp
from ui.window_moves import WindowMoves, chain_tab_order
from ui.window_parts import Banner, SidePanels
from ui.window_placement import Placement
from ui.window_reminders import RemindersDock
from ui.window_status import StatusLine

if TYPE_CHECKING:  # built when first needed (``reminders``), imported there
    from ui.reminders_panel import RemindersPanel

APP_NAME = "Chime"


def window_title(session_title: str | None) -> str:
    """``<session title> — Chime``, or just ``Chime`` before the session has a title."""
    return f"{session_title} — {APP_NAME}" if session_title else APP_NAME


class MainWindow(QMainWindow):
    """The one window: composes its parts and features, renders what the app hands it.

    Signals:
        fork_requested(): fork the current session from its last good turn.
        close_requested(): the window was asked to close (the app decides how to quit).
        session_shown(): ``show_session`` put a (new or refreshed) session on screen.
        row_action(str, int): a transcript row's verb (its name, the seq of the input whose
            exchange the row belongs to; ``ui.transcript_view``).
        edit_submitted(int, str): the message box sent its edit of the input at this seq.
        edit_last_requested(): Up in an empty message box (edit the newest typed message).
        search_wanted(str): the sidebar wants every session's messages searched for this.
        attachment_open_requested(object): open this ``Attachment`` (a click on a file of a
            message or on a chip, or the row's menu; ``app.attachment_open``).
    The find signals are ``finder``'s, the confirmed link is ``help.open_url_requested``.
    """

    fork_requested = Signal()
    close_requested = Signal()
    session_shown = Signal()
    row_action = Signal(str, int)
    edit_submitted = Signal(int, str)
    edit_last_requested = Signal()
    search_wanted = Signal(str)
    attachment_open_requested = Signal(object)

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
        self.banner = Banner(self)
        self.message_bar = MessageBar(self)
        self.answer_wait = AnswerWait(self)
        self.reminder_dock = RemindersDock(self, clock, bell)
        self.reminders_dock = self.reminder_dock.dock
        self.window_actions.action("toggle_reminders").setChecked(True)
        self._allow_close = False
        self._unread_count = 0
        """What the folded sidebar's toggle counts (``SidePanels.set_counts``)."""
        self._build_center()
        self._build_menus()
        self.status = StatusLine(self.statusBar())
        self.answers = AnswerProgress(
            self.transcript, self.transcript_model, self.answer_wait, self.composer
        )
        self.help = WindowHelp(self, self.window_actions)
        self.placement = Placement(self)
        self.drops = FileDrops(self, self.composer.editor.isEnabled)
        self.moves = WindowMoves(
            self.window_actions,
            self.panels,
            self.sessions,
            self.transcript,
            self.reminder_dock,
            self.finder,
        )
        self._connect_local()
        self._set_tab_order()

    # -- building ------------------------------------------------------------------------
    def _build_center(self) -> None:
        center = QWidget(self)
        center.setObjectName("center")
        column = QVBoxLayout(center)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        act = self.window_actions.action
        self.panels = SidePanels(
            self.sessions, self.reminders_dock, act("toggle_sessions"), act("toggle_reminders")
        )
        self.toggles = self.panels.bar
        for widget, stretch in (
            (self.toggles, 0),
            (self.banner, 0),
            (self.transcript, 1),
            (self.answer_wait, 0),
            (self.message_bar, 0),
            (self.composer.edit_bar, 0),
            (self.composer, 0),
        ):
            column.addWidget(widget, stretch)
        self.finder = FindInConversation(column, self.banner, self.transcript)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("main-splitter")
        splitter.addWidget(self.sessions)
        splitter.addWidget(center)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([250, 850])
        splitter.setChildrenCollapsible(False)
        self.sessions.setMinimumWidth(180)
        center.setMinimumWidth(360)
        self.splitter = splitter
        self.setCentralWidget(splitter)

    def _build_menus(self) -> None:
        for menu_name in MENUS:
            menu = self.menuBar().addMenu(translated(MENU_TITLES[menu_name]))
            for action in self.window_actions.in_menu(menu_name):
                menu.addAction(action)
                if action is self.window_actions.action("undo_delete"):
                    menu.addSeparator()
        names = ("new_session", "rename_session", "fork_session", "export_markdown", "export_jsonl")
        self.sessions.add_actions(
            [self.window_actions.action(n) for n in (*names, "close_session", "delete_session")]
        )

    def _connect_local(self) -> None:
        """Window-local actions and the parts' signals the window passes on."""
        act = self.window_actions.action
        act("focus_composer").triggered.connect(self.focus_composer)
        act("show_context").toggled.connect(self.transcript.set_show_context)
        act("wrap_code").toggled.connect(self.transcript.set_wrap_code)
        act("copy").triggered.connect(self.transcript.copy_current_message)
        self.banner.button.clicked.connect(self.fork_requested)
        self.transcript.settings_requested.connect(act("settings").trigger)
        self.transcript.link_activated.connect(self._on_link)
        self.composer.attachments.open_requested.connect(self._open_attachment)
        self.transcript.link_hovered.connect(self.status.show_link)
        self.transcript.row_action.connect(self.row_action)
        self.help.refused.connect(self.notify)
        self.composer.edit_submitted.connect(self.edit_submitted)
        self.composer.edit_last_requested.connect(self.edit_last_requested)
        self.sessions.search_wanted.connect(self.search_wanted)
        self.finder.built.connect(self._set_tab_order)
        self.reminder_dock.built.connect(self._set_tab_order)
        # The assistant's words, not the window's: the offline assistant reads English.
        self.reminder_dock.ask_delete.connect(lambda sid: self.set_draft("Delete reminder " + sid))
        tools = self.composer.tools
        tools.attach_requested.connect(act("attach_files").trigger)
        tools.instructions_requested.connect(act("session_instructions").trigger)
        act("choose_model").triggered.connect(tools.open_model_menu)
        self.drops.files_offered.connect(self.composer.files_offered)

    def _set_tab_order(self) -> None:
        """Left to right, top to bottom, as the window is drawn (the parts built so far)."""
        sessions, panels, composer, bar = (
            self.sessions,
            self.panels,
            self.composer,
            self.message_bar,
        )
        chain_tab_order(
            [
                sessions.filter,
                sessions.list,
                panels.sessions_toggle,
                panels.reminders_toggle,
                self.banner.button,
                *self.finder.tab_widgets(),
                self.transcript,
                bar.action_button,
                bar.close_button,
                composer.edit_bar.cancel_button,
                composer.editor,
                composer.tools.attach_button,
                composer.tools.picker,
                composer.tools.instructions_button,
                composer.send_button,
                composer.stop_button,
                *self.reminder_dock.tab_widgets(),
            ]
        )

    def _on_link(self, url: str) -> None:
        """A link in a message: an attached file's opens the file, any other is asked about."""
        sha256 = attachment_sha(url)
        if sha256:
            self._open_attachment(sha256)
        else:
            self.help.ask_open_link(url)

    def _open_attachment(self, sha256: str) -> None:
        model = self.transcript_model
        rows = (model.row_at(number) for number in range(model.rowCount()))
        sent = [file for row in rows if row is not None for file in row.files]
        found = find_file([*self.composer.attachments.files, *sent], sha256)
        if found is not None:
            self.attachment_open_requested.emit(found)

    @property
    def reminders(self) -> RemindersPanel:
        """The reminders panel in its dock (built when the dock first shows, or is asked for)."""
        return self.reminder_dock.panel

    # -- what the app shows ----------------------------------------------------------------
    def show_session(self, screen: SessionScreen) -> None:
        """Put a whole session on screen: transcript (following its end), reminders, title,
        zone, access (state, banner, composer), busy and the persistence warning."""
        self.composer.cancel_edit()
        self.finder.open_remembered()  # before the rows: the view's top is where the search begins
        self.answers.show_screen(screen)
        self.set_reminders(screen.reminders, screen.zone_name, screen.delivered)
        self.set_session_title(screen.title)
        self.set_zone(screen.zone_name)
        self.set_access(screen.access)
        self.answers.show_screen_busy(screen)
        self.set_persistence_warning(screen.persistence_failed)
        self.session_shown.emit()

    def show_no_session(self, access: SessionAccess, zone_name: str | None) -> None:
        """Nothing can be shown (no session could be opened or created): an empty window that
        says why."""
        self.transcript_model.reset((), zone_name)
        self.set_reminders((), zone_name)
        self.set_session_title(None)
        self.set_access(access)

    def add_entry(self, entry: Entry, conversation: ShownConversation | None = None) -> None:
        """A new entry of the session on screen (``AnswerProgress.add_entry``)."""
        self.answers.add_entry(entry, conversation)

    def show_stream_piece(self, piece: str) -> None:
        """A piece of the streamed answer, or "" when the stream ended without an answer."""
        self.answers.show_stream_piece(piece)

    def show_thinking_piece(self, piece: str) -> None:
        """A piece of the streamed answer's thinking."""
        self.answers.show_thinking_piece(piece)

    def set_busy(self, busy: bool) -> None:
        """A turn runs (or not): the composer offers Stop and Queue, the waiting line shows."""
        self.answers.set_busy(busy)

    def set_reminders(
        self,
        records: Sequence[ReminderView],
        zone_name: str | None,
        delivered: Sequence[DeliveredView] = (),
    ) -> None:
        self.reminder_dock.set_records(records, zone_name, delivered)
        self.panels.set_counts(self._unread_count, self.reminder_dock.count)

    def set_access(self, access: SessionAccess) -> None:
        """The session's state in the status bar, its banner and whether the composer writes."""
        self.status.set_state(access.state, access.detail)
        if access.banner is None:
            self.banner.hide()
        else:
            self.banner.show_message(
                access.banner, offer_fork=access.offer_fork, fork_label=access.fork_label
            )
        self.composer.set_writable(access.writable, access.placeholder)
        self.reminder_dock.set_writable(access.writable)
        self.transcript.set_writable(access.writable)

    def set_sessions(self, items: Sequence[SessionListItem], current: str | None) -> None:
        self.sessions.set_sessions(list(items), current)
        self._unread_count = sum(item.unread_count for item in items if item.id != current)
        self.panels.set_counts(self._unread_count, self.reminder_dock.count)

    def set_session_title(self, title: str | None) -> None:
        self.setWindowTitle(window_title(title))

    def set_zone(self, zone_name: str | None) -> None:
        self.status.set_zone(zone_name)

    def set_persistence_warning(self, failed: bool) -> None:
        """Show or clear the warning that a save (persistence barrier) failed."""
        self.status.set_persistence_warning(failed)

    def notify(
        self, text: str, milliseconds: int = 8000, action: str = "", *, conversation: bool = False
    ) -> None:
        """A short message in the message bar (replacing the one shown); ``action`` names a window
        action whose button it offers (``undo_delete``). ``conversation``: it is about the
        conversation on screen and goes when another one is shown."""
        offered = self.window_actions.action(action) if action else None
        self.message_bar.show_message(text, milliseconds, offered, conversation=conversation)

    def leave_conversation(self) -> None:
        """Another conversation is about to be shown: what was about this one goes (its find bar,
        keeping its words for the next Ctrl+F, and its notices)."""
        self.message_bar.leave_conversation()
        self.finder.close()

    def reveal_message(self, seq: int) -> None:
        """Scroll the transcript to the message whose ``seq`` this is (loading it if need be)."""
        self.transcript.show_find("", (seq, 0))

    def scroll_to_end(self) -> None:
        self.transcript.scroll_to_end()

    def announce(self, text: str) -> None:
        """Tell screen readers about a new reminder turn (an Alert on the transcript)."""
        self.transcript.setAccessibleDescription(text)
        alert(self.transcript)

    # -- the message box (agent.md §7) -----------------------------------------------------
    def draft(self) -> str:
        """The message being written (not sent yet)."""
        return self.composer.text()

    def replace_draft(self, text: str) -> None:
        """Another conversation's unsent message into the box, where the focus is left as it is
        (choosing a conversation from the list keeps the list's focus)."""
        self.composer.replace_text(text)

    def set_draft(self, text: str) -> None:
        """Put ``text`` into the message box (a refused message goes back there)."""
        self.composer.set_text(text)

    def show_attachments(self, files: Sequence[Attachment]) -> None:
        """The files waiting to be sent with the next message of the session on screen."""
        self.composer.show_attachments(files)

    def focus_composer(self) -> None:
        self.composer.editor.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # -- the window itself -----------------------------------------------------------------
    def saved_geometry(self) -> str:
        """The window's geometry and state as Qt saves it, base64 (``Placement.saved``)."""
        return self.placement.saved()

    def allow_close(self) -> None:
        """The app finished flushing: the next close really closes."""
        self._allow_close = True

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._allow_close:
            event.accept()
            return
        event.ignore()
        self.close_requested.emit()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not self.drops.take(event):
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if not self.drops.take(event):
            super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        if not self.drops.drop(event):
            super().dropEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.panels.apply_width(event.size().width())


def request_attention(window: QWidget) -> None:
    """Ask the desktop to flag the window (taskbar flash) without stealing focus."""
    QApplication.alert(window)
