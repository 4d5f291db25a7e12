"""A message's footer line: its note (time, "Queued", "Answering…", the turn's usage), its
version switcher "‹ 2/3 ›" and its action buttons. No I/O.

The line is always reserved, so nothing moves when the buttons show (on hover or keyboard focus);
on the right under the user's messages, on the left under answers. When the buttons do not fit
beside the note and the switcher they get a line of their own under it (narrow windows). Which
buttons a row offers is ``core.transcript.verbs``' one decision (``ui.row_actions`` words it).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QRect, Qt

from core.transcript.rows import TranscriptRow
from core.transcript.verbs import Verb, offered
from ui.row_actions import RowAction, footer_actions, label, tip
from ui.row_docs import RowDocs
from ui.row_layout import GAP, Button, RowLayout, replace_rect
from ui.transcript_rows import first_text_wait, thought_seconds, usage_numbers

# pyside6-lupdate reads translate("RowLayouts", …): the context of these words before the split
translate = QCoreApplication.translate


def with_footer(
    docs: RowDocs,
    layout: RowLayout,
    row: TranscriptRow,
    width: int,
    bottom: int,
    time: str,
    *,
    right: bool,
    writable: bool,
) -> RowLayout:
    """``layout`` with the footer line under ``bottom``: note, switcher and buttons, on the
    right for the user's messages; the buttons on a line of their own when they do not fit."""
    small = docs.small_metrics
    line = small.height() + 8
    top = bottom + 2
    note = _footer_note(row, time)  # cut with "…" where the column is too narrow
    note = small.elidedText(note, Qt.TextElideMode.ElideRight, width - 4)
    note_w = small.horizontalAdvance(note) + 4
    switcher = _switcher(docs, row, top + 2, line - 4, writable)
    switcher_w = switcher[-1].rect.right() + 1 if switcher else 0
    actions = footer_actions(row.verbs, writable=writable)
    buttons = _footer_buttons(docs, actions, top + 2, line - 4)
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
        layout.switcher_rect = QRect(first.right() + 1, top, last.left() - first.right() - 1, line)
    layout.footer = QRect(0, top, width, line + dy)
    layout.footer_text = note
    layout.footer_text_rect = QRect(note_x, top, note_w, line)
    layout.height = layout.footer.bottom() + 1 + GAP
    return layout


def _footer_note(row: TranscriptRow, time: str) -> str:
    if row.kind == "streaming":
        return translate("RowLayouts", "Answering…")
    if row.queued:
        return translate("RowLayouts", "Queued — sent when the answer above is done")
    if row.usage is not None and row.usage.reported:
        return " · ".join(part for part in (time, usage_text(row)) if part)
    return time


def usage_text(row: TranscriptRow) -> str:
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
        text += " · " + translate("RowLayouts", "thought for {seconds} s").format(seconds=thought)
    if waited := first_text_wait(row.usage):
        text += " · " + translate("RowLayouts", "first word after {seconds} s").format(
            seconds=waited
        )
    return text


def _switcher(
    docs: RowDocs, row: TranscriptRow, top: int, height: int, writable: bool
) -> list[Button]:
    """The version switcher's ‹ and › buttons from x = 0 (its "2/3" goes between them)."""
    count = row.version[1]
    if count < 2:
        return []
    metrics = docs.small_metrics
    arrow = metrics.horizontalAdvance("‹") + 14
    middle = metrics.horizontalAdvance(f"{count}/{count}") + 10
    verbs = offered(row.verbs, writable=writable)
    return [
        Button(
            Verb.PREVIOUS_VERSION,
            "‹",
            QRect(0, top, arrow, height),
            translate("RowLayouts", "Previous version"),
            enabled=Verb.PREVIOUS_VERSION in verbs,
        ),
        Button(
            Verb.NEXT_VERSION,
            "›",
            QRect(arrow + middle, top, arrow, height),
            translate("RowLayouts", "Next version"),
            enabled=Verb.NEXT_VERSION in verbs,
        ),
    ]


def _footer_buttons(
    docs: RowDocs, actions: Sequence[RowAction], top: int, height: int
) -> list[Button]:
    """The actions' buttons side by side from x = 0 (a Copy button is wide enough to say
    "Copied ✓")."""
    metrics = docs.small_metrics
    copied = metrics.horizontalAdvance(translate("RowLayouts", "Copied ✓"))
    buttons, x = [], 0
    for action in actions:
        text = label(action)
        width = max(metrics.horizontalAdvance(text), copied if action.name == "copy" else 0) + 18
        buttons.append(Button(action.name, text, QRect(x, top, width, height), tip(action)))
        x += width + 8
    return buttons
