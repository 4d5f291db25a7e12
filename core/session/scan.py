"""The JSONL scanner: whole lines, the committed offset, torn-tail or corrupt-middle verdict.

Pure: no I/O, no clock. It reads a byte buffer (``bytes`` or an ``mmap``) from an offset and
splits it on the byte ``\\n`` only: JSON text may hold raw U+2028/U+0085, which
``str.splitlines()`` would split on (session-log.md §2).

Verdict (session-log.md §4): a final fragment without ``\\n``, a final complete line that fails to
decode, or a final group with fewer than ``k`` lines is a *torn tail* (never acknowledged by a
barrier); a line that fails to decode (bad JSON, or ``seq`` not its index) with a complete line
after it is *corruption*. A torn or corrupt group is dropped whole: ``committed`` never ends inside
a group, and the sink sees a group's events only once all ``k`` lines decoded (their line offsets
go to ``offsets`` at the same time).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from core.events import Event
from core.jsonread import LOG_LINE
from core.session.lines import parse_line

_LONGEST = LOG_LINE.max_size
RELEASE_EVERY = 4 << 20
"""Bytes scanned between two calls of a scan's ``release`` (a mapped log lets go of the pages
read so far: the peak memory of opening a long log stays near the steady one)."""

Sink = Callable[[int, str, Event], None]
"""Called as ``sink(seq, at, event)`` for each committed event, in order."""


class ByteSource(Protocol):
    """What the scanner reads: ``bytes`` and ``mmap.mmap`` both qualify."""

    def __len__(self) -> int: ...

    def find(self, sub: bytes, start: int = ..., end: int = ...) -> int: ...

    def rfind(self, sub: bytes, start: int = ..., end: int = ...) -> int: ...

    def __getitem__(self, index: slice, /) -> bytes: ...


@dataclass(frozen=True)
class Corruption:
    """Why a log cannot be trusted past its good prefix. ``line`` is 1-based (the header is 1)."""

    line: int
    reason: str

    def describe(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(frozen=True)
class ScanResult:
    """``count`` events end at byte ``committed``; bytes in [committed, end) are torn or corrupt."""

    count: int
    committed: int
    end: int
    corruption: Corruption | None = None

    @property
    def torn(self) -> bool:
        """True when a torn tail follows the committed part (and nothing is corrupt)."""
        return self.corruption is None and self.committed < self.end


@dataclass
class _Group:
    start: int
    seq: int
    left: int
    events: list[tuple[int, int, str, Event]]


def scan(
    buffer: ByteSource,
    *,
    start: int,
    first_seq: int,
    sink: Sink | None = None,
    offsets: array[int] | None = None,
    release: Callable[[int], None] | None = None,
    stop: int | None = None,
) -> ScanResult:
    """Scan ``buffer[start:]`` whose first event has index ``first_seq`` (see the module verdict).

    ``start`` must be the offset of a line start outside any group (after the header, or a
    checkpoint's covered length). Each committed event goes to ``sink`` and the offset of its
    line to ``offsets``, in order. ``release(end)`` is told, every ``RELEASE_EVERY`` bytes, that
    the bytes before ``end`` will not be read again. With ``stop``, the scan ends at the first
    line start at or past it outside any group, with ``end`` there too (nothing is torn there).
    """
    size, longest = len(buffer), _LONGEST
    mark, stop = _marks(start, size, release, stop)
    pos, seq, committed = start, first_seq, start
    group: _Group | None = None
    while pos < size:
        newline = buffer.find(b"\n", pos)
        if newline < 0:
            break
        try:
            if newline - pos > longest:  # refused before it is copied out of the map
                raise ValueError(f"a line of {newline - pos:,} bytes, longer than any event")
            at, event, group_size = parse_line(buffer[pos:newline], seq)
            if group is not None or group_size is not None:
                group = _grouped(group, group_size, pos, seq)
        except ValueError as error:
            if buffer.find(b"\n", newline + 1) < 0:
                break
            return ScanResult(_count(group, seq), _start_of(group, pos), size, _at(seq, error))
        if group is None:
            _commit(sink, offsets, (seq, pos, at, event))
        else:
            group.events.append((seq, pos, at, event))
            group = _finish(group, sink, offsets)
        pos, seq = newline + 1, seq + 1
        if group is None:
            committed = pos
            if pos >= stop:
                return ScanResult(seq, pos, pos)
        if pos > mark:
            assert release is not None  # the mark is past the end without one
            release(pos)
            mark = pos + RELEASE_EVERY
    return ScanResult(_count(group, seq), committed, size)


def _marks(
    start: int, size: int, release: Callable[[int], None] | None, stop: int | None
) -> tuple[int, int]:
    """Where the first release falls (never without ``release``) and where the scan stops."""
    mark = start + RELEASE_EVERY if release is not None else size
    return mark, size if stop is None else stop


def _grouped(group: _Group | None, size: int | None, pos: int, seq: int) -> _Group | None:
    if group is not None:
        if size is not None:
            raise ValueError(f"a group of {size} starts inside an unfinished group")
        return group
    if size is None:
        return None
    return _Group(pos, seq, size, [])


def _finish(group: _Group, sink: Sink | None, offsets: array[int] | None) -> _Group | None:
    group.left -= 1
    if group.left > 0:
        return group
    for line in group.events:
        _commit(sink, offsets, line)
    return None


def _commit(
    sink: Sink | None, offsets: array[int] | None, line: tuple[int, int, str, Event]
) -> None:
    seq, pos, at, event = line
    if offsets is not None:
        offsets.append(pos)
    if sink is not None:
        sink(seq, at, event)


def _count(group: _Group | None, seq: int) -> int:
    """The number of committed events: an unfinished group's events do not count."""
    return seq if group is None else group.seq


def _start_of(group: _Group | None, pos: int) -> int:
    return pos if group is None else group.start


def _at(seq: int, error: ValueError) -> Corruption:
    return Corruption(line=seq + 2, reason=str(error))
