"""The fast scan of a log being opened: whole blocks of lines checked at once, ``scan``'s verdict.

Pure: no I/O, no clock. ``scan`` (``core.session.scan``) reads one line at a time and decodes
every event for its sink; opening a long log that way is mostly Python work per line. This scanner
reads the same bytes in blocks of about ``BLOCK`` bytes of whole lines and, for a block of plain
lines (no group), does every check ``parse_line`` makes with one C-level pass per check over the
block's decoded lines: the bounded JSON decode of each line, a JSON object, ``seq`` its index,
``at`` of the canonical shape, a non-empty ``type``, a ``data``. Where msgspec's reading is surely
the bounded decode's (``core.session.envelopes``) it reads the lines instead, building only their
envelopes and keeping each ``data`` as its bytes. The events are not decoded here: the block's
types, instants and data go to the sink's ``read_block``, which decodes only the events its folds
need (``SessionFolds.read_block``).

Where the install has it (pip compiles it where a C compiler is), ``core.session.linecheck`` makes
every one of these checks in one pass over each line's bytes, and builds only the envelopes' parts
(about a quarter of msgspec's cost); what it is not sure of is read by the pure-Python path here.

Anything else, a line that fails a check, a group, a line longer than a block, is left to ``scan``
itself from that block's first line (to the end of the block and out of any group it is in), so
every verdict (torn tail, corruption and its line and reason) and everything the sink and the
offsets get are ``scan``'s own: the two agree on every log (a differential hypothesis test,
``tests/core/session/test_block_scan.py``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from itertools import accumulate, repeat
from operator import add, itemgetter
from typing import Any, Protocol

from orjson import loads

from core.events import Event
from core.instant import have_instant_shape
from core.jsonread import LOG_LINE, bounded_reader
from core.session.envelopes import read_envelopes
from core.session.scan import RELEASE_EVERY, ByteSource, ScanResult, scan

Parts = tuple["array[int]", list[str], Sequence[str], Sequence[bytes]]
"""A block's lines as ``core.session.linecheck`` reads them: each one's offset in the buffer, its
``type``, its ``at`` and the bytes of its ``data``."""


try:
    from core.session.linecheck import check_block
except ImportError:  # installed without a C compiler: the pure-Python checks alone
    compiled_check: Callable[[ByteSource, int, int, int], Parts | None] | None = None
else:
    compiled_check = check_block
"""The compiled checks of a block, or None (tests set it to None to run the pure path)."""

BLOCK = 64 << 10
"""Bytes of whole lines checked together: a few hundred lines, whose decoded values stay in the
processor's caches while each check passes over them."""

_read_line = bounded_reader(LOG_LINE)
_SHALLOW = 2 * LOG_LINE.max_depth
"""A line this short is within every bound of a log line: orjson alone reads it as ``_read_line``
would (what orjson refuses, a lone surrogate's escape, goes to the line scan)."""
_SEQ, _AT, _TYPE, _DATA = (itemgetter(key) for key in ("seq", "at", "type", "data"))


class BlockSink(Protocol):
    """What the fast scan feeds: ``read`` is ``scan``'s sink, ``read_block`` takes a block of
    checked lines (the events ``first_seq``, ``first_seq + 1``, ... with these parts)."""

    def read(self, seq: int, at: str, event: Event) -> None: ...

    def read_block(
        self,
        first_seq: int,
        kinds: list[str],
        ats: Sequence[str],
        datas: Sequence[Any],
        *,
        raw: bool = False,
    ) -> None: ...


def scan_blocks(
    buffer: ByteSource,
    *,
    start: int,
    first_seq: int,
    sink: BlockSink,
    offsets: array[int],
    release: Callable[[int], None] | None = None,
) -> ScanResult:
    """``scan(buffer, start=..., first_seq=..., sink=sink.read, offsets=..., release=...)``'s
    result, with the same events folded and the same offsets, read block by block."""
    size, pos, seq = len(buffer), start, first_seq
    mark = start + RELEASE_EVERY
    while pos < size:
        end = buffer.rfind(b"\n", pos, min(size, pos + BLOCK)) + 1
        parts = compiled_check(buffer, pos, end, seq) if compiled_check is not None else None
        if parts is not None:
            starts, kinds, ats, datas = parts
            sink.read_block(seq, kinds, ats, datas, raw=True)
            offsets.extend(starts)
            pos, seq = end, seq + len(kinds)
        else:
            block = buffer[pos:end]
            lines = block.split(b"\n")[:-1]
            if lines and _checked(block, lines, seq, sink):
                offsets.append(pos)  # each next line starts past the lengths and newlines before
                offsets.extend(map(add, accumulate(map(len, lines[:-1])), range(pos + 1, end)))
                pos, seq = end, seq + len(lines)
            else:
                result = scan(
                    buffer,
                    start=pos,
                    first_seq=seq,
                    sink=sink.read,
                    offsets=offsets,
                    stop=max(end, pos + 1),
                )
                if result.end != result.committed or result.corruption is not None:
                    return result  # the end of the log, a torn tail or corruption: scan's verdict
                pos, seq = result.committed, result.count
        if release is not None and pos > mark:
            release(pos)
            mark = pos + RELEASE_EVERY
    return ScanResult(seq, pos, size)


def _checked(block: bytes, lines: list[bytes], first_seq: int, sink: BlockSink) -> bool:
    """Fold a block of plain lines through ``sink.read_block`` and say True, or say False (and
    fold nothing) when one of them needs ``scan``'s line-by-line reading."""
    parts = read_envelopes(block, lines)
    if parts is not None:  # the usual block: no line's data built here
        seqs, ats, kinds, raws = parts  # of the types the envelope needs: msgspec checked them
        if not (
            seqs == list(range(first_seq, first_seq + len(seqs)))
            and "" not in kinds
            and have_instant_shape(ats)
        ):
            return False
        sink.read_block(first_seq, kinds, ats, raws, raw=True)
        return True
    try:  # a line past the shallow bound is read with the depth and size checks; none usually is
        values = list(map(_read_line if max(map(len, lines)) > _SHALLOW else loads, lines))
    except ValueError:  # orjson's refusal included: the line scan reads the line again
        return False
    if set(map(type, values)) != {dict} or any(map(dict.__contains__, values, repeat("group"))):
        return False
    try:
        seqs, kinds = list(map(_SEQ, values)), list(map(_TYPE, values))
        ats, datas = list(map(_AT, values)), list(map(_DATA, values))
    except KeyError:
        return False
    if not _envelopes(seqs, first_seq, kinds, ats):
        return False
    sink.read_block(first_seq, kinds, ats, datas)
    return True


def _envelopes(seqs: list[Any], first_seq: int, kinds: list[Any], ats: list[Any]) -> bool:
    """True when every ``seq`` is its index, every ``type`` a non-empty string and every ``at``
    a string of the canonical instant's shape (``parse_line``'s checks)."""
    return (
        set(map(type, seqs)) == {int}
        and seqs == list(range(first_seq, first_seq + len(seqs)))
        and set(map(type, kinds)) == {str}
        and "" not in kinds
        and set(map(type, ats)) == {str}
        and have_instant_shape(ats)
    )
