"""Code and links in a prose document: code spans and indented code in the monospace font on the
code background, links in the scheme's readable link colour. No I/O.

Qt's Markdown reader marks them (a fixed-pitch fragment, a block with a code language, an anchor)
but draws them in the body font and Qt's own link blue, which is hard to read on a dark scheme.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import (
    QBrush,
    QFont,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from ui.theme import Surfaces


def style_code_and_links(doc: QTextDocument, mono: QFont, surfaces: Surfaces) -> None:
    """Code spans and indented code in the monospace font on the code background; links in the
    scheme's readable link colour."""
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        is_code = block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeLanguage)
        if is_code:
            background = QTextBlockFormat()
            background.setBackground(QBrush(surfaces.code_background))
            cursor.setPosition(block.position())
            cursor.mergeBlockFormat(background)
        iterator = block.begin()
        while not iterator.atEnd():
            _style_fragment(cursor, iterator.fragment(), is_code, mono, surfaces)
            iterator += 1
        block = block.next()


def _style_fragment(
    cursor: QTextCursor, fragment: Any, is_code: bool, mono: QFont, surfaces: Surfaces
) -> None:
    fmt = fragment.charFormat()
    change = QTextCharFormat()
    if is_code or fmt.fontFixedPitch():
        change.setFontFamilies(mono.families())
        change.setFontFixedPitch(True)
        if not is_code:
            change.setBackground(QBrush(surfaces.inline_code))
    if fmt.isAnchor():
        change.setForeground(QBrush(surfaces.link))
    if change.properties():
        cursor.setPosition(fragment.position())
        cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(change)
