"""The files line of a user message: its attachments' names and sizes under the bubble. No I/O.

One small muted line, right-aligned ("📎 plan.md · 2 KB   📎 photo.png · 1.2 MB"), a piece of the
row after the message's own text (selectable, copied with it); it wraps between files only. A
message of files only has no bubble, just this line.
"""

from __future__ import annotations

from core.transcript.rows import TranscriptRow
from core.visible_text import visible_name
from ui.attachment_strip import size_text
from ui.row_docs import RowDocs
from ui.row_layout import BUBBLE_SHARE, Piece, RowLayout


def files_line(docs: RowDocs, layout: RowLayout, row: TranscriptRow, width: int, top: int) -> int:
    """The attached files' names and sizes under the bubble, right-aligned, as a muted piece
    after the message's own text; returns its bottom."""
    items = [f"📎 {visible_name(file.name)} · {size_text(file.size)}" for file in row.files]
    text = "   ".join(items)
    unbroken = "   ".join(item.replace(" ", "\u00a0") for item in items)  # wrap between files
    doc = docs.plain(unbroken, docs.fonts.small, int(width * BUBBLE_SHARE))
    shown = min(int(doc.idealWidth()) + 1, int(width * BUBBLE_SHARE))
    piece = Piece(doc, width - shown, top, layout.length, doc.characterCount(), muted=True)
    piece.joiner, piece.markdown = ("\n" if layout.pieces else ""), text
    layout.pieces.append(piece)
    return top + piece.height
