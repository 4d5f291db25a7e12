"""The plain text of part of a laid-out message, as a spreadsheet and a reader expect it. No I/O.

Qt's own plain text of a selection puts every table cell on a line of its own (a table pasted
into a spreadsheet lost its grid) and a rendered formula as an object character. ``plain_range``
writes a table's rows as lines of tab-separated cells, and each math image as its TeX source
(``ui.math_docs``); the rest is Qt's text, block by block. The Markdown of a selection is Qt's
(a table as a pipe table) with each math image reference back to its source.
"""

from __future__ import annotations

from PySide6.QtGui import QTextBlock, QTextCursor, QTextDocument, QTextTable

from ui.math_docs import object_texts, sourced


def needs_own_text(doc: QTextDocument, text: str) -> bool:
    """Qt's plain ``text`` of a piece of ``doc`` is not what a copy should give: it holds an
    image, or ``doc`` a table."""
    return "\ufffc" in text or bool(doc.rootFrame().childFrames())


def plain_range(doc: QTextDocument, low: int, high: int, sources: list[str]) -> str:
    """The plain text of positions ``[low, high)`` of ``doc`` (see the module docstring)."""
    lines: list[str] = []
    table: QTextTable | None = None
    cells: dict[int, dict[int, str]] = {}
    block = doc.findBlock(low)
    while block.isValid() and block.position() < high:
        text = _slice(doc, block, low, high, sources)
        found = QTextCursor(block).currentTable()
        if table is not None and found != table:
            lines.extend(_rows(cells))
            table, cells = None, {}
        if found is not None:
            table = found
            cell = found.cellAt(block.position())
            row = cells.setdefault(cell.row(), {})
            row[cell.column()] = " ".join(part for part in (row.get(cell.column()), text) if part)
        else:
            lines.append(text)
        block = block.next()
    if table is not None:
        lines.extend(_rows(cells))
    return "\n".join(lines)


def _slice(doc: QTextDocument, block: QTextBlock, low: int, high: int, sources: list[str]) -> str:
    start = max(low, block.position())
    end = min(high, block.position() + block.length() - 1)
    if end <= start:
        return ""
    text = block.text()[start - block.position() : end - block.position()]
    text = text.replace("\u00a0", " ")  # as Qt's own plain text gives no-break spaces
    return sourced(text, object_texts(doc, start, end, sources))


def _rows(cells: dict[int, dict[int, str]]) -> list[str]:
    """A table's rows as tab-separated lines (an empty cell is an empty field)."""
    lines = []
    for row in sorted(cells):
        columns = cells[row]
        lines.append("\t".join(columns.get(c, "") for c in range(max(columns) + 1)))
    return lines
