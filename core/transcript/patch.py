"""The changes of the transcript's rows, as values: what ``TranscriptProjection`` emits and a
view applies in order (``ui.transcript_model`` turns each into Qt's begin/end calls). Pure.

Positions are those of the rows at the moment the patch applies (after the patches before it).
``Rebuild`` replaces every row; its ``anchor`` says where the reader's eye should stay
(``Anchor``), or is None when the view follows the end: keeping the reader's place is a value the
projection decides, not an order of calls. ``core.frozen`` values: the window imports this
before its first paint, where a dataclass costs three times as much to define.
"""

from __future__ import annotations

from typing import TypeAlias

from core.frozen import frozen
from core.transcript.rows import TranscriptRow


@frozen
class Insert:
    at: int
    rows: tuple[TranscriptRow, ...]


@frozen
class Replace:
    at: int
    row: TranscriptRow


@frozen
class Remove:
    at: int
    count: int


@frozen
class Move:
    """The row at ``source`` moves up to ``to`` (``to < source``)."""

    source: int
    to: int


@frozen
class Anchor:
    """Keep the reader's place over a rebuild: the row of input ``shown`` (-1, or when it is not
    on screen: the top row) is where the reader looks; after the rebuild the row of input
    ``then`` (-1, or when it is not loaded: the first row at or after the one looked at) takes
    its place on screen."""

    shown: int
    then: int = -1


@frozen
class Rebuild:
    rows: tuple[TranscriptRow, ...]
    anchor: Anchor | None = None


Patch: TypeAlias = Insert | Replace | Remove | Move | Rebuild


class PatchedRows:
    """Rows whose every change is recorded as a patch: between ``_begin()`` and ``_end()``, which
    returns the patches in the order they were made (the base of ``TranscriptProjection``)."""

    def __init__(self) -> None:
        self.rows: list[TranscriptRow] = []
        self._out: list[Patch] = []

    def _begin(self) -> None:
        self._out = []

    def _end(self) -> list[Patch]:
        out, self._out = self._out, []
        return out

    def _insert(self, at: int, rows: list[TranscriptRow]) -> None:
        self.rows[at:at] = rows
        self._out.append(Insert(at, tuple(rows)))

    def _remove(self, at: int, count: int) -> None:
        del self.rows[at : at + count]
        self._out.append(Remove(at, count))

    def _replace(self, at: int, row: TranscriptRow) -> None:
        self.rows[at] = row
        self._out.append(Replace(at, row))

    def _move(self, source: int, to: int) -> None:
        self.rows.insert(to, self.rows.pop(source))
        self._out.append(Move(source, to))

    def _rebuild_rows(self, rows: list[TranscriptRow], anchor: Anchor | None) -> None:
        self.rows = rows
        self._out.append(Rebuild(tuple(rows), anchor))


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
