"""TranscriptParts: the transcript's painting and reading parts (``ui.transcript_view``), built
together when the first row is about to be shown. No I/O.

The delegate and what reads the rows it lays out (hits, selection, copy, hover, the row menu,
code scroll, pointer input, lazy rows, the reading place, find marks) import the row painting
modules (``ui.row_layout`` and the ``ui.row_*`` builders): an empty conversation, the start view
and a window painted before its conversation opens need none of them, so a start does not pay
for them before its first paint. The view builds these parts once (``TranscriptView.parts``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon, QKeySequence

from ui.code_scroll import CodeScroll
from ui.find_highlights import FindMarks
from ui.hover_buttons import HoverButtons
from ui.lazy_rows import LazyRows
from ui.pointer_input import PointerInput
from ui.reading_place import ReadingPlace
from ui.row_copy import RowCopy
from ui.row_hits import RowHits
from ui.row_layout import HIGHLIGHTS_PER_FRAME
from ui.row_menu import RowMenu
from ui.row_state import PartsState
from ui.text_selection import TextSelection
from ui.transcript_model import TranscriptModel
from ui.turn_delegate import TurnDelegate

if TYPE_CHECKING:
    from ui.transcript_view import TranscriptView


class TranscriptParts:
    """The parts of one transcript view, connected to it and to each other."""

    def __init__(self, view: TranscriptView, model: TranscriptModel, bell: QIcon) -> None:
        self.delegate = TurnDelegate(model, bell, view)
        self.code_scroll = CodeScroll(self.delegate, view)
        self.hits = RowHits(view, model, self.delegate, self.code_scroll.offsets)
        self.code_scroll.attach(self.hits)
        self.selection = TextSelection(view, model, self.delegate, self.hits)
        self.copying = RowCopy(model, self.delegate, self.selection, self.hits, view)
        self.hover = HoverButtons(view, model, self.hits)
        self.menu = RowMenu(view, model, self.delegate, self.hits, self.copying, self.selection)
        self.lazy = LazyRows(view, model, view.follow, self.hits)
        self.matches = FindMarks(view, model, self.delegate, view.follow)
        self.delegate.watch(
            PartsState(self.selection, self.code_scroll, self.hover, self.copying, self.matches)
        )
        self.pointer = PointerInput(
            view, model, self.hits, self.selection, self.hover, self.code_scroll
        )
        view.setItemDelegate(self.delegate)
        self.place = ReadingPlace(view, model, view.follow, self.lazy, self.hits)
        self.delegate.configure(view.font(), view.palette())
        self.delegate.set_width(view.viewport().width())
        self._shortcuts(view)
        self._connect(view, model)

    def paint_frame(self, paint: Callable[[], None]) -> None:
        """One paint of the rows: code boxes highlighted a few per frame, the selection's
        frame around it."""
        self.delegate.layouts.highlight_budget = HIGHLIGHTS_PER_FRAME
        self.delegate.pending_highlight = False
        self.selection.begin_frame()
        try:
            paint()
        finally:
            self.selection.end_frame()

    def _shortcuts(self, view: TranscriptView) -> None:
        for action, keys in (
            (self.menu.copy_action, QKeySequence.StandardKey.Copy),
            (self.menu.select_all_action, QKeySequence.StandardKey.SelectAll),
        ):
            action.setShortcut(keys)
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            view.addAction(action)

    def _connect(self, view: TranscriptView, model: TranscriptModel) -> None:
        repaint = view.viewport().update
        for part in (self.selection, self.copying, self.hover, self.code_scroll, self.matches):
            part.changed.connect(repaint)
        self.menu.copy_action.triggered.connect(self.copying.copy_selection)
        self.menu.select_all_action.triggered.connect(self.selection.select_all)
        self.menu.row_action.connect(view.row_action)
        self.menu.settings_requested.connect(view.settings_requested)
        self.menu.link_activated.connect(view.link_activated)
        self.pointer.link_activated.connect(view.link_activated)
        self.hover.link_hovered.connect(view.link_hovered)
        self.hover.clicked.connect(self.menu.run)
        reset = model.modelReset  # in this order: what showed the old rows, then the place
        reset.connect(self.delegate.forget)
        reset.connect(self.matches.forget)
        reset.connect(self.selection.forget)
        reset.connect(self.code_scroll.clear)
        reset.connect(self.place.after_reset)
