"""TranscriptView: the transcript's list view, with text selection across messages. No I/O.

Rows are painted by ``ui.turn_delegate.TurnDelegate`` from their ``ui.row_layout.RowLayout``; this
view owns what changes without the rows changing: the text selection, hovered buttons, the code
boxes' sideways scroll, and following the newest output unless the user scrolled up. It asks its
model for older history when the user reaches the top.

Selecting: drag across any text (across messages too), double-click a word, triple-click a
paragraph, Shift+click to extend, Ctrl+A for everything loaded. Ctrl+C copies the selection as
plain text (the clipboard also gets it as ``text/markdown``); the context menu copies it as
Markdown. Without a selection Ctrl+C copies the current message. A message's footer buttons (on
hover, or for the keyboard's current row) and its context menu (right click, the Menu key,
Shift+F10) hold its actions (``ui.row_actions``). A link shows its target in the status bar on
hover; clicking it asks the window (``link_activated``), which shows the target before opening.

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QMimeData,
    QModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QContextMenuEvent,
    QCursor,
    QGuiApplication,
    QHelpEvent,
    QIcon,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QWheelEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QMenu, QToolTip, QWidget

from core.events import Entry
from core.transcript.patch import Anchor
from core.transcript.verbs import Verb, offered, on_enter
from ui.find_marks import Mark, marks_in
from ui.highlight import CodeFormats
from ui.row_actions import ROW_ACTIONS, label
from ui.row_layout import HIGHLIGHTS_PER_FRAME, MARGIN, RowLayout
from ui.shown_path import ShownConversation
from ui.theme import Surfaces
from ui.transcript_model import (
    MESSAGE_ROWS,
    MIN_ROWS,
    TranscriptModel,
    message_seq,
    plain_text,
)
from ui.transcript_rows import TranscriptRow
from ui.turn_delegate import COPIED_MESSAGE, TurnDelegate
from ui.untrusted import literal

COPIED_MS = 1500
AUTO_SCROLL_MS = 30


@dataclass(frozen=True, slots=True)
class TextPoint:
    """A place in the transcript's text: a row (by id) and a position in it."""

    uid: int
    pos: int


@dataclass(frozen=True, slots=True)
class Hit:
    """What is under a point of the viewport."""

    row: int = -1
    uid: int = -1
    x: int = 0
    y: int = 0
    layout: RowLayout | None = None


