"""The lazy entry sequence of a session: an offsets index, decode on access, a small LRU.

No file I/O of its own: old entries are copied out of the log's memory map (``LogFile.read``) and
decoded when asked for, so memory does not grow with history nobody looks at (8 bytes of index
per event). Entries appended but not yet durable are held in memory until a barrier writes them.
``JsonEvents`` is the same sequence as JSON envelopes: the api.md ``SessionLog.events`` view.
"""

from __future__ import annotations

import bisect
import contextlib
from array import array
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from core.events import Entry, TurnStart
from core.session.jsonl_store import LogFile, MappedOffsets
from core.session.lines import parse_entry

CACHE_SIZE = 8192
"""Decoded durable entries kept in memory at most (least recently used ones are dropped): more
than the model's history window reads back (4,000 events), so a turn after a turn decodes only
what is new."""
CACHE_BYTES = 16 << 20
"""...and at most entries whose lines hold this many bytes (a few large tool results do not
keep thousands of entries' worth of memory)."""
_CHUNK = 1 << 16
"""Offsets copied at a time when a checkpoint writes them (512 KiB)."""
RELEASE_BYTES = 16 << 20
"""Log bytes read through the map after which its pages are let go (``LogFile.release``): the
page cache keeps them, so a reader of the whole history (find, a long scroll) keeps this
process's memory near what it was, not near the log's size."""


