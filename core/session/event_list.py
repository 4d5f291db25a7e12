"""The lazy event sequence of a session: an offsets index, parse on access, a small LRU.

No file I/O of its own: old events are copied out of the log's memory map (``LogFile.read``) and
parsed when asked for, so memory does not grow with history nobody looks at (8 bytes of index per
event). Events appended but not yet durable are held in memory until a barrier writes them.
"""

from __future__ import annotations

import json
from array import array
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any, overload

from core.session.jsonl_store import LogFile
from core.session.vocabulary import TURN_START

CACHE_SIZE = 2048
"""Parsed durable events kept in memory (least recently used ones are dropped)."""


class EventList(Sequence[dict[str, Any]]):
    """Every event of a session: ``[0, durable_count)`` on disk, the rest queued in memory.

    ``base`` holds the line offsets a checkpoint vouched for (a memory-mapped array), ``tail`` the
    ones found or written since; ``durable_length`` is where the durable bytes end.
    """

    def __init__(
        self,
        log: LogFile | None,
        *,
        base: memoryview | None = None,
        tail: array[int] | None = None,
        durable_length: int = 0,
    ) -> None:
        self._log = log
        self._base_view = base
        self._base: Sequence[int] = base if base is not None else ()
        self._tail = tail if tail is not None else array("Q")
        self.durable_length = durable_length
        self._queued: list[dict[str, Any]] = []
        self._lines: list[bytes] = []
        self._cache: OrderedDict[int, dict[str, Any]] = OrderedDict()

    @property
    def durable_count(self) -> int:
        return len(self._base) + len(self._tail)

    @property
    def queued_count(self) -> int:
        return len(self._queued)

    def __len__(self) -> int:
        return self.durable_count + len(self._queued)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("event index out of range")
        return self._get(index)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        durable = self.durable_count
        for index in range(durable):
            cached = self._cache.get(index)
            yield cached if cached is not None else self._parse(index)
        yield from self._queued[: len(self) - durable]

    def _get(self, index: int) -> dict[str, Any]:
        durable = self.durable_count
        if index >= durable:
            return self._queued[index - durable]
        cached = self._cache.get(index)
        if cached is not None:
            self._cache.move_to_end(index)
            return cached
        event = self._parse(index)
        self._remember(index, event)
        return event

    def _parse(self, index: int) -> dict[str, Any]:
        start, end = self.span(index)
        assert self._log is not None  # durable events exist only with a log
        value: dict[str, Any] = json.loads(self._log.read(start, end - 1).decode("utf-8"))
        return value

    def _remember(self, index: int, event: dict[str, Any]) -> None:
        self._cache[index] = event
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def tail_turns(self, turns: int) -> list[dict[str, Any]]:
        """The events of the last ``turns`` turns, each from its input message, oldest first.

        Walks back from the end and parses only what it returns.
        """
        index = first = len(self)
        seen = 0
        while index > 0 and seen < turns:
            index -= 1
            event = self._get(index)
            if event.get("type") == TURN_START:
                seen += 1
                data = event.get("data")
                consumed = data.get("input") if isinstance(data, dict) else None
                first = consumed if type(consumed) is int and 0 <= consumed < index else index
        if seen < turns:
            first = 0
        return self[first:]

    def start(self, index: int) -> int:
        """Byte offset of durable event ``index``'s line."""
        split = len(self._base)
        return self._base[index] if index < split else self._tail[index - split]

    def span(self, index: int) -> tuple[int, int]:
        """Byte range of durable event ``index``'s line, its ``\\n`` included."""
        following = index + 1
        end = self.start(following) if following < self.durable_count else self.durable_length
        return self.start(index), end

    def queue(self, event: dict[str, Any], line: bytes) -> None:
        self._queued.append(event)
        self._lines.append(line)

    def queued_bytes(self, count: int) -> bytes:
        return b"".join(self._lines[:count])

    def commit(self, count: int) -> None:
        """The first ``count`` queued events are now durable, right after ``durable_length``."""
        position = self.durable_length
        first = self.durable_count
        for offset, line in enumerate(self._lines[:count]):
            self._tail.append(position)
            self._remember(first + offset, self._queued[offset])
            position += len(line)
        self.durable_length = position
        del self._queued[:count]
        del self._lines[:count]

    def queued_events(self) -> list[dict[str, Any]]:
        return list(self._queued)

    def rebase(self, tail: array[int], durable_length: int) -> None:
        """Replace the durable index with ``tail`` (a full re-scan's offsets); the queued events
        stay. In place, so whoever holds this sequence sees the re-scanned log."""
        self._base_view = None
        self._base = ()
        self._tail = tail
        self.durable_length = durable_length
        self._cache.clear()

    def offsets_bytes(self) -> bytes:
        """Every durable line offset as little-endian uint64 (the checkpoint's ``offsets.bin``)."""
        head = self._base_view.tobytes() if self._base_view is not None else b""
        return head + self._tail.tobytes()
