"""MainWindow: sessions sidebar, transcript, composer, reminders dock, menus, status bar. No I/O.

It builds its children and renders what the app hands it: a whole session as one
``ui.screen.SessionScreen`` (``show_session``), then small updates of it (``add_entry``,
``append_stream``, ``set_busy``, ``set_reminders``, ``notify``, ...). The app connects to the
children's signals (``sessions``, ``composer``, ``window_actions``) but never reaches into the
children to change what they show; the window never reaches the engine. Window-local actions
(focus moves, panel toggles, Help) are wired here.

Choices where the spec is silent:
- Feedback for what the user did (deleted, restored, exported, could not ...) is a message bar
  above the message box (``ui.message_bar``), with Undo where it applies; the status bar keeps the
  session's state, the provider, the zone, and shows a link's target while the mouse is on it.
- Small windows: below ``REMINDERS_COLLAPSE`` px the reminders panel collapses, below
  ``SIDEBAR_COLLAPSE`` px the sessions sidebar too; a bar above the transcript then holds their
  toggles. Their shortcuts keep working: Ctrl+R shows the reminders, Ctrl+K or Ctrl+F the sidebar
  (which collapses again once a session is chosen). Widening the window brings back what the user
  had open. The window is never smaller than 640×480 (or the screen) and a saved geometry is fitted
  into the screen it opens on.
- A link opens in the system browser only after a question that shows its whole target; only
  ``http``, ``https`` and ``mailto`` links open at all.
- Files dropped anywhere on the window are offered as attachments, like the composer's paperclip
  (``composer.files_offered``); the model picker and the instructions button are in the
  composer's tools row (``ui.composer_tools``).
- Find in conversation (Ctrl+F) is a bar above the transcript (``ui.find_bar``); the app searches
  and hands back the count and the current match (``show_find``). F3 / Shift+F3 open it when it is
  closed, else go to the next / previous match. Searching all sessions' titles and text is the
  sidebar's filter (Ctrl+Shift+F).
- Editing a sent message (``begin_edit``) shows the edit bar above the message box; showing
  another session cancels the edit.

Signals:
    fork_requested(): the banner's "Fork from last good turn".
    close_requested(): the user closed the window (the app flushes and quits).
    open_url_requested(str): the user confirmed opening this link (the app opens the browser).
    attachment_open_requested(object): open this ``Attachment`` (a click on a file of a message
        or on a chip, or the row's menu; ``app.attachment_open``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from itertools import pairwise
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QByteArray,
    QMargins,
    QSize,
    Qt,
    QUrl,
    Signal,
    SignalInstance,
    qVersion,
)
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QResizeEvent,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.events import AssistantMessage, Attachment, Entry
from ui.actions import MENU_TITLES, MENUS, WindowActions, translated
from ui.answer_wait import AnswerWait
from ui.composer import Composer, local_files
from ui.late_qt import alert
from ui.message_bar import MessageBar
from ui.row_files import attachment_sha, find_file
from ui.screen import DeliveredView, ReminderView, SessionAccess, SessionScreen
from ui.session_list import SessionListItem, SessionListPanel
from ui.shown_path import ShownConversation
from ui.transcript_model import TranscriptModel
from ui.transcript_view import TranscriptView
from ui.untrusted import literal, plain
from ui.window_parts import (
    Banner,
    SidePanels,
    ask_open_link,
    fit_rect,
    show_shortcuts,
)

if TYPE_CHECKING:  # built when first needed (``find_bar``, ``reminders``, dialogs), imported there
    from ui.find_bar import FindBar
    from ui.model_picker import ModelMenu
    from ui.reminders_panel import RemindersPanel

APP_NAME = "Chime"
MIN_SIZE = QSize(640, 480)
FRAME_ALLOWANCE = QMargins(4, 32, 4, 4)
"""A title bar and borders, assumed until the window manager has framed the window."""
DEFAULT_SIZE = QSize(1100, 720)
OPENABLE_SCHEMES = ("http", "https", "mailto")


def window_title(session_title: str | None) -> str:
    """``<session title> — Chime``, or just ``Chime`` before the session has a title."""
    return f"{session_title} — {APP_NAME}" if session_title else APP_NAME


class MainWindow(QMainWindow):
    """The one window.

    Signals:
        fork_requested(): fork the current session from its last good turn.
        close_requested(): the window was asked to close (the app decides how to quit).
        open_url_requested(str): the user confirmed opening this link.
        session_shown(): ``show_session`` put a (new or refreshed) session on screen.
        row_action(str, int): a transcript row's verb (its name, the seq of the input whose
            exchange the row belongs to; ``ui.transcript_view``).
        edit_submitted(int, str): the message box sent its edit of the input at this seq.
        edit_last_requested(): Up in an empty message box (edit the newest typed message).
        find_changed(str): the find bar's text (searched for in the session on screen).
        find_next(), find_previous(): go to the next or previous match.
        find_closed(): the find bar closed (the search ends).
        search_wanted(str): the sidebar wants every session's messages searched for this.
    """

    fork_requested = Signal()
    close_requested = Signal()
    open_url_requested = Signal(str)
    attachment_open_requested = Signal(object)
    session_shown = Signal()
    row_action = Signal(str, int)
    edit_submitted = Signal(int, str)
    edit_last_requested = Signal()
    find_changed = Signal(str)
    find_next = Signal()
    find_previous = Signal()
    find_closed = Signal()
    search_wanted = Signal(str)

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
        self._clock, self._bell = clock, bell
        self._reminders: RemindersPanel | None = None
        self.banner = Banner(self)
        self.message_bar = MessageBar(self)
        self._find_bar: FindBar | None = None
        self._find_on_show = ""
        """Words a session was found by in the sidebar: its find bar opens with them once shown."""
        self.answer_wait = AnswerWait(self)
        self.version_of: Callable[[], str] = QApplication.applicationVersion
        """Chime's version, asked for when About opens (the application's, set at start)."""
        self._allow_close = False
        self._build_dock()
        self._build_center()
        self._build_menus()
        self._build_status()
        self._connect_local()
        self._set_tab_order()
        self._connect_verbs()
        self.setMinimumSize(MIN_SIZE)
        self.resize(DEFAULT_SIZE)

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
        self._unread_count = self._reminder_count = 0
        """What the folded panels' toggles count (``SidePanels.set_counts``)."""
        column.addWidget(self.toggles)
        column.addWidget(self.banner)
        column.addWidget(self.transcript, 1)
        column.addWidget(self.answer_wait)
        self.answer_wait.thinking_ticked.connect(self.transcript_model.set_thinking_ms)
        column.addWidget(self.message_bar)
        column.addWidget(self.composer.edit_bar)
        column.addWidget(self.composer)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("main-splitter")
        splitter.addWidget(self.sessions)
        splitter.addWidget(center)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([250, 850])
        splitter.setChildrenCollapsible(False)
        self._column = column
        self.sessions.setMinimumWidth(180)
        center.setMinimumWidth(360)
        self.splitter = splitter
        self.setCentralWidget(splitter)

    def _build_dock(self) -> None:
        self.reminders_dock = QDockWidget(self.tr("Reminders"), self)
        self.reminders_dock.setObjectName("reminders-dock")
        self.reminders_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        self.reminders_dock.setMinimumWidth(240)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.reminders_dock)
        self.window_actions.action("toggle_reminders").setChecked(True)

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

    def _build_status(self) -> None:
        self.zone_label = plain(QLabel(self))
        self.zone_label.setObjectName("status-zone")
        self.provider_label = plain(QLabel(self))
        self.provider_label.setObjectName("status-provider")
        self.state_label = plain(QLabel(self))
        self.state_label.setObjectName("status-state")
        self.persistence_label = plain(QLabel(self))
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
        act("toggle_sessions").toggled.connect(self._on_toggle_sessions)
        self.reminders_dock.visibilityChanged.connect(self._build_shown_reminders)
        act("show_context").toggled.connect(self.transcript.set_show_context)
        act("wrap_code").toggled.connect(self.transcript.set_wrap_code)
        act("copy").triggered.connect(self.transcript.copy_current_message)
        act("shortcuts").triggered.connect(self.show_shortcuts)
        act("about").triggered.connect(self._on_about)
        self.banner.button.clicked.connect(self.fork_requested)
        self.transcript.settings_requested.connect(act("settings").trigger)
        self.transcript.link_activated.connect(self.ask_open_link)
        self.composer.attachments.open_requested.connect(self._open_attachment)
        self.transcript.link_hovered.connect(self._on_link_hovered)
        self.transcript.row_action.connect(self.row_action)
        self.composer.edit_submitted.connect(self.edit_submitted)
        self.composer.edit_last_requested.connect(self.edit_last_requested)
        self.sessions.search_wanted.connect(self.search_wanted)
        self.sessions.session_chosen.connect(self._on_session_chosen)
        self._connect_find()

    def _connect_find(self) -> None:
        """Ctrl+F opens the find bar; F3 / Shift+F3 open it or step through the matches."""
        act = self.window_actions.action
        act("find").triggered.connect(self.open_find)
        act("find_next").triggered.connect(lambda: self._find_step(self.find_next))
        act("find_previous").triggered.connect(lambda: self._find_step(self.find_previous))

    # -- the parts built when first needed ---------------------------------------------------
    @property
    def find_bar(self) -> FindBar:
        """The find strip above the transcript (built the first time it is needed)."""
        if self._find_bar is None:
            from ui.find_bar import FindBar

            bar = self._find_bar = FindBar(self)
            self._column.insertWidget(self._column.indexOf(self.banner) + 1, bar)
            bar.closed.connect(self._on_find_closed)
            bar.closed.connect(self.find_closed)
            bar.query_changed.connect(self.find_changed)
            bar.next_requested.connect(self.find_next)
            bar.previous_requested.connect(self.find_previous)
            self._set_tab_order()
        return self._find_bar

    @property
    def reminders(self) -> RemindersPanel:
        """The reminders panel in its dock (built when the dock first shows, or is asked for)."""
        if self._reminders is None:
            from ui.reminders_panel import RemindersPanel

            panel = self._reminders = RemindersPanel(self._clock, self._bell, self)
            self.reminders_dock.setWidget(panel)
            panel.ask_delete.connect(self._on_reminders_ask_delete)
            self._set_tab_order()
        return self._reminders

    def _build_shown_reminders(self, visible: bool) -> None:
        if visible:
            self.reminders  # noqa: B018  (built on access: the dock shows it now)

    def _set_tab_order(self) -> None:
        """Left to right, top to bottom, as the window is drawn (the parts built so far)."""
        find, reminders = self._find_bar, self._reminders
        order: list[QWidget] = [
            self.sessions.filter,
            self.sessions.list,
            self.panels.sessions_toggle,
            self.panels.reminders_toggle,
            self.banner.button,
            *(
                (find.edit, find.previous_button, find.next_button, find.close_button)
                if find is not None
                else ()
            ),
            self.transcript,
            self.message_bar.action_button,
            self.message_bar.close_button,
            self.composer.edit_bar.cancel_button,
            self.composer.editor,
            self.composer.tools.attach_button,
            self.composer.tools.picker,
            self.composer.tools.instructions_button,
            self.composer.send_button,
            self.composer.stop_button,
            *((reminders.list, reminders.delete_button) if reminders is not None else ()),
        ]
        for first, second in pairwise(order):
            QWidget.setTabOrder(first, second)

    def _connect_verbs(self) -> None:
        """The composer's tools row triggers the window actions the app connects to; files
        dropped on the window are offered like pasted ones."""
        act = self.window_actions.action
        tools = self.composer.tools
        tools.attach_requested.connect(act("attach_files").trigger)
        tools.instructions_requested.connect(act("session_instructions").trigger)
        act("choose_model").triggered.connect(tools.open_model_menu)
        self.setAcceptDrops(True)

    # -- per-session choices and attachments -----------------------------------------------
    def set_model_menu(self, menu: ModelMenu) -> None:
        """What the model picker shows for the session on screen."""
        self.composer.tools.picker.set_menu(menu)

    def set_instructions(self, text: str, temperature: float | None) -> None:
        """Whether the session on screen has instructions or a temperature of its own."""
        self.composer.tools.set_instructions(text, temperature)

    def show_attachments(self, files: Sequence[Attachment]) -> None:
        """The files waiting to be sent with the next message of the session on screen."""
        self.composer.show_attachments(files)

    def add_attachment(self, file: Attachment) -> None:
        """One more file waiting to be sent (a chip above the message box)."""
        self.composer.show_attachments((*self.composer.attachments.files, file))

    def set_search_matches(self, query: str, matches: Mapping[str, str]) -> None:
        """The sessions whose messages hold ``query`` (a snippet each, by session id)."""
        self.sessions.set_matches(query, matches)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not self._accept_files(event):
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if not self._accept_files(event):
            super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        if self._accept_files(event):
            self.composer.files_offered.emit(local_files(event.mimeData()))
        else:
            super().dropEvent(event)

    def _accept_files(self, event: QDropEvent) -> bool:
        """Accept a drag of local files while the session takes messages."""
        if local_files(event.mimeData()) and self.composer.editor.isEnabled():
            event.acceptProposedAction()
            return True
        return False

    # -- what the app shows ----------------------------------------------------------------
    def show_session(self, screen: SessionScreen) -> None:
        """Put a whole session on screen: transcript (following its end), reminders, title,
        zone, access (state, banner, composer), busy and the persistence warning."""
        self.composer.cancel_edit()
        if self._find_on_show:  # open before the rows: the view's top is where the search begins
            self.find_bar.set_query(self._find_on_show)
            self.find_bar.open_bar()  # the app searches it when told the session shows
            self._find_on_show = ""
        self.transcript_model.reset(
            screen.entries, screen.zone_name, conversation=screen.conversation
        )
        if screen.thinking:
            self.transcript_model.append_thinking(screen.thinking, None)
        if screen.streaming:
            self.transcript_model.append_stream(screen.streaming)
        if screen.thinking or screen.streaming:
            self.transcript_model.flush_stream()
        self.transcript.scroll_to_end()
        self.set_reminders(screen.reminders, screen.zone_name, screen.delivered)
        self.set_session_title(screen.title)
        self.set_zone(screen.zone_name)
        self.set_access(screen.access)
        self.set_busy(screen.busy)
        if screen.busy and screen.thinking and not screen.streaming:
            self.answer_wait.think()  # counted from now: when it began was in another session
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
        """A new entry of the session on screen (a finished answer takes the streamed row's
        place); ``conversation``: the session's conversation tree after it, when it may have
        changed (an input, a turn, a hidden exchange, another version). An answer that calls
        tools is followed by another request to the model: the wait for it begins."""
        self.transcript.apply_entry(entry, conversation)
        event = entry.event
        if self.composer.busy and isinstance(event, AssistantMessage) and event.tool_calls:
            self.answer_wait.begin()

    def append_stream(self, piece: str) -> None:
        """More of the answer being streamed: it grows in its own row of the transcript."""
        if piece:
            self.answer_wait.end()
        self.transcript_model.append_stream(piece)

    def show_thinking_piece(self, piece: str) -> None:
        """A piece of the streamed answer's thinking: the waiting line says "Thinking… 12 s" and
        the thinking grows, folded, at the top of the answer's row."""
        self.answer_wait.think()
        self.transcript_model.append_thinking(piece, self.answer_wait.thinking_ms())

    def end_stream(self) -> None:
        """The stream ended (without an answer, or before it was recorded). A turn still busy
        goes on asking the model (a step it retries): the wait for its answer begins again."""
        self.transcript_model.end_stream()
        if self.composer.busy:
            self.answer_wait.begin()

    def show_stream_piece(self, piece: str) -> None:
        """A piece of the streamed answer, or "" when the stream ended without an answer."""
        if piece:
            self.append_stream(piece)
        else:
            self.end_stream()

    def set_busy(self, busy: bool) -> None:
        """A turn runs (or not): the composer offers Stop and Queue, and until the answer's
        first word the line under the transcript says it is awaited."""
        self.composer.set_busy(busy)
        if busy and not self.transcript_model.is_streaming:
            self.answer_wait.begin()
        else:
            self.answer_wait.end()

    def set_reminders(
        self,
        records: Sequence[ReminderView],
        zone_name: str | None,
        delivered: Sequence[DeliveredView] = (),
    ) -> None:
        self.reminders.set_records(records, zone_name, delivered)
        self._reminder_count = len(records)
        self.panels.set_counts(self._unread_count, self._reminder_count)

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
        self.reminders.set_writable(access.writable)
        self.transcript.set_writable(access.writable)

    def set_sessions(self, items: Sequence[SessionListItem], current: str | None) -> None:
        self.sessions.set_sessions(list(items), current)
        self._unread_count = sum(item.unread_count for item in items if item.id != current)
        self.panels.set_counts(self._unread_count, self._reminder_count)

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
        if self._find_bar is not None and self._find_bar.isVisible():
            self._find_bar.close_bar()

    def reveal_message(self, seq: int) -> None:
        """Scroll the transcript to the message whose ``seq`` this is (loading it if need be)."""
        self.transcript.show_find("", (seq, 0))

    def scroll_to_end(self) -> None:
        self.transcript.scroll_to_end()

    # -- the conversation verbs and find (agent.md §7) ------------------------------------
    def begin_edit(self, seq: int, text: str) -> None:
        """Edit the sent message at ``seq``: its text in the message box, in edit mode."""
        self.composer.begin_edit(seq, text)

    def open_find(self) -> None:
        """Ctrl+F: show the find bar (its text selected); the search runs again for what it
        holds."""
        reopened = self.find_bar.isHidden()
        self.find_bar.open_bar()
        if reopened and self.find_bar.query():
            self.find_bar.query_changed.emit(self.find_bar.query())

    def show_find(
        self, count: str, query: str, target: tuple[int, int] | None, *, scroll: bool = True
    ) -> None:
        """What the app found: the count ("3 of 17", "12+"), the text to highlight, and the
        current match (the seq of its message, which match in it), scrolled to when
        ``scroll``."""
        if self._find_bar is not None:
            self._find_bar.set_count(count)
        self.transcript.show_find(query, target, scroll=scroll)

    def find_query(self) -> str:
        """What the open find bar searches for ("" while it is closed)."""
        bar = self._find_bar
        return bar.query() if bar is not None and bar.isVisible() else ""

    def first_visible_seq(self) -> int:
        """The seq of the message at the top of the transcript (-1: nothing is shown): a search
        chooses its first match from there."""
        return self.transcript.first_visible_seq()

    def stop_search(self) -> None:
        """The app quits: the sidebar's search stops waiting for answers."""
        self.sessions.stop_search()

    def _find_step(self, step: SignalInstance) -> None:
        if self._find_bar is None or self._find_bar.isHidden():
            self.open_find()
        else:
            step.emit()

    def _on_find_closed(self) -> None:
        self.transcript.show_find("", None)
        bar, focused = self._find_bar, QApplication.focusWidget()
        if bar is not None and focused is not None and bar.isAncestorOf(focused):
            self.transcript.setFocus(Qt.FocusReason.OtherFocusReason)  # Esc in the bar

    def draft(self) -> str:
        """The message being written (not sent yet)."""
        return self.composer.text()

    def replace_draft(self, text: str) -> None:
        """Another conversation's unsent message into the box, where the focus is left as it is
        (choosing a conversation from the list keeps the list's focus)."""
        self.composer.editor.setPlainText(text)
        self.composer.editor.moveCursor(QTextCursor.MoveOperation.End)

    def set_draft(self, text: str) -> None:
        """Put ``text`` into the message box (a refused message goes back there)."""
        self.composer.set_text(text)

    def saved_geometry(self) -> str:
        """The window's geometry and state as Qt saves it, base64 (for state.json)."""
        return bytes(self.saveGeometry().toBase64().data()).decode("ascii")

    def restore_geometry(self, saved: str) -> None:
        """Restore a saved geometry (base64), fitted into the screen the window opens on (call
        ``fit_to_screen`` again once shown: only then is the frame's size known)."""
        if saved:
            self.restoreGeometry(QByteArray.fromBase64(saved.encode("ascii")))
        self.fit_to_screen()

    def fit_to_screen(self) -> None:
        """Keep the whole window on its screen: never larger than the available area (a scale
        factor makes the same pixels a bigger window), moved inside it when it sticks out."""
        available = self.screen().availableGeometry()
        frame = self.frameGeometry()
        if frame == self.geometry():  # the window manager has not framed it yet: allow for it
            frame = frame.marginsAdded(FRAME_ALLOWANCE)
        extra = QSize(frame.width() - self.width(), frame.height() - self.height())
        self.setMinimumSize(
            min(MIN_SIZE.width(), available.width() - extra.width()),
            min(MIN_SIZE.height(), available.height() - extra.height()),
        )
        fitted = fit_rect(frame, available)
        if fitted.size() != frame.size():
            self.resize(fitted.width() - extra.width(), fitted.height() - extra.height())
        if fitted.topLeft() != frame.topLeft():
            self.move(fitted.topLeft())

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
        self.state_label.setToolTip(literal(detail))

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
        alert(self.transcript)

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts: every shortcut in a table (``ui.window_parts``)."""
        show_shortcuts(self, self.window_actions.shortcut_lines())

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
        self.panels.reveal_sessions()
        self.sessions.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_search_sessions(self) -> None:
        self.panels.reveal_sessions()
        self.sessions.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.sessions.filter.selectAll()

    def _on_toggle_reminders(self, visible: bool) -> None:
        self.panels.reminders.set_shown(visible)
        if visible:
            self.reminders.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_toggle_sessions(self, visible: bool) -> None:
        self.panels.sessions.set_shown(visible)
        if visible:
            self.sessions.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_session_chosen(self, session_id: str) -> None:
        self.panels.session_chosen()
        typed = self.sessions.filter.text().strip()
        if typed and self.sessions.proxy.snippet(session_id):
            # found by its messages: it opens with the text in the find bar, which searches
            # once the session shows and goes to its match (§1.2)
            self._find_on_show = typed

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.apply_width(event.size().width())

    def apply_width(self, width: int) -> None:
        """Collapse or restore the side panels for a window ``width`` wide."""
        self.panels.apply_width(width)

    def ask_open_link(self, url: str) -> None:
        """Show a link's whole target and open it in the browser only if the user says so (an
        attached file's link opens the file)."""
        if attachment_sha(url):
            self._open_attachment(attachment_sha(url))
            return
        if QUrl(url).scheme().lower() not in OPENABLE_SCHEMES:
            self.notify(
                self.tr("Chime opens only web and e-mail links; not: {url}").format(url=url)
            )
            return
        ask_open_link(self, url, self.open_url_requested.emit)

    def _open_attachment(self, sha256: str) -> None:
        model = self.transcript_model
        rows = (model.row_at(number) for number in range(model.rowCount()))
        sent = [file for row in rows if row is not None for file in row.files]
        found = find_file([*self.composer.attachments.files, *sent], sha256)
        if found is not None:
            self.attachment_open_requested.emit(found)

    def _on_link_hovered(self, url: str) -> None:
        if attachment_sha(url):
            self.statusBar().showMessage(self.tr("Click to open this file"))
        elif url:
            self.statusBar().showMessage(url)
        else:
            self.statusBar().clearMessage()

    def _on_reminders_ask_delete(self, schedule_id: str) -> None:
        # The assistant's words, not the window's: the offline assistant reads English.
        self.composer.set_text("Delete reminder " + schedule_id)

    def about_text(self) -> str:
        """About's text: the version first (and Qt's and Python's, for bug reports)."""
        from platform import python_version

        from PySide6 import __version__ as pyside_version

        return self.tr(
            "Chime {version}\n\nA chat app whose assistant can set reminders that come back as "
            "turns of the same conversation, while that conversation is open.\n\n"
            "Qt {qt} (PySide6 {pyside}), Python {python}"
        ).format(
            version=self.version_of() or self.tr("(version unknown)"),
            qt=qVersion(),
            pyside=pyside_version,
            python=python_version(),
        )

    def _on_about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(self, self.tr("About Chime"), self.about_text())


def request_attention(window: QWidget) -> None:
    """Ask the desktop to flag the window (taskbar flash) without stealing focus."""
    QApplication.alert(window)
