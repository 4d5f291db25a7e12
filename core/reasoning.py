"""A model's reasoning (its "thinking") told apart from its answer in streamed content. Pure: no
I/O, no clock.

Servers hand reasoning over in two ways. Some put it in a field of its own (``reasoning_content``:
DeepSeek's API, llama.cpp's default ``--reasoning-format``, vLLM and LM Studio with a reasoning
parser; ``reasoning``: newer vLLM and Ollama): the door reads that field directly. Others leave it
inside ``content`` between ``<think>`` and ``</think>`` (Qwen3 and DeepSeek-R1 templates on Ollama,
llama.cpp with ``--reasoning-format none``, plain chat templates): ``ThinkSplitter`` separates it
while streaming, so the tags may be split across chunks and the block may still be open when the
stream ends (then everything after ``<think>`` is reasoning and the answer is empty).

Choices: a ``<think>`` tag counts only at the start of the content (after whitespace), so an answer
that mentions the tag later is kept whole; the whitespace between ``</think>`` and the answer is
dropped. A template that opens the block in the prompt (DeepSeek-R1 distills) streams only the
closing tag: ``split_closing`` takes the text before a lone ``</think>`` as reasoning once the
whole answer is known (while streaming it was shown as answer text).
"""

from __future__ import annotations

from typing import Literal

from core.frozen import frozen

OPEN = "<think>"
CLOSE = "</think>"

PieceKind = Literal["reasoning", "answer"]
_State = Literal["start", "thinking", "after", "answer"]


@frozen
class Piece:
    """A piece of streamed content: reasoning or answer text (never empty)."""

    kind: PieceKind
    text: str


class ThinkSplitter:
    """Splits streamed ``content`` into reasoning and answer pieces (see the module docstring).

    ``feed`` returns what can be told already; text that may be the start of a tag is held back
    until the next piece (or ``flush`` at the end of the stream) says what it is."""

    def __init__(self) -> None:
        self._state: _State = "start"
        self._held = ""

    @property
    def thinking(self) -> bool:
        """A ``<think>`` block is open."""
        return self._state == "thinking"

    def feed(self, text: str) -> list[Piece]:
        pieces: list[Piece] = []
        buffer, self._held = self._held + text, ""
        while buffer:
            buffer = self._step(buffer, pieces)
        return [p for p in pieces if p.text]

    def flush(self) -> list[Piece]:
        """The held text at the end of the stream, as what it was taken for."""
        held, self._held = self._held, ""
        match self._state:
            case "thinking":
                return [Piece("reasoning", held)] if held else []
            case "start" | "answer":
                return [Piece("answer", held)] if held else []
            case "after":
                return []

    def _step(self, buffer: str, pieces: list[Piece]) -> str:
        """Consumes what it can of ``buffer``; returns the rest to look at again (or "")."""
        match self._state:
            case "start":
                stripped = buffer.lstrip()
                if stripped.startswith(OPEN):
                    self._state = "thinking"
                    return stripped[len(OPEN) :]
                if OPEN.startswith(stripped):
                    self._held = buffer
                    return ""
                self._state = "answer"
                return buffer
            case "thinking":
                end = buffer.find(CLOSE)
                if end >= 0:
                    pieces.append(Piece("reasoning", buffer[:end]))
                    self._state = "after"
                    return buffer[end + len(CLOSE) :]
                keep = _partial_tag(buffer, CLOSE)
                pieces.append(Piece("reasoning", buffer[: len(buffer) - keep]))
                self._held = buffer[len(buffer) - keep :]
                return ""
            case "after":
                stripped = buffer.lstrip()
                if stripped:
                    self._state = "answer"
                return stripped
            case "answer":
                pieces.append(Piece("answer", buffer))
                return ""


def _partial_tag(text: str, tag: str) -> int:
    """The length of the longest end of ``text`` that is a proper start of ``tag``."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:size]):
            return size
    return 0


@frozen
class Split:
    """A whole content's reasoning (stripped of surrounding whitespace) and answer."""

    reasoning: str
    answer: str


def split_think(content: str) -> Split:
    """``content`` read whole: a leading ``<think>`` block (closed or not) is the reasoning; a
    lone ``</think>`` ends reasoning whose opening tag was in the prompt (``split_closing``)."""
    splitter = ThinkSplitter()
    pieces = splitter.feed(content) + splitter.flush()
    reasoning = "".join(p.text for p in pieces if p.kind == "reasoning")
    answer = "".join(p.text for p in pieces if p.kind == "answer")
    if not reasoning:
        return split_closing(answer)
    return Split(reasoning.strip(), answer)


def split_closing(answer: str) -> Split:
    """An answer whose ``<think>`` was opened by the prompt's template: the text before its first
    ``</think>`` is reasoning. An answer without a closing tag is all answer."""
    before, tag, after = answer.partition(CLOSE)
    if not tag or OPEN in before:
        return Split("", answer)
    return Split(before.strip(), after.lstrip())
