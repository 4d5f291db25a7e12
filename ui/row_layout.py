"""How one transcript row is laid out: its text documents, card, code boxes and buttons. No I/O.

A row is a column of *pieces* (laid-out ``QTextDocument`` values) inside an optional card, plus
code boxes and painted buttons. Pieces number the row's text positions one after the other
(``base``), so a selection is a pair of (row, position) and a copy walks the pieces it covers.
Coordinates are relative to the row's top left corner at the reading column's left edge; the
delegate paints and the view hit-tests through the same ``RowLayout``.

Choices where the spec is silent:
- Messages are at most ``READING_CHARS`` average characters wide (a comfortable reading width),
  centred in the transcript; user messages are bubbles on the right, at most ``BUBBLE_SHARE`` of
  that column; answers use the whole column.
- User messages are rendered as Markdown exactly like answers (a fenced block is a code box).
- Code blocks do not wrap by default: a long line scrolls sideways inside its box (wheel with
  Shift, a horizontal wheel, or dragging the bar under it); View → "Wrap long code lines" wraps
  them instead. Code longer than ``CODE_PIECE_LINES`` lines is laid out in several pieces (one
  box), so a streaming block re-lays out only its last piece.
- Every message has a footer line with its time (or "Queued") and its action buttons, which
  show on hover or when the row has keyboard focus; the line is always reserved, so nothing
  moves when they appear. When the buttons do not fit beside the time they get a line of their
  own under it (narrow windows).
- The files attached to a user message are one small line under its bubble, right-aligned
  (the pictures of its images, then "plan.md · 2 KB   photo.png · 1.2 MB", ``ui.row_files``); a
  message of files only has no bubble.
- A message with versions shows its switcher "‹ 2/3 ›" in its footer, always (next to the time);
  an answer that ends a turn shows the turn's usage after its time, small and muted:
  "10:45 · 1,234 → 256 tokens · 41 tok/s".
- A failed turn's error row offers Retry, Edit and Discard (and Settings); a hidden exchange is a
  thin muted line with a Show button. A read-only session's rows offer none of the buttons that
  would write (``writable``).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, cast

from PySide6.QtCore import QCoreApplication, QPointF, QRect, Qt
from PySide6.QtGui import (
    QBrush,
    QFont,
    QFontDatabase,
    QFontInfo,
    QFontMetrics,
    QFontMetricsF,
    QGuiApplication,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextOption,
)

from core.transcript.verbs import Verb, offered
from ui.highlight import CodeFormats, fill_runs, knows, runs_by_lines
from ui.markdown_blocks import Block, resplit, split_blocks
from ui.math_docs import MathStyle, install, markdown_sourced, with_math
from ui.math_render import MathImage
from ui.math_spans import math_sources, may_hold_math
from ui.mcp_rows import Thumbnails, images_doc, links_doc, no_thumbnails
from ui.quotes import style_quotes
from ui.rich_copy import needs_own_text, plain_range
from ui.row_actions import RowAction, footer_actions, label, tip
from ui.row_files import files_doc
from ui.row_parts import (
    INDENT,
    THINKING,
    header_rect,
    set_it_label,
    set_it_tip,
    thinking_label,
    thinking_tip,
    unset_line,
)
from ui.tables import tidy_tables
from ui.theme import Surfaces
from ui.transcript_rows import (
    TranscriptRow,
    first_text_wait,
    reminder_text,
    thought_seconds,
    usage_numbers,
)
from ui.untrusted import set_markdown

MARGIN = 16
"""Between the transcript's edges and the reading column."""
GAP = 6
"""Above and below every row."""
PAD = 10
"""Inside cards and bubbles."""
BLOCK_GAP = 6
"""Between the blocks of one message (as between two paragraphs in Qt's Markdown layout)."""
CODE_PAD = 10
SCROLLBAR = 10
READING_CHARS = 92
BUBBLE_SHARE = 0.82
CODE_PIECE_LINES = 150
DOC_CACHE = 400
"""Laid-out documents kept by what they show: those of the delegate's cached layouts (about three
a row) and a few more for a streamed answer's blocks. It bounds the memory of a long scroll."""
HIGHLIGHTS_PER_FRAME = 3
"""Code boxes coloured per painted frame (lexing costs ~1 ms a box; the rest wait a frame)."""
BELL = 18
_MAY_NEED_STYLE = re.compile(r"[`<\[\t]|https?:|www\.|(^|\n) {4}")
"""Markdown that may hold code spans, indented code or links (the rest needs no restyling)."""
HIGHLIGHTED = "chime-highlighted"
HAS_MATH = "chime-math"
"""A prose document's property: it holds math drawn as images."""
"""A code document's property: its syntax colours are applied."""

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("RowLayouts", …)


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


