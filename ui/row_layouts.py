"""RowLayouts: builds the ``RowLayout`` of each transcript row, by its kind, from the part
modules (``ui.row_message``, ``ui.row_footer``, ``ui.row_cards``) over one ``RowDocs``. No I/O.

It owns what is the same for every row of a transcript: its fonts and colours (``configure``),
whether code wraps, whether the session can be written (``writable``: rows then offer no button
that writes) and where an MCP row's pictures come from (``thumbnails``).
"""

from __future__ import annotations

from typing import assert_never

from PySide6.QtGui import QFont

from core.transcript.rows import TranscriptRow
from ui import row_cards
from ui.highlight import CodeFormats
from ui.row_docs import Fonts, RowDocs
from ui.row_footer import with_footer
from ui.row_layout import MARGIN, READING_CHARS, RowLayout
from ui.row_message import MessageLayouts
from ui.theme import Surfaces
from ui.thumbnails import Thumbnails


class RowLayouts:
    """Builds ``RowLayout`` values for one transcript (its fonts, colours and options)."""

    def __init__(self) -> None:
        self._docs = RowDocs()
        self._messages = MessageLayouts(self._docs)
        self.writable = True
        """The session can be written: rows offer the buttons that write (edit, retry, ...)."""

    @property
    def thumbnails(self) -> Thumbnails:
        """The pictures of MCP rows' and messages' images (``RowDocs.thumbnails``)."""
        return self._docs.thumbnails

    @thumbnails.setter
    def thumbnails(self, thumbnails: Thumbnails) -> None:
        self._docs.thumbnails = thumbnails

    def configure(self, font: QFont, surfaces: Surfaces, dark: bool) -> None:
        """New fonts or colours: every document is built again."""
        self._docs.configure(font, surfaces, dark)
        self._messages.forget()

    @property
    def fonts(self) -> Fonts:
        return self._docs.fonts

    @property
    def surfaces(self) -> Surfaces:
        return self._docs.surfaces

    def code_formats(self) -> CodeFormats:
        return self._docs.code_formats()

    @property
    def wrap_code(self) -> bool:
        return self._docs.wrap_code

    @wrap_code.setter
    def wrap_code(self, wrap: bool) -> None:
        self._docs.wrap_code = wrap

    @property
    def highlight_budget(self) -> int:
        """Code boxes that may still be coloured in this frame (the view resets it per paint)."""
        return self._docs.highlight_budget

    @highlight_budget.setter
    def highlight_budget(self, boxes: int) -> None:
        self._docs.highlight_budget = boxes

    def highlight(self, layout: RowLayout, box: int) -> bool:
        """Colour box ``box``'s code (``RowDocs.highlight``); False when the frame's budget is
        spent."""
        return self._docs.highlight(layout, box)

    def column_width(self, viewport_width: int) -> int:
        """The reading column for a transcript ``viewport_width`` wide."""
        reading = self._docs.body_metrics.averageCharWidth() * READING_CHARS
        return max(160, min(viewport_width - 2 * MARGIN, reading))

    def layout(
        self, row: TranscriptRow, width: int, *, expanded: bool, caption: str, time: str
    ) -> RowLayout:
        """The layout of ``row`` in a column ``width`` wide."""
        docs, writable = self._docs, self.writable
        match row.kind:
            case "user" | "assistant" | "streaming":
                layout, bottom = self._messages.body(row, width, expanded)
                right = row.kind == "user"
                return with_footer(
                    docs, layout, row, width, bottom, time, right=right, writable=writable
                )
            case "reminder":
                return row_cards.reminder(docs, row, width, caption, time, writable=writable)
            case "error":
                return row_cards.error(docs, row, width, writable=writable)
            case "tool":
                return row_cards.tool(docs, row, width, expanded)
            case "mcp":
                return row_cards.mcp(docs, row, width, expanded, self.thumbnails)
            case "context":
                return row_cards.card_text(docs, row.text, width, docs.fonts.mono, muted=True)
            case "hidden":
                return row_cards.hidden(docs, row, width, writable=writable)
            case "unset":
                return row_cards.unset(docs, row, width, writable=writable)
            case "notice":
                return row_cards.notice(docs, row.text, width)
            case _:
                assert_never(row.kind)
