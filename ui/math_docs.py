"""Math in a prose block's document: its TeX drawn as images in the text, its source kept for
copying. No I/O.

``with_math`` replaces each math span of a block's Markdown (``ui.math_spans``) by an image
reference ``![math](math:N)``, N counting the block's math spans in order, or, where the renderer
cannot draw it (``ui.math_render``), by a code span of its source, so it shows as written in code
style and Markdown's escapes cannot eat its backslashes (``\\,`` once vanished from display math).
``install`` gives the document the images at their size, each centred on the line's math axis,
and centres a paragraph that holds nothing but display math. A copy gives back each image's TeX
source (``math_sources``) in place of the image.
"""

from __future__ import annotations

import re

from PySide6.QtGui import Qt, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument

from core.frozen import frozen
from ui.math_render import MathImage, render
from ui.math_spans import split_math

PREFIX = "math:"
OBJECT = "\ufffc"
"""The character Qt puts where an image is in a document's text."""
_REFERENCE = re.compile(r"!\[[^\]]*\]\(<?math:(\d+)>?\)")


@frozen
class MathStyle:
    """How math is drawn: the text's pixel size and x-height, its colour, the pixel ratio."""

    pixel_size: float
    x_height: float
    color: str
    ratio: float


def with_math(markdown: str, style: MathStyle) -> tuple[str, dict[str, MathImage], set[str]]:
    """(the Markdown with math as image references or code spans, the images by name, the
    names of display math)."""
    parts: list[str] = []
    images: dict[str, MathImage] = {}
    display: set[str] = set()
    number = 0
    for span in split_math(markdown):
        if span.kind == "text":
            parts.append(span.source)
            continue
        name = f"{PREFIX}{number}"
        number += 1
        image = render(
            span.tex,
            display=span.kind == "display",
            pixel_size=style.pixel_size,
            color=style.color,
            x_height=style.x_height,
            ratio=style.ratio,
        )
        if image is None:
            parts.append(code_span(span.source))
            continue
        images[name] = image
        if span.kind == "display":
            display.add(name)
        parts.append(f"![math]({name})")
    return "".join(parts), images, display


def code_span(source: str) -> str:
    """``source`` as a Markdown code span (fenced by more backticks than any run inside it)."""
    longest = max((len(run) for run in re.findall(r"`+", source)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if source.startswith("`") or source.endswith("`") else ""
    return f"{fence}{pad}{source}{pad}{fence}"


def install(doc: QTextDocument, images: dict[str, MathImage], display: set[str]) -> None:
    """Give ``doc`` its math images (see the module docstring)."""
    from PySide6.QtCore import QUrl  # with the first math (its enums cost a start)

    for name, image in images.items():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image.image)
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            fmt = fragment.charFormat()
            name = fmt.toImageFormat().name() if fmt.isImageFormat() else ""
            if name in images:
                image_format = fmt.toImageFormat()
                image_format.setWidth(images[name].width)
                image_format.setHeight(images[name].height)
                image_format.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
                cursor.setPosition(fragment.position())
                cursor.setPosition(fragment.position() + 1, QTextCursor.MoveMode.KeepAnchor)
                cursor.setCharFormat(image_format)
                if name in display and block.text().strip() == OBJECT:
                    centred = QTextBlockFormat()
                    centred.setAlignment(Qt.AlignmentFlag.AlignHCenter)
                    cursor.mergeBlockFormat(centred)
            iterator += 1
        block = block.next()


def object_texts(doc: QTextDocument, low: int, high: int, sources: list[str]) -> list[str]:
    """What each object character in positions ``[low, high)`` copies as, in order: a math
    image its source, any other image nothing."""
    texts: list[str] = []
    block = doc.findBlock(low)
    while block.isValid() and block.position() < high:
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            position = fragment.position()
            if low <= position < high and fragment.text() == OBJECT:
                texts.append(_source_of(fragment.charFormat(), sources))
            iterator += 1
        block = block.next()
    return texts


def _source_of(fmt: QTextCharFormat, sources: list[str]) -> str:
    name = fmt.toImageFormat().name() if fmt.isImageFormat() else ""
    if name.startswith(PREFIX) and name[len(PREFIX) :].isdigit():
        number = int(name[len(PREFIX) :])
        return sources[number] if number < len(sources) else ""
    return ""


def sourced(text: str, objects: list[str]) -> str:
    """``text`` with its object characters replaced, in order, by ``objects``."""
    if OBJECT not in text:
        return text
    pieces = text.split(OBJECT)
    filled = [pieces[0]]
    for number, rest in enumerate(pieces[1:]):
        filled.append((objects[number] if number < len(objects) else "") + rest)
    return "".join(filled)


def markdown_sourced(markdown: str, sources: list[str]) -> str:
    """Markdown Qt wrote for a selection, with each math image reference back to its source."""

    def source(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return sources[number] if number < len(sources) else match.group(0)

    return _REFERENCE.sub(source, markdown)
