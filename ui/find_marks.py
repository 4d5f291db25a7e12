"""Where the find bar's text stands in a laid-out row: the marks the transcript highlights. No I/O.

The app counts matches in the messages as written (``core.session.find``); the transcript marks
them in the text as rendered, with Qt's own case-insensitive ``QTextDocument.find`` in each piece
of the row. The two agree for ordinary text; where Markdown markup is searched for ("**") the
rendered text may hold fewer matches, and the current match is then the row's last mark.
"""

from __future__ import annotations

from core.frozen import frozen
from ui.row_layout import RowLayout


@frozen
class Mark:
    """One match: the piece it is in (an index into ``RowLayout.pieces``) and its positions in
    that piece's document ``[start, end)``."""

    piece: int
    start: int
    end: int


def marks_in(layout: RowLayout, query: str) -> list[Mark]:
    """Every match of ``query`` in the row, in reading order (none for an empty query)."""
    if not query:
        return []
    marks: list[Mark] = []
    for index, piece in enumerate(layout.pieces):
        if piece.aside:  # an answer's thinking: find leaves it out (desktop.md §1.3)
            continue
        cursor = piece.doc.find(query, 0)
        while not cursor.isNull() and cursor.selectionEnd() > cursor.selectionStart():
            marks.append(Mark(index, cursor.selectionStart(), cursor.selectionEnd()))
            cursor = piece.doc.find(query, cursor)
    return marks
