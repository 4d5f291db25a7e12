"""The schedule fold (schedule.md §3, §8): strict decoding of ``schedule/change`` payloads and the
transitions over an insertion-ordered map of active records. Pure: no I/O, no clock, no logging.

``fold_schedule`` folds a whole event list; ``ScheduleFolder`` is the same fold fed one payload at a
time (the session layer keeps one up to date, checkpoints it with ``to_json``/``from_json`` and
trial-feeds a ``copy`` to refuse a change that would corrupt the log). Every violation raises
``ScheduleLogError`` and leaves a folder unchanged.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, islice, repeat
from operator import eq, methodcaller
from typing import Any

from core.errors import ScheduleLogError
from core.events import EventType
from core.instant import parse_instant_text
from core.schedule.due import DueIndex
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
    quick_record,
)
from core.schedule.wire import TRIM_CHARS, safe_int

try:
    from core.schedule.plainfeed import feed_plain
except ImportError:  # installed without a C compiler: ``feed`` alone
    compiled_feed: Callable[[list[object], int, dict[str, Record], dict[str, int]], int] | None = (
        None
    )
else:
    compiled_feed = feed_plain
"""The compiled feed of plain changes, or None (tests set it to None to run ``feed`` alone)."""

_CHANGE = EventType.SCHEDULE_CHANGE.value  # a plain str: the fold compares it 10^6 times
_MISSING: Any = object()
_GET_DATA = methodcaller("get", "data", _MISSING)


@dataclass(frozen=True, slots=True)
class ScheduleFold:
    """The fold's result: ``active`` records and ``seen_ids``, both in creation order.

    ``source`` (not part of the value: never compared or shown) is the incremental folder that
    took this snapshot; while it still holds this very snapshot, ``due_index`` is its next-due
    index, so ``plan_delivery`` need not scan ``active``."""

    active: tuple[Record, ...] = ()
    seen_ids: tuple[str, ...] = ()
    source: ScheduleFolder | None = field(default=None, compare=False, repr=False)

    def get(self, schedule_id: str) -> Record | None:
        """The active record with exactly this id, or None."""
        return next((record for record in self.active if record.id == schedule_id), None)

    def to_json(self) -> dict[str, Any]:
        """``{"active": [<record>...], "seenIds": [...]}`` in the §2.2 forms and key orders."""
        return {"active": [r.to_json() for r in self.active], "seenIds": list(self.seen_ids)}

    def due_index(self) -> DueIndex | None:
        """The next-due index of exactly this state, or None (no folder keeps one for it)."""
        source = self.source
        if source is None or source._snapshot is not self:
            return None
        return source.due_index()


def _instant(data: dict[str, Any]) -> int | None:
    """``acceptedAt`` in ms when it is a canonical instant ``str``, else None. The fast path
    tests the result for truth: an ``acceptedAt`` of exactly 1970 (0) just takes the strict one."""
    text = data.get("acceptedAt")
    if type(text) is str:
        try:
            return parse_instant_text(text)
        except ValueError:
            return None
    return None


def _decode_version(value: object) -> None:
    if value is _MISSING or safe_int(value) != VERSION:
        raise ScheduleLogError("version must be the number 1")


def decode_change(data: object) -> Change:
    """Strictly decode one ``schedule/change`` payload (§2.3, §8.2). Raises ScheduleLogError."""
    if type(data) is not dict and not isinstance(data, Mapping):  # dict first: ABC checks are slow
        raise ScheduleLogError("a schedule change must be an object")
    version = data.get("version", _MISSING)
    if type(version) is not int or version != VERSION:  # the int 1 writers emit skips safe_int
        _decode_version(version)
    # Exact key sets by count: version is present and operation matched, so a payload of the
    # operation's size holding its other keys has exactly its set (cheaper than keys() == set).
    operation, size = data.get("operation"), len(data)
    if size == 3:
        if operation == "create" and "schedule" in data:
            return CreateChange(decode_record(data["schedule"]))
        if operation == "delete" and "id" in data:
            return DeleteChange(decode_id(data["id"]))
        if operation == "dispatch" and "id" in data:
            return DispatchChange(decode_id(data["id"]))
    elif size == 4 and operation == "dispatch" and "id" in data and "acceptedAt" in data:
        sid = decode_id(data["id"])
        return DispatchChange(sid, decode_instant(data["acceptedAt"], "acceptedAt"))
    raise ScheduleLogError("unknown operation or wrong key set for a schedule change")


class ScheduleFolder:
    """The incremental fold: ``feed`` one payload at a time, ``fold`` for an immutable snapshot.

    ``feed`` tries the fast path first (``_feed_common``: the exact shapes writers emit, decoded
    without building change values); anything else goes through the strict ``decode_change``, so
    every error is the strict decoder's. Both end in the same transition methods."""

    __slots__ = ("_active", "_due", "_held", "_seen", "_snapshot")

    def __init__(self) -> None:
        self._active: dict[str, Record] = {}
        self._seen: dict[str, int] = {}  # id -> creation ordinal: creation order and lookup
        self._snapshot: ScheduleFold | None = ScheduleFold()
        # the next-due index: built by from_json or on first use (an owner), then kept
        self._due: DueIndex | None = None
        self._held: int | None = (
            None  # the index's hold (DueIndex.hold_after), kept across rebuilds
        )

    def feed(self, data: object) -> None:
        """Decode and apply one payload. On ScheduleLogError the state is unchanged, so an
        append guard may feed the live folder directly; ``copy`` is for speculative batches.

        The shapes writers emit are decoded inline (one call per change: this runs for every
        change of a log); any other payload, valid or not, is the strict decoder's."""
        if type(data) is dict and (version := data.get("version")) == VERSION:
            operation, size = data.get("operation"), len(data)
            if type(version) is not int:  # True and 1.0 equal 1 too: the strict path judges
                pass
            elif operation == "create":
                record = data.get("schedule")
                if size == 3 and type(record) is dict and (record := quick_record(record)):
                    self._create(record)
                    return
            elif type(sid := data.get("id")) is str and sid and sid.strip(TRIM_CHARS) is sid:
                if size == 3 and operation == "delete":
                    self._delete(sid)
                    return
                if size == 3 and operation == "dispatch":
                    self._dispatch(sid, None)
                    return
                if size == 4 and operation == "dispatch" and (accepted := _instant(data)):
                    self._dispatch(sid, accepted)
                    return
        self.apply(decode_change(data))

    def feed_many(self, payloads: list[object]) -> None:
        """``feed`` each payload in order (the first that fails raises, those before it stay
        applied). Runs of plain changes go through the compiled feed where the install has it
        (``core/schedule/plainfeed.pyx``): the payload it stops at is fed here, so every error
        and every unusual shape is ``feed``'s own."""
        done, size = 0, len(payloads)
        while done < size:
            if compiled_feed is not None and self._due is None:
                self._snapshot = None
                done = compiled_feed(payloads, done, self._active, self._seen)
                if done == size:
                    return
            self.feed(payloads[done])
            done += 1

    def feed_all(self, payloads: Iterable[object]) -> None:
        """Feed ``payloads`` all or none: on ScheduleLogError the state is as before (the
        §8.5 guard of an append group, without copying a folder of 10^5 records per append).

        Undoing is cheap for what writers append; only a group refused after a delete or a
        one-shot dispatch restores creation order by re-sorting (O(n log n), and rare: Chime's
        own writers never append a change the fold refuses)."""
        seen_before, replaced = len(self._seen), []
        try:
            for data in payloads:
                sid = data.get("id") if isinstance(data, Mapping) else None
                # isinstance: the strict decoder accepts an id of a str subclass too
                if isinstance(sid, str) and sid in self._active:
                    replaced.append((sid, self._active[sid]))
                self.feed(data)
        except ScheduleLogError:
            self._undo(seen_before, replaced)
            raise

    def _undo(self, seen_before: int, replaced: list[tuple[str, Record]]) -> None:
        active, seen = self._active, self._seen
        while len(seen) > seen_before:  # creates add at the end of both: pop them back
            active.pop(seen.popitem()[0], None)
        moved = False
        for sid, record in reversed(replaced):
            if sid not in seen:
                continue  # created in this group, and undone above
            moved = moved or sid not in active
            active[record.id] = record  # the record's own id: a plain str key
        if moved:
            self._active = dict(sorted(active.items(), key=lambda item: seen[item[0]]))
        self._due, self._snapshot = None, None  # rebuilt on demand

    def apply(self, change: Change) -> None:
        """Apply one decoded change (§8.3). On ScheduleLogError the state is unchanged."""
        if isinstance(change, CreateChange):
            self._create(change.record)
        elif isinstance(change, DeleteChange):
            self._delete(change.id)
        else:
            self._dispatch(change.id, change.accepted_ms)

    def is_active(self, schedule_id: str) -> bool:
        """True when a record with exactly this id is active."""
        return schedule_id in self._active

    def fold(self) -> ScheduleFold:
        """A snapshot of the current state (cached until the next feed)."""
        if self._snapshot is None:
            self._snapshot = ScheduleFold(tuple(self._active.values()), tuple(self._seen), self)
        return self._snapshot

    def due_index(self) -> DueIndex:
        """The next-due index of the current state (built once, then kept up to date)."""
        if self._due is None:
            self._due = DueIndex(self._active, self._seen, self._held)
        return self._due

    def hold_after(self, bound_ms: int | None) -> None:
        """Until lifted (None), the next-due index answers no record after ``bound_ms``: the
        records a staged check of a warm open has not reached yet (``DueIndex.hold_after``)."""
        self._held = bound_ms
        if self._due is not None:
            self._due.hold_after(bound_ms)

    def copy(self) -> ScheduleFolder:
        """An independent folder with the same state (for trial feeding)."""
        twin = ScheduleFolder()
        twin._active = dict(self._active)
        twin._seen = dict(self._seen)
        twin._snapshot = self._snapshot
        twin._held = self._held
        if self._due is not None:
            twin._due = self._due.copy_for(twin._active)
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
        folder._seen = {sid: index for index, sid in enumerate(map(decode_id, seen))}
        if len(folder._seen) != len(seen):
            raise ScheduleLogError("seenIds holds a duplicate id")
        folder._active = {record.id: record for record in map(decode_record, active)}
        _check_creation_order(list(folder._seen), list(folder._active), len(active))
        folder._snapshot = None
        folder.due_index()  # here, in the open's worker thread: not in the owner's first drive
        return folder

    # -- transitions (§8.3): each checks first, then changes the state --------------------------

    def _create(self, record: Record) -> None:
        sid, seen = record.id, self._seen
        if sid in seen:
            raise ScheduleLogError("a create reuses an id already created in this scope")
        seen[sid] = ordinal = len(seen)
        self._active[sid] = record
        self._snapshot = None
        if self._due is not None:
            self._due.added(record, ordinal)

    def _delete(self, sid: str) -> None:
        if self._active.pop(sid, None) is None:
            raise ScheduleLogError("a delete names an id that is not active")
        self._removed()

    def _removed(self) -> None:
        self._snapshot = None
        if self._due is not None:
            self._due.removed(self._seen)

    def _dispatch(self, sid: str, accepted: int | None) -> None:
        record = self._active.get(sid)
        if record is None:
            raise ScheduleLogError("a dispatch names an id that is not active")
        if type(record) is not EveryRecord:
            if accepted is not None:
                raise ScheduleLogError("a one-shot dispatch must not carry acceptedAt")
            del self._active[sid]
            self._removed()
            return
        if accepted is None:
            raise ScheduleLogError("an every dispatch needs acceptedAt")
        if accepted < record.scheduled_ms:
            raise ScheduleLogError("an every dispatch precedes the record's target")
        following = next_target(record.scheduled_ms, record.every_seconds * 1000, accepted)
        if following is None:
            del self._active[sid]
            self._removed()
            return
        # the constructor, not dataclasses.replace (~4 us: it walks the fields)
        advanced = EveryRecord(sid, record.prompt, record.every_seconds, following)
        self._active[sid] = advanced
        self._snapshot = None
        if self._due is not None:  # the new entry first: a rebuild on removal keeps it once
            self._due.added(advanced, self._seen[sid])
            self._due.removed(self._seen)


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


