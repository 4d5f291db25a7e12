"""The schedule fold (schedule.md §3, §8): strict decoding of ``schedule/change`` payloads and the
transitions over an insertion-ordered map of active records. Pure: no I/O, no clock, no logging.

``fold_schedule`` folds a whole event list; ``ScheduleFolder`` is the same fold fed one payload at a
time (the session layer keeps one up to date, checkpoints it with ``to_json``/``from_json`` and
trial-feeds a ``copy`` to refuse a change that would corrupt the log). Every violation raises
``ScheduleLogError`` and leaves a folder unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from core.errors import ScheduleLogError
from core.events import EventType
from core.schedule.every import next_target
from core.schedule.log import FoldingLog, SessionLog
from core.schedule.records import (
    VERSION,
    AfterRecord,
    AtRecord,
    Change,
    CreateChange,
    DeleteChange,
    DispatchChange,
    EveryRecord,
    Record,
    decode_id,
    decode_instant,
    decode_record,
)
from core.schedule.wire import safe_int

_CHANGE = EventType.SCHEDULE_CHANGE.value  # a plain str: the fold compares it 10^6 times
_CREATE_KEYS = frozenset({"version", "operation", "schedule"})
_DELETE_KEYS = frozenset({"version", "operation", "id"})
_EVERY_DISPATCH_KEYS = frozenset({"version", "operation", "id", "acceptedAt"})
_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class ScheduleFold:
    """The fold's result: ``active`` records and ``seen_ids``, both in creation order."""

    active: tuple[Record, ...] = ()
    seen_ids: tuple[str, ...] = ()

    def get(self, schedule_id: str) -> Record | None:
        """The active record with exactly this id, or None."""
        return next((record for record in self.active if record.id == schedule_id), None)

    def to_json(self) -> dict[str, Any]:
        """``{"active": [<record>...], "seenIds": [...]}`` in the §2.2 forms and key orders."""
        return {"active": [r.to_json() for r in self.active], "seenIds": list(self.seen_ids)}


