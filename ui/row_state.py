"""RowState of a transcript view: what its parts know about rows that changes without the row
changing, in the one shape the delegate reads (``ui.turn_delegate.RowState``). No I/O; holds no
state of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from ui.code_scroll import CodeScroll
from ui.find_highlights import FindMarks
from ui.find_marks import Mark
from ui.hover_buttons import HoverButtons
from ui.row_copy import RowCopy
from ui.text_selection import TextSelection


@dataclass(frozen=True, slots=True)
class PartsState:
    """The delegate's ``RowState``, answered by the view's parts."""

    selection: TextSelection
    code_scroll: CodeScroll
    hover: HoverButtons
    copying: RowCopy
    matches: FindMarks

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