class TranscriptView(QListView):
    """The transcript list: selectable text, copy, links, row actions, follows the bottom.

    Signals: see the module docstring.
    """

    settings_requested = Signal()
    link_activated = Signal(str)
    link_hovered = Signal(str)
    row_action = Signal(str, int)

    def __init__(self, model: TranscriptModel, bell: QIcon, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setAccessibleName(self.tr("Transcript"))
        self._model = model
        self._delegate = TurnDelegate(model, bell, self, self)
        self._follow = True
        self._loading = False
        self._anchor: TextPoint | None = None
        self._head: TextPoint | None = None
        self._selecting = False
        self._pressed: tuple[int, str] | None = None
        self._press_point = QPoint()
        self._offsets: dict[int, dict[int, int]] = {}
        self._hover_uid = -1
        self._hover_button = ""
        self._link = ""
        self._bar_drag: tuple[int, int, int, int, float] | None = None
        self._copied = (-1, -1)
        self._painting = False
        self._painting_order: tuple[tuple[int, int], tuple[int, int]] | None = None
        self._last_double: tuple[float, QPoint] = (float("-inf"), QPoint())
        self._kept: tuple[int, int | None] = (-1, None)
        """Over a rebuild with an anchor: (the seq of the row the reader looked at, its top)."""
        self._find_query = ""
        self._find_target: tuple[int, int] | None = None
        """(the seq of the message holding the current match, which match in it)."""
        self._find_cache: dict[int, tuple[RowLayout, list[Mark]]] = {}
        self._auto_scroll = QTimer(self)
        self._auto_scroll.setInterval(AUTO_SCROLL_MS)
        self._auto_scroll.timeout.connect(self._on_auto_scroll)
        self._copied_timer = QTimer(self)
        self._copied_timer.setSingleShot(True)
        self._copied_timer.setInterval(COPIED_MS)
        self._copied_timer.timeout.connect(self._on_copied_expired)
        self._fill_timer = QTimer(self)
        self._fill_timer.setSingleShot(True)
        self._fill_timer.setInterval(0)
        self._fill_timer.timeout.connect(self._fill_viewport)
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
        self.viewport().setMouseTracking(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.verticalScrollBar().setSingleStep(24)
        self._copy = self._shortcut(
            self.tr("&Copy"), QKeySequence.StandardKey.Copy, self.copy_selection
        )
        self._select_all = self._shortcut(
            self.tr("Select &all"), QKeySequence.StandardKey.SelectAll, self.select_all
        )

    def _shortcut(
        self, text: str, keys: QKeySequence.StandardKey, slot: Callable[[], None]
    ) -> QAction:
        action = QAction(text, self)
        action.setShortcut(keys)
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _connect(self) -> None:
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scroll_value_changed)
        bar.rangeChanged.connect(self._on_scroll_range_changed)
        self._model.rowsInserted.connect(self._on_model_rows_inserted)
        self._model.modelAboutToBeReset.connect(self._on_model_about_to_reset)
        self._model.modelReset.connect(self._on_model_reset)
        self._model.dataChanged.connect(self._on_model_data_changed)

    # -- RowState (read by the delegate) -------------------------------------------------
    def selection_in(self, row: int) -> tuple[int, int] | None:
        ordered = self._painting_order if self._painting else self._ordered()
        if ordered is None:
            return None
        (first_row, first_pos), (last_row, last_pos) = ordered
        if not first_row <= row <= last_row:
            return None
        start = first_pos if row == first_row else 0
        end = last_pos if row == last_row else 1 << 30
        return (start, end) if start < end else None

    def code_offsets(self, uid: int) -> dict[int, int]:
        return self._offsets.get(uid, {})

    def hovered_button(self, uid: int) -> str:
        return self._hover_button if uid == self._hover_uid else ""

    def shows_actions(self, uid: int) -> bool:
        if uid == self._hover_uid:
            return True
        return self.hasFocus() and uid == self._model.uid_at(self.currentIndex().row())

    def copied_box(self, uid: int) -> int:
        return self._copied[1] if self._copied[0] == uid else -1

    def find_marks(self, row: int) -> tuple[list[Mark], int]:
        if not self._find_query:
            return [], -1
        layout = self._delegate.layout_at(row)
        value = self._model.row_at(row)
        if layout is None or value is None or message_seq(value) < 0:
            return [], -1
        uid = self._model.uid_at(row)
        cached = self._find_cache.get(uid)
        if cached is None or cached[0] is not layout:
            cached = (layout, marks_in(layout, self._find_query))
            self._find_cache[uid] = cached
        marks = cached[1]
        target = self._find_target
        if target is None or target[0] != message_seq(value) or not marks:
            return marks, -1
        return marks, min(target[1], len(marks) - 1)

    # -- find in conversation --------------------------------------------------------------
    def show_find(self, query: str, target: tuple[int, int] | None, *, scroll: bool = True) -> None:
        """Highlight every match of ``query`` in the rows shown; ``target`` (the seq of the
        message holding the current match, which of its matches) is loaded if need be and
        scrolled to when ``scroll``. An empty query clears the highlights."""
        if query != self._find_query:
            self._find_cache.clear()
        self._find_query, self._find_target = query, target
        if target is not None and scroll:
            self._scroll_to_match(*target)
        self.viewport().update()

    def _scroll_to_match(self, seq: int, number: int) -> None:
        row = self._model.row_of_message(seq)
        if row < 0:  # not loaded: load the events around it
            self._model.reload_around(seq, Anchor(-1, seq))
            row = self._model.row_of_message(seq)
            if row < 0:
                return
        index = self._model.index(row)
        self.setCurrentIndex(index)
        marks, current = self.find_marks(row)
        layout = self._delegate.layout_at(row)
        y = 0
        if marks and layout is not None:
            mark = marks[current if current >= 0 else 0]
            y = int(layout.point_of(layout.pieces[mark.piece].base + mark.start).y())
        bar = self.verticalScrollBar()
        self._loading = True
        try:
            bar.setValue(
                bar.value() + self.visualRect(index).top() + y - self.viewport().height() // 2
            )
        finally:
            self._loading = False
        self._follow = bar.value() >= bar.maximum() - 4 and not self._model.has_newer()

    def first_visible_seq(self) -> int:
        """The lowest seq of a message at the top of the viewport (-1: nothing is shown)."""
        index = self.indexAt(QPoint(self.viewport().width() // 2, 2))
        if not index.isValid():
            return -1
        value = self._model.row_at(index.row())
        if value is None:
            return -1
        return value.input if value.input >= 0 else value.seq

    # -- public slots --------------------------------------------------------------------
    def set_show_context(self, show: bool) -> None:
        """Show or hide the time-context readings sent to the model."""
        self._model.set_show_context(show)

    def set_wrap_code(self, wrap: bool) -> None:
        """Wrap long code lines instead of scrolling them sideways."""
        self._offsets.clear()
        self._delegate.set_wrap_code(wrap)
        self.scheduleDelayedItemsLayout()

    def is_following(self) -> bool:
        """True while the view sticks to the newest output."""
        return self._follow

    def scroll_to_end(self) -> None:
        """Jump to the newest row and follow new output again (reloading the tail if the user had
        scrolled so far up that the newest rows were unloaded)."""
        if self._model.has_newer():
            self._model.load_tail()
        self._follow = True
        self.scrollToBottom()

    def has_selection(self) -> bool:
        ordered = self._ordered()
        return ordered is not None and ordered[0] != ordered[1]

    def selected_text(self, *, markdown: bool = False) -> str:
        """The selected text, plain (as shown) or as Markdown."""
        ordered = self._ordered()
        if ordered is None:
            return ""
        (first_row, first_pos), (last_row, last_pos) = ordered
        parts = []
        for row in range(first_row, last_row + 1):
            layout = self._delegate.layout_at(row)
            if layout is None:
                continue
            start = first_pos if row == first_row else 0
            end = last_pos if row == last_row else layout.length
            whole = start == 0 and end >= layout.length - 1
            text = (
                self._row_text(row)
                if whole and markdown
                else layout.text(start, end, markdown=markdown)
            )
            if text:
                parts.append(text)
        return "\n\n".join(parts)

    def copy_selection(self) -> None:
        """Copy the selection (plain text, and Markdown as ``text/markdown``); without one, the
        current message."""
        if not self.has_selection():
            self.copy_current_message()
            return
        data = QMimeData()
        data.setText(self.selected_text())
        data.setData("text/markdown", self.selected_text(markdown=True).encode("utf-8"))
        QGuiApplication.clipboard().setMimeData(data)

    def copy_selection_markdown(self) -> None:
        QGuiApplication.clipboard().setText(self.selected_text(markdown=True))

    def copy_current_message(self) -> None:
        """Copy the current row's text as written (an answer's Markdown source)."""
        row = self.currentIndex().row() if self.currentIndex().isValid() else -1
        if row < 0 and self._model.rowCount():
            row = self._model.rowCount() - 1
        self.copy_row(row)

    def copy_row(self, row: int) -> None:
        text = self._row_text(row)
        if text:
            QGuiApplication.clipboard().setText(text)
            self._show_copied(self._model.uid_at(row), COPIED_MESSAGE)

    def copy_code(self, row: int, box: int) -> None:
        """Copy exactly the code of a code box."""
        layout = self._delegate.layout_at(row)
        if layout is not None and 0 <= box < len(layout.boxes):
            QGuiApplication.clipboard().setText(layout.boxes[box].code)
            self._show_copied(self._model.uid_at(row), box)

    def select_all(self) -> None:
        """Select the text of every loaded row."""
        count = self._model.rowCount()
        last = self._delegate.layout_at(count - 1) if count else None
        if last is None:
            return
        self._anchor = TextPoint(self._model.uid_at(0), 0)
        self._head = TextPoint(self._model.uid_at(count - 1), last.length)
        self.viewport().update()

    def clear_selection(self) -> None:
        if self._anchor is not None:
            self._anchor = self._head = None
            self.viewport().update()

    def select_last(self) -> None:
        """Put keyboard focus on the newest row (for copying with the keyboard)."""
        last = self._model.rowCount() - 1
        if last >= 0:
            self.setCurrentIndex(self._model.index(last))

    def select_text(self, row: int, start: int, end: int) -> None:
        """Select positions ``[start, end)`` of one row (what a drag over it selects)."""
        uid = self._model.uid_at(row)
        self._anchor, self._head = TextPoint(uid, start), TextPoint(uid, end)
        self.viewport().update()

    def layout_of(self, row: int) -> RowLayout | None:
        """The row's layout (tests and the window's checks read geometry from it)."""
        return self._delegate.layout_at(row)

    def row_origin(self, row: int) -> QPoint:
        """Where row coordinates start in the viewport (the reading column's left, the row's top)."""
        rect = self.visualRect(self._model.index(row))
        return QPoint(rect.left() + self._delegate.column_left(), rect.top())

    # -- painting ------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self._delegate.layouts.highlight_budget = HIGHLIGHTS_PER_FRAME
        self._delegate.pending_highlight = False
        self._painting_order = self._ordered()  # once per frame, not once per painted row
        self._painting = True
        try:
            super().paintEvent(event)
        finally:
            self._painting = False
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

    def empty_text(self) -> str:
        """What an empty conversation says (the first move)."""
        return self.tr(
            "Start a conversation below.\n\nTry “remind me in 10 minutes to stretch” — the reminder "
            "comes back here, in this conversation, while it is open."
        )

    # -- geometry and hit testing ----------------------------------------------------------
    def _hit(self, point: QPoint) -> Hit:
        index = self.indexAt(point)
        if not index.isValid():
            return Hit()
        origin = self.row_origin(index.row())
        layout = self._delegate.layout_at(index.row())
        uid = self._model.uid_at(index.row())
        return Hit(index.row(), uid, point.x() - origin.x(), point.y() - origin.y(), layout)

    def _text_point(self, point: QPoint) -> TextPoint | None:
        """The text position under (or nearest to) a viewport point; above or below the rows, the
        first or last position."""
        hit = self._hit(point)
        if hit.layout is None:
            count = self._model.rowCount()
            if not count:
                return None
            if point.y() < 0 or point.y() < self.visualRect(self._model.index(0)).top():
                return TextPoint(self._model.uid_at(0), 0)
            last = self._delegate.layout_at(count - 1)
            return TextPoint(self._model.uid_at(count - 1), last.length if last else 0)
        pos = hit.layout.position_at(hit.x, hit.y, self.code_offsets(hit.uid))
        return TextPoint(hit.uid, pos)

    def _ordered(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        if self._anchor is None or self._head is None:
            return None
        a = (self._model.row_of_uid(self._anchor.uid), self._anchor.pos)
        b = (self._model.row_of_uid(self._head.uid), self._head.pos)
        if a[0] < 0 or b[0] < 0:
            return None
        return (a, b) if a <= b else (b, a)

    def _row_text(self, row: int) -> str:
        value = self._model.row_at(row)
        return plain_text(value) if value is not None else ""

    # -- mouse -----------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        self._press_point = point
        hit = self._hit(point)
        if event.button() != Qt.MouseButton.LeftButton or hit.layout is None:
            if hit.layout is None:
                self.clear_selection()
            if event.button() == Qt.MouseButton.RightButton and hit.row >= 0:
                self.setCurrentIndex(self._model.index(hit.row))
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.setCurrentIndex(self._model.index(hit.row))
        if self._press_control(hit):
            return
        self._start_selection(point, event)

    def _press_control(self, hit: Hit) -> bool:
        """A press on a button, a code box's Copy or its scroll bar (True: handled)."""
        layout = hit.layout
        assert layout is not None
        button = layout.button_at(hit.x, hit.y)
        shown = button is not None and (button in layout.buttons or self.shows_actions(hit.uid))
        if button is not None and shown:
            self._pressed = (hit.uid, button.name)
            return True
        box = layout.copy_box_at(hit.x, hit.y)
        if box >= 0:
            self._pressed = (hit.uid, f"copy-code:{box}")
            return True
        bar = layout.scrollbar_at(hit.x, hit.y)
        if bar >= 0:
            offset = self.code_offsets(hit.uid).get(bar, 0)
            share = layout.boxes[bar].content_width / max(1, layout.boxes[bar].body.width())
            self._bar_drag = (hit.uid, hit.row, bar, hit.x - int(offset / share), share)
            return True
        return False

    def _start_selection(self, point: QPoint, event: QMouseEvent) -> None:
        target = self._text_point(point)
        if target is None:
            return
        if self._is_triple_click(point, event):
            self._select_piece(target)
            return
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if not (shift and self._anchor is not None):
            self._anchor = target
        self._head = target
        self._selecting = True
        self.viewport().update()

    def _is_triple_click(self, point: QPoint, event: QMouseEvent) -> bool:
        """A press soon after a double click, where it was."""
        at, where = self._last_double
        hints = QGuiApplication.styleHints()
        soon = event.timestamp() - at < hints.mouseDoubleClickInterval()
        return soon and (point - where).manhattanLength() < hints.startDragDistance()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        if self._bar_drag is not None:
            self._drag_bar(point)
            return
        if self._selecting and event.buttons() & Qt.MouseButton.LeftButton:
            self._extend_to(point)
            inside = self.viewport().rect().adjusted(0, 8, 0, -8).contains(point)
            if inside:
                self._auto_scroll.stop()
            elif not self._auto_scroll.isActive():
                self._auto_scroll.start()
            return
        self._hover(point)

    def _extend_to(self, point: QPoint) -> None:
        target = self._text_point(point)
        if target is not None and target != self._head:
            self._head = target
            self.viewport().update()

    def _on_auto_scroll(self) -> None:
        if not self._selecting:
            self._auto_scroll.stop()
            return
        point = self.viewport().mapFromGlobal(QCursor.pos())
        bar = self.verticalScrollBar()
        if point.y() < 8:
            bar.setValue(bar.value() - max(8, 8 - point.y()))
        elif point.y() > self.viewport().height() - 8:
            bar.setValue(bar.value() + max(8, point.y() - self.viewport().height() + 8))
        self._extend_to(point)

    def _drag_bar(self, point: QPoint) -> None:
        assert self._bar_drag is not None
        uid, row, box, start, share = self._bar_drag
        layout = self._delegate.layout_at(row)
        if layout is None or box >= len(layout.boxes):
            return
        x = point.x() - self.row_origin(row).x()
        self._set_offset(uid, box, int((x - start) * share), layout)

    def _set_offset(self, uid: int, box: int, offset: int, layout: RowLayout) -> None:
        limit = layout.boxes[box].overflow
        self._offsets.setdefault(uid, {})[box] = max(0, min(limit, offset))
        self.viewport().update()

    def _hover(self, point: QPoint) -> None:
        hit = self._hit(point)
        layout = hit.layout
        button = ""
        link = ""
        cursor = Qt.CursorShape.ArrowCursor
        if layout is not None:
            found = layout.button_at(hit.x, hit.y)
            box = layout.copy_box_at(hit.x, hit.y)
            link = layout.anchor_at(hit.x, hit.y, self.code_offsets(hit.uid))
            if found is not None:
                button = found.name
                cursor = Qt.CursorShape.PointingHandCursor
            elif box >= 0:
                button = f"copy-code:{box}"
                cursor = Qt.CursorShape.PointingHandCursor
            elif link:
                cursor = Qt.CursorShape.PointingHandCursor
            elif self._over_text(layout, hit):
                cursor = Qt.CursorShape.IBeamCursor
        if (hit.uid, button) != (self._hover_uid, self._hover_button):
            self._hover_uid, self._hover_button = hit.uid, button
            self.viewport().update()
        self.viewport().setCursor(cursor)
        if link != self._link:
            self._link = link
            self.link_hovered.emit(link)

    def _over_text(self, layout: RowLayout, hit: Hit) -> bool:
        return any(
            piece.y <= hit.y < piece.y + piece.height and piece.x <= hit.x
            for piece in layout.pieces
        )

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        if self._hover_uid != -1 or self._link:
            self._hover_uid, self._hover_button = -1, ""
            if self._link:
                self._link = ""
                self.link_hovered.emit("")
            self.viewport().update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        self._auto_scroll.stop()
        if self._bar_drag is not None:
            self._bar_drag = None
            return
        pressed, self._pressed = self._pressed, None
        if pressed is not None:
            self._release_control(pressed, point)
            return
        if not self._selecting:
            return
        self._selecting = False
        moved = (
            point - self._press_point
        ).manhattanLength() >= QGuiApplication.styleHints().startDragDistance()
        if moved or self._anchor != self._head:
            return
        self.clear_selection()
        self._click(point)

    def _release_control(self, pressed: tuple[int, str], point: QPoint) -> None:
        uid, name = pressed
        hit = self._hit(point)
        if hit.uid != uid or hit.layout is None:
            return
        over = hit.layout.button_at(hit.x, hit.y)
        box = hit.layout.copy_box_at(hit.x, hit.y)
        if name.startswith("copy-code:") and box == int(name.split(":")[1]):
            self.copy_code(hit.row, box)
        elif over is not None and over.name == name and over.enabled:
            self._run_action(hit.row, name)

    def _click(self, point: QPoint) -> None:
        """A click that selected nothing: follow a link, or expand a tool call."""
        hit = self._hit(point)
        if hit.layout is None:
            return
        link = hit.layout.anchor_at(hit.x, hit.y, self.code_offsets(hit.uid))
        row = self._model.row_at(hit.row)
        if link:
            self.link_activated.emit(link)
        elif row is not None and row.kind in ("tool", "context"):
            self._model.toggle_expanded(hit.row)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        self._last_double = (float(event.timestamp()), event.position().toPoint())
        hit = self._hit(event.position().toPoint())
        if hit.layout is None or hit.layout.button_at(hit.x, hit.y) is not None:
            return
        target = self._text_point(event.position().toPoint())
        if target is not None:
            self._select_word(hit.row, target)

    def _select_word(self, row: int, target: TextPoint) -> None:
        layout = self._delegate.layout_at(row)
        piece = layout.piece_of(target.pos) if layout is not None else None
        if piece is None:
            return
        cursor = QTextCursor(piece.doc)
        cursor.setPosition(max(0, min(target.pos - piece.base, piece.length - 1)))
        cursor.select(QTextCursor.SelectionType.WordUnderCursor)
        self.select_text(
            row, piece.base + cursor.selectionStart(), piece.base + cursor.selectionEnd()
        )
        self._selecting = False

    def _select_piece(self, target: TextPoint) -> None:
        row = self._model.row_of_uid(target.uid)
        layout = self._delegate.layout_at(row)
        piece = layout.piece_of(target.pos) if layout is not None else None
        if piece is not None:
            self.select_text(row, piece.base, piece.last)
        self._selecting = False

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Sideways over a code box that is wider than its box scrolls the box."""
        hit = self._hit(event.position().toPoint())
        delta = event.angleDelta()
        sideways = (
            delta.x()
            if delta.x()
            else (delta.y() if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 0)
        )
        if hit.layout is not None and sideways:
            box = hit.layout.box_at(hit.x, hit.y)
            if box >= 0 and hit.layout.boxes[box].overflow > 0:
                offset = self.code_offsets(hit.uid).get(box, 0)
                self._set_offset(hit.uid, box, offset - sideways // 2, hit.layout)
                event.accept()
                return
        super().wheelEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            hit = self._hit(event.pos())
            button = hit.layout.button_at(hit.x, hit.y) if hit.layout is not None else None
            if button is not None and button.tip:
                QToolTip.showText(event.globalPos(), button.tip, self)
            elif self._link:
                QToolTip.showText(
                    event.globalPos(), literal(self._link), self
                )  # the model wrote it
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    # -- actions -------------------------------------------------------------------------
    def _run_action(self, row: int, name: str) -> None:
        value = self._model.row_at(row)
        if value is None:
            return
        if name == "copy":
            self.copy_row(row)
        elif name == Verb.SETTINGS:
            self.settings_requested.emit()
        else:
            self.row_action.emit(name, value.input if value.input >= 0 else value.seq)

    def _show_copied(self, uid: int, what: int) -> None:
        self._copied = (uid, what)
        self._copied_timer.start()
        self.viewport().update()

    def _on_copied_expired(self) -> None:
        self._copied = (-1, -1)
        self.viewport().update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
        if event.key() in keys and self._activate(self.currentIndex()):
            return
        if event.key() == Qt.Key.Key_Menu or (
            event.key() == Qt.Key.Key_F10 and event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self._menu_for_current()
            return
        super().keyPressEvent(event)

    def _activate(self, index: QModelIndex) -> bool:
        row = self._model.row_at(index.row()) if index.isValid() else None
        if row is None:
            return False
        verb = on_enter(row.verbs, writable=self._delegate.layouts.writable)
        if verb is not None:
            self._run_action(index.row(), verb)
            return True
        if row.kind in ("tool", "context"):
            self._model.toggle_expanded(index.row())
            return True
        return False

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        point = event.pos()
        hit = self._hit(point)
        if event.reason() == QContextMenuEvent.Reason.Keyboard or hit.row < 0:
            self._menu_for_current()
            return
        link = hit.layout.anchor_at(hit.x, hit.y, self.code_offsets(hit.uid)) if hit.layout else ""
        self.build_menu(hit.row, link).popup(event.globalPos())

    def _menu_for_current(self) -> None:
        row = (
            self.currentIndex().row()
            if self.currentIndex().isValid()
            else self._model.rowCount() - 1
        )
        if row < 0:
            return
        rect = self.visualRect(self._model.index(row))
        at = self.viewport().mapToGlobal(
            rect.topLeft() + QPoint(MARGIN + self._delegate.column_left(), 12)
        )
        self.build_menu(row, "").popup(at)

    def build_menu(self, row: int, link: str) -> QMenu:
        """The context menu of a row: copy the selection or the message, its code, a link, the
        row's actions, Retry on an error."""
        menu = QMenu(self)
        menu.setObjectName("transcript-menu")
        if self.has_selection():
            menu.addAction(self._copy)
            menu.addAction(self.tr("Copy as &Markdown"), self.copy_selection_markdown)
        else:
            menu.addAction(self.tr("&Copy message"), lambda: self.copy_row(row))
        layout = self._delegate.layout_at(row)
        for number, box in enumerate(layout.boxes if layout is not None else []):
            text = self.tr("Copy code ({language})").format(language=box.label)
            menu.addAction(text, partial(self.copy_code, row, number))
        if link:
            menu.addSeparator()
            menu.addAction(self.tr("&Open link…"), lambda: self.link_activated.emit(link))
            menu.addAction(
                self.tr("Copy &link address"), lambda: QGuiApplication.clipboard().setText(link)
            )
        self._add_row_actions(menu, row)
        menu.addSeparator()
        menu.addAction(self._select_all)
        return menu

    def _add_row_actions(self, menu: QMenu, row: int) -> None:
        value = self._model.row_at(row)
        if value is None:
            return
        names = self._menu_words(value)
        for verb in offered(value.verbs, writable=self._delegate.layouts.writable):
            if verb in names:
                menu.addAction(names[verb], partial(self._run_action, row, verb))

    def _menu_words(self, value: TranscriptRow) -> dict[Verb, str]:
        """The context menu's words for the verbs a row offers (Copy and Settings are not
        there: Copy has the menu's own entries, Settings is the error card's button)."""
        words: dict[Verb, str] = {
            action.name: label(action) for action in ROW_ACTIONS if action.name != Verb.COPY
        }
        words |= {
            Verb.PREVIOUS_VERSION: self.tr("&Previous version"),
            Verb.NEXT_VERSION: self.tr("&Next version"),
            Verb.RETRY: self.tr("&Retry"),
            Verb.DISCARD: self.tr("&Discard"),
            Verb.SHOW: self.tr("&Show the hidden message"),
        }
        if value.kind == "error":
            words[Verb.EDIT] = self.tr("&Edit the message…")
        return words

    def set_writable(self, writable: bool) -> None:
        """A read-only session's rows offer no buttons that would write."""
        if self._delegate.set_writable(writable):
            self.scheduleDelayedItemsLayout()
            self.viewport().update()

    # -- the shown path ------------------------------------------------------------------
    def apply_entry(self, entry: Entry, conversation: ShownConversation | None) -> None:
        """A new entry of the session on screen, with the conversation after it (None: it did
        not change): rows are added, or the loaded ones rebuilt when the shown path changed (the
        rebuild's anchor says where the reader's eye stays: ``_keep_place``)."""
        index = self.indexAt(QPoint(self.viewport().width() // 2, 2))
        reader = self._anchor_seq(index.row()) if index.isValid() else -1
        self._model.apply_entry(entry, conversation, reader=reader, following=self._follow)

    def _keep_place(self, anchor: Anchor) -> None:
        """After a rebuild: the row of input ``anchor.then`` (else the first one at or after the
        row the reader looked at) goes where that row was on screen."""
        anchor_seq, offset = self._kept
        self._kept = (-1, None)
        try:
            self.doItemsLayout()
            found = self._row_for(anchor.then, anchor_seq)
            bar = self.verticalScrollBar()
            if found >= 0 and offset is not None:
                top = self.visualRect(self._model.index(found)).top()
                bar.setValue(bar.value() + top - offset)
            self._follow = bar.value() >= bar.maximum() - 4 and not self._model.has_newer()
        finally:
            self._loading = False
        self._fill_timer.start()

    def _fill_viewport(self) -> None:
        """A few rows that do not fill the viewport leave no scroll bar to reach older ones (the
        newest events far off the shown path: an early message edited in a long session): load
        older rows, one batch per turn of the event loop, until they fill it or none is left."""
        model = self._model
        if model.rowCount() >= MIN_ROWS or not model.has_older():
            return
        self.doItemsLayout()
        if self.verticalScrollBar().maximum() > 0:
            return
        self._load_keeping_position(self._fetch_older)
        self._fill_timer.start()

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
        index = self.indexAt(QPoint(self.viewport().width() // 2, 2))
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

    # -- scrolling and model changes -----------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        if self._delegate.set_width(self.viewport().width()):
            self.scheduleDelayedItemsLayout()
        super().resizeEvent(event)
        if self._follow:
            self.scrollToBottom()

    def _on_scroll_value_changed(self, value: int) -> None:
        if self._loading:
            return
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 4 and not self._model.has_newer()
        if value == bar.minimum() and bar.maximum() > 0 and self._model.has_older():
            self._load_keeping_position(self._fetch_older)
        elif value == bar.maximum() and bar.maximum() > 0 and self._model.has_newer():
            self._load_keeping_position(self._model.fetch_newer)

    def _fetch_older(self) -> None:
        self._model.want_older()
        self._model.fetchMore(QModelIndex())

    def _load_keeping_position(self, load: Callable[[], None]) -> None:
        """Load rows above or below while the row at the top of the viewport stays in place."""
        index = self.indexAt(QPoint(self.viewport().width() // 2, 2))
        anchor = self._model.uid_at(index.row()) if index.isValid() else -1
        offset = self.visualRect(index).top() if anchor >= 0 else 0
        self._loading = True
        try:
            load()
            self.doItemsLayout()  # SinglePass: the new geometry is known now
            position = self._model.row_of_uid(anchor) if anchor >= 0 else -1
            if position >= 0:
                bar = self.verticalScrollBar()
                top = self.visualRect(self._model.index(position)).top()
                bar.setValue(bar.value() + top - offset)
        finally:
            self._loading = False

    def _on_scroll_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._follow and not self._loading:
            self.verticalScrollBar().setValue(maximum)

    def _on_model_rows_inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        if self._follow and not self._loading:
            self.scrollToBottom()

    def _on_model_about_to_reset(self) -> None:
        anchor = self._model.last_anchor
        if anchor is not None:  # note where the reader looks, to keep it there (_keep_place)
            self._loading = True
            row, offset = self._screen_anchor(anchor.shown)
            self._kept = (self._anchor_seq(row), offset)

    def _on_model_reset(self) -> None:
        self._delegate.forget()
        self._find_cache.clear()
        self._anchor = self._head = None
        self._offsets.clear()
        anchor = self._model.last_anchor
        if anchor is not None:  # the rebuild puts the reader back where they were
            self._keep_place(anchor)
            return
        self._follow = True
        self.scrollToBottom()
        self._fill_timer.start()

    def _on_model_data_changed(
        self, top_left: QModelIndex, _bottom_right: QModelIndex, _roles: Any = None
    ) -> None:
        self.scheduleDelayedItemsLayout()
        if self._follow:
            self.scrollToBottom()

    def event(self, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange):
            self._delegate.configure(self.font(), self.palette())
            self.scheduleDelayedItemsLayout()
        return super().event(event)

    def surfaces(self) -> Surfaces:
        """The row colours in use (derived from this view's palette; the contrast test reads
        them)."""
        return self._delegate.layouts.surfaces

    def code_formats(self) -> CodeFormats:
        """The syntax colours in use (the contrast test reads them)."""
        return self._delegate.layouts.code_formats()
