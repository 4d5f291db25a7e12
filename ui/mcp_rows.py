"""The parts of an MCP call's transcript row that are not plain text: its images (thumbnails of
files the session keeps like attachments) and its resource links. No I/O: the pictures come
from ``Thumbnails``, a function the app supplies (``app.tool_images``).

Nothing of a server's text is read as HTML: images and links are inserted through
``QTextCursor`` (an image by its resource name, a link as an anchor on plain text), so a name
holding markup is shown as written. A link is a link only: clicking it asks first, like every
link in the transcript (``ui.window_parts.ask_open_link``), and only web and e-mail links open.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import (
    QColor,
    QFont,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextImageFormat,
)

from core.events import Attachment, ToolLink
from core.visible_text import visible_name
from ui.thumbnails import Thumbnails

IMAGE_URL = "chime-tool-image:"


def images_doc(
    images: Sequence[Attachment], thumbnails: Thumbnails, font: QFont
) -> tuple[QTextDocument, str]:
    """A document of the images side by side (a named placeholder for one that cannot be
    read) and its text for a copy."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    cursor = QTextCursor(doc)
    copied: list[str] = []
    for number, image in enumerate(images):
        name = visible_name(image.name)
        copied.append(f"[{name}]")
        if number:
            cursor.insertText("  ")
        picture = thumbnails(image)
        if picture is None or picture.isNull():
            cursor.insertText(f"[{name}]")
            continue
        from PySide6.QtCore import QUrl  # with the first picture (its enums cost a start)

        url = QUrl(f"{IMAGE_URL}{image.sha256}")
        doc.addResource(QTextDocument.ResourceType.ImageResource, url, picture)
        shown = QTextImageFormat()
        shown.setName(url.toString())
        shown.setWidth(picture.width())
        shown.setHeight(picture.height())
        shown.setToolTip(name)
        cursor.insertImage(shown)
    return doc, " ".join(copied)


def links_doc(links: Sequence[ToolLink], font: QFont, color: QColor) -> QTextDocument:
    """A document of the links, one a line: the name as a link to its address, the address
    after it (so its whole target is seen before anything is opened)."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    cursor = QTextCursor(doc)
    for number, link in enumerate(links):
        if number:
            cursor.insertBlock()
        anchor = QTextCharFormat()
        anchor.setAnchor(True)
        anchor.setAnchorHref(link.uri)
        anchor.setFontUnderline(True)
        anchor.setForeground(color)
        cursor.insertText(visible_name(link.name) or link.uri, anchor)
        cursor.insertText(f"  {link.uri}", QTextCharFormat())
    return doc
