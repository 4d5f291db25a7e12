"""The files attached to a user message, under its bubble, right-aligned: the pictures of its
images, then one line naming every file ("plan.md · 2 KB   photo.png · 1.2 MB"), each after the
app's own paperclip icon (an SVG, not the 📎 character a desktop without an emoji font draws as
a box). It is a muted piece of the row after the message's own text (selectable, copied with it);
its lines break between files only. A message of files only has no bubble, just these. No I/O: the pictures come from ``Thumbnails`` (``ui.mcp_rows``; the app reads
and scales them in the background, ``app.tool_images``).

Each picture and each name is a link to ``chime-attachment:<sha256>``: a click (or the row's
context menu, "Open …") asks the window to open the file (``MainWindow.ask_open_link``, then
``app.attachment_open``). An image whose stored file is missing or is no picture (the thumbnails
answer a null image) is named with "(missing or damaged)" after its size; one not read yet is
named only, and its picture appears when it arrives. Copying the line gives the names and sizes.
Names are inserted as plain text (``core.visible_text``), never read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QRect, QSize, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QImage,
    QPainter,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextImageFormat,
)

from core.events import Attachment
from core.transcript.rows import TranscriptRow
from core.visible_text import visible_name
from ui.attachment_links import attachment_sha, attachment_url, find_file
from ui.attachment_strip import size_text
from ui.icons import tinted
from ui.row_docs import RowDocs, set_width
from ui.row_layout import BUBBLE_SHARE, LINE_BREAK, Piece, RowLayout
from ui.thumbnails import Thumbnails

SHOWN = 160
"""A message picture's largest side on screen, in pixels."""
CLIP_URL = "chime-paperclip:"
GAP = "   "
"""Between two files on a line."""

translate = QCoreApplication.translate


def files_line(docs: RowDocs, layout: RowLayout, row: TranscriptRow, width: int, top: int) -> int:
    """The attached files under the bubble, right-aligned, as a muted piece after the message's
    own text; returns its bottom."""
    small, color, ratio = docs.fonts.small, docs.surfaces.muted_text, docs.pixel_ratio()
    widest = int(width * BUBBLE_SHARE)
    doc, text = files_doc(row.files, docs.thumbnails, small, color, ratio, widest)
    set_width(doc, widest)
    shown = min(int(doc.idealWidth()) + 1, widest)
    set_width(doc, shown)  # right-aligned in its own width
    piece = Piece(doc, width - shown, top, layout.length, doc.characterCount(), muted=True)
    piece.joiner, piece.markdown = ("\n" if layout.pieces else ""), text
    layout.pieces.append(piece)
    return top + piece.height


def link_tip(link: str, files: Sequence[Attachment]) -> str:
    """The tooltip of a link in a row: "Open photo.png" for one of its ``files``, else the
    link's target."""
    found = find_file(files, attachment_sha(link)) if attachment_sha(link) else None
    return _open_tip(found) if found is not None else link


def _open_tip(file: Attachment) -> str:
    return translate("RowFiles", "Open {name}").format(name=visible_name(file.name))


def file_words(file: Attachment, broken: bool) -> str:
    """ "photo.png · 1.2 MB", with the mark of a picture that cannot be shown."""
    words = f"{visible_name(file.name)} · {size_text(file.size)}"
    if broken:
        words += " " + translate("RowFiles", "(missing or damaged)")
    return words


