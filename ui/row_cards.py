"""The rows that are not messages: the reminder card, a failed turn's error card, tool and MCP
cards, the time-context card, the hidden exchange's line, notices and the safety net's line.
No I/O.

Each is a card (or a muted line) of plain text documents. A tool card shows its title, "▸" when
collapsed and "▾" with its arguments and result under it when expanded; an MCP card shows its
images and links collapsed too. The buttons an error, hidden or safety-net row paints are the
verbs the row offers (``core.transcript.verbs.offered``), nothing else.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtGui import QFont

from core.transcript.rows import TranscriptRow, reminder_text
from core.transcript.verbs import Verb, offered
from ui.mcp_rows import images_doc, links_doc
from ui.row_docs import RowDocs, set_width
from ui.row_footer import with_footer
from ui.row_layout import BELL, GAP, PAD, Button, Piece, RowLayout
from ui.row_parts import set_it_label, set_it_tip, unset_line
from ui.thumbnails import Thumbnails

# pyside6-lupdate reads translate("RowLayouts", …): the context of these words before the split
translate = QCoreApplication.translate


def reminder(
    docs: RowDocs, row: TranscriptRow, width: int, caption: str, time: str, *, writable: bool
) -> RowLayout:
    top = GAP
    text_left = PAD + BELL + 8
    caption_doc = docs.plain(
        caption or translate("RowLayouts", "Reminder"), docs.fonts.caption, width - text_left - PAD
    )
    caption_piece = Piece(caption_doc, text_left, top + PAD, 0, 0)
    doc = docs.plain(reminder_text(row), docs.fonts.body, width - text_left - PAD)
    y = top + PAD + int(caption_doc.size().height()) + 4
    piece = Piece(doc, text_left, y, 0, doc.characterCount(), markdown=reminder_text(row))
    layout = RowLayout(0, [piece], caption=caption_piece, bell=QRect(PAD, top + PAD, BELL, BELL))
    layout.card = QRect(0, top, width, y + piece.height + PAD - top)
    bottom = layout.card.bottom() + 1
    return with_footer(docs, layout, row, width, bottom, time, right=False, writable=writable)


def _error_words() -> dict[Verb, tuple[str, str]]:
    """The error card's buttons: (label, tip) of each verb it may offer."""
    return {
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


def error(docs: RowDocs, row: TranscriptRow, width: int, *, writable: bool) -> RowLayout:
    top = GAP
    inner = width - 2 * PAD
    caption_doc = docs.plain(
        translate("RowLayouts", "Something went wrong"), docs.fonts.caption, inner
    )
    caption = Piece(caption_doc, PAD, top + PAD, 0, 0)
    y = top + PAD + int(caption_doc.size().height()) + 4
    doc = docs.plain(row.text, docs.fonts.body, inner)
    piece = Piece(doc, PAD, y, 0, doc.characterCount(), markdown=row.text)
    y += piece.height + 8
    small = docs.small_metrics
    x, buttons = PAD, []
    words = _error_words()
    choices = [
        (verb, *words[verb]) for verb in offered(row.verbs, writable=writable) if verb in words
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


def tool(docs: RowDocs, row: TranscriptRow, width: int, expanded: bool) -> RowLayout:
    marker = "▾" if expanded else "▸"
    text = f"{marker}  {row.title}"
    if expanded:
        return card_text(docs, text, width, docs.fonts.small, detail=row.detail)
    return card_text(docs, text, width, docs.fonts.small)


def mcp(
    docs: RowDocs, row: TranscriptRow, width: int, expanded: bool, thumbnails: Thumbnails
) -> RowLayout:
    """An MCP call: its title (server, tool, state), then its images and links, shown
    collapsed too; expanded, its arguments and result under them."""
    layout = tool(docs, row, width, expanded)
    call = row.call
    if call is None or not (call.images or call.links) or layout.card is None:
        return layout
    y = layout.card.bottom() + 1 - PAD
    base = layout.length
    if call.images:
        doc, copied = images_doc(call.images, thumbnails, docs.fonts.small)
        set_width(doc, width - 2 * PAD)
        layout.pieces.append(Piece(doc, PAD, y + 6, base, doc.characterCount(), -1, "\n", copied))
        y += 6 + layout.pieces[-1].height
        base = layout.length
    if call.links:
        doc = links_doc(call.links, docs.fonts.small, docs.surfaces.link)
        set_width(doc, width - 2 * PAD)
        text = "\n".join(f"{link.name} {link.uri}" for link in call.links)
        layout.pieces.append(Piece(doc, PAD, y + 6, base, doc.characterCount(), -1, "\n", text))
        y += 6 + layout.pieces[-1].height
    layout.card = QRect(0, layout.card.top(), width, y + PAD - layout.card.top())
    layout.height = layout.card.bottom() + 1 + GAP
    return layout


def card_text(
    docs: RowDocs, text: str, width: int, font: QFont, *, muted: bool = False, detail: str = ""
) -> RowLayout:
    top = GAP
    doc = docs.plain(text, font, width - 2 * PAD)
    pieces = [Piece(doc, PAD, top + PAD, 0, doc.characterCount(), markdown=text, muted=muted)]
    y = top + PAD + pieces[0].height
    if detail:
        more = docs.plain(detail, docs.fonts.mono, width - 2 * PAD)
        base = doc.characterCount()
        pieces.append(Piece(more, PAD, y + 4, base, more.characterCount(), -1, "\n", detail))
        y += 4 + pieces[1].height
    layout = RowLayout(y + PAD + GAP, pieces)
    layout.card = QRect(0, top, width, y + PAD - top)
    return layout


def _muted_line(docs: RowDocs, text: str, width: int, button_w: int) -> tuple[RowLayout, Piece]:
    """A muted line of notice text with room for a button ``button_w`` wide after it."""
    small = docs.small_metrics
    doc = docs.plain(text, docs.fonts.notice, max(80, width - button_w - 12))
    piece = Piece(doc, 0, GAP, 0, doc.characterCount(), markdown=text, muted=True)
    height = max(piece.height, small.height() + 8)
    return RowLayout(GAP + height + GAP, [piece]), piece


def hidden(docs: RowDocs, row: TranscriptRow, width: int, *, writable: bool) -> RowLayout:
    """A hidden exchange: one muted line with its first words and a Show button."""
    small = docs.small_metrics
    show = translate("RowLayouts", "Show")
    shown = Verb.SHOW in offered(row.verbs, writable=writable)
    button_w = small.horizontalAdvance(show) + 22 if shown else 0
    text = translate(
        "RowLayouts", "1 hidden message: “{words}” — left out of what the model sees"
    ).format(words=row.text)
    layout, _piece = _muted_line(docs, text, width, button_w)
    if shown:
        rect = QRect(width - button_w, GAP, button_w, small.height() + 8)
        tip_text = translate(
            "RowLayouts",
            "Bring this message and its answer back into the view and the model's history",
        )
        layout.buttons = [Button(Verb.SHOW, show, rect, tip_text)]
    return layout


def unset(docs: RowDocs, row: TranscriptRow, width: int, *, writable: bool) -> RowLayout:
    """The safety net's quiet line under an answer, with "Set it" until it is set."""
    small = docs.small_metrics
    label = set_it_label()
    shown = Verb.SET_REMINDER in offered(row.verbs, writable=writable)
    button_w = small.horizontalAdvance(label) + 22 if shown else 0
    layout, piece = _muted_line(docs, unset_line(row), width, button_w)
    if shown:
        left = min(width - button_w, int(piece.doc.idealWidth()) + 12)
        rect = QRect(left, GAP, button_w, small.height() + 8)
        layout.buttons = [Button(Verb.SET_REMINDER, label, rect, set_it_tip(row))]
    return layout


def notice(docs: RowDocs, text: str, width: int) -> RowLayout:
    doc = docs.plain(text, docs.fonts.notice, width)
    piece = Piece(doc, 0, GAP, 0, doc.characterCount(), markdown=text, muted=True)
    return RowLayout(GAP + piece.height + GAP, [piece])
