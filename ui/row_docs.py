"""The laid-out text documents transcript rows are built from: fonts, the document cache, prose,
plain text and code (coloured on first paint). No I/O; builds no row geometry (``ui.row_layout``).

Documents are cached by what they show (``DocCache``), so a streamed answer re-lays out only its
last block and rows with equal text share work. Code is laid out plain and monospace first;
``RowDocs.highlight`` colours a box when it is first painted, a few boxes a frame.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QFontInfo,
    QFontMetrics,
    QFontMetricsF,
    QGuiApplication,
    QTextDocument,
    QTextOption,
)

from ui.code_spans import style_code_and_links
from ui.highlight import CodeFormats, fill_runs, knows, runs_by_lines
from ui.markdown_blocks import Block
from ui.math_docs import MathStyle, install, with_math
from ui.math_render import MathImage
from ui.math_spans import may_hold_math
from ui.quotes import style_quotes
from ui.row_layout import CODE_PIECE_LINES, HAS_MATH, HIGHLIGHTS_PER_FRAME, RowLayout
from ui.tables import tidy_tables
from ui.theme import Surfaces
from ui.thumbnails import Thumbnails, no_thumbnails
from ui.untrusted import set_markdown

DOC_CACHE = 400
"""Laid-out documents kept by what they show: those of the delegate's cached layouts (about three
a row) and a few more for a streamed answer's blocks. It bounds the memory of a long scroll."""
HIGHLIGHTED = "chime-highlighted"
"""A code document's property: its syntax colours are applied."""
_MAY_NEED_STYLE = re.compile(r"[`<\[\t]|https?:|www\.|(^|\n) {4}")
"""Markdown that may hold code spans, indented code or links (the rest needs no restyling)."""


@dataclass(frozen=True, slots=True)
class Fonts:
    """The fonts rows are drawn in, derived from the transcript's font (the text size)."""

    body: QFont
    small: QFont
    caption: QFont
    mono: QFont
    notice: QFont

    @staticmethod
    def of(font: QFont) -> Fonts:
        size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        small = QFont(font)
        small.setPointSizeF(max(6.0, size * 0.88))
        caption = QFont(small)
        caption.setBold(True)
        mono = QFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        mono.setPointSizeF(max(6.0, size * 0.95))
        notice = QFont(small)
        notice.setItalic(True)
        return Fonts(font, small, caption, mono, notice)

    def key(self) -> tuple[str, float]:
        return (self.body.family(), self.body.pointSizeF())


class DocCache:
    """Laid-out documents by what they show (least recently used out past ``DOC_CACHE``), so a
    streamed answer re-lays out only its last block and rows with equal text share work."""

    def __init__(self) -> None:
        self._docs: OrderedDict[tuple[Any, ...], QTextDocument] = OrderedDict()
        self._keys: dict[int, tuple[Any, ...]] = {}

    def get(self, key: tuple[Any, ...], build: Callable[[], QTextDocument]) -> QTextDocument:
        doc = self._docs.get(key)
        if doc is None:
            doc = self._docs[key] = build()
            self._keys[id(doc)] = key
            if len(self._docs) > DOC_CACHE:
                _key, dropped = self._docs.popitem(last=False)
                self._keys.pop(id(dropped), None)
        else:
            self._docs.move_to_end(key)
        return doc

    def replace(self, old: QTextDocument, new: QTextDocument) -> None:
        """``new`` stands for ``old`` from now on (same key, same place in the order)."""
        key = self._keys.pop(id(old), None)
        if key is not None and self._docs.get(key) is old:
            self._docs[key] = new
            self._keys[id(new)] = key

    def clear(self) -> None:
        self._docs.clear()
        self._keys.clear()


