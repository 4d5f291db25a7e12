"""The next-due index of an incremental schedule fold (schedule.md §10.4). Pure: no I/O, no clock.

Two binary heaps over the active records, one of one-shots (``after``/``at``) and one of ``every``
records. An entry is one int, ``scheduled_ms << 32 | ordinal`` with ``ordinal`` the record's
creation position (its index in ``seen_ids``): int order is then exactly §10.4's "smallest
scheduledAt, ties by creation order" (the shift keeps the order of negative targets too). So the
owner finds the next due one-shot and the earliest target in O(log n), and the due every records in
O(k log k) for k of them, however many are active. Plain ints, not tuples of records: building the
heaps over 10^5 records runs in C (``map``, ``compress``, ``heapify``) and allocates nothing the
cyclic garbage collector has to walk.

Deletion is lazy: an entry is live while the fold's active map holds a record of that id with that
target (an id is never re-created, and an every record's target only moves forward, so the pair
names one state). Stale entries are dropped when they reach a top, and both heaps are rebuilt
from the live records once the stale ones outnumber them, so memory stays O(active).

A hold (``hold_after``): while a warm open's checkpoint is verified in stages, only the records
due by the first stage's bound are checked against the log; the index then never answers a record
after that bound as due, nor as the earliest (the owner drives again once the whole check ends).
Must not decide anything itself (that is ``plan_delivery``) nor mutate the active map.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from itertools import compress, repeat
from operator import attrgetter, is_, lshift, not_, or_

from core.schedule.records import EveryRecord, Record

_ORDINAL_BITS = 32
_ORDINAL_MASK = (1 << _ORDINAL_BITS) - 1
_SCHEDULED_MS = attrgetter("scheduled_ms")
_SLACK = 64
"""Stale entries tolerated beyond the live count before the heaps are rebuilt."""


class DueIndex:
    """The heaps of one fold's ``active`` map (read, never written) and its creation ordinals."""

    __slots__ = ("_active", "_every", "_held", "_ids", "_one_shots", "_stale")

    def __init__(
        self,
        active: Mapping[str, Record],
        ordinals: Mapping[str, int],
        held_after: int | None = None,
    ) -> None:
        self._active = active
        self._held = held_after
        """Records whose target is after this (ms) are not answered (None: no hold)."""
        self._ids: list[str] = []
        """Each ordinal's id (``seen_ids`` in creation order)."""
        self._one_shots: list[int] = []
        self._every: list[int] = []
        self._stale = 0
        self._rebuild(ordinals)

    def copy_for(self, active: Mapping[str, Record]) -> DueIndex:
        """The same index over ``active``, a copy of the map this one reads."""
        twin = DueIndex.__new__(DueIndex)
        twin._active = active
        twin._ids = list(self._ids)
        twin._one_shots = list(self._one_shots)
        twin._every = list(self._every)
        twin._stale = self._stale
        twin._held = self._held
        return twin

    def hold_after(self, bound_ms: int | None) -> None:
        """Answer no record whose target is after ``bound_ms`` (None: lift the hold)."""
        self._held = bound_ms

    # -- maintenance (the fold calls these after changing its active map) ------------------

    def added(self, record: Record, ordinal: int) -> None:
        """``record`` became active (a create, or an every record advanced in place)."""
        ids = self._ids
        if ordinal == len(ids):
            ids.append(record.id)
        assert ids[ordinal] == record.id, "ordinals are seen_ids positions"
        heap = self._every if type(record) is EveryRecord else self._one_shots
        heapq.heappush(heap, record.scheduled_ms << _ORDINAL_BITS | ordinal)

    def removed(self, ordinals: Mapping[str, int]) -> None:
        """One active record was deleted, dispatched or replaced: its entry is stale now."""
        self._stale += 1
        if self._stale > len(self._active) + _SLACK:
            self._rebuild(ordinals)

    # -- queries ------------------------------------------------------------------------------

    def first_due_one_shot(self, now_ms: int) -> Record | None:
        """The due one-shot with the smallest (scheduledAt, creation order), or None."""
        top = self._top(self._one_shots)
        return top if top is not None and top.scheduled_ms <= self._bound(now_ms) else None

    def due_every(self, now_ms: int) -> list[EveryRecord]:
        """The due every records sorted by (scheduledAt, creation order)."""
        heap, found, pending = self._every, [], [0]
        self._top(heap)
        size, bound = len(heap), (self._bound(now_ms) + 1) << _ORDINAL_BITS
        while pending:  # the entries <= now form a subtree at the root: walk only that
            index = pending.pop()
            if index < size and (key := heap[index]) < bound:
                found.append(key)
                pending += (2 * index + 1, 2 * index + 2)
        found.sort()  # keys are unique: (ms, ordinal)
        return [record for key in found if isinstance(record := self._live(key), EveryRecord)]

    def earliest(self) -> int | None:
        """The smallest target over all active records, or None when none is active (or, under
        a hold, when it lies after the hold's bound)."""
        tops = [
            top.scheduled_ms for top in (self._top(self._one_shots), self._top(self._every)) if top
        ]
        first = min(tops) if tops else None
        return None if first is None or first > self._bound(first) else first

    # -- internals ----------------------------------------------------------------------------

    def _bound(self, now_ms: int) -> int:
        held = self._held
        return now_ms if held is None or now_ms <= held else held

    def _live(self, key: int) -> Record | None:
        """The active record ``key`` stands for, or None when the entry is stale."""
        record = self._active.get(self._ids[key & _ORDINAL_MASK])
        if record is None or record.scheduled_ms != key >> _ORDINAL_BITS:
            return None
        return record

    def _top(self, heap: list[int]) -> Record | None:
        """The record of the heap's live minimum, after dropping the stale entries above it."""
        while heap:
            record = self._live(heap[0])
            if record is not None:
                return record
            heapq.heappop(heap)
            self._stale -= 1
        return None

    def _rebuild(self, ordinals: Mapping[str, int]) -> None:
        """Both heaps from the live records; every step is a ``map`` or ``compress`` in C."""
        active = self._active
        self._ids = list(ordinals)  # insertion order is creation order: the ordinals 0..n-1
        records = list(active.values())
        shifted = map(lshift, map(_SCHEDULED_MS, records), repeat(_ORDINAL_BITS))
        keys = list(map(or_, shifted, map(ordinals.__getitem__, active)))
        is_every = list(map(is_, map(type, records), repeat(EveryRecord)))
        one_shots, every = list(compress(keys, map(not_, is_every))), list(compress(keys, is_every))
        heapq.heapify(one_shots)
        heapq.heapify(every)
        self._one_shots, self._every, self._stale = one_shots, every, 0