@dataclass(eq=False, slots=True)
class Piece:
    """One laid-out document at (``x``, ``y``); it holds row positions
    ``[base, base + length)``. ``box`` is the code box it is drawn in (-1: none); ``joiner`` is
    what separates it from the piece before in a copy; ``markdown`` its Markdown source."""

    doc: QTextDocument
    x: int
    y: int
    base: int
    length: int
    box: int = -1
    joiner: str = ""
    markdown: str = ""
    muted: bool = False
    aside: bool = False
    """An answer's thinking: shown and selectable, but not the answer (find skips it)."""
    math: bool = False
    """Its Markdown holds math drawn as images (copied back as their TeX source)."""

    @property
    def height(self) -> int:
        return int(self.doc.size().height())

    @property
    def last(self) -> int:
        """The last row position of this piece (its end)."""
        return self.base + self.length - 1


@dataclass(eq=False, slots=True)
class CodeBox:
    """A fenced code block: its box, header (language label, Copy button), the body its pieces
    scroll in, and exactly its code."""

    rect: QRect
    header: QRect
    copy: QRect
    label: str
    body: QRect
    content_width: int
    code: str
    language: str
    scrollbar: QRect | None = None

    @property
    def overflow(self) -> int:
        """How far the code can scroll sideways (0: it fits)."""
        return max(0, self.content_width - self.body.width())


@dataclass(frozen=True, slots=True)
class Button:
    name: str
    text: str
    rect: QRect
    tip: str = ""
    enabled: bool = True


@dataclass(eq=False, slots=True)
class RowLayout:
    """Everything painted for one row, in row coordinates (see the module docstring)."""

    height: int
    pieces: list[Piece] = field(default_factory=list)
    boxes: list[CodeBox] = field(default_factory=list)
    card: QRect | None = None
    caption: Piece | None = None
    bell: QRect | None = None
    footer: QRect | None = None
    footer_text: str = ""
    footer_text_rect: QRect | None = None
    buttons: list[Button] = field(default_factory=list)
    footer_buttons: list[Button] = field(default_factory=list)
    switcher_text: str = ""
    """A message's version switcher: "2/3" between its ‹ and › buttons (in ``buttons``)."""
    switcher_rect: QRect | None = None

    @property
    def length(self) -> int:
        return self.pieces[-1].base + self.pieces[-1].length if self.pieces else 0

    def position_at(self, x: float, y: float, offsets: dict[int, int]) -> int:
        """The text position nearest to (x, y): inside a piece by Qt's hit test, else the start
        of the piece below or the end of the piece above."""
        for piece in self.pieces:
            if y < piece.y:
                return piece.base
            if y < piece.y + piece.height:
                shift = offsets.get(piece.box, 0) if piece.box >= 0 else 0
                local = QPointF(x - piece.x + shift, y - piece.y)
                found = piece.doc.documentLayout().hitTest(local, Qt.HitTestAccuracy.FuzzyHit)
                return piece.base + max(0, found)
        return self.pieces[-1].last if self.pieces else 0

    def point_of(self, position: int) -> QPointF:
        """Where the cursor at ``position`` is drawn (row coordinates; the middle of its line)."""
        piece = self.piece_of(position)
        if piece is None:
            return QPointF(0, 0)
        local = max(0, min(position - piece.base, piece.length - 1))
        block = piece.doc.findBlock(local)
        layout = block.layout()
        line = layout.lineForTextPosition(local - block.position())
        top = piece.doc.documentLayout().blockBoundingRect(block).top()
        found = line.cursorToX(local - block.position()) if line.isValid() else (0.0, 0)
        x = cast(tuple[float, int], found)[0]  # PySide6 gives (x, the cursor position)
        y = top + (line.y() + line.height() / 2 if line.isValid() else 0.0)
        return QPointF(piece.x + x, piece.y + y)

    def anchor_at(self, x: float, y: float, offsets: dict[int, int]) -> str:
        """The link target under (x, y) ("" when none)."""
        for piece in self.pieces:
            if piece.y <= y < piece.y + piece.height and piece.box < 0:
                local = QPointF(x - piece.x, y - piece.y)
                return str(piece.doc.documentLayout().anchorAt(local) or "")
        return ""

    def piece_of(self, position: int) -> Piece | None:
        for piece in self.pieces:
            if position <= piece.last:
                return piece
        return self.pieces[-1] if self.pieces else None

    def button_at(self, x: int, y: int) -> Button | None:
        for button in (*self.buttons, *self.footer_buttons):
            if button.rect.contains(x, y):
                return button
        return None

    def button(self, name: str) -> Button | None:
        """The button called ``name`` (None when the row has none)."""
        return next((b for b in (*self.buttons, *self.footer_buttons) if b.name == name), None)

    def copy_box_at(self, x: int, y: int) -> int:
        return next((i for i, box in enumerate(self.boxes) if box.copy.contains(x, y)), -1)

    def scrollbar_at(self, x: int, y: int) -> int:
        return next(
            (
                i
                for i, box in enumerate(self.boxes)
                if box.scrollbar is not None and box.scrollbar.adjusted(0, -3, 0, 3).contains(x, y)
            ),
            -1,
        )

    def box_at(self, x: int, y: int) -> int:
        return next((i for i, box in enumerate(self.boxes) if box.rect.contains(x, y)), -1)

    def text(self, start: int, end: int, *, markdown: bool = False) -> str:
        """The text of positions ``[start, end)``: plain, or Markdown (prose as Markdown, code
        inside fences)."""
        parts: list[tuple[str, str]] = []
        for box, group in _groups(self.pieces):
            texts = [self._piece_text(piece, start, end, markdown) for piece in group]
            chosen = [(piece.joiner, t) for piece, t in zip(group, texts, strict=True) if t]
            if not chosen:
                continue
            body = chosen[0][1] + "".join(joiner + text for joiner, text in chosen[1:])
            if markdown and box >= 0:
                body = f"```{self.boxes[box].language}\n{body}\n```"
            parts.append((group[0].joiner or "\n\n", body))
        return "".join(joiner + text if i else text for i, (joiner, text) in enumerate(parts))

    def _piece_text(self, piece: Piece, start: int, end: int, markdown: bool) -> str:
        low, high = max(start, piece.base), min(end, piece.last)
        if low >= high:
            return ""
        cursor = QTextCursor(piece.doc)
        cursor.setPosition(low - piece.base)
        cursor.setPosition(high - piece.base, QTextCursor.MoveMode.KeepAnchor)
        fragment = cursor.selection()
        if markdown and piece.box < 0 and not piece.muted:
            whole = low == piece.base and high == piece.last
            if whole:
                return piece.markdown.strip("\n")
            written = fragment.toMarkdown().strip("\n")
            return (
                markdown_sourced(written, math_sources(piece.markdown)) if piece.math else written
            )
        text = fragment.toPlainText()
        if piece.box >= 0 or not needs_own_text(piece.doc, text):
            return text
        sources = math_sources(piece.markdown) if piece.math else []
        return plain_range(piece.doc, low - piece.base, high - piece.base, sources)


