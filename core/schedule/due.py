"""The next-due index of an incremental schedule fold (schedule.md §10.4). Pure: no I/O, no clock.

Two binary heaps over the active records, one of one-shots (``after``/``at``) and one of ``every``
records, each entry ``(scheduled_ms, ordinal, record)`` with ``ordinal`` the record's creation
position (its index in ``seen_ids``): heap order is then exactly §10.4's "smallest scheduledAt,
ties by creation order". So the owner finds the next due one-shot and the earliest target in
O(log n), and the due every records in O(k log k) for k of them, however many are active.

Deletion is lazy: an entry is live while the fold's active map still holds that very record
(records are immutable values; an every record advanced in place is a new value, and an id is
never re-created). Stale entries are dropped when they reach a top, and both heaps are rebuilt
from the live records once the stale ones outnumber them, so memory stays O(active).
Must not decide anything itself (that is ``plan_delivery``) nor mutate the active map.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

from core.schedule.records import EveryRecord, Record

Entry = tuple[int, int, Record]
_SLACK = 64
"""Stale entries tolerated beyond the live count before the heaps are rebuilt."""


class DueIndex:
    """The heaps of one fold's ``active`` map (read, never written) and its creation ordinals."""

    __slots__ = ("_active", "_every", "_one_shots", "_stale")

    def __init__(self, active: Mapping[str, Record], ordinals: Mapping[str, int]) -> None:
        self._active = active
        self._one_shots: list[Entry] = []
        self._every: list[Entry] = []
        self._stale = 0
        self._rebuild(ordinals)

    def copy_for(self, active: Mapping[str, Record]) -> DueIndex:
        """The same index over ``active``, a copy of the map this one reads."""
        twin = DueIndex.__new__(DueIndex)
        twin._active = active
        twin._one_shots = list(self._one_shots)
        twin._every = list(self._every)
        twin._stale = self._stale
        return twin

    # -- maintenance (the fold calls these after changing its active map) ------------------

    def added(self, record: Record, ordinal: int) -> None:
        """``record`` became active (a create, or an every record advanced in place)."""
        heap = self._every if type(record) is EveryRecord else self._one_shots
        heapq.heappush(heap, (record.scheduled_ms, ordinal, record))

    def removed(self, ordinals: Mapping[str, int]) -> None:
        """One active record was deleted, dispatched or replaced: its entry is stale now."""
        self._stale += 1
        if self._stale > len(self._active) + _SLACK:
            self._rebuild(ordinals)

    # -- queries ------------------------------------------------------------------------------

    def first_due_one_shot(self, now_ms: int) -> Record | None:
        """The due one-shot with the smallest (scheduledAt, creation order), or None."""
        top = self._top(self._one_shots)
        return top[2] if top is not None and top[0] <= now_ms else None

    def due_every(self, now_ms: int) -> list[EveryRecord]:
        """The due every records sorted by (scheduledAt, creation order)."""
        heap, found, pending = self._every, [], [0]
        self._top(heap)
        size, active = len(heap), self._active
        while pending:  # the entries <= now form a subtree at the root: walk only that
            index = pending.pop()
            if index < size and (entry := heap[index])[0] <= now_ms:
                record = entry[2]
                if active.get(record.id) is record:
                    found.append(entry)
                pending += (2 * index + 1, 2 * index + 2)
        found.sort()  # (ms, ordinal) is unique: the records themselves are never compared
        return [entry[2] for entry in found]  # type: ignore[misc]  # every heap holds only EveryRecord

    def earliest(self) -> int | None:
        """The smallest target over all active records, or None when none is active."""
        tops = [top[0] for top in (self._top(self._one_shots), self._top(self._every)) if top]
        return min(tops) if tops else None

    # -- internals ----------------------------------------------------------------------------

    def _top(self, heap: list[Entry]) -> Entry | None:
        """The heap's live minimum, after dropping the stale entries above it."""
        active = self._active
        while heap:
            top = heap[0]
            record = top[2]
            if active.get(record.id) is record:
                return top
            heapq.heappop(heap)
            self._stale -= 1
        return None

    def _rebuild(self, ordinals: Mapping[str, int]) -> None:
        one_shots: list[Entry] = []
        every: list[Entry] = []
        for sid, record in self._active.items():
            entry = (record.scheduled_ms, ordinals[sid], record)
            (every if type(record) is EveryRecord else one_shots).append(entry)
        heapq.heapify(one_shots)
        heapq.heapify(every)
        self._one_shots, self._every, self._stale = one_shots, every, 0
