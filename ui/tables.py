"""Tables as Qt's Markdown reader should have made them. No I/O.

WORKAROUND(Qt 6.7–6.11): a table that follows another block may get an empty paragraph at the
start of its first cell, and its first header cell is then not bold like the rest of the header
row: the first header cell stood a line lower, in another weight. ``tidy_tables`` removes that
paragraph and sets the whole header row (a GitHub table's first row) bold.
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QTextCharFormat, QTextCursor, QTextDocument, QTextTable


def tidy_tables(doc: QTextDocument) -> None:
    """Mend every table of ``doc`` (see the module docstring)."""
    for frame in doc.rootFrame().childFrames():
        if isinstance(frame, QTextTable) and frame.rows() and frame.columns():
            _drop_empty_first_line(doc, frame)
            _bold_header(doc, frame)


def _drop_empty_first_line(doc: QTextDocument, table: QTextTable) -> None:
    cell = table.cellAt(0, 0)
    first = doc.findBlock(cell.firstPosition())
    if not first.text() and first.position() + first.length() <= cell.lastPosition():
        QTextCursor(first).deleteChar()  # its end: the cell's own text moves up into it


def _bold_header(doc: QTextDocument, table: QTextTable) -> None:
    bold = QTextCharFormat()
    bold.setFontWeight(QFont.Weight.Bold)
    for column in range(table.columns()):
        cell = table.cellAt(0, column)
        cursor = QTextCursor(doc)
        cursor.setPosition(cell.firstPosition())
        cursor.setPosition(cell.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(bold)
