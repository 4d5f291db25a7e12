"""TranscriptView: the transcript's list view, composed of small parts. No I/O.

Rows are painted by ``ui.turn_delegate.TurnDelegate`` from their ``ui.row_layout.RowLayout``.
What changes without the rows changing belongs to one part each, a ``QObject`` child of the view
with its own signals; the view builds them, connects them and routes the events Qt gives the view
itself (keys, context menu, resize, paint) to them. The delegate reads the parts through
``ui.row_state.PartsState``. ``follow`` and ``position`` are the view's own attributes, built with
it; the others, and the delegate, are attributes of ``view.parts``
(``ui.transcript_parts.TranscriptParts``), built when the first row comes. Callers reach a part
there (``view.parts.selection``); the view forwards nothing but the few values and slots the
window uses (``apply_entry``, ``show_find``, ``first_visible_seq``, ``scroll_to_end`` …):

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
Hit testing is ``parts.hits`` (``ui.row_hits.RowHits``); a row's layout is
``parts.delegate.layout_at(row)``. A link shows its target in the status bar on
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

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QIcon,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from core.events import Entry
from ui.conversation_bar import ConversationBar
from ui.follow_output import FollowOutput
from ui.late_qt import own_viewport
from ui.shown_path import ShownConversation
from ui.theme import surfaces
from ui.transcript_model import TranscriptModel

if TYPE_CHECKING:  # the painting parts are imported with the first row (``parts``)
    from ui.thumbnails import Thumbnails
    from ui.transcript_parts import TranscriptParts
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
        self._bell = bell
        self._parts: TranscriptParts | None = None
        self._wrap_code: bool | None = None
        self._writable: bool | None = None
        self._thumbnails: Thumbnails | None = None
        """What ``set_wrap_code``, ``set_writable`` and ``set_thumbnails`` said (None: nothing
        yet), handed to the delegate when the parts are built."""
        self.follow = FollowOutput(self, model)
        self.position = ConversationBar(self, model, self.follow)
        self.setViewport(own_viewport())
        self.setModel(model)
        model.rows_coming.connect(self._rows_coming)
        self._configure()
        self.follow.following_changed.connect(self.following_changed)

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

    # -- the painting parts, built when the first row comes (``ui.transcript_parts``) --------
    @property
    def parts(self) -> TranscriptParts:
        """The delegate and the parts that read its rows, built on first use: the one place
        that imports the row painting modules, which an empty transcript never needs."""
        if self._parts is None:
            from ui.transcript_parts import TranscriptParts

            self._parts = TranscriptParts(self, self._model, self._bell)
            self._apply_options(self._parts.delegate)
        return self._parts

    def _rows_coming(self) -> None:
        self._model.rows_coming.disconnect(self._rows_coming)
        _ = self.parts

    def _apply_options(self, delegate: TurnDelegate) -> None:
        if self._wrap_code is not None:
            delegate.set_wrap_code(self._wrap_code)
        if self._writable is not None:
            delegate.set_writable(self._writable)
        if self._thumbnails is not None:
            delegate.layouts.thumbnails = self._thumbnails

    # -- public slots and values ---------------------------------------------------------
    def apply_entry(self, entry: Entry, conversation: ShownConversation | None) -> None:
        """A new entry of the session on screen, with the conversation after it (None: it did
        not change): rows are added, or the loaded ones rebuilt around the reader."""
        self.parts.place.apply_entry(entry, conversation)

    def show_find(self, query: str, target: tuple[int, int] | None, *, scroll: bool = True) -> None:
        """Highlight every match of ``query`` in the rows shown; ``target`` (the seq of the
        message holding the current match, which match in it) is loaded if need be and
        scrolled to when ``scroll``. An empty query clears the highlights."""
        self.parts.matches.show(query, target, scroll=scroll)

    def first_visible_seq(self) -> int:
        """The lowest seq of a message at the top of the viewport (-1: nothing is shown)."""
        return self.parts.place.first_visible_seq()

    def set_show_context(self, show: bool) -> None:
        """Show or hide the time-context readings sent to the model."""
        self._model.set_show_context(show)

    def set_wrap_code(self, wrap: bool) -> None:
        """Wrap long code lines instead of scrolling them sideways."""
        self._wrap_code = wrap
        if self._parts is None:
            return
        self._parts.code_scroll.clear()
        self._parts.delegate.set_wrap_code(wrap)
        self.scheduleDelayedItemsLayout()

    def set_thumbnails(self, thumbnails: Thumbnails) -> None:
        """Where an MCP row's images come from (``ui.mcp_rows``)."""
        self._thumbnails = thumbnails
        if self._parts is not None:
            self._parts.delegate.layouts.thumbnails = thumbnails
            self.pictures_arrived()

    def pictures_arrived(self) -> None:
        """New thumbnails are at hand: rows with images are laid out again."""
        if self._parts is None:
            return
        self._parts.delegate.forget()
        self.scheduleDelayedItemsLayout()
        self.viewport().update()

    def set_writable(self, writable: bool) -> None:
        """A read-only session's rows offer no buttons that would write."""
        self._writable = writable
        if self._parts is not None and self._parts.delegate.set_writable(writable):
            self.scheduleDelayedItemsLayout()
            self.viewport().update()

    def scroll_to_end(self) -> None:
        """Jump to the newest row and follow new output again (reloading the tail if the user had
        scrolled so far up that the newest rows were unloaded)."""
        self.follow.scroll_to_end()

    def copy_current_message(self) -> None:
        """Copy the current row's text as written (an answer's Markdown source)."""
        self.parts.copying.copy_current_message()

    def select_last(self) -> None:
        """Put keyboard focus on the newest row (for copying with the keyboard)."""
        last = self._model.rowCount() - 1
        if last >= 0:
            self.setCurrentIndex(self._model.index(last))

    def empty_text(self) -> str:
        """What an empty conversation says (the first move)."""
        return self.tr(
            "Start a conversation below.\n\nTry “remind me in 10 minutes to stretch” — the reminder "
            "comes back here, in this conversation, while it is open."
        )

    # -- Qt's events on the view itself, routed to the parts ---------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        parts = self._parts
        if parts is None:  # no row has come yet
            super().paintEvent(event)
        else:
            parts.paint_frame(lambda: super(TranscriptView, self).paintEvent(event))
        if self._model.rowCount() == 0:  # the empty state: the first move
            painter = QPainter(self.viewport())
            painter.setPen(surfaces(self.palette()).muted_text)
            area = self.viewport().rect().adjusted(40, 0, -40, 0)
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            painter.drawText(area, int(flags), self.empty_text())
            painter.end()
        if parts is not None and parts.delegate.pending_highlight:  # the rest in the next frame
            QTimer.singleShot(0, self.viewport().update)

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        if self._parts is not None:
            self._parts.hover.leave()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not (self.position.key(event) or self.parts.menu.key(event)):
            super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        self.parts.menu.context_menu(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self._parts is not None and self._parts.delegate.set_width(self.viewport().width()):
            self.scheduleDelayedItemsLayout()
        super().resizeEvent(event)
        self.position.place()
        self.follow.keep_at_end()

    def event(self, event: QEvent) -> bool:
        changed = event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange)
        if changed and self._parts is not None:
            self._parts.delegate.configure(self.font(), self.palette())
            self.scheduleDelayedItemsLayout()
        return super().event(event)
