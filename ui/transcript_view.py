"""TranscriptView: the transcript's list view, composed of small parts. No I/O.

Rows are painted by ``ui.turn_delegate.TurnDelegate`` from their ``ui.row_layout.RowLayout``.
What changes without the rows changing belongs to one part each, a ``QObject`` child of the view
with its own signals; the view builds them, connects them and routes the events Qt gives the view
itself (keys, context menu, resize, paint) to them. The delegate reads the parts through
``ui.row_state.PartsState``. The parts, public attributes of the view:

- ``selection`` (``ui.text_selection.TextSelection``): the text selection across rows and how the
  mouse makes it (drag, double-click a word, triple-click a paragraph, Shift+click, Ctrl+A);
- ``copying`` (``ui.row_copy.RowCopy``): Ctrl+C (plain text, and ``text/markdown``), a message's
  and a code box's Copy, and the "Copied" they show;
- ``hover`` (``ui.hover_buttons.HoverButtons``): the hovered row and button, the cursor, link
  hover and tooltips, and clicks on painted buttons;
- ``menu`` (``ui.row_menu.RowMenu``): a row's verbs from its context menu (right click, the Menu
  key, Shift+F10), its buttons and Enter;
- ``code_scroll`` (``ui.code_scroll.CodeScroll``): code boxes' sideways scroll;
- ``pointer`` (``ui.pointer_input.PointerInput``): the viewport's mouse, wheel and tooltip events,
  routed to the parts above; a click on a link or a tool call;
- ``follow`` (``ui.follow_output.FollowOutput``): following the newest output unless the user
  scrolled up;
- ``lazy`` (``ui.lazy_rows.LazyRows``): older and newer rows loaded at either end;
- ``place`` (``ui.reading_place.ReadingPlace``): new entries fed with the row the reader looks
  at, and that place kept over a rebuild of the rows (the shown path, agent.md §7);
- ``position`` (``ui.conversation_bar.ConversationBar``): the scroll bar that stands for the
  whole conversation (in place of the list's own), Ctrl+Home and Ctrl+End;
- ``matches`` (``ui.find_highlights.FindMarks``): the find bar's matches and going to the
  current one.
Hit testing is ``hits`` (``ui.row_hits.RowHits``). A link shows its target in the status bar on
hover; clicking it asks the window (``link_activated``), which shows the target before opening.

Signals:
    settings_requested(): the user asked for Settings from an error row.
    link_activated(str): a link in a message was clicked (its target).
    link_hovered(str): the mouse is over a link with this target ("" when it left).
    row_action(str, int): a row action the view does not handle itself (name, the seq of the
        input whose exchange the row belongs to): the table's (``ui.row_actions``), an error
        row's ``retry`` (also Enter on it), ``edit`` and ``discard``, a hidden row's ``show``
        (also Enter), a message's ``version-previous`` and ``version-next``.
    following_changed(bool): the view started or stopped following the newest output.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QIcon,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from core.events import Entry
from ui.code_scroll import CodeScroll
from ui.conversation_bar import ConversationBar
from ui.find_highlights import FindMarks
from ui.follow_output import FollowOutput
from ui.hover_buttons import HoverButtons
from ui.late_qt import own_viewport
from ui.lazy_rows import LazyRows
from ui.mcp_rows import Thumbnails
from ui.pointer_input import PointerInput
from ui.reading_place import ReadingPlace
from ui.row_copy import RowCopy
from ui.row_hits import RowHits
from ui.row_layout import HIGHLIGHTS_PER_FRAME, RowLayout
from ui.row_menu import RowMenu
from ui.row_state import PartsState
from ui.shown_path import ShownConversation
from ui.text_selection import TextSelection
from ui.transcript_model import TranscriptModel
from ui.turn_delegate import TurnDelegate


class TranscriptView(QListView):
    """The transcript list: selectable text, copy, links, row actions, follows the bottom.

    Signals: see the module docstring.
    """

    settings_requested = Signal()
    link_activated = Signal(str)
    link_hovered = Signal(str)
    row_action = Signal(str, int)
    following_changed = Signal(bool)

    def __init__(self, model: TranscriptModel, bell: QIcon, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setAccessibleName(self.tr("Transcript"))
        self._model = model
        self.delegate = TurnDelegate(model, bell, self)
        self.code_scroll = CodeScroll(self.delegate, self)
        self.hits = RowHits(self, model, self.delegate, self.code_scroll.offsets)
        self.code_scroll.attach(self.hits)
        self.selection = TextSelection(self, model, self.delegate, self.hits)
        self.copying = RowCopy(model, self.delegate, self.selection, self.hits, self)
        self.hover = HoverButtons(self, model, self.hits)
        self.menu = RowMenu(self, model, self.delegate, self.hits, self.copying, self.selection)
        self.follow = FollowOutput(self, model)
        self.lazy = LazyRows(self, model, self.follow, self.hits)
        self.position = ConversationBar(self, model, self.follow)
        self.matches = FindMarks(self, model, self.delegate, self.follow)
        self.delegate.watch(
            PartsState(self.selection, self.code_scroll, self.hover, self.copying, self.matches)
        )
        self.setViewport(own_viewport())
        self.pointer = PointerInput(
            self, model, self.hits, self.selection, self.hover, self.code_scroll
        )
        self.setModel(model)
        self.setItemDelegate(self.delegate)
        self.place = ReadingPlace(self, model, self.follow, self.lazy, self.hits)
        self.delegate.configure(self.font(), self.palette())
        self._configure()
        self._connect()

    def _configure(self) -> None:
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Fixed: a height-only resize must not re-lay out every row; width changes are handled in
        # resizeEvent (rows re-wrap only when the reading column changes).
        self.setResizeMode(QListView.ResizeMode.Fixed)
        # SinglePass: rows inserted at the top are laid out at once, so keeping the reading
        # position after loading older history is one scroll-range change (Batched made several).
        self.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setUniformItemSizes(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.verticalScrollBar().setSingleStep(24)
        self.setViewportMargins(0, 0, self.position.width(), 0)
        for action, keys in (
            (self.menu.copy_action, QKeySequence.StandardKey.Copy),
            (self.menu.select_all_action, QKeySequence.StandardKey.SelectAll),
        ):
            action.setShortcut(keys)
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            self.addAction(action)

    def _connect(self) -> None:
        repaint = self.viewport().update
        for part in (self.selection, self.copying, self.hover, self.code_scroll, self.matches):
            part.changed.connect(repaint)
        self.menu.copy_action.triggered.connect(self.copying.copy_selection)
        self.menu.select_all_action.triggered.connect(self.selection.select_all)
        self.menu.row_action.connect(self.row_action)
        self.menu.settings_requested.connect(self.settings_requested)
        self.menu.link_activated.connect(self.link_activated)
        self.pointer.link_activated.connect(self.link_activated)
        self.hover.link_hovered.connect(self.link_hovered)
        self.hover.clicked.connect(self.menu.run)
        self.follow.following_changed.connect(self.following_changed)
        reset = self._model.modelReset  # in this order: what showed the old rows, then the place
        reset.connect(self.delegate.forget)
        reset.connect(self.matches.forget)
        reset.connect(self.selection.forget)
        reset.connect(self.code_scroll.clear)
        reset.connect(self.place.after_reset)

    # -- public slots and values ---------------------------------------------------------
    def apply_entry(self, entry: Entry, conversation: ShownConversation | None) -> None:
        """A new entry of the session on screen, with the conversation after it (None: it did
        not change): rows are added, or the loaded ones rebuilt around the reader."""
        self.place.apply_entry(entry, conversation)

    def show_find(self, query: str, target: tuple[int, int] | None, *, scroll: bool = True) -> None:
        """Highlight every match of ``query`` in the rows shown; ``target`` (the seq of the
        message holding the current match, which match in it) is loaded if need be and
        scrolled to when ``scroll``. An empty query clears the highlights."""
        self.matches.show(query, target, scroll=scroll)

    def first_visible_seq(self) -> int:
        """The lowest seq of a message at the top of the viewport (-1: nothing is shown)."""
        return self.place.first_visible_seq()

    def set_show_context(self, show: bool) -> None:
        """Show or hide the time-context readings sent to the model."""
        self._model.set_show_context(show)

    def set_wrap_code(self, wrap: bool) -> None:
        """Wrap long code lines instead of scrolling them sideways."""
        self.code_scroll.clear()
        self.delegate.set_wrap_code(wrap)
        self.scheduleDelayedItemsLayout()

    def set_thumbnails(self, thumbnails: Thumbnails) -> None:
        """Where an MCP row's images come from (``ui.mcp_rows``)."""
        self.delegate.layouts.thumbnails = thumbnails
        self.pictures_arrived()

    def pictures_arrived(self) -> None:
        """New thumbnails are at hand: rows with images are laid out again."""
        self.delegate.forget()
        self.scheduleDelayedItemsLayout()
        self.viewport().update()

    def set_writable(self, writable: bool) -> None:
        """A read-only session's rows offer no buttons that would write."""
        if self.delegate.set_writable(writable):
            self.scheduleDelayedItemsLayout()
            self.viewport().update()

    def scroll_to_end(self) -> None:
        """Jump to the newest row and follow new output again (reloading the tail if the user had
        scrolled so far up that the newest rows were unloaded)."""
        self.follow.scroll_to_end()

    def copy_current_message(self) -> None:
        """Copy the current row's text as written (an answer's Markdown source)."""
        self.copying.copy_current_message()

    def select_last(self) -> None:
        """Put keyboard focus on the newest row (for copying with the keyboard)."""
        last = self._model.rowCount() - 1
        if last >= 0:
            self.setCurrentIndex(self._model.index(last))

    def layout_of(self, row: int) -> RowLayout | None:
        """The row's layout (tests and the window's checks read geometry from it)."""
        return self.delegate.layout_at(row)

    def row_origin(self, row: int) -> QPoint:
        """Where row coordinates start in the viewport (the reading column's left, the row's top)."""
        return self.hits.row_origin(row)

    def empty_text(self) -> str:
        """What an empty conversation says (the first move)."""
        return self.tr(
            "Start a conversation below.\n\nTry “remind me in 10 minutes to stretch” — the reminder "
            "comes back here, in this conversation, while it is open."
        )

    # -- Qt's events on the view itself, routed to the parts ---------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self.delegate.layouts.highlight_budget = HIGHLIGHTS_PER_FRAME
        self.delegate.pending_highlight = False
        self.selection.begin_frame()
        try:
            super().paintEvent(event)
        finally:
            self.selection.end_frame()
        if self._model.rowCount() == 0:  # the empty state: the first move
            painter = QPainter(self.viewport())
            painter.setPen(self.delegate.layouts.surfaces.muted_text)
            area = self.viewport().rect().adjusted(40, 0, -40, 0)
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            painter.drawText(area, int(flags), self.empty_text())
            painter.end()
        if self.delegate.pending_highlight:  # colour the rest in the next frame
            QTimer.singleShot(0, self.viewport().update)

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.hover.leave()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not (self.position.key(event) or self.menu.key(event)):
            super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        self.menu.context_menu(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self.delegate.set_width(self.viewport().width()):
            self.scheduleDelayedItemsLayout()
        super().resizeEvent(event)
        self.position.place()
        self.follow.keep_at_end()

    def event(self, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange):
            self.delegate.configure(self.font(), self.palette())
            self.scheduleDelayedItemsLayout()
        return super().event(event)