class RowDocs:
    """The documents of one transcript's rows, in its fonts, colours and code wrapping."""

    def __init__(self) -> None:
        self._cache = DocCache()
        self.fonts = Fonts.of(QFont())
        self.small_metrics = QFontMetrics(self.fonts.small)
        self.body_metrics = QFontMetrics(self.fonts.body)
        self._surfaces: Surfaces | None = None
        self._formats: CodeFormats | None = None
        self.wrap_code = False
        self.highlight_budget = HIGHLIGHTS_PER_FRAME
        """Code boxes that may still be coloured in this frame (the view resets it per paint)."""
        self.thumbnails: Thumbnails = no_thumbnails
        """The pictures of an MCP row's images and of a message's attached images (the app
        supplies them: ``app.tool_images``)."""

    def configure(self, font: QFont, surfaces: Surfaces, dark: bool) -> None:
        """New fonts or colours: every document is built again."""
        self.fonts = Fonts.of(font)
        self.small_metrics = QFontMetrics(self.fonts.small)
        self.body_metrics = QFontMetrics(self.fonts.body)
        self._surfaces = surfaces
        self._formats = CodeFormats(dark, self.fonts.mono, surfaces.text, surfaces.code_background)
        self._cache.clear()

    @property
    def surfaces(self) -> Surfaces:
        assert self._surfaces is not None, "configure() first"
        return self._surfaces

    def code_formats(self) -> CodeFormats:
        assert self._formats is not None, "configure() first"
        return self._formats

    def plain(self, text: str, font: QFont, width: int) -> QTextDocument:
        def build() -> QTextDocument:
            doc = new_doc(font)
            doc.setPlainText(text)
            return doc

        doc = self._cache.get(("plain", text, font.key()), build)
        set_width(doc, width)
        return doc

    def prose(self, markdown: str, width: int) -> QTextDocument:
        doc = self._cache.get(
            ("prose", markdown, self.fonts.key()), lambda: self._markdown(markdown)
        )
        set_width(doc, width)
        return doc

    def _markdown(self, markdown: str) -> QTextDocument:
        doc = new_doc(self.fonts.body)
        images: dict[str, MathImage] = {}
        display: set[str] = set()
        if may_hold_math(markdown):
            markdown, images, display = with_math(markdown, self._math_style())
        set_markdown(doc, markdown)  # raw HTML is text: nothing an answer holds hides the rest
        if images:
            install(doc, images, display)
            doc.setProperty(HAS_MATH, True)
        if _MAY_NEED_STYLE.search(markdown):
            style_code_and_links(doc, self.fonts.mono, self.surfaces)
        if ">" in markdown:
            style_quotes(doc, self.surfaces)
        if "|" in markdown:
            tidy_tables(doc)
        return doc

    def _math_style(self) -> MathStyle:
        """Math in the body font's size and the text's colour, at the screen's pixel ratio."""
        metrics = QFontMetricsF(self.fonts.body)
        return MathStyle(
            QFontInfo(self.fonts.body).pixelSize(),
            metrics.xHeight(),
            self.surfaces.text.name(),
            self.pixel_ratio(),
        )

    @staticmethod
    def pixel_ratio() -> float:
        """The screen's pixel ratio (at least 1), for pictures drawn sharp."""
        app = QGuiApplication.instance()
        return max(1.0, app.devicePixelRatio() if isinstance(app, QGuiApplication) else 1.0)

    def code(self, block: Block, width: int) -> list[QTextDocument]:
        """The documents of a code block, ``CODE_PIECE_LINES`` lines each (the last may grow),
        in plain monospace: ``highlight`` colours them when they are first painted (lexing is
        the dearest step of a layout, and most laid-out rows are never on screen)."""
        lines = block.text.split("\n")
        chunks = [
            "\n".join(lines[i : i + CODE_PIECE_LINES])
            for i in range(0, len(lines), CODE_PIECE_LINES)
        ]
        font = self.fonts.key()
        docs = [
            self._cache.get(
                ("code", chunk, block.language, n, font, self.wrap_code),
                partial(self._plain_code, chunk),
            )
            for n, chunk in enumerate(chunks)
        ]
        for doc in docs:
            set_width(doc, width if self.wrap_code else -1)
        return docs

    def _plain_code(self, code: str) -> QTextDocument:
        doc = self._new_code_doc()
        fill_runs(doc, [(None, code)], self.code_formats())
        return doc

    def _new_code_doc(self) -> QTextDocument:
        doc = new_doc(self.fonts.mono)
        option = doc.defaultTextOption()
        wrap = QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
        option.setWrapMode(wrap if self.wrap_code else QTextOption.WrapMode.NoWrap)
        doc.setDefaultTextOption(option)
        return doc

    def highlight(self, layout: RowLayout, box: int) -> bool:
        """Colour the code of box ``box``: each plain document is replaced (in the layout and in
        the cache) by a coloured one, filled before it is first laid out (filling a laid-out
        document re-lays it out at every run). False when the frame's budget is spent (the box
        is painted plain this time and coloured in a next frame)."""
        pieces = [piece for piece in layout.pieces if piece.box == box]
        if all(piece.doc.property(HIGHLIGHTED) for piece in pieces):
            return True
        if self.highlight_budget <= 0:
            return False
        self.highlight_budget -= 1
        code = layout.boxes[box]
        runs = (
            runs_by_lines(code.code, code.language, CODE_PIECE_LINES)
            if knows(code.language)
            else []
        )
        for number, piece in enumerate(pieces):
            if piece.doc.property(HIGHLIGHTED):
                continue
            if number < len(runs):
                coloured = self._new_code_doc()
                fill_runs(coloured, runs[number], self.code_formats())
                set_width(coloured, piece.doc.textWidth())
                self._cache.replace(piece.doc, coloured)
                piece.doc = coloured
            piece.doc.setProperty(HIGHLIGHTED, True)
        return True


def new_doc(font: QFont) -> QTextDocument:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    return doc


def set_width(doc: QTextDocument, width: float) -> None:
    if doc.textWidth() != width:
        doc.setTextWidth(width)
