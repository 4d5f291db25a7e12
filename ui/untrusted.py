"""The one way text Chime did not write reaches the screen: a model's answer, a file's name, a
session's title, an error's words, a command-line argument. No I/O.

Qt renders HTML wherever it may: ``QTextDocument.setMarkdown`` passes raw HTML through (an answer
saying "use the ``<title>`` tag" lost everything after "Use the"), and a ``QLabel`` or a tooltip
guesses rich text from the first ``<`` (``Qt.mightBeRichText``). So:

- ``set_markdown`` reads Markdown (GitHub's dialect: tables, task lists, strikethrough, web
  links) with raw HTML switched off: a tag, a comment or an entity-free ``<...>`` is text and is
  shown as the characters the model wrote. Markdown's own escapes and entities (``\\*``,
  ``&amp;``) keep their meaning; they are Markdown, not HTML, and hide nothing.
- ``plain`` makes a label show its text as it is (``Qt.PlainText``), never as HTML.
- ``literal`` is the text for a tooltip or a message box's informative text, places where Qt
  guesses: escaped and wrapped when Qt would take it for HTML, so it shows as written.

Must not: decide what text means (Markdown cut into blocks is ``ui.markdown_blocks``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText and convertFromPlainText live in QtGui
from PySide6.QtWidgets import QLabel

if TYPE_CHECKING:  # with the first Markdown shown: the labels before the first paint need none
    from PySide6.QtGui import QTextDocument

L = TypeVar("L", bound=QLabel)


def set_markdown(doc: QTextDocument, text: str) -> None:
    """``doc`` holds ``text`` read as Markdown, raw HTML shown as text."""
    doc.setMarkdown(text, _markdown())


@cache
def _markdown() -> QTextDocument.MarkdownFeature:
    """What Chime reads of Markdown: GitHub's dialect without its raw HTML."""
    from PySide6.QtGui import QTextDocument

    feature = QTextDocument.MarkdownFeature
    return feature.MarkdownDialectGitHub | feature.MarkdownNoHTML


def plain(label: L) -> L:
    """``label``, set to show its text as plain text whatever it holds."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def literal(text: str) -> str:
    """``text`` for a place where Qt guesses the format (a tooltip, a message box's informative
    text): unchanged when Qt takes it for plain text, else escaped and wrapped so it shows as
    written."""
    if not GuiQt.mightBeRichText(text):
        return text
    return GuiQt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpaceNormal)
