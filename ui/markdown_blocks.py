"""Markdown source cut into the blocks a message row lays out. Pure: no Qt, no I/O.

A message (user text, an answer, an answer still streaming) is shown as a column of blocks: prose
(rendered by Qt's Markdown reader, a paragraph or so each) and fenced code blocks (drawn by the
transcript as boxes of their own, with a language label, a Copy button and horizontal scrolling).
Cutting is line-based and lossless: the blocks' ``source`` texts concatenated are the whole input,
so a re-cut of a longer text agrees with what was shown.

Choices (CommonMark where it speaks, the rest written here):
- Lines end at ``\\n`` only (as in Markdown; a ``\\u2028`` or ``\\u2029`` inside a line is text).
- A fence opens on a line of three or more backticks or tildes indented by at most three spaces
  (a backtick fence's info string contains no backtick); it closes on a line of the same character,
  at least as long, indented by at most three spaces, with nothing but spaces after it. An unclosed
  fence runs to the end of the text, so a code block that is still streaming is already one.
- The code is the lines between the fences, with the opening fence's indentation removed from each
  line and without the last line break: exactly what the Copy button copies.
- The language is the first word of the info string (``python`` of ```` ```python title ````).
- Prose between code blocks is one block while it is short. Once a prose block holds
  ``PROSE_CUT_CHARS`` characters it is cut before the next line that follows a blank line and is
  not indented (a new top-level paragraph, list item, heading, quote or table; list continuations
  and indented code stay with their block), so a long answer is laid out in pieces and a stream
  re-lays out only its last one. A block is also cut once it holds ``MAX_PROSE_CHARS`` characters
  or more, after a line break, and a line longer than that is cut every ``MAX_PROSE_CHARS``
  characters (only a pathological text has such paragraphs; it bounds the cost of one layout).
- A cut is decided only by text that can no longer change: a fence by a whole line, a new block by
  the first character of its line, a size cut by a line break or a full piece. So when a text grows
  every block but the last stays as it was, and ``resplit`` lays out a stream in constant work per
  update.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

from core.frozen import frozen

PROSE_CUT_CHARS = 1200
"""A prose block this long is cut at its next paragraph."""
MAX_PROSE_CHARS = 6000
"""A prose block is cut past this many characters (bounds the cost of laying out one block)."""

_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")


@frozen
class Block:
    """One block: ``prose`` (its Markdown ``text``) or ``code`` (the code as ``text``, its
    ``language``, and whether its closing fence has arrived).

    ``source`` is the exact slice of the input the block covers and ``start`` where it begins.
    """

    kind: Literal["prose", "code"]
    source: str
    start: int
    text: str
    language: str = ""
    closed: bool = True


def split_blocks(text: str, start: int = 0, *, final: bool = True) -> list[Block]:
    """``text`` from offset ``start`` cut into blocks; their sources concatenate to that slice.

    ``final``: the text is whole, so its last line is a line (a closing fence there closes its
    block). A text still streaming (``final=False``) leaves its last line undecided, and an open
    code block does not show a last line that may yet become its closing fence."""
    if final and not text.endswith("\n"):
        blocks = _split(text + "\n", start, streaming=False)
        last = blocks[-1]
        source = last.source[:-1]
        body = last.text if last.kind == "code" else source.strip("\r\n")
        blocks[-1] = Block(last.kind, source, last.start, body, last.language, last.closed)
        return blocks if source else blocks[:-1]
    return _split(text, start, streaming=not final)


def resplit(text: str, previous: Sequence[Block]) -> list[Block]:
    """The blocks of ``text`` (still streaming), which extends the text ``previous`` was cut
    from: every block but the last is kept as it was and only the rest is cut again."""
    if not previous:
        return split_blocks(text, final=False)
    return [*previous[:-1], *split_blocks(text, previous[-1].start, final=False)]


def _split(text: str, start: int, *, streaming: bool) -> list[Block]:
    lines = list(_lines(text, start))
    blocks: list[Block] = []
    offset = start
    index = 0
    while index < len(lines):
        fence = _opening_fence(lines[index])
        if fence is None:
            taken, block = _prose_block(lines, index, offset)
        else:
            taken, block = _code_block(lines, index, offset, fence, streaming=streaming)
        blocks.append(block)
        offset += len(block.source)
        index += taken
    return blocks


def _lines(text: str, start: int) -> Iterator[str]:
    """The lines of ``text[start:]`` with their ``\\n``; a line longer than ``MAX_PROSE_CHARS`` is
    given in pieces of that size (every piece but the last of such a line has no line break)."""
    position = start
    while position < len(text):
        end = text.find("\n", position)
        stop = len(text) if end < 0 else end + 1
        while stop - position > MAX_PROSE_CHARS:
            yield text[position : position + MAX_PROSE_CHARS]
            position += MAX_PROSE_CHARS
        yield text[position:stop]
        position = stop


def _opening_fence(line: str) -> tuple[int, str, str] | None:
    """(indent, fence, info) when ``line`` is a whole line that opens a fenced code block."""
    if not line.endswith("\n"):
        return None
    match = _FENCE.fullmatch(line.rstrip("\r\n"))
    if match is None:
        return None
    indent, fence, info = match.groups()
    if fence[0] == "`" and "`" in info:
        return None
    return len(indent), fence, info.strip()


def _closes(line: str, fence: str) -> bool:
    """``line`` is a whole line that closes a block opened by ``fence``."""
    if not line.endswith("\n"):
        return False
    stripped = line.rstrip("\r\n")
    body = stripped.lstrip(" ")
    if len(stripped) - len(body) > 3:
        return False
    run = len(body) - len(body.lstrip(fence[0]))
    return run >= len(fence) and not body[run:].strip(" ")


def _code_block(
    lines: list[str], first: int, offset: int, fence: tuple[int, str, str], *, streaming: bool
) -> tuple[int, Block]:
    indent, marks, info = fence
    index = first + 1
    while index < len(lines) and not _closes(lines[index], marks):
        index += 1
    closed = index < len(lines)
    taken = index - first + (1 if closed else 0)
    source = "".join(lines[first : first + taken])
    body = lines[first + 1 : index]
    if streaming and not closed and body and _may_close(body[-1], marks):
        body = body[:-1]  # "``" may be the closing fence arriving: not code yet
    code = "".join(_dedent(line, indent) for line in body)
    code = code.removesuffix("\n").removesuffix("\r")
    language = info.split(maxsplit=1)[0] if info else ""
    return taken, Block("code", source, offset, code, language, closed)


def _may_close(line: str, fence: str) -> bool:
    """An unfinished last line that could still become the closing fence."""
    body = line.strip(" ")
    return not line.endswith("\n") and bool(body) and set(body) == {fence[0]}


def _dedent(line: str, indent: int) -> str:
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, indent) :]


def _prose_block(lines: list[str], first: int, offset: int) -> tuple[int, Block]:
    index = first
    size = 0
    has_text = False
    while index < len(lines):
        line = lines[index]
        long_enough = has_text and size >= PROSE_CUT_CHARS
        if index > first and (
            _opening_fence(line) is not None or (long_enough and _starts_block(lines, index))
        ):
            break
        size += len(line)
        has_text = has_text or bool(line.strip())
        index += 1
        if size >= MAX_PROSE_CHARS and (line.endswith("\n") or len(line) == MAX_PROSE_CHARS):
            break
    source = "".join(lines[first:index])
    return index - first, Block("prose", source, offset, source.strip("\r\n"))


def _starts_block(lines: list[str], index: int) -> bool:
    """Line ``index`` follows a blank line and is not indented: a new top-level block."""
    line = lines[index]
    return not lines[index - 1].strip() and bool(line.strip()) and not line[0].isspace()