def _from(events: Sequence[object], start: int) -> Iterator[object]:
    """The events at index ≥ ``start``. A list or tuple is iterated directly (about four times
    cheaper than indexing it from Python); any other Sequence is indexed, as the protocol asks."""
    if type(events) is list or type(events) is tuple:
        return islice(events, start, None)
    return map(events.__getitem__, range(start, len(events)))


def _dict_payloads(events: Sequence[object], start: int) -> Iterator[object]:
    """The ``data`` of each ``schedule/change`` event at index ≥ ``start`` (the sentinel when it
    has none), for a list or tuple of plain dicts (every log Chime holds): the filter runs in C,
    no Python code runs for an event that is not a schedule change. Raises TypeError, as it
    reaches it, for an event that is not a dict (``dict.get`` refuses it)."""
    get: Callable[[object, str], object] = dict.get  # type: ignore[assignment]  # refuses non-dicts at run time, which is the point
    types = map(get, islice(events, start, None), repeat("type"))
    return map(_GET_DATA, compress(islice(events, start, None), map(eq, types, repeat(_CHANGE))))


def _exact_dict_payloads(events: Sequence[dict[str, Any]], start: int) -> Iterator[object]:
    """``_dict_payloads`` for a list or tuple of exact dicts (checked first, in C: no ``get``
    of a subclass to honour), with ``data`` read by the unbound ``dict.get`` too (a tenth of the
    fold of 10^5 changes)."""
    get = dict.get
    found = compress(
        islice(events, start, None),
        map(eq, map(get, islice(events, start, None), repeat("type")), repeat(_CHANGE)),
    )
    return map(get, found, repeat("data"), repeat(_MISSING))


