"""The sessions sidebar: conversations grouped (Pinned, folders, by day), badges, live and unread
marks, a filter, an Archived view, renaming in place, and moving by menu and by drag. No I/O.

The app gives it ``SessionListItem`` values and the person's arrangement (``set_organisation``);
the rows are laid out by ``ui.session_rows``. The filter matches the title and ``search_text``
(the message text the app has for that session) at once, as the user types, over every
conversation, archived ones too (the list is flat while searching). Closed sessions are found by
their messages too: ``SEARCH_DELAY_MS`` after the typing stops (or at once on Enter) the panel
asks the app to search (``search_wanted``), and the app answers with ``set_matches``: the
sessions whose messages hold the text, each with a snippet around the match, shown on the row's
second line in place of its age.

A row's context menu offers Pin, Move to folder (each folder, a new folder, out of its folder),
Archive (Restore in the Archived view or a search), and Rename, then the main window's session
actions (New, Rename, Fork, Export, Close, Delete act on the conversation on screen). A row
dragged onto a folder (its heading or one of its rows) moves into it, onto Pinned pins it, onto a
day group takes it out of its folder. Every change of the arrangement is said with ``organised``;
the app keeps it in its file.

Signals:
    session_chosen(str): the user picked this session.
    search_wanted(str): search every session's messages for this text ("" when cleared).
    rename_wanted(str, str): the person renamed this session in place to this title.
    organised(object): the arrangement changed (the new ``core.organise.Organisation``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QPainter,
    QPaintEvent,
    QPalette,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.organise import Group, Heading, Listed, Organisation, View
from ui.late_qt import own_viewport
from ui.session_delegate import SessionDelegate
from ui.session_menu import SessionMenus
from ui.session_rows import (
    ID_ROLE,
    SEARCH_ROLE,
    SESSION_MIME,
    Index,
    SessionFilter,
    SessionListItem,
    SessionListModel,
    fork_title,
    search_key,
    snippet_from_match,
)
from ui.theme import card_colors

__all__ = [
    "ID_ROLE",
    "SessionDelegate",
    "SessionFilter",
    "SessionListItem",
    "SessionListModel",
    "SessionListPanel",
    "fork_title",
    "search_key",
    "snippet_from_match",
]

LAYOUT_BATCH = 150
"""Rows the list lays out at once before it lets the event loop run (a long list stays fluent)."""
SEARCH_DELAY_MS = 200
"""How long after the last key press the messages of every session are searched."""


class SessionListView(QListView):
    """The sessions list; when the filter leaves no row, it says so in the list. A conversation
    dropped on a row is handed to ``dropped`` with that row's index."""

    def __init__(self, empty_text: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewport(own_viewport())  # before anything asks for it (ui.late_qt)
        self._empty_text = empty_text
        self.dropped: Callable[[str, QModelIndex], bool] = lambda _sid, _index: False

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

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasFormat(SESSION_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if event.mimeData().hasFormat(SESSION_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        data = event.mimeData()
        if not data.hasFormat(SESSION_MIME):
            event.ignore()
            return
        session_id = bytes(data.data(SESSION_MIME).data()).decode("utf-8", "replace")
        if self.dropped(session_id, self.indexAt(event.position().toPoint())):
            event.setDropAction(Qt.DropAction.CopyAction)  # the model removes nothing itself
            event.accept()
        else:
            event.ignore()


class SessionListPanel(QWidget):
    """Filter box, the sessions list and the Archived switch. Signals: see the module docstring."""

    session_chosen = Signal(str)
    search_wanted = Signal(str)
    rename_wanted = Signal(str, str)
    organised = Signal(object)

    def __init__(
        self,
        clock: Callable[[], datetime],
        bell: QIcon | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("session-list")
        self.zone: Callable[[], tzinfo] = lambda: UTC
        """The zone whose calendar days group the list (the app sets it)."""
        self.model = SessionListModel(clock, self)
        self.model.zone = lambda: self.zone()
        self.proxy = SessionFilter(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("session-filter")
        self.filter.setPlaceholderText(self.tr("Search all sessions"))
        self.filter.setAccessibleName(self.tr("Search sessions by title or message text"))
        self.list = SessionListView(self.empty_text, self)
        self._build_list(clock, bell or QIcon())
        self.archived_button = QPushButton(self)
        self.archived_button.setObjectName("session-archived")
        self.archived_button.setCheckable(True)
        self.archived_button.setFlat(True)
        self.archived_button.toggled.connect(self._on_archived_toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.archived_button)
        self._window_actions: list[QAction] = []
        self.menus = SessionMenus(self)
        self._searching = False
        self._search_delay = QTimer(self)
        self._search_delay.setSingleShot(True)
        self._search_delay.setInterval(SEARCH_DELAY_MS)
        self._search_delay.timeout.connect(self.search_now)
        self.filter.textChanged.connect(self._on_filter_text)
        self.filter.returnPressed.connect(self.search_now)
        self.model.rename_wanted.connect(self.rename_wanted)
        self.model.organised.connect(self._on_organised)
        self._current: str | None = None
        self._pointer_in = False
        self.list.installEventFilter(self)  # the list's own Enter/Leave cover its viewport too
        self._ages = QTimer(self)  # "5 min" ages are recomputed from the clock on repaint
        self._ages.setInterval(30_000)
        self._ages.timeout.connect(self._on_ages)
        self._ages.start()
        self._show_archived_count()

    def _build_list(self, clock: Callable[[], datetime], bell: QIcon) -> None:
        view = self.list
        view.setObjectName("session-list-view")
        view.setAccessibleName(self.tr("Sessions"))
        view.setModel(self.proxy)
        view.setItemDelegate(
            SessionDelegate(
                clock,
                bell,
                self._summary_at,
                view,
                self.proxy.snippet,
                lambda sid: sid in self.model.organisation.archived,
                self._heading_at,
            )
        )
        view.setLayoutMode(QListView.LayoutMode.Batched)  # a long list lays out in steps
        view.setBatchSize(LAYOUT_BATCH)
        view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._on_context_menu)
        view.setDragEnabled(True)
        view.setAcceptDrops(True)
        view.viewport().setAcceptDrops(True)
        view.setDropIndicatorShown(True)
        view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        view.setDefaultDropAction(Qt.DropAction.MoveAction)
        view.dropped = self._on_dropped
        view.activated.connect(self._on_list_activated)
        view.clicked.connect(self._on_list_activated)

    def empty_text(self) -> str:
        """What the list says when the filter matches nothing ("" while it is not filtered)."""
        typed = self.filter.text().strip()
        if self.proxy.rowCount():
            return ""
        if not typed:
            if self.model.view == View.ARCHIVED:
                return self.tr("No conversation is archived.")
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

    def _on_filter_text(self, text: str) -> None:
        if text and not self.filter.isClearButtonEnabled():
            # Added with the first text (an empty box shows none): the button's style icon cost
            # ~30 M instructions before the first paint on X.
            self.filter.setClearButtonEnabled(True)
        flat = bool(text.strip())
        if flat != self.model.flat:
            self.model.flat = flat
            self.model.lay_out()
        self.proxy.set_text(text)
        self.select(self._current)
        self.list.viewport().update()
        self._search_delay.start()

    def _summary_at(self, index: Index) -> SessionListItem | Heading | None:
        """What the row at ``index`` (of the list's own model) shows."""
        row = self.model.row(self.proxy.mapToSource(index).row())
        match row:
            case Listed(id=sid):
                return self.model.item_of(sid)
            case _:
                return row

    def _heading_at(self, index: Index) -> bool:
        return isinstance(self.model.row(self.proxy.mapToSource(index).row()), Heading)

    def add_actions(self, actions: Sequence[QAction]) -> None:
        """Offer these window actions in the list's context menu."""
        self._window_actions += list(actions)
        self.list.addActions(list(actions))  # their shortcuts also work while the list has focus

    def set_sessions(self, items: Sequence[SessionListItem], current: str | None) -> None:
        """Show these sessions and highlight ``current`` (the order holds still while the
        pointer or the keyboard is on the list: ``holding``)."""
        self._current = current
        if self.list.state() == QAbstractItemView.State.EditingState:
            self.model.set_sessions(items, freeze=True)  # the row being edited stays put
        else:
            self.model.set_sessions(items, hold_order=self.holding)
        self.select(current)
        self._show_archived_count()

    def set_organisation(self, organisation: Organisation) -> None:
        """The arrangement as the app read it at start."""
        self.model.set_organisation(organisation)
        self.select(self._current)
        self._show_archived_count()

    @property
    def organisation(self) -> Organisation:
        return self.model.organisation

    def organise(self, organisation: Organisation) -> None:
        """Change the arrangement as the person asked (said with ``organised``)."""
        self.model.organise(organisation)

    def _on_organised(self, organisation: Organisation) -> None:
        self.select(self._current)
        self._show_archived_count()
        self.organised.emit(organisation)

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
        """The list is let go: rows held in place move to their own order."""
        if self.list.state() != QAbstractItemView.State.EditingState and not self.model.in_order():
            self.model.lay_out()
            self.select(self._current)

    def _on_ages(self) -> None:
        """Every half minute: ages are repainted, and a conversation whose day is over moves
        to Yesterday (unless the list is held)."""
        if not self.holding:
            self._settle()
        self.list.viewport().update()

    def select(self, session_id: str | None) -> None:
        """Highlight a session without emitting ``session_chosen``."""
        self._current = session_id
        row = self.model.row_of(session_id) if session_id else -1
        index = self.proxy.mapFromSource(self.model.index(row)) if row >= 0 else QModelIndex()
        if not index.isValid():  # filtered out: no other row looks like the one on screen
            self.list.clearSelection()
            return
        blocker = self.list.selectionModel().blockSignals(True)
        self.list.setCurrentIndex(index)
        self.list.selectionModel().blockSignals(blocker)

    def selected_id(self) -> str | None:
        index = self.list.currentIndex()
        found = index.data(ID_ROLE) if index.isValid() else None
        return found if isinstance(found, str) else self._current

    def _on_list_activated(self, index: QModelIndex) -> None:
        session_id = index.data(ID_ROLE)
        if isinstance(session_id, str) and session_id != self._current:
            self.session_chosen.emit(session_id)

    # -- renaming in place ---------------------------------------------------------------------
    def edit_title(self, session_id: str) -> bool:
        """Start renaming ``session_id`` in place (F2); False when its row is not shown or it
        cannot be renamed (read-only), so the caller can ask another way."""
        row = self.model.row_of(session_id)
        index = self.proxy.mapFromSource(self.model.index(row)) if row >= 0 else QModelIndex()
        if not index.isValid() or not self.list.isVisible():
            return False
        if not self.model.flags(self.model.index(row)) & Qt.ItemFlag.ItemIsEditable:
            return False
        self.list.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.list.scrollTo(index)
        self.list.setCurrentIndex(index)
        self.list.edit(index)
        return self.list.state() == QAbstractItemView.State.EditingState

    def edit_current(self, session_id: str) -> bool:
        """F2: rename in place the row the keyboard is on when the list has the focus (a
        conversation or a folder's heading), else ``session_id``'s row (``edit_title``)."""
        index = self.list.currentIndex()
        if self.list.hasFocus() and index.isValid() and index.flags() & Qt.ItemFlag.ItemIsEditable:
            self.list.edit(index)
            return self.list.state() == QAbstractItemView.State.EditingState
        return self.edit_title(session_id)

    def edit_folder(self, folder_id: str) -> None:
        """Start naming a folder in place (after New folder)."""
        row = self.model.folder_row(folder_id)
        index = self.proxy.mapFromSource(self.model.index(row)) if row >= 0 else QModelIndex()
        if index.isValid():
            self.list.scrollTo(index)
            self.list.edit(index)

    # -- the Archived view ---------------------------------------------------------------------
    def _on_archived_toggled(self, on: bool) -> None:
        self.model.view = View.ARCHIVED if on else View.LIST
        self.model.lay_out()
        self.select(self._current)
        self._show_archived_count()
        self.list.viewport().update()

    def _show_archived_count(self) -> None:
        archived = self.model.organisation.archived
        count = sum(1 for sid in archived if self.model.item_of(sid) is not None)
        button = self.archived_button
        if button.isChecked():
            button.setText(self.tr("← Back to the list"))
            button.setToolTip(self.tr("Show the conversations that are not archived"))
        else:
            button.setText(self.tr("Archived (%n)", "", count))
            button.setToolTip(self.tr("Show the archived conversations, to bring one back"))
        button.setVisible(bool(count) or button.isChecked())

    # -- the context menu and dropping ---------------------------------------------------------
    def _on_context_menu(self, at: QPoint) -> None:
        self.row_menu(self.list.indexAt(at)).popup(self.list.viewport().mapToGlobal(at))

    def row_menu(self, index: QModelIndex) -> QMenu:
        """The context menu of the row at ``index`` (of the list's own model; invalid: the
        empty part of the list): ``ui.session_menu``, then the window's session actions."""
        source = self.proxy.mapToSource(index) if index.isValid() else QModelIndex()
        menu = self.menus.menu(self.model.row(source.row()) if source.isValid() else None, index)
        if self._window_actions:
            menu.addSeparator()
            menu.addActions(self._window_actions)
        return menu

    def _on_dropped(self, session_id: str, index: QModelIndex) -> bool:
        """A conversation dropped on the row at ``index``: into its folder, into Pinned, or
        onto a day group (out of its folder)."""
        if self.model.item_of(session_id) is None or self.model.view == View.ARCHIVED:
            return False
        target = self._group_at(index)
        org = self.organisation
        if target is None:
            return False
        if target.group == Group.PINNED:
            self.organise(org.pin(session_id, True))
        else:
            folder_id = target.folder.id if target.folder is not None else None
            self.organise(org.pin(session_id, False).move(session_id, folder_id))
        return True

    def _group_at(self, index: QModelIndex) -> Heading | None:
        """The heading of the group the row at ``index`` is in."""
        if not index.isValid():
            return None
        source = self.proxy.mapToSource(index).row()
        for row in range(source, -1, -1):
            found = self.model.row(row)
            if isinstance(found, Heading):
                return found
        return None
