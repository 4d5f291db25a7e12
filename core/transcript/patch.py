"""The changes of the transcript's rows, as values: what ``TranscriptProjection`` emits and a
view applies in order (``ui.transcript_model`` turns each into Qt's begin/end calls). Pure.

Positions are those of the rows at the moment the patch applies (after the patches before it).
``Rebuild`` replaces every row; its ``anchor`` says where the reader's eye should stay: the input
whose row stands where the row of ``anchor.shown`` stood on screen (``Anchor``), or None when the
view follows the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from core.transcript.rows import TranscriptRow


@dataclass(frozen=True, slots=True)
class Insert:
    at: int
    rows: tuple[TranscriptRow, ...]


@dataclass(frozen=True, slots=True)
class Replace:
    at: int
    row: TranscriptRow


@dataclass(frozen=True, slots=True)
class Remove:
    at: int
    count: int


@dataclass(frozen=True, slots=True)
class Move:
    """The row at ``source`` moves up to ``to`` (``to < source``)."""

    source: int
    to: int


@dataclass(frozen=True, slots=True)
class Anchor:
    """Keep the reader's place over a rebuild: the row of input ``shown`` (or, when it is not on
    screen, the top row) is where the reader looks; after the rebuild the row of input ``then``
    (-1: the same exchange, or the first one at or after it) takes its place on screen."""

    shown: int
    then: int = -1


@dataclass(frozen=True, slots=True)
class Rebuild:
    rows: tuple[TranscriptRow, ...]
    anchor: Anchor | None = None


Patch: TypeAlias = Insert | Replace | Remove | Move | Rebuild


def apply_patch(rows: list[TranscriptRow], patch: Patch) -> None:
    """``rows`` changed as ``patch`` says (the reference a view's copy is checked against)."""
    match patch:
        case Insert(at=at, rows=new):
            rows[at:at] = new
        case Replace(at=at, row=row):
            rows[at] = row
        case Remove(at=at, count=count):
            del rows[at : at + count]
        case Move(source=source, to=to):
            rows.insert(to, rows.pop(source))
        case Rebuild(rows=new):
            rows[:] = new
