"""A message row's body: its Markdown blocks as prose pieces and code boxes, a user message's
bubble, an answer's thinking block. No I/O; the footer is ``ui.row_footer``'s, the files line
``ui.row_files``'s.

A streamed answer keeps the blocks of its last layout, so a new token re-splits only the last
block (``ui.markdown_blocks.resplit``) and re-lays out only that block's documents.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QRect

from core.transcript.rows import TranscriptRow
from ui.markdown_blocks import Block, resplit, split_blocks
from ui.row_docs import RowDocs
from ui.row_files import files_line
from ui.row_layout import (
    BLOCK_GAP,
    BUBBLE_SHARE,
    CODE_PAD,
    GAP,
    HAS_MATH,
    PAD,
    SCROLLBAR,
    Button,
    CodeBox,
    Piece,
    RowLayout,
    stacked,
)
from ui.row_parts import INDENT, THINKING, header_rect, thinking_label, thinking_tip

# pyside6-lupdate reads translate("RowLayouts", …): the context of these words before the split
translate = QCoreApplication.translate


class MessageLayouts:
    """Lays out the bodies of user messages and answers (streamed or whole) with ``docs``."""

    def __init__(self, docs: RowDocs) -> None:
        self._docs = docs
        self._stream: tuple[str, list[Block]] = ("", [])

    def forget(self) -> None:
        """Drop the streamed answer's blocks (its documents are built again)."""
        self._stream = ("", [])

    def body(self, row: TranscriptRow, width: int, expanded: bool) -> tuple[RowLayout, int]:
        """The message's layout without its footer, and where the footer goes."""
        user = row.kind == "user"
        inner = max(80, int(width * BUBBLE_SHARE)) - 2 * PAD if user else width
        pieces, boxes, height, ideal = self._blocks(self._blocks_of(row), inner)
        layout = RowLayout(0, pieces, boxes)
        top = GAP
        if row.reasoning and not user:
            top = self._thinking(layout, row, width, top, expanded)
        if user and not pieces and row.files:  # files only: no empty bubble
            bottom = files_line(self._docs, layout, row, width, top)
        elif user:
            bubble = min(inner, max(ideal, 24)) + 2 * PAD
            left = width - bubble
            layout.shift(left + PAD, top + PAD)
            layout.card = QRect(left, top, bubble, height + 2 * PAD)
            bottom = layout.card.bottom() + 1
            if row.files:
                bottom = files_line(self._docs, layout, row, width, bottom + 4)
        else:
            layout.shift(0, top)
            bottom = top + height
        return layout, bottom

    def _thinking(
        self, layout: RowLayout, row: TranscriptRow, width: int, top: int, expanded: bool
    ) -> int:
        """The thinking block at ``top`` of an answer: its header button and, open, the thinking
        as the row's first piece (the answer's pieces are numbered on after it); returns where
        the answer begins."""
        text = thinking_label(row, expanded=expanded)
        rect = header_rect(text, self._docs.small_metrics).translated(0, top)
        tip = thinking_tip(expanded=expanded)
        layout.buttons.append(Button(THINKING, text, rect, tip))
        y = rect.bottom() + 1 + BLOCK_GAP
        if expanded:
            doc = self._docs.plain(row.reasoning, self._docs.fonts.small, max(80, width - INDENT))
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
            doc = self._docs.prose(block.text, width)
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
        small = self._docs.small_metrics
        wrap = self._docs.wrap_code
        header_h = small.height() + 10
        body_w = max(40, width - 2 * CODE_PAD)
        docs = self._docs.code(block, body_w)
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
        overflow = not wrap and content > body_w
        bottom = body.bottom() + 1 + CODE_PAD + (SCROLLBAR if overflow else 0)
        box = CodeBox(
            QRect(0, y, width, bottom - y),
            QRect(0, y, width, header_h),
            QRect(width - copy_w - 6, y + 4, copy_w, header_h - 8),
            block.language or translate("RowLayouts", "code"),
            body,
            content if not wrap else body_w,
            block.text,
            block.language,
        )
        if overflow:
            box.scrollbar = QRect(body.left(), bottom - SCROLLBAR - 2, body_w, SCROLLBAR - 2)
        return box, stacked(docs, body.left(), body.top(), base, index)
