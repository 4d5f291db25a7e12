"""TeX math in a message's Markdown prose, told apart from the rest. Pure: no Qt, no I/O.

A model writes math the way LaTeX and most chat apps read it: inline ``$…$`` and ``\\(…\\)``,
display ``$$…$$`` and ``\\[…\\]``. ``split_math`` cuts a prose block into text and math spans;
their sources concatenate to the input (lossless), so what is not math stays exactly as written.

Choices (Pandoc's ``tex_math_dollars`` rules for ``$``, where dollars are most often money):
- an inline ``$`` opens only when the next character is not a space or a tab, and closes only at
  the next ``$`` (not backslashed), when that follows a character other than a space or a tab and
  is not followed by a digit; so "$5 and $10", "costs $5/$10" and "$5 and $10, and $x$" hold
  money, not math (but ``$x$``);
- ``$$`` opens display math, closed by the next ``$$``; ``\\(`` and ``\\[`` close at the next
  ``\\)`` and ``\\]``;
- math never holds an empty line (a paragraph ends it), and an empty body is no math (``$$``);
- a backslashed dollar (``\\$``) is text, and nothing inside a code span (a run of backticks up to
  the same run) is math.
"""

from __future__ import annotations

from typing import Literal

from core.frozen import frozen

SpanKind = Literal["text", "inline", "display"]
_PAIRS: dict[str, tuple[str, SpanKind]] = {
    "\\(": ("\\)", "inline"),
    "\\[": ("\\]", "display"),
    "$$": ("$$", "display"),
}


@frozen
class Span:
    """A piece of prose: text, or math with its ``tex`` (the source without its delimiters)."""

    kind: SpanKind
    source: str
    tex: str = ""


def may_hold_math(text: str) -> bool:
    """A cheap first look: ``text`` has a character math would need."""
    return "$" in text or "\\(" in text or "\\[" in text


def split_math(text: str) -> list[Span]:
    """``text`` cut into text and math spans (see the module docstring)."""
    if not may_hold_math(text):
        return [Span("text", text)] if text else []
    spans: list[Span] = []
    start = at = 0
    while at < len(text):
        found = _math_at(text, at)
        if found is None:
            at = _skip(text, at)
            continue
        end, span = found
        if start < at:
            spans.append(Span("text", text[start:at]))
        spans.append(span)
        start = at = end
    if start < len(text):
        spans.append(Span("text", text[start:]))
    return spans


def math_sources(text: str) -> list[str]:
    """The sources of the math spans of ``text``, in order (what a rendered one copies as)."""
    return [span.source for span in split_math(text) if span.kind != "text"]


def _skip(text: str, at: int) -> int:
    """Where to look next after ``text[at]``: past an escape or a whole code span."""
    char = text[at]
    if char == "\\":
        return at + 2
    if char == "`":
        run = _run(text, at, "`")
        close = text.find("`" * run, at + run)
        while close >= 0 and _run(text, close, "`") != run:
            close = text.find("`" * run, close + _run(text, close, "`"))
        return close + run if close >= 0 else at + run
    return at + 1


def _run(text: str, at: int, char: str) -> int:
    end = at
    while end < len(text) and text[end] == char:
        end += 1
    return end - at


def _math_at(text: str, at: int) -> tuple[int, Span] | None:
    """(the end, the span) of math opening at ``at``; None when none opens there."""
    for opener, (closer, kind) in _PAIRS.items():
        if text.startswith(opener, at):
            close = text.find(closer, at + 2)
            body = text[at + 2 : close] if close >= 0 else ""
            if close < 0 or not body.strip() or "\n\n" in body.replace("\r", ""):
                return None
            end = close + 2
            return end, Span(kind, text[at:end], body.strip())
    if text[at] == "$":
        return _inline_dollar(text, at)
    return None


def _inline_dollar(text: str, at: int) -> tuple[int, Span] | None:
    if at + 1 >= len(text) or text[at + 1] in " \t\n$":
        return None
    close = at + 1
    while True:
        close = text.find("$", close + 1)
        if close < 0 or "\n\n" in text[at:close]:
            return None
        if text[close - 1] != "\\":
            break
    followed = close + 1 < len(text) and text[close + 1].isdigit()
    if text[close - 1] in " \t\n" or followed:
        return None
    return close + 1, Span("inline", text[at : close + 1], text[at + 1 : close])