def _payloads(events: Sequence[object], start: int) -> Iterator[object]:
    """``_dict_payloads`` for any Sequence of anything: only mappings count."""
    return (
        event.get("data", _MISSING)
        for event in _from(events, start)
        # dict first (ABC checks are slow); a TypeGuard helper would cost a call per event.
        if (type(event) is dict or isinstance(event, Mapping)) and event.get("type") == _CHANGE
    )


def fold_schedule(events: Sequence[Mapping[str, Any]], seed_length: object = 0) -> ScheduleFold:
    """Fold a session's events from ``seed_length`` on (§8). Raises ScheduleLogError.

    Only mappings whose ``type`` is exactly ``schedule/change`` are decoded, from their ``data``
    (a missing ``data`` is the sentinel, which fails decoding); everything else is ignored.
    """
    start = check_seed_length(seed_length, len(events))
    folder = ScheduleFolder()
    if (type(events) is list or type(events) is tuple) and set(map(type, events)) <= {dict}:
        folder.feed_many(list(_exact_dict_payloads(events, start)))
        return _plain(folder)
    if type(events) is list or type(events) is tuple:
        try:
            deque(map(folder.feed, _dict_payloads(events, start)), 0)
        except TypeError:  # not all dicts: fold again, the general way (same changes, same end)
            folder = ScheduleFolder()
        else:
            return _plain(folder)
    deque(map(folder.feed, _payloads(events, start)), 0)
    return _plain(folder)


def _plain(folder: ScheduleFolder) -> ScheduleFold:
    """The folder's fold without its index: a one-off fold is planned on at most once."""
    fold = folder.fold()
    return ScheduleFold(fold.active, fold.seen_ids)


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
