"""Syntax highlighting of code blocks: Pygments tokens as Qt character formats. No I/O.

Pygments (a maintained highlighter that knows some 500 languages) is imported on the first code
block that names a language, never before the first paint. Its light style is ``default`` and its
dark style ``github-dark``; every token colour is moved towards the text colour until it reaches
WCAG AA contrast on the code box's background (``ui.theme.readable``), so highlighting never
costs legibility. A block whose language Pygments does not know (or that names none) is shown in
the plain monospace text colour; nothing is guessed from the code.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextDocument

from ui.theme import readable

LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"
MAX_HIGHLIGHTED_CHARS = 40_000
"""Longer code is shown plain (lexing is linear, but a stream re-lays its last piece often)."""


@lru_cache(maxsize=64)
def _lexer(language: str) -> Any:
    """The Pygments lexer for a fence's language name (None when it names none Pygments knows)."""
    if not language:
        return None
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language.lower(), stripnl=False, ensurenl=False, tabsize=0)
    except ClassNotFound:
        return None


def knows(language: str) -> bool:
    """Pygments has a lexer for this fence language."""
    return _lexer(language) is not None


def tokens(code: str, language: str) -> Iterator[tuple[Any, str]]:
    """(token type, text) pieces covering ``code`` exactly (one plain piece when not lexed)."""
    lexer = _lexer(language) if len(code) <= MAX_HIGHLIGHTED_CHARS else None
    if lexer is None:
        yield None, code
        return
    yield from lexer.get_tokens(code)


@lru_cache(maxsize=8)
def _style(dark: bool) -> Any:
    from pygments.styles import get_style_by_name

    return get_style_by_name(DARK_STYLE if dark else LIGHT_STYLE)


class CodeFormats:
    """Character formats per token type for one scheme, readable on ``background``."""

    def __init__(self, dark: bool, font: QFont, text: QColor, background: QColor) -> None:
        self._dark = dark
        self._text = text
        self._background = background
        self._plain = QTextCharFormat()
        self._plain.setFont(font)
        self._plain.setForeground(text)
        self._cache: dict[Any, QTextCharFormat] = {}
        self._by_style: dict[tuple[str, bool, bool], QTextCharFormat] = {}

    def plain(self) -> QTextCharFormat:
        return self._plain

    def of(self, token: Any) -> QTextCharFormat:
        """The format of a token type (its colour readable on the code background)."""
        if token is None:
            return self._plain
        cached = self._cache.get(token)
        if cached is None:
            cached = self._cache[token] = self._build(token)
        return cached

    def _build(self, token: Any) -> QTextCharFormat:
        """One format object per distinct look, so runs of one look are inserted together."""
        style = _style(self._dark).style_for_token(token)
        look = (str(style.get("color") or ""), bool(style.get("bold")), bool(style.get("italic")))
        if look == ("", False, False):
            return self._plain
        shared = self._by_style.get(look)
        if shared is not None:
            return shared
        fmt = QTextCharFormat(self._plain)
        color, bold, italic = look
        if color:
            fmt.setForeground(readable(QColor("#" + color), (self._background,), self._text))
        if bold:
            fmt.setFontWeight(QFont.Weight.Bold)
        if italic:
            fmt.setFontItalic(True)
        self._by_style[look] = fmt
        return fmt

    def color_of(self, token: Any) -> QColor:
        """The foreground a token type is drawn in (the contrast test reads it)."""
        return self.of(token).foreground().color()


def runs_by_lines(code: str, language: str, lines_per_piece: int) -> list[list[tuple[Any, str]]]:
    """The code's (token type, text) runs, cut into pieces of ``lines_per_piece`` lines (the line
    break between two pieces belongs to neither): one list of runs per piece. Lexed once, so a
    string or comment spanning pieces keeps its colour."""
    pieces: list[list[tuple[Any, str]]] = [[]]
    lines = 0
    for token, text in tokens(code, language):
        for number, part in enumerate(text.split("\n")):
            if number:
                lines += 1
                if lines % lines_per_piece == 0:
                    pieces.append([])
                else:
                    pieces[-1].append((token, "\n"))
            if part:
                pieces[-1].append((token, part))
    return pieces


def fill_runs(doc: QTextDocument, runs: list[tuple[Any, str]], formats: CodeFormats) -> None:
    """Append the runs to ``doc``, each in its token's format (the plain text is the code)."""
    cursor = QTextCursor(doc)
    cursor.setCharFormat(formats.plain())
    pending: list[str] = []
    current = formats.plain()
    for token, text in runs:
        fmt = formats.of(token)
        if fmt is not current and pending:
            cursor.insertText("".join(pending), current)
            pending = []
        current = fmt
        pending.append(text)
    if pending:
        cursor.insertText("".join(pending), current)


def style_token_types(dark: bool) -> list[Any]:
    """Every token type the scheme's style colours (for the contrast test)."""
    return [token for token, style in _style(dark) if style.get("color")]