def _is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(value, Mapping)`` with a fast path for the usual ``dict`` (ABC checks are slow)."""
    return type(value) is dict or isinstance(value, Mapping)


def _decode_version(value: object) -> None:
    if type(value) is int and value == VERSION:
        return
    if value is _MISSING or safe_int(value) != VERSION:
        raise ScheduleLogError("version must be the number 1")


def decode_change(data: object) -> Change:
    """Strictly decode one ``schedule/change`` payload (§2.3, §8.2). Raises ScheduleLogError."""
    if not _is_mapping(data):
        raise ScheduleLogError("a schedule change must be an object")
    _decode_version(data.get("version", _MISSING))
    operation = data.get("operation")
    keys = data.keys()
    if operation == "create" and keys == _CREATE_KEYS:
        return CreateChange(decode_record(data["schedule"]))
    if operation == "delete" and keys == _DELETE_KEYS:
        return DeleteChange(decode_id(data["id"]))
    if operation == "dispatch" and keys == _DELETE_KEYS:
        return DispatchChange(decode_id(data["id"]))
    if operation == "dispatch" and keys == _EVERY_DISPATCH_KEYS:
        sid = decode_id(data["id"])
        return DispatchChange(sid, decode_instant(data["acceptedAt"], "acceptedAt"))
    raise ScheduleLogError("unknown operation or wrong key set for a schedule change")


class ScheduleFolder:
    """The incremental fold: ``feed`` one payload at a time, ``fold`` for an immutable snapshot."""

    __slots__ = ("_active", "_seen", "_seen_set", "_snapshot")

    def __init__(self) -> None:
        self._active: dict[str, Record] = {}
        self._seen: list[str] = []
        self._seen_set: set[str] = set()
        self._snapshot: ScheduleFold | None = ScheduleFold()

    def feed(self, data: object) -> None:
        """Decode and apply one payload. On ScheduleLogError the state is unchanged, so an
        append guard may feed the live folder directly; ``copy`` is for speculative batches."""
        self.apply(decode_change(data))

    def apply(self, change: Change) -> None:
        """Apply one decoded change (§8.3). On ScheduleLogError the state is unchanged."""
        if isinstance(change, CreateChange):
            self._create(change.record)
        elif isinstance(change, DeleteChange):
            self._require_active(change.id)
            del self._active[change.id]
        else:
            self._dispatch(change)
        self._snapshot = None

    def fold(self) -> ScheduleFold:
        """A snapshot of the current state (cached until the next feed)."""
        if self._snapshot is None:
            self._snapshot = ScheduleFold(tuple(self._active.values()), tuple(self._seen))
        return self._snapshot

    def copy(self) -> ScheduleFolder:
        """An independent folder with the same state (for trial feeding)."""
        twin = ScheduleFolder()
        twin._active = dict(self._active)
        twin._seen = list(self._seen)
        twin._seen_set = set(self._seen_set)
        twin._snapshot = self._snapshot
        return twin

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> ScheduleFolder:
        """The inverse of ``ScheduleFold.to_json()``. Raises ScheduleLogError for a bad state.

        The state must hold exactly ``active`` and ``seenIds``; ids must be unique, and the active
        records must be seen ids appearing in the same relative (creation) order.
        """
        if state.keys() != {"active", "seenIds"}:
            raise ScheduleLogError("a fold state has exactly the keys active and seenIds")
        seen, active = state["seenIds"], state["active"]
        if not isinstance(seen, list) or not isinstance(active, list):
            raise ScheduleLogError("active and seenIds must be arrays")
        folder = cls()
        folder._seen = [decode_id(sid) for sid in seen]
        folder._seen_set = set(folder._seen)
        if len(folder._seen_set) != len(folder._seen):
            raise ScheduleLogError("seenIds holds a duplicate id")
        folder._active = {record.id: record for record in map(decode_record, active)}
        _check_creation_order(folder._seen, list(folder._active), len(active))
        folder._snapshot = None
        return folder

    def _create(self, record: Record) -> None:
        if record.id in self._seen_set:
            raise ScheduleLogError("a create reuses an id already created in this scope")
        self._seen.append(record.id)
        self._seen_set.add(record.id)
        self._active[record.id] = record

    def _require_active(self, schedule_id: str) -> Record:
        record = self._active.get(schedule_id)
        if record is None:
            raise ScheduleLogError("a change names an id that is not active")
        return record

    def _dispatch(self, change: DispatchChange) -> None:
        record = self._require_active(change.id)
        if not isinstance(record, EveryRecord):
            if change.accepted_ms is not None:
                raise ScheduleLogError("a one-shot dispatch must not carry acceptedAt")
            del self._active[change.id]
            return
        if change.accepted_ms is None:
            raise ScheduleLogError("an every dispatch needs acceptedAt")
        if change.accepted_ms < record.scheduled_ms:
            raise ScheduleLogError("an every dispatch precedes the record's target")
        following = next_target(
            record.scheduled_ms, record.every_seconds * 1000, change.accepted_ms
        )
        if following is None:
            del self._active[change.id]
        else:
            self._active[change.id] = replace(record, scheduled_ms=following)


def _check_creation_order(seen: list[str], active_ids: list[str], count: int) -> None:
    if len(active_ids) != count:
        raise ScheduleLogError("active holds a duplicate id")
    position = {sid: index for index, sid in enumerate(seen)}
    indexes = [position.get(sid, -1) for sid in active_ids]
    if -1 in indexes or indexes != sorted(indexes):
        raise ScheduleLogError("active records must be seen ids in creation order")


def check_seed_length(seed_length: object, count: int) -> int:
    """``seed_length`` as an int in 0..count (an integral float counts; a bool never does)."""
    seed = safe_int(seed_length)
    if seed is None or not 0 <= seed <= count:
        raise ScheduleLogError("seed_length must be a whole number within the log")
    return seed


def schedule_payloads(events: Sequence[object], start: int) -> Iterable[object]:
    """The ``data`` of every ``schedule/change`` event at index ≥ ``start`` (missing data: a sentinel
    that fails decoding). Non-mapping events and every other type are ignored."""
    for index in range(start, len(events)):
        event = events[index]
        if _is_mapping(event) and event.get("type") == _CHANGE:
            yield event.get("data", _MISSING)


def fold_schedule(events: Sequence[Mapping[str, Any]], seed_length: object = 0) -> ScheduleFold:
    """Fold a session's events from ``seed_length`` on (§8). Raises ScheduleLogError."""
    folder = ScheduleFolder()
    for data in schedule_payloads(events, check_seed_length(seed_length, len(events))):
        folder.feed(data)
    return folder.fold()


def fold_reader(log: SessionLog) -> Callable[[], ScheduleFold]:
    """How to fold ``log`` from now on: its own incremental fold when it keeps one
    (``FoldingLog``), else a full ``fold_schedule(log.events, log.seed_length)``. Both raise
    ScheduleLogError when the fold fails."""
    if isinstance(log, FoldingLog):
        return log.schedule_fold
    return lambda: fold_schedule(log.events, log.seed_length)


def allocate_schedule_id(seen_ids: Iterable[str]) -> str:
    """The next ``schedule-N`` (§3): N starts at |S| + 1 and skips ids already in S."""
    seen = set(seen_ids)
    number = len(seen) + 1
    while f"schedule-{number}" in seen:
        number += 1
    return f"schedule-{number}"


__all__ = [
    "AfterRecord",
    "AtRecord",
    "EveryRecord",
    "ScheduleFold",
    "ScheduleFolder",
    "allocate_schedule_id",
    "check_seed_length",
    "decode_change",
    "fold_reader",
    "fold_schedule",
]
