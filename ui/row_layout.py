"""How one transcript row is laid out: its pieces, card, code boxes and buttons, as values. No I/O.

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
- The files attached to a user message are under its bubble, right-aligned: its images'
  pictures, then one small line of names and sizes ("plan.md · 2 KB   photo.png · 1.2 MB", each
  after a paperclip icon; ``ui.row_files``); a message of files only has no bubble.
- A message with versions shows its switcher "‹ 2/3 ›" in its footer, always (next to the time);
  an answer that ends a turn shows the turn's usage after its time, small and muted:
  "10:45 · 1,234 → 256 tokens · 41 tok/s".
- A failed turn's error row offers Retry, Edit and Discard (and Settings); a hidden exchange is a
  thin muted line with a Show button. A read-only session's rows offer none of the buttons that
  would write (``writable``).

The values are here; ``ui.row_layouts.RowLayouts`` builds them, one module per kind of part:
``ui.row_docs`` (documents and fonts), ``ui.row_message`` (a message's text and code blocks),
``ui.row_files`` (a message's files line), ``ui.row_footer`` (time, usage, switcher, buttons) and
``ui.row_cards`` (reminder, error, tool, MCP, hidden, notice and safety-net rows).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QTextCursor, QTextDocument

from ui.math_docs import markdown_sourced
from ui.math_spans import math_sources
from ui.rich_copy import needs_own_text, plain_range

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
LINE_BREAK = "\u2028"
"""A line break a muted piece made itself (a file name too wide for its line): left out of
copies, where the name is whole."""
BUBBLE_SHARE = 0.82
CODE_PIECE_LINES = 150
HIGHLIGHTS_PER_FRAME = 3
"""Code boxes coloured per painted frame (lexing costs ~1 ms a box; the rest wait a frame)."""
BELL = 18
HAS_MATH = "chime-math"
"""A prose document's property: it holds math drawn as images."""


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

    def shift(self, dx: int, dy: int) -> None:
        """Move its pieces and code boxes by (``dx``, ``dy``)."""
        for piece in self.pieces:
            piece.x += dx
            piece.y += dy
        for box in self.boxes:
            for rect in (box.rect, box.header, box.copy, box.body, box.scrollbar):
                if rect is not None:
                    rect.translate(dx, dy)

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
        text = plain_range(piece.doc, low - piece.base, high - piece.base, sources)
        return text.replace(LINE_BREAK, "") if piece.muted else text


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


def replace_rect(button: Button, rect: QRect) -> Button:
    return Button(button.name, button.text, rect, button.tip, button.enabled)


def stacked(docs: Sequence[QTextDocument], x: int, top: int, base: int, box: int) -> list[Piece]:
    """The pieces of one code box, one under the other, numbered on from ``base``."""
    pieces = []
    for number, doc in enumerate(docs):
        pieces.append(Piece(doc, x, top, base, doc.characterCount(), box, "\n" if number else ""))
        top += int(doc.size().height())
        base += doc.characterCount()
    return pieces