def _groups(pieces: Sequence[Piece]) -> Iterator[tuple[int, list[Piece]]]:
    """Consecutive pieces of one code box together; every other piece alone."""
    group: list[Piece] = []
    for piece in pieces:
        if group and (piece.box < 0 or piece.box != group[-1].box):
            yield group[0].box, group
            group = []
        group.append(piece)
    if group:
        yield group[0].box, group


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


class RowLayouts:
    """Builds ``RowLayout`` values for one transcript (its fonts, colours and options)."""

    def __init__(self) -> None:
        self._docs = DocCache()
        self._fonts = Fonts.of(QFont())
        self._small_metrics = QFontMetrics(self._fonts.small)
        self._body_metrics = QFontMetrics(self._fonts.body)
        self._surfaces: Surfaces | None = None
        self._formats: CodeFormats | None = None
        self._dark = False
        self.wrap_code = False
        self.writable = True
        """The session can be written: rows offer the buttons that write (edit, retry, ...)."""
        self.highlight_budget = HIGHLIGHTS_PER_FRAME
        """Code boxes that may still be coloured in this frame (the view resets it per paint)."""
        self._stream: tuple[str, list[Block]] = ("", [])
        self.thumbnails: Thumbnails = no_thumbnails
        """The pictures of an MCP row's images and of a message's attached images (the app
        supplies them: ``app.tool_images``)."""

    def configure(self, font: QFont, surfaces: Surfaces, dark: bool) -> None:
        """New fonts or colours: every document is built again."""
        self._fonts = Fonts.of(font)
        self._small_metrics = QFontMetrics(self._fonts.small)
        self._body_metrics = QFontMetrics(self._fonts.body)
        self._surfaces = surfaces
        self._dark = dark
        self._formats = CodeFormats(dark, self._fonts.mono, surfaces.text, surfaces.code_background)
        self._docs.clear()
        self._stream = ("", [])

    @property
    def fonts(self) -> Fonts:
        return self._fonts

    @property
    def surfaces(self) -> Surfaces:
        assert self._surfaces is not None, "configure() first"
        return self._surfaces

    def code_formats(self) -> CodeFormats:
        assert self._formats is not None, "configure() first"
        return self._formats

    def column_width(self, viewport_width: int) -> int:
        """The reading column for a transcript ``viewport_width`` wide."""
        reading = self._body_metrics.averageCharWidth() * READING_CHARS
        return max(160, min(viewport_width - 2 * MARGIN, reading))

    # -- rows ----------------------------------------------------------------------------
    def layout(
        self, row: TranscriptRow, width: int, *, expanded: bool, caption: str, time: str
    ) -> RowLayout:
        """The layout of ``row`` in a column ``width`` wide."""
        kind = row.kind
        if kind in ("user", "assistant", "streaming"):
            return self._message(row, width, time, expanded)
        if kind == "reminder":
            return self._reminder(row, width, caption, time)
        if kind == "error":
            return self._error(row, width)
        if kind == "tool":
            return self._tool(row, width, expanded)
        if kind == "mcp":
            return self._mcp(row, width, expanded)
        if kind == "context":
            return self._card_text(row.text, width, self._fonts.mono, muted=True)
        if kind == "hidden":
            return self._hidden(row, width)
        if kind == "unset":
            return self._unset(row, width)
        return self._notice(row.text, width)

    def _message(
        self, row: TranscriptRow, width: int, time: str, expanded: bool = False
    ) -> RowLayout:
        user = row.kind == "user"
        inner = max(80, int(width * BUBBLE_SHARE)) - 2 * PAD if user else width
        pieces, boxes, height, ideal = self._blocks(self._blocks_of(row), inner)
        layout = RowLayout(0, pieces, boxes)
        top = GAP
        if row.reasoning and not user:
            top = self._thinking(layout, row, width, top, expanded)
        if user and not pieces and row.files:  # files only: no empty bubble
            bottom = self._files_line(layout, row, width, top)
        elif user:
            bubble = min(inner, max(ideal, 24)) + 2 * PAD
            left = width - bubble
            self._shift(layout, left + PAD, top + PAD)
            layout.card = QRect(left, top, bubble, height + 2 * PAD)
            bottom = layout.card.bottom() + 1
            if row.files:
                bottom = self._files_line(layout, row, width, bottom + 4)
        else:
            self._shift(layout, 0, top)
            bottom = top + height
        return self._with_footer(layout, row, width, bottom, time, right=user)

    def _thinking(
        self, layout: RowLayout, row: TranscriptRow, width: int, top: int, expanded: bool
    ) -> int:
        """The thinking block at ``top`` of an answer: its header button and, open, the thinking
        as the row's first piece (the answer's pieces are numbered on after it); returns where
        the answer begins."""
        text = thinking_label(row, expanded=expanded)
        rect = header_rect(text, self._small_metrics).translated(0, top)
        tip = thinking_tip(expanded=expanded)
        layout.buttons.append(Button(THINKING, text, rect, tip))
        y = rect.bottom() + 1 + BLOCK_GAP
        if expanded:
            doc = self._plain_doc(row.reasoning, self._fonts.small, max(80, width - INDENT))
            piece = Piece(doc, INDENT, y, 0, doc.characterCount(), markdown=row.reasoning)
            piece.muted = piece.aside = True
            for later in layout.pieces:
                later.base += piece.length
            if layout.pieces:
                layout.pieces[0].joiner = "\n\n"
            layout.pieces.insert(0, piece)
            y += piece.height + BLOCK_GAP
            piece.y -= y  # the caller moves every piece down to where the answer begins
        return y

    def _unset(self, row: TranscriptRow, width: int) -> RowLayout:
        """The safety net's quiet line under an answer, with "Set it" until it is set."""
        small = self._small_metrics
        label = set_it_label()
        shown = Verb.SET_REMINDER in offered(row.verbs, writable=self.writable)
        button_w = small.horizontalAdvance(label) + 22 if shown else 0
        text = unset_line(row)
        doc = self._plain_doc(text, self._fonts.notice, max(80, width - button_w - 12))
        piece = Piece(doc, 0, GAP, 0, doc.characterCount(), markdown=text, muted=True)
        height = max(piece.height, small.height() + 8)
        layout = RowLayout(GAP + height + GAP, [piece])
        if shown:
            left = min(width - button_w, int(doc.idealWidth()) + 12)
            rect = QRect(left, GAP, button_w, small.height() + 8)
            layout.buttons = [Button(Verb.SET_REMINDER, label, rect, set_it_tip(row))]
        return layout

    def _files_line(self, layout: RowLayout, row: TranscriptRow, width: int, top: int) -> int:
        """The attached files under the bubble (``ui.row_files``), right-aligned, as a muted
        piece after the message's own text; returns its bottom."""
        color, ratio = self.surfaces.muted_text, _pixel_ratio()
        doc, text = files_doc(row.files, self.thumbnails, self._fonts.small, color, ratio)
        _set_width(doc, int(width * BUBBLE_SHARE))
        shown = min(int(doc.idealWidth()) + 1, int(width * BUBBLE_SHARE))
        _set_width(doc, shown)  # right-aligned in its own width
        piece = Piece(doc, width - shown, top, layout.length, doc.characterCount(), muted=True)
        piece.joiner, piece.markdown = ("\n" if layout.pieces else ""), text
        layout.pieces.append(piece)
        return top + piece.height

    def _blocks_of(self, row: TranscriptRow) -> list[Block]:
        if row.kind != "streaming":
            return split_blocks(row.text)
        text, previous = self._stream
        blocks = (
            resplit(row.text, previous) if row.text.startswith(text) else split_blocks(row.text)
        )
        self._stream = (row.text, blocks)
        return blocks

    def _blocks(
        self, blocks: Sequence[Block], width: int
    ) -> tuple[list[Piece], list[CodeBox], int, int]:
        """Pieces and code boxes of ``blocks`` stacked from the top: (pieces, boxes, height, the
        widest prose line)."""
        pieces: list[Piece] = []
        boxes: list[CodeBox] = []
        y, ideal, base = 0, 0, 0
        for block in blocks:
            if block.kind == "prose" and not block.text.strip():
                continue
            if pieces:
                y += BLOCK_GAP
            joiner = "\n\n" if pieces else ""
            if block.kind == "code":
                box, code_pieces = self._code_box(block, width, y, base, len(boxes))
                boxes.append(box)
                if code_pieces:
                    code_pieces[0].joiner = joiner
                pieces.extend(code_pieces)
                base = code_pieces[-1].base + code_pieces[-1].length
                y = box.rect.bottom() + 1
                ideal = width
                continue
            doc = self._prose_doc(block.text, width)
            piece = Piece(doc, 0, y, base, doc.characterCount(), -1, joiner, block.text)
            piece.math = bool(doc.property(HAS_MATH))
            pieces.append(piece)
            base += doc.characterCount()
            y += int(doc.size().height())
            ideal = max(ideal, int(doc.idealWidth()) + 1)
        return pieces, boxes, y, ideal

    def _code_box(
        self, block: Block, width: int, y: int, base: int, index: int
    ) -> tuple[CodeBox, list[Piece]]:
        """The box of a fenced block at ``y``, its pieces numbered from ``base``."""
        small = self._small_metrics
        header_h = small.height() + 10
        body_w = max(40, width - 2 * CODE_PAD)
        docs = self._code_docs(block, body_w)
        body_h = sum(int(doc.size().height()) for doc in docs)
        content = max((int(doc.idealWidth()) + 2 for doc in docs), default=0)
        copy_w = (
            max(
                small.horizontalAdvance(text)
                for text in (translate("RowLayouts", "Copy"), translate("RowLayouts", "Copied ✓"))
            )
            + 20
        )
        body = QRect(CODE_PAD, y + header_h + CODE_PAD, body_w, body_h)
        overflow = not self.wrap_code and content > body_w
        bottom = body.bottom() + 1 + CODE_PAD + (SCROLLBAR if overflow else 0)
        box = CodeBox(
            QRect(0, y, width, bottom - y),
            QRect(0, y, width, header_h),
            QRect(width - copy_w - 6, y + 4, copy_w, header_h - 8),
            block.language or translate("RowLayouts", "code"),
            body,
            content if not self.wrap_code else body_w,
            block.text,
            block.language,
        )
        if overflow:
            box.scrollbar = QRect(body.left(), bottom - SCROLLBAR - 2, body_w, SCROLLBAR - 2)
        return box, _stacked(docs, body.left(), body.top(), base, index)

    def _shift(self, layout: RowLayout, dx: int, dy: int) -> None:
        for piece in layout.pieces:
            piece.x += dx
            piece.y += dy
        for box in layout.boxes:
            for rect in (box.rect, box.header, box.copy, box.body, box.scrollbar):
                if rect is not None:
                    rect.translate(dx, dy)

    def _with_footer(
        self,
        layout: RowLayout,
        row: TranscriptRow,
        width: int,
        bottom: int,
        time: str,
        *,
        right: bool,
    ) -> RowLayout:
        """The footer line under a message: its note (time, "Queued", "Answering…", usage), its
        version switcher and its action buttons, on the right for the user's messages; the
        buttons go on a line of their own when they do not fit beside the rest."""
        line = self._small_metrics.height() + 8
        top = bottom + 2
        note = self._footer_note(row, time)  # cut with "…" where the column is too narrow
        note = self._small_metrics.elidedText(note, Qt.TextElideMode.ElideRight, width - 4)
        note_w = self._small_metrics.horizontalAdvance(note) + 4
        switcher = self._switcher(row, top + 2, line - 4)
        switcher_w = switcher[-1].rect.right() + 1 if switcher else 0
        actions = footer_actions(row.verbs, writable=self.writable)
        buttons = self._footer_buttons(actions, top + 2, line - 4)
        buttons_w = buttons[-1].rect.right() + 1 if buttons else 0
        info_w = note_w + (switcher_w + 10 if switcher else 0)
        own_line = bool(buttons) and info_w + 10 + buttons_w > width
        if right:
            note_x, switcher_x = width - note_w, width - info_w
            buttons_x = width - buttons_w if own_line else width - info_w - 10 - buttons_w
        else:
            note_x, switcher_x = 0, note_w + 10
            buttons_x = 0 if own_line else info_w + 10
        dy = line if own_line else 0
        layout.footer_buttons = [
            Button(b.name, b.text, b.rect.translated(buttons_x, dy), b.tip) for b in buttons
        ]
        if switcher:
            shifted = [replace_rect(b, b.rect.translated(switcher_x, 0)) for b in switcher]
            layout.buttons = [*layout.buttons, *shifted]
            first, last = shifted[0].rect, shifted[-1].rect
            layout.switcher_text = f"{row.version[0]}/{row.version[1]}"
            layout.switcher_rect = QRect(
                first.right() + 1, top, last.left() - first.right() - 1, line
            )
        layout.footer = QRect(0, top, width, line + dy)
        layout.footer_text = note
        layout.footer_text_rect = QRect(note_x, top, note_w, line)
        layout.height = layout.footer.bottom() + 1 + GAP
        return layout

    def _footer_note(self, row: TranscriptRow, time: str) -> str:
        if row.kind == "streaming":
            return translate("RowLayouts", "Answering…")
        if row.queued:
            return translate("RowLayouts", "Queued — sent when the answer above is done")
        if row.usage is not None and row.usage.reported:
            return " · ".join(part for part in (time, self.usage_text(row)) if part)
        return time

    def usage_text(self, row: TranscriptRow) -> str:
        """ "1,234 → 256 tokens · 41 tok/s · first word after 14 s" for an answer whose turn
        reported usage (the wait only when it took a second or more), else ""."""
        if row.usage is None or not row.usage.reported:
            return ""
        prompt, completion, rate = usage_numbers(row.usage)
        text = translate("RowLayouts", "{prompt} → {completion} tokens").format(
            prompt=prompt, completion=completion
        )
        if rate:
            text += " · " + translate("RowLayouts", "{rate} tok/s").format(rate=rate)
        if thought := thought_seconds(row.usage):
            text += " · " + translate("RowLayouts", "thought for {seconds} s").format(
                seconds=thought
            )
        if waited := first_text_wait(row.usage):
            text += " · " + translate("RowLayouts", "first word after {seconds} s").format(
                seconds=waited
            )
        return text

    def _switcher(self, row: TranscriptRow, top: int, height: int) -> list[Button]:
        """The version switcher's ‹ and › buttons from x = 0 (its "2/3" goes between them)."""
        count = row.version[1]
        if count < 2:
            return []
        metrics = self._small_metrics
        arrow = metrics.horizontalAdvance("‹") + 14
        middle = metrics.horizontalAdvance(f"{count}/{count}") + 10
        return [
            Button(
                Verb.PREVIOUS_VERSION,
                "‹",
                QRect(0, top, arrow, height),
                translate("RowLayouts", "Previous version"),
                enabled=Verb.PREVIOUS_VERSION in offered(row.verbs, writable=self.writable),
            ),
            Button(
                Verb.NEXT_VERSION,
                "›",
                QRect(arrow + middle, top, arrow, height),
                translate("RowLayouts", "Next version"),
                enabled=Verb.NEXT_VERSION in offered(row.verbs, writable=self.writable),
            ),
        ]

    def _footer_buttons(self, actions: Sequence[RowAction], top: int, height: int) -> list[Button]:
        """The actions' buttons side by side from x = 0 (a Copy button is wide enough to say
        "Copied ✓")."""
        metrics = self._small_metrics
        copied = metrics.horizontalAdvance(translate("RowLayouts", "Copied ✓"))
        buttons, x = [], 0
        for action in actions:
            text = label(action)
            width = (
                max(metrics.horizontalAdvance(text), copied if action.name == "copy" else 0) + 18
            )
            buttons.append(Button(action.name, text, QRect(x, top, width, height), tip(action)))
            x += width + 8
        return buttons

    def _reminder(self, row: TranscriptRow, width: int, caption: str, time: str) -> RowLayout:
        top = GAP
        text_left = PAD + BELL + 8
        caption_doc = self._plain_doc(
            caption or translate("RowLayouts", "Reminder"),
            self._fonts.caption,
            width - text_left - PAD,
        )
        caption_piece = Piece(caption_doc, text_left, top + PAD, 0, 0)
        doc = self._plain_doc(reminder_text(row), self._fonts.body, width - text_left - PAD)
        y = top + PAD + int(caption_doc.size().height()) + 4
        piece = Piece(doc, text_left, y, 0, doc.characterCount(), markdown=reminder_text(row))
        layout = RowLayout(
            0, [piece], caption=caption_piece, bell=QRect(PAD, top + PAD, BELL, BELL)
        )
        layout.card = QRect(0, top, width, y + piece.height + PAD - top)
        return self._with_footer(layout, row, width, layout.card.bottom() + 1, time, right=False)

    def _error(self, row: TranscriptRow, width: int) -> RowLayout:
        top = GAP
        inner = width - 2 * PAD
        caption_doc = self._plain_doc(
            translate("RowLayouts", "Something went wrong"), self._fonts.caption, inner
        )
        caption = Piece(caption_doc, PAD, top + PAD, 0, 0)
        y = top + PAD + int(caption_doc.size().height()) + 4
        doc = self._plain_doc(row.text, self._fonts.body, inner)
        piece = Piece(doc, PAD, y, 0, doc.characterCount(), markdown=row.text)
        y += piece.height + 8
        small = self._small_metrics
        x, buttons = PAD, []
        words = {
            Verb.RETRY: (
                translate("RowLayouts", "Retry (Enter)"),
                translate("RowLayouts", "Run this message again"),
            ),
            Verb.EDIT: (
                translate("RowLayouts", "Edit"),
                translate(
                    "RowLayouts",
                    "Put this message in the message box to change it and send it again",
                ),
            ),
            Verb.DISCARD: (
                translate("RowLayouts", "Discard"),
                translate(
                    "RowLayouts", "Leave this message out of the view and of what the model is sent"
                ),
            ),
            Verb.SETTINGS: (translate("RowLayouts", "Settings…"), ""),
        }
        choices = [
            (verb, *words[verb])
            for verb in offered(row.verbs, writable=self.writable)
            if verb in words
        ]
        for name, text, hint in choices:
            w = small.horizontalAdvance(text) + 22
            if x > PAD and x + w > width - PAD:  # a narrow card: the rest on the next line
                x, y = PAD, y + small.height() + 10 + 6
            buttons.append(Button(name, text, QRect(x, y, w, small.height() + 10), hint))
            x += w + 8
        y += small.height() + 10 + PAD
        layout = RowLayout(y + GAP, [piece], caption=caption, buttons=buttons)
        layout.card = QRect(0, top, width, y - top)
        return layout

    def _tool(self, row: TranscriptRow, width: int, expanded: bool) -> RowLayout:
        marker = "▾" if expanded else "▸"
        text = f"{marker}  {row.title}"
        if expanded:
            return self._card_text(text, width, self._fonts.small, detail=row.detail)
        return self._card_text(text, width, self._fonts.small)

    def _mcp(self, row: TranscriptRow, width: int, expanded: bool) -> RowLayout:
        """An MCP call: its title (server, tool, state), then its images and links, shown
        collapsed too; expanded, its arguments and result under them."""
        layout = self._tool(row, width, expanded)
        call = row.call
        if call is None or not (call.images or call.links) or layout.card is None:
            return layout
        y = layout.card.bottom() + 1 - PAD
        base = layout.length
        if call.images:
            doc, copied = images_doc(call.images, self.thumbnails, self._fonts.small)
            _set_width(doc, width - 2 * PAD)
            layout.pieces.append(
                Piece(doc, PAD, y + 6, base, doc.characterCount(), -1, "\n", copied)
            )
            y += 6 + layout.pieces[-1].height
            base = layout.length
        if call.links:
            doc = links_doc(call.links, self._fonts.small, self.surfaces.link)
            _set_width(doc, width - 2 * PAD)
            text = "\n".join(f"{link.name} {link.uri}" for link in call.links)
            layout.pieces.append(Piece(doc, PAD, y + 6, base, doc.characterCount(), -1, "\n", text))
            y += 6 + layout.pieces[-1].height
        layout.card = QRect(0, layout.card.top(), width, y + PAD - layout.card.top())
        layout.height = layout.card.bottom() + 1 + GAP
        return layout

    def _card_text(
        self, text: str, width: int, font: QFont, *, muted: bool = False, detail: str = ""
    ) -> RowLayout:
        top = GAP
        doc = self._plain_doc(text, font, width - 2 * PAD)
        pieces = [Piece(doc, PAD, top + PAD, 0, doc.characterCount(), markdown=text, muted=muted)]
        y = top + PAD + pieces[0].height
        if detail:
            more = self._plain_doc(detail, self._fonts.mono, width - 2 * PAD)
            base = doc.characterCount()
            pieces.append(Piece(more, PAD, y + 4, base, more.characterCount(), -1, "\n", detail))
            y += 4 + pieces[1].height
        layout = RowLayout(y + PAD + GAP, pieces)
        layout.card = QRect(0, top, width, y + PAD - top)
        return layout

    def _hidden(self, row: TranscriptRow, width: int) -> RowLayout:
        """A hidden exchange: one muted line with its first words and a Show button."""
        small = self._small_metrics
        show = translate("RowLayouts", "Show")
        shown = Verb.SHOW in offered(row.verbs, writable=self.writable)
        button_w = small.horizontalAdvance(show) + 22 if shown else 0
        text = translate(
            "RowLayouts", "1 hidden message: “{words}” — left out of what the model sees"
        ).format(words=row.text)
        doc = self._plain_doc(text, self._fonts.notice, max(80, width - button_w - 12))
        piece = Piece(doc, 0, GAP, 0, doc.characterCount(), markdown=text, muted=True)
        height = max(piece.height, small.height() + 8)
        layout = RowLayout(GAP + height + GAP, [piece])
        if shown:
            rect = QRect(width - button_w, GAP, button_w, small.height() + 8)
            tip_text = translate(
                "RowLayouts",
                "Bring this message and its answer back into the view and the model's history",
            )
            layout.buttons = [Button(Verb.SHOW, show, rect, tip_text)]
        return layout

    def _notice(self, text: str, width: int) -> RowLayout:
        doc = self._plain_doc(text, self._fonts.notice, width)
        piece = Piece(doc, 0, GAP, 0, doc.characterCount(), markdown=text, muted=True)
        return RowLayout(GAP + piece.height + GAP, [piece])

    # -- documents -------------------------------------------------------------------------
    def _plain_doc(self, text: str, font: QFont, width: int) -> QTextDocument:
        def build() -> QTextDocument:
            doc = _new_doc(font)
            doc.setPlainText(text)
            return doc

        doc = self._docs.get(("plain", text, font.key()), build)
        _set_width(doc, width)
        return doc

    def _prose_doc(self, markdown: str, width: int) -> QTextDocument:
        doc = self._docs.get(
            ("prose", markdown, self._fonts.key()), lambda: self._markdown(markdown)
        )
        _set_width(doc, width)
        return doc

    def _markdown(self, markdown: str) -> QTextDocument:
        doc = _new_doc(self._fonts.body)
        images: dict[str, MathImage] = {}
        display: set[str] = set()
        if may_hold_math(markdown):
            markdown, images, display = with_math(markdown, self._math_style())
        set_markdown(doc, markdown)  # raw HTML is text: nothing an answer holds hides the rest
        if images:
            install(doc, images, display)
            doc.setProperty(HAS_MATH, True)
        if _MAY_NEED_STYLE.search(markdown):
            _style_markdown(doc, self._fonts.mono, self.surfaces)
        if ">" in markdown:
            style_quotes(doc, self.surfaces)
        if "|" in markdown:
            tidy_tables(doc)
        return doc

    def _math_style(self) -> MathStyle:
        """Math in the body font's size and the text's colour, at the screen's pixel ratio."""
        metrics = QFontMetricsF(self._fonts.body)
        return MathStyle(
            QFontInfo(self._fonts.body).pixelSize(),
            metrics.xHeight(),
            self.surfaces.text.name(),
            _pixel_ratio(),
        )

    def _code_docs(self, block: Block, width: int) -> list[QTextDocument]:
        """The documents of a code block, ``CODE_PIECE_LINES`` lines each (the last may grow),
        in plain monospace: ``highlight`` colours them when they are first painted (lexing is
        the dearest step of a layout, and most laid-out rows are never on screen)."""
        lines = block.text.split("\n")
        chunks = [
            "\n".join(lines[i : i + CODE_PIECE_LINES])
            for i in range(0, len(lines), CODE_PIECE_LINES)
        ]
        font = self._fonts.key()
        docs = [
            self._docs.get(
                ("code", chunk, block.language, n, font, self.wrap_code),
                partial(self._plain_code, chunk),
            )
            for n, chunk in enumerate(chunks)
        ]
        for doc in docs:
            _set_width(doc, width if self.wrap_code else -1)
        return docs

    def _plain_code(self, code: str) -> QTextDocument:
        doc = self._new_code_doc()
        fill_runs(doc, [(None, code)], self.code_formats())
        return doc

    def _new_code_doc(self) -> QTextDocument:
        doc = _new_doc(self._fonts.mono)
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
                _set_width(coloured, piece.doc.textWidth())
                self._docs.replace(piece.doc, coloured)
                piece.doc = coloured
            piece.doc.setProperty(HIGHLIGHTED, True)
        return True


def replace_rect(button: Button, rect: QRect) -> Button:
    return Button(button.name, button.text, rect, button.tip, button.enabled)


def _stacked(docs: list[QTextDocument], x: int, top: int, base: int, box: int) -> list[Piece]:
    """The pieces of one code box, one under the other, numbered on from ``base``."""
    pieces = []
    for number, doc in enumerate(docs):
        pieces.append(Piece(doc, x, top, base, doc.characterCount(), box, "\n" if number else ""))
        top += int(doc.size().height())
        base += doc.characterCount()
    return pieces


def _pixel_ratio() -> float:
    app = QGuiApplication.instance()
    return max(1.0, app.devicePixelRatio() if isinstance(app, QGuiApplication) else 1.0)


def _new_doc(font: QFont) -> QTextDocument:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    return doc


def _set_width(doc: QTextDocument, width: float) -> None:
    if doc.textWidth() != width:
        doc.setTextWidth(width)


def _style_markdown(doc: QTextDocument, mono: QFont, surfaces: Surfaces) -> None:
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
