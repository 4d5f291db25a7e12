"""Blockquotes that look like quotes: set in, in the muted text colour, with a bar at their left
(painted by ``ui.turn_delegate`` from ``quote_bars``). No I/O.

Qt's Markdown reader marks a quote's blocks with their nesting level and sets them in by 40 px a
level, and draws nothing else, so a quoted email read like the answer's own words. Here a level
is set in by ``STEP`` px, its text takes the muted colour (readable on the transcript, like every
``Surfaces`` text colour) and each level gets a bar.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtGui import QTextFormat as Format

from ui.theme import Surfaces

STEP = 16
"""How far each quote level is set in."""
BAR = 3
HAS_QUOTES = "chime-quotes"
"""A document's property: it holds a quote (its bars are painted)."""


def style_quotes(doc: QTextDocument, surfaces: Surfaces) -> None:
    """Set ``doc``'s quote blocks in and mute their text (see the module docstring)."""
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        level = _level(block.blockFormat())
        if level:
            set_in = QTextBlockFormat()
            set_in.setLeftMargin(STEP * level)
            muted = QTextCharFormat()
            muted.setForeground(QBrush(surfaces.muted_text))
            cursor.setPosition(block.position())
            cursor.mergeBlockFormat(set_in)
            cursor.setPosition(
                block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor
            )
            cursor.mergeCharFormat(muted)
            doc.setProperty(HAS_QUOTES, True)
        block = block.next()


def quote_bars(doc: QTextDocument) -> list[QRectF]:
    """The bars of ``doc``'s quotes, one per level beside each quote block (document
    coordinates)."""
    if not doc.property(HAS_QUOTES):
        return []
    bars: list[QRectF] = []
    layout = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        level = _level(block.blockFormat())
        if level:
            rect = layout.blockBoundingRect(block)
            bars.extend(
                QRectF(step * STEP + 2, rect.top(), BAR, rect.height()) for step in range(level)
            )
        block = block.next()
    return bars


def _level(fmt: QTextBlockFormat) -> int:
    level = fmt.property(Format.Property.BlockQuoteLevel)
    return level if isinstance(level, int) else 0