def files_doc(
    files: Sequence[Attachment],
    thumbnails: Thumbnails,
    font: QFont,
    color: QColor,
    ratio: float,
    width: int,
) -> tuple[QTextDocument, str]:
    """The document of ``files`` (right-aligned, its lines of names at most ``width`` wide; its
    text width is left to the caller) and the text a copy of it gives."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    cursor = QTextCursor(doc)
    right = QTextBlockFormat()
    right.setAlignment(Qt.AlignmentFlag.AlignRight)
    cursor.setBlockFormat(right)
    pictures = {f.sha256: thumbnails(f) for f in files if f.media_type.startswith("image/")}
    shown = [(f, p) for f in files if (p := pictures.get(f.sha256)) is not None and not p.isNull()]
    for number, (file, picture) in enumerate(shown):
        if number:
            cursor.insertText("  ")
        _insert_picture(doc, cursor, file, picture, ratio)
    if shown:
        cursor.insertBlock(right)
    broken = {sha for sha, picture in pictures.items() if picture is not None and picture.isNull()}
    clip = _paperclip(font, color, ratio)
    return doc, _insert_names(doc, cursor, files, broken, clip, width)


def _insert_names(
    doc: QTextDocument,
    cursor: QTextCursor,
    files: Sequence[Attachment],
    broken: set[str],
    clip: QImage,
    width: int,
) -> str:
    """Each file's paperclip and words at ``cursor``, as links, in lines at most ``width`` wide
    (a line of its own for a file wider than that); returns their copied text.

    The lines are made here, not by Qt: Qt would break a line between a paperclip (an object)
    and its name, so a name too wide for its line is broken here too (``_pieces``)."""
    doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(CLIP_URL), clip)
    icon = QTextImageFormat()
    icon.setName(CLIP_URL)
    icon.setWidth(clip.width() / clip.devicePixelRatio())
    icon.setHeight(clip.height() / clip.devicePixelRatio())
    icon.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
    metrics = QFontMetricsF(doc.defaultFont())
    words = [file_words(file, file.sha256 in broken) for file in files]
    advance = [icon.width() + metrics.horizontalAdvance(text) for text in words]
    gap, used = metrics.horizontalAdvance(GAP), 0.0
    for number, file in enumerate(files):
        if number and used + gap + advance[number] > width:
            cursor.insertBlock(cursor.blockFormat())
            used = 0.0
        elif number:
            cursor.insertText(GAP, QTextCharFormat())
            used += gap
        cursor.insertImage(icon)
        pieces = _pieces(words[number], width - icon.width(), width, metrics)
        cursor.insertText(LINE_BREAK.join(pieces).replace(" ", "\u00a0"), _link(file))
        used = used + advance[number] if len(pieces) == 1 else width  # a broken name: line ends
    return GAP.join(words)


def _pieces(text: str, first: float, room: float, metrics: QFontMetricsF) -> list[str]:
    """``text`` in pieces that fit: the first at most ``first`` wide, the others ``room`` (each
    of one character at least), cut after a space where the piece has one."""
    pieces: list[str] = []
    start, limit = 0, first
    while start < len(text):
        end = start + 1
        while end < len(text) and metrics.horizontalAdvance(text[start : end + 1]) <= limit:
            end += 1
        space = text.rfind(" ", start + 1, end)
        if end < len(text) and space > start:
            end = space + 1
        pieces.append(text[start:end])
        start, limit = end, room
    return pieces


def _link(file: Attachment) -> QTextCharFormat:
    link = QTextCharFormat()
    link.setAnchor(True)
    link.setAnchorHref(attachment_url(file))
    link.setToolTip(_open_tip(file))
    return link


def _insert_picture(
    doc: QTextDocument, cursor: QTextCursor, file: Attachment, picture: QImage, ratio: float
) -> None:
    """The picture at most ``SHOWN`` a side on screen, with as many of its pixels as the
    screen's ``ratio`` can show (never more than it has)."""
    shown = picture.size()
    if shown.width() > SHOWN or shown.height() > SHOWN:
        shown = shown.scaled(QSize(SHOWN, SHOWN), Qt.AspectRatioMode.KeepAspectRatio)
    pixels = (shown * ratio).boundedTo(picture.size())
    if pixels != picture.size():
        picture = picture.scaled(
            pixels, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    url = QUrl(f"chime-picture:{file.sha256}")
    doc.addResource(QTextDocument.ResourceType.ImageResource, url, picture)
    image = QTextImageFormat()
    image.setName(url.toString())
    image.setWidth(shown.width())
    image.setHeight(shown.height())
    image.setAnchor(True)
    image.setAnchorHref(attachment_url(file))
    image.setToolTip(_open_tip(file))
    cursor.insertImage(image)


def _paperclip(font: QFont, color: QColor, ratio: float) -> QImage:
    """The paperclip at the line's height in ``color``, with a space's room after it (so the
    line copies without a leading space)."""
    metrics = QFontMetrics(font)
    side = metrics.height()
    gap = metrics.horizontalAdvance(" ")
    image = QImage(round((side + gap) * ratio), round(side * ratio), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    image.setDevicePixelRatio(ratio)
    painter = QPainter(image)
    tinted("paperclip", color, side, ratio).paint(painter, QRect(0, 0, side, side))
    painter.end()
    return image
