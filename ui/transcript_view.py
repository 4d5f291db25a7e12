"""TranscriptView: the transcript's list view, composed of small parts. No I/O.

Rows are painted by ``ui.turn_delegate.TurnDelegate`` from their ``ui.row_layout.RowLayout``.
What changes without the rows changing belongs to one part each, a ``QObject`` child of the view
with its own signals; the view builds them, routes Qt's events to them and answers the
delegate's questions (``ui.turn_delegate.RowState``) from them:

- ``ui.text_selection.TextSelection``: the text selection across rows and how the mouse makes it
  (drag, double-click a word, triple-click a paragraph, Shift+click, Ctrl+A);
- ``ui.row_copy.RowCopy``: Ctrl+C (plain text, and ``text/markdown``), a message's and a code
  box's Copy, and the "Copied" they show;
- ``ui.hover_buttons.HoverButtons``: the hovered row and button, the cursor, link hover and
  tooltips, and clicks on painted buttons;
- ``ui.row_menu.RowMenu``: a row's verbs from its context menu (right click, the Menu key,
  Shift+F10), its buttons and Enter;
- ``ui.code_scroll.CodeScroll``: code boxes' sideways scroll;
- ``ui.follow_output.FollowOutput``: following the newest output unless the user scrolled up;
- ``ui.lazy_rows.LazyRows``: older and newer rows loaded at either end;
- ``ui.conversation_bar.ConversationBar``: the scroll bar that stands for the whole
  conversation (in place of the list's own), Ctrl+Home and Ctrl+End;
- ``ui.find_highlights.FindMarks``: the find bar's matches and going to the current one.
Hit testing is ``ui.row_hits.RowHits``. A link shows its target in the status bar on hover;
clicking it asks the window (``link_activated``), which shows the target before opening.

The shown path (agent.md §7): ``apply_entry`` feeds each new entry with the conversation after
it; an entry that changes which events are shown rebuilds the loaded rows, at the end (a new
version: the view follows it) or around where the reader is (a hidden exchange, another version).
The rebuild carries its anchor (``core.transcript.patch.Anchor``, decided by the projection): the
view notes where that row is on screen before the reset and puts it back after.

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

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QContextMenuEvent,
    QHelpEvent,
    QIcon,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QMenu, QWidget

from core.events import Entry
from core.transcript.patch import Anchor
from ui.code_scroll import CodeScroll
from ui.conversation_bar import ConversationBar
from ui.find_highlights import FindMarks
from ui.find_marks import Mark
from ui.follow_output import FollowOutput
from ui.highlight import CodeFormats
from ui.hover_buttons import HoverButtons
from ui.late_qt import own_viewport
from ui.lazy_rows import LazyRows
from ui.mcp_rows import Thumbnails
from ui.row_copy import RowCopy
from ui.row_hits import RowHits
from ui.row_layout import HIGHLIGHTS_PER_FRAME, RowLayout
from ui.row_menu import RowMenu
from ui.shown_path import ShownConversation
from ui.text_selection import TextSelection
from ui.theme import Surfaces
from ui.transcript_model import MESSAGE_ROWS, TranscriptModel
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
        self._delegate = TurnDelegate(model, bell, self, self)
        self.code_scroll = CodeScroll(self._delegate, self)
        self.hits = RowHits(self, model, self._delegate, self.code_scroll.offsets)
        self.code_scroll.attach(self.hits)
        self.selection = TextSelection(self, model, self._delegate, self.hits)
        self.copying = RowCopy(model, self._delegate, self.selection, self.hits, self)
        self.hover = HoverButtons(self, model, self.hits)
        self.menu = RowMenu(self, model, self._delegate, self.hits, self.copying, self.selection)
        self.follow = FollowOutput(self, model)
        self.lazy = LazyRows(self, model, self.follow, self.hits)
        self.position = ConversationBar(self, model, self.follow)
        self.matches = FindMarks(self, model, self._delegate, self.follow)
        self.setViewport(own_viewport())
        self._kept: tuple[int, int | None] = (-1, None)
        """Over a rebuild with an anchor: (the seq of the row the reader looked at, its top)."""
        self.setModel(model)
        self.setItemDelegate(self._delegate)
        self._delegate.configure(self.font(), self.palette())
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
        self._shortcut(self.menu.copy_action, QKeySequence.StandardKey.Copy)
        self._shortcut(self.menu.select_all_action, QKeySequence.StandardKey.SelectAll)

    def _shortcut(self, action: QAction, keys: QKeySequence.StandardKey) -> None:
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
        self.hover.link_hovered.connect(self.link_hovered)
        self.hover.clicked.connect(self.menu.run)
        self.follow.following_changed.connect(self.following_changed)
        self._model.modelAboutToBeReset.connect(self._on_model_about_to_reset)
        self._model.modelReset.connect(self._on_model_reset)
        self._model.dataChanged.connect(self._on_model_data_changed)

    # -- RowState (read by the delegate) -------------------------------------------------
    def selection_in(self, row: int) -> tuple[int, int] | None:
        return self.selection.selection_in(row)

    def code_offsets(self, uid: int) -> dict[int, int]:
        return self.code_scroll.offsets(uid)

    def hovered_button(self, uid: int) -> str:
        return self.hover.hovered_button(uid)

    def shows_actions(self, uid: int) -> bool:
        return self.hover.shows_actions(uid)

    def copied_box(self, uid: int) -> int:
        return self.copying.copied_box(uid)

    def find_marks(self, row: int) -> tuple[list[Mark], int]:
        return self.matches.marks(row)

    # -- public slots and values ---------------------------------------------------------
    def show_find(self, query: str, target: tuple[int, int] | None, *, scroll: bool = True) -> None:
        """Highlight every match of ``query`` in the rows shown; ``target`` (the seq of the
        message holding the current match, which match in it) is loaded if need be and
        scrolled to when ``scroll``. An empty query clears the highlights."""
        self.matches.show(query, target, scroll=scroll)

    def first_visible_seq(self) -> int:
        """The lowest seq of a message at the top of the viewport (-1: nothing is shown)."""
        return self._anchor_seq(self.hits.top_index().row())

    def set_show_context(self, show: bool) -> None:
        """Show or hide the time-context readings sent to the model."""
        self._model.set_show_context(show)

    def set_wrap_code(self, wrap: bool) -> None:
        """Wrap long code lines instead of scrolling them sideways."""
        self.code_scroll.clear()
        self._delegate.set_wrap_code(wrap)
        self.scheduleDelayedItemsLayout()

    def set_thumbnails(self, thumbnails: Thumbnails) -> None:
        """Where an MCP row's images come from (``ui.mcp_rows``)."""
        self._delegate.layouts.thumbnails = thumbnails
        self.pictures_arrived()

    def pictures_arrived(self) -> None:
        """New thumbnails are at hand: rows with images are laid out again."""
        self._delegate.forget()
        self.scheduleDelayedItemsLayout()
        self.viewport().update()

    def set_writable(self, writable: bool) -> None:
        """A read-only session's rows offer no buttons that would write."""
        if self._delegate.set_writable(writable):
            self.scheduleDelayedItemsLayout()
            self.viewport().update()

    def is_following(self) -> bool:
        """True while the view sticks to the newest output."""
        return self.follow.is_following()

    def scroll_to_end(self) -> None:
        """Jump to the newest row and follow new output again (reloading the tail if the user had
        scrolled so far up that the newest rows were unloaded)."""
        self.follow.scroll_to_end()

    def has_selection(self) -> bool:
        return self.selection.has_selection()

    def selected_text(self, *, markdown: bool = False) -> str:
        """The selected text, plain (as shown) or as Markdown."""
        return self.selection.selected_text(markdown=markdown)

    def copy_selection(self) -> None:
        """Copy the selection (plain text and Markdown); without one, the current message."""
        self.copying.copy_selection()

    def copy_current_message(self) -> None:
        """Copy the current row's text as written (an answer's Markdown source)."""
        self.copying.copy_current_message()

    def select_all(self) -> None:
        """Select the text of every loaded row."""
        self.selection.select_all()

    def select_last(self) -> None:
        """Put keyboard focus on the newest row (for copying with the keyboard)."""
        last = self._model.rowCount() - 1
        if last >= 0:
            self.setCurrentIndex(self._model.index(last))

    def build_menu(self, row: int, link: str) -> QMenu:
        """The context menu of a row (``ui.row_menu``)."""
        return self.menu.build(row, link)

    def layout_of(self, row: int) -> RowLayout | None:
        """The row's layout (tests and the window's checks read geometry from it)."""
        return self._delegate.layout_at(row)

    def row_origin(self, row: int) -> QPoint:
        """Where row coordinates start in the viewport (the reading column's left, the row's top)."""
        return self.hits.row_origin(row)

    def surfaces(self) -> Surfaces:
        """The row colours in use (derived from this view's palette; the contrast test reads
        them)."""
        return self._delegate.layouts.surfaces

    def code_formats(self) -> CodeFormats:
        """The syntax colours in use (the contrast test reads them)."""
        return self._delegate.layouts.code_formats()

    def empty_text(self) -> str:
        """What an empty conversation says (the first move)."""
        return self.tr(
            "Start a conversation below.\n\nTry “remind me in 10 minutes to stretch” — the reminder "
            "comes back here, in this conversation, while it is open."
        )

    # -- the shown path ------------------------------------------------------------------
    def apply_entry(self, entry: Entry, conversation: ShownConversation | None) -> None:
        """A new entry of the session on screen, with the conversation after it (None: it did
        not change): rows are added, or the loaded ones rebuilt when the shown path changed (the
        rebuild's anchor says where the reader's eye stays: ``_keep_place``)."""
        index = self.hits.top_index()
        reader = self._anchor_seq(index.row()) if index.isValid() else -1
        following = self.follow.is_following()
        self._model.apply_entry(entry, conversation, reader=reader, following=following)

    def _keep_place(self, anchor: Anchor) -> None:
        """After a rebuild: the row of input ``anchor.then`` (else the first one at or after the
        row the reader looked at) goes where that row was on screen."""
        anchor_seq, offset = self._kept
        self._kept = (-1, None)
        try:
            self.doItemsLayout()
            found = self._row_for(anchor.then, anchor_seq)
            if found >= 0 and offset is not None:
                bar = self.verticalScrollBar()
                top = self.visualRect(self._model.index(found)).top()
                bar.setValue(bar.value() + top - offset)
        finally:
            self.follow.resume()
        self.follow.settle()
        self.lazy.fill_soon()

    def _screen_anchor(self, input_seq: int) -> tuple[int, int | None]:
        """(the row to keep in place, its top in the viewport): the row of ``input_seq`` when
        it is on screen, else the top row (None: nothing is shown)."""
        height = self.viewport().height()
        for position in range(self._model.rowCount()):
            value = self._model.row_at(position)
            if value is not None and value.input == input_seq and value.kind in MESSAGE_ROWS:
                top = self.visualRect(self._model.index(position)).top()
                if -height < top < height:
                    return position, top
                break
        index = self.hits.top_index()
        if not index.isValid():
            return -1, None
        return index.row(), self.visualRect(index).top()

    def _anchor_seq(self, row: int) -> int:
        value = self._model.row_at(row)
        if value is None:
            return -1
        return value.input if value.input >= 0 else value.seq

    def _row_for(self, input_seq: int, seq: int) -> int:
        """The row of input ``input_seq``'s message (or hidden row), else the first row of the
        exchange at or after ``seq``."""
        later = -1
        for position in range(self._model.rowCount()):
            value = self._model.row_at(position)
            if value is None:
                continue
            if value.kind in MESSAGE_ROWS and value.input == input_seq >= 0:
                return position
            if later < 0 and max(value.input, value.seq) >= seq:
                later = position
        return later

    # -- Qt's events, routed to the parts --------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self._delegate.layouts.highlight_budget = HIGHLIGHTS_PER_FRAME
        self._delegate.pending_highlight = False
        self.selection.begin_frame()
        try:
            super().paintEvent(event)
        finally:
            self.selection.end_frame()
        if self._model.rowCount() == 0:
            self._paint_empty_state()
        if self._delegate.pending_highlight:  # colour the rest in the next frame
            QTimer.singleShot(0, self.viewport().update)

    def _paint_empty_state(self) -> None:
        painter = QPainter(self.viewport())
        painter.setPen(self._delegate.layouts.surfaces.muted_text)
        area = self.viewport().rect().adjusted(40, 0, -40, 0)
        painter.drawText(
            area, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), self.empty_text()
        )
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        self.selection.note_press(point)
        hit = self.hits.hit(point)
        if event.button() != Qt.MouseButton.LeftButton or hit.layout is None:
            if hit.layout is None:
                self.selection.clear()
            if event.button() == Qt.MouseButton.RightButton and hit.row >= 0:
                self.setCurrentIndex(self._model.index(hit.row))
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.setCurrentIndex(self._model.index(hit.row))
        if self.hover.press(hit) or self.code_scroll.press(hit):
            return
        self.selection.press(point, event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        if self.code_scroll.drag(point) or self.selection.drag(point, event.buttons()):
            return
        self.hover.hover(point)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        self.selection.stop_scrolling()
        if self.code_scroll.release() or self.hover.release(point):
            return
        if self.selection.release(point):
            self._click(point)

    def _click(self, point: QPoint) -> None:
        """A click that selected nothing: follow a link, or expand a tool call."""
        hit = self.hits.hit(point)
        if hit.layout is None:
            return
        link = self.hits.link_at(hit)
        row = self._model.row_at(hit.row)
        if link:
            self.link_activated.emit(link)
        elif row is not None and row.kind in ("tool", "mcp", "context"):
            self._model.toggle_expanded(hit.row)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        point = event.position().toPoint()
        hit = self.hits.hit(point)
        on_text = hit.layout is not None and hit.layout.button_at(hit.x, hit.y) is None
        self.selection.double_click(hit.row if on_text else -1, point, float(event.timestamp()))

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Sideways over a code box that is wider than its box scrolls the box."""
        if self.code_scroll.wheel(self.hits.hit(event.position().toPoint()), event):
            event.accept()
            return
        super().wheelEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            self.hover.tooltip(event)
            return True
        return super().viewportEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.hover.leave()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.modifiers() == Qt.KeyboardModifier.ControlModifier:
            if event.key() == Qt.Key.Key_Home:
                self.position.to_start()
                return
            if event.key() == Qt.Key.Key_End:
                self.position.to_end()
                return
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
        if event.key() in keys and self.menu.activate(self.currentIndex()):
            return
        if event.key() == Qt.Key.Key_Menu or (
            event.key() == Qt.Key.Key_F10 and event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.menu.popup_for_current()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        hit = self.hits.hit(event.pos())
        if event.reason() == QContextMenuEvent.Reason.Keyboard or hit.row < 0:
            self.menu.popup_for_current()
            return
        self.menu.build(hit.row, self.hits.link_at(hit)).popup(event.globalPos())

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self._delegate.set_width(self.viewport().width()):
            self.scheduleDelayedItemsLayout()
        super().resizeEvent(event)
        self.position.place()
        self.follow.keep_at_end()

    def event(self, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange):
            self._delegate.configure(self.font(), self.palette())
            self.scheduleDelayedItemsLayout()
        return super().event(event)

    # -- model changes ---------------------------------------------------------------------
    def _on_model_about_to_reset(self) -> None:
        anchor = self._model.last_anchor
        if anchor is not None:  # note where the reader looks, to keep it there (_keep_place)
            self.follow.pause()
            row, offset = self._screen_anchor(anchor.shown)
            self._kept = (self._anchor_seq(row), offset)

    def _on_model_reset(self) -> None:
        self._delegate.forget()
        self.matches.forget()
        self.selection.forget()
        self.code_scroll.clear()
        anchor = self._model.last_anchor
        if anchor is not None:  # the rebuild puts the reader back where they were
            self._keep_place(anchor)
            return
        self.follow.restart()
        self.lazy.fill_soon()

    def _on_model_data_changed(
        self, _top_left: QModelIndex, _bottom_right: QModelIndex, _roles: Any = None
    ) -> None:
        self.scheduleDelayedItemsLayout()
        self.follow.keep_at_end()