class EventList(Sequence[Entry]):
    """Every entry of a session: ``[0, durable_count)`` on disk, the rest queued in memory.

    ``base`` holds the line offsets a checkpoint vouched for (``offsets.bin`` mapped; the list
    closes it), ``tail`` the ones found or written since; ``durable_length`` is where the durable bytes end. Reading an
    entry whose line does not decode raises ValueError (possible only before a warm open's
    checkpoint is verified: the line is then corrupt, and the session turns read-only).
    """

    def __init__(
        self,
        log: LogFile | None,
        *,
        base: MappedOffsets | None = None,
        tail: array[int] | None = None,
        durable_length: int = 0,
    ) -> None:
        self._log = log
        self._mapped = base
        self._base: Sequence[int] = base.view if base is not None else ()
        self._split = len(self._base)  # the base only changes in rebase() and close()
        self._tail = tail if tail is not None else array("Q")
        self.durable_length = durable_length
        self._queued: list[Entry] = []
        self._lines: list[bytes] = []
        self._cache: OrderedDict[int, tuple[Entry, int]] = OrderedDict()
        self._cached_bytes = 0
        self._read_bytes = 0

    @property
    def durable_count(self) -> int:
        return self._split + len(self._tail)

    @property
    def queued_count(self) -> int:
        return len(self._queued)

    def __len__(self) -> int:
        return self.durable_count + len(self._queued)

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("event index out of range")
        return self._get(index)

    def __iter__(self) -> Iterator[Entry]:
        durable = self.durable_count
        for index in range(durable):
            cached = self._cache.get(index)
            yield cached[0] if cached is not None else self._decode(index)
        yield from self._queued[: len(self) - durable]

    def _get(self, index: int) -> Entry:
        durable = self._split + len(self._tail)
        if index >= durable:
            return self._queued[index - durable]
        cached = self._cache.get(index)
        if cached is not None:
            self._cache.move_to_end(index)
            return cached[0]
        start, end = self.span(index)
        entry = self._decode(index)
        self._remember(index, entry, end - start)
        return entry

    def _decode(self, index: int) -> Entry:
        start, end = self.span(index)
        return parse_entry(self._bytes(start, end - 1), index)

    def _bytes(self, start: int, end: int) -> bytes:
        log = self._log
        assert log is not None  # durable entries exist only with a log
        self._read_bytes += end - start
        if self._read_bytes > RELEASE_BYTES:
            self._read_bytes = 0
            log.release()
        return log.read(start, end)

    def lines(self, first: int, limit: int) -> tuple[int, bytes]:
        """The raw lines of durable entries ``first, first + 1, ...`` (each ending in ``\\n``),
        about ``limit`` bytes of them and at least one: ``(stop, lines)``, ``stop`` the index
        after the last one. Nothing is decoded (find reads lines before it decodes the few that
        can match)."""
        durable = self.durable_count
        if not 0 <= first < durable:
            return first, b""
        start = self.start(first)
        past = start + limit >= self.durable_length
        stop = durable if past else max(first + 1, self.index_at(start + limit))
        end = self.start(stop) if stop < durable else self.durable_length
        return stop, self._bytes(start, end)

    def index_at(self, offset: int) -> int:
        """The durable entry whose line holds byte ``offset`` (0 before the first one, the last
        one past the end)."""
        split, tail = self._split, self._tail
        if (tail and offset >= tail[0]) or not split:
            return split + max(0, bisect.bisect_right(tail, offset) - 1)
        return max(0, bisect.bisect_right(self._base, offset) - 1)

    def _remember(self, index: int, entry: Entry, size: int) -> None:
        cache = self._cache
        cache[index] = (entry, size)
        self._cached_bytes += size
        while len(cache) > CACHE_SIZE or (self._cached_bytes > CACHE_BYTES and len(cache) > 1):
            self._cached_bytes -= cache.popitem(last=False)[1][1]

    def tail_turns(self, turns: int, within: int | None = None) -> list[Entry]:
        """The entries of the last ``turns`` turns, each from its input message, oldest first.

        Walks back from the end and decodes only what it returns; with ``within``, it walks back
        at most that many entries and returns from where it stopped (a log of 10^5 reminder
        changes and no turn is not decoded whole to find none).
        """
        index = first = len(self)
        floor = 0 if within is None else max(0, len(self) - within)
        seen = 0
        while index > floor and seen < turns:
            index -= 1
            event = self._get(index).event
            if isinstance(event, TurnStart):
                seen += 1
                first = event.input if 0 <= event.input < index else index
        if seen < turns:
            first = min(first, floor)
        return self[first:]

    def start(self, index: int) -> int:
        """Byte offset of durable entry ``index``'s line."""
        split = self._split
        return self._base[index] if index < split else self._tail[index - split]

    def span(self, index: int) -> tuple[int, int]:
        """Byte range of durable entry ``index``'s line, its ``\\n`` included."""
        following = index + 1
        end = self.start(following) if following < self.durable_count else self.durable_length
        return self.start(index), end

    def queue(self, entry: Entry, line: bytes) -> None:
        self._queued.append(entry)
        self._lines.append(line)

    def queued_bytes(self, count: int) -> bytes:
        return b"".join(self._lines[:count])

    def commit(self, count: int) -> None:
        """The first ``count`` queued entries are now durable, right after ``durable_length``."""
        position = self.durable_length
        first = self.durable_count
        for offset, line in enumerate(self._lines[:count]):
            self._tail.append(position)
            self._remember(first + offset, self._queued[offset], len(line))
            position += len(line)
        self.durable_length = position
        del self._queued[:count]
        del self._lines[:count]

    def queued_entries(self) -> list[Entry]:
        return list(self._queued)

    def rebase(self, tail: array[int], durable_length: int) -> None:
        """Replace the durable index with ``tail`` (a full re-scan's offsets); the queued entries
        stay. In place, so whoever holds this sequence sees the re-scanned log."""
        self.close()
        self._tail = tail
        self.durable_length = durable_length
        self._cache.clear()
        self._cached_bytes = 0

    def offsets(self) -> Offsets:
        """Every durable line offset as it is now (the checkpoint's ``offsets.bin``), without a
        copy of the offsets found or written since the checkpoint's (``Offsets``)."""
        head = self._mapped.view.tobytes() if self._mapped is not None else b""
        return Offsets(head, self._tail, len(self._tail))

    def close(self) -> None:
        """Unmap the checkpoint's offsets (their values were copied where still needed)."""
        mapped, self._mapped, self._base, self._split = self._mapped, None, (), 0
        if mapped is not None:
            with contextlib.suppress(BufferError):  # a slice of the view is still referenced
                mapped.close()


@dataclass(frozen=True)
class Offsets:
    """The durable line offsets at one moment: ``head`` (copied out of the mapped checkpoint's
    offsets, which a re-scan may close) and the first ``count`` of ``tail``, which never change
    after (the tail is only appended to, or replaced whole by a re-scan), so a worker thread
    reads them while the loop appends: an open of 10^6 events holds no second copy of them."""

    head: bytes
    tail: array[int]
    count: int

    def chunks(self) -> Iterator[bytes]:
        """The offsets as little-endian uint64, in chunks of at most ``_CHUNK`` of them."""
        if self.head:
            yield self.head
        for at in range(0, self.count, _CHUNK):
            yield self.tail[at : min(self.count, at + _CHUNK)].tobytes()


class JsonEvents(Sequence[dict[str, Any]]):
    """A live entry sequence seen as JSON envelopes (api.md ``SessionLog.events``): each item is
    rendered from its entry when read, so it is a fresh dict the caller may keep."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [entry.to_json() for entry in self._entries[index]]
        return self._entries[index].to_json()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (entry.to_json() for entry in self._entries)
