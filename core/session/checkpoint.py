"""The derived checkpoint's content (session-log.md §8). Pure: no I/O, no clock.

A checkpoint lets a session of 10^6 events open without parsing them. It vouches for the first
``length`` bytes of ``session.jsonl`` (header included) only while their xxh3-128 ``digest`` still
matches; the folds are then taken from it and only the bytes after ``length`` are scanned. The line
offsets of its ``count`` events live beside it in ``offsets.bin`` (little-endian uint64 each), with
their own digest. Both files are derived: deleting them only makes the next open slower.

A derived file must never change what the log means, so a checkpoint is believed only when:

- its ``seal`` (the last key: xxh3-128 of the file's bytes before it) matches, so any edit or
  damage of the file itself makes it ignored at once, before anything is shown from it;
- the log's bytes still have its ``digest`` (checked off the path to the first screen, before
  any barrier: ``core.session.recovery``);
- what it claims about reminders and input holds against the log's own lines (``claims_hold``):
  each active record is re-derived from the line of its ``create`` (and, for an ``every`` record,
  of its latest ``dispatch``) that ``scheduleSources`` names, and each pending input is a
  ``user/message`` line in scope. So even a checkpoint forged with a correct seal cannot invent a
  reminder or move one in time; it could still hide one, or bring back one deleted later, which
  only a full fold would see (docs/guarantees.md). A live open checks them in two stages (``Stage``):
  the reminders due soon (with the pending inputs) first, so the owner may deliver those while
  the rest are checked (``core.session.live``). The conversation tree (with the transcript's
  queue: which inputs a turn took) and the session's choices are taken as sealed: a forger could
  change which version is shown, where a message stands or which model answers next, never what
  the log holds.

A checkpoint of a failed schedule fold is never used to open (the log is folded again: its
failure is the log's to say); the session list still reads its title.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import xxhash

from core.errors import ScheduleLogError
from core.events import ScheduleChanged, UserMessage
from core.jsonread import CHECKPOINT, parse_json
from core.jsonvalue import compact_json
from core.schedule.every import next_target
from core.schedule.fold import ScheduleFolder, decode_change
from core.schedule.records import CreateChange, DispatchChange, EveryRecord, Record
from core.session.created_lines import written_create
from core.session.folds import ScheduleFailed, ScheduleState, SessionFolds, Source
from core.session.lines import parse_entry

CHECKPOINT_VERSION = 5
"""Version 5 adds which inputs a turn has taken and the newest turn (the conversation's
``queue``, which the transcript places messages by) to version 4's seal, schedule sources, failed
inputs, conversation tree and session choices; a file of another version is ignored (the next
open scans the log once and writes a version 5)."""

_T = TypeVar("_T")
_SEAL_KEY = b',"seal":"'
_SEAL_SIZE = len(_SEAL_KEY) + 32 + 2  # the key, 32 hex digits, '"}'

LineOf = Callable[[int], bytes]
"""The log line of a covered event, without its ``\\n`` (IndexError beyond the checkpoint)."""


@dataclass(frozen=True)
class Checkpoint:
    """Fold state after the first ``count`` events, which end at byte ``length`` of the log.

    ``schedule`` is ``ScheduleFold.to_json()``, or None when the fold had failed with
    ``schedule_error``; ``sources`` holds each active record's ``Source``; ``folds_state`` is
    ``SessionFolds.to_json()``.
    """

    session_id: str
    length: int
    count: int
    digest: str
    offsets_digest: str
    schedule: Mapping[str, Any] | None
    schedule_error: str | None
    folds_state: Mapping[str, Any]
    sources: Mapping[str, Source] = field(default_factory=dict)

    @classmethod
    def of(cls, session_id: str, length: int, count: int, folds: SessionFolds) -> Checkpoint:
        """The checkpoint of ``folds`` after ``count`` events ending at byte ``length``; the
        digests are filled in when it is written."""
        schedule = folds.schedule
        return cls(
            session_id,
            length,
            count,
            "",
            "",
            schedule.fold().to_json() if isinstance(schedule, ScheduleFolder) else None,
            schedule.reason if isinstance(schedule, ScheduleFailed) else None,
            folds.to_json(),
            dict(folds.schedule_sources),
        )

    def folds(self) -> SessionFolds:
        """The folds it holds; ValueError when its state does not decode."""
        try:
            schedule: ScheduleState = (
                ScheduleFolder.from_json(self.schedule)
                if self.schedule is not None
                else ScheduleFailed(self.schedule_error or "the schedule fold had failed")
            )
        except ScheduleLogError as error:
            raise ValueError(f"the checkpoint's schedule state does not decode: {error}") from None
        folds = SessionFolds.from_json(self.folds_state, schedule)
        folds.schedule_sources = dict(self.sources)
        return folds

    def encode(self) -> bytes:
        """The file's bytes: compact JSON whose last key is the seal of the bytes before it."""
        body = compact_json(
            {
                "version": CHECKPOINT_VERSION,
                "sessionId": self.session_id,
                "length": self.length,
                "count": self.count,
                "digest": self.digest,
                "offsetsDigest": self.offsets_digest,
                "schedule": self.schedule,
                "scheduleError": self.schedule_error,
                "scheduleSources": [[sid, *where] for sid, where in self.sources.items()],
                "folds": self.folds_state,
            }
        ).encode("utf-8")
        head = body[:-1]
        return head + _SEAL_KEY + _seal_of(head) + b'"}'


def decode_checkpoint(raw: bytes) -> Checkpoint | None:
    """The checkpoint in ``raw``, or None when it is unreadable, of another version, or its seal
    does not match its bytes (edited or damaged)."""
    head = raw[:-_SEAL_SIZE]
    seal = raw[len(head) :]
    if not seal.startswith(_SEAL_KEY) or seal[len(_SEAL_KEY) : -2] != _seal_of(head):
        return None
    try:
        value = parse_json(raw, CHECKPOINT)
        if value["version"] != CHECKPOINT_VERSION:
            return None
        return Checkpoint(
            session_id=_typed(value["sessionId"], str),
            length=_typed(value["length"], int),
            count=_typed(value["count"], int),
            digest=_typed(value["digest"], str),
            offsets_digest=_typed(value["offsetsDigest"], str),
            schedule=_optional_mapping(value["schedule"]),
            schedule_error=None if value["scheduleError"] is None else str(value["scheduleError"]),
            folds_state=_typed(value["folds"], dict),
            sources=_sources(value["scheduleSources"]),
        )
    except (ValueError, KeyError, TypeError):
        return None


def _seal_of(head: bytes) -> bytes:
    return xxhash.xxh3_128_hexdigest(head).encode("ascii")


def _typed(value: object, kind: type[_T]) -> _T:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"expected {kind.__name__}")
    return value


def _optional_mapping(value: object) -> Mapping[str, Any] | None:
    return None if value is None else _typed(value, dict)


def _sources(value: object) -> dict[str, Source]:
    sources: dict[str, Source] = {}
    for sid, create, dispatch in _typed(value, list):
        later = None if dispatch is None else _typed(dispatch, int)
        sources[_typed(sid, str)] = (_typed(create, int), later)
    return sources


# -- what it claims, against the log -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Claims:
    """What a checkpoint's folds claim that acting on them depends on: the active records, the
    pending inputs and the seed length (taken when it is decoded: the live folds move on)."""

    records: tuple[Record, ...]
    pending: tuple[int, ...]
    seed_length: int

    @classmethod
    def of(cls, folds: SessionFolds) -> Claims | None:
        """The claims of ``folds``; None when its schedule fold has failed (nothing to check)."""
        schedule = folds.schedule
        if not isinstance(schedule, ScheduleFolder):
            return None
        return cls(schedule.fold().active, tuple(folds.pending), folds.seed_length)


@dataclass(frozen=True, slots=True)
class Stage:
    """One part of ``claims_hold``, for a check in stages (session-log.md §8): the ``first``
    part checks which records are claimed, the pending inputs and each record due by ``soon_ms``
    (the ones the owner may deliver first); the other part checks each record after it. With
    ``soon_ms`` None the first part checks every record and the other nothing."""

    first: bool
    soon_ms: int | None = None


WHOLE = Stage(first=True)
"""Every claim at once."""


def claims_hold(
    checkpoint: Checkpoint, claims: Claims | None, line_of: LineOf, stage: Stage = WHOLE
) -> bool:
    """True when every active reminder and pending input ``claims`` (decoded from
    ``checkpoint``) name, within ``stage``, is what the log's own lines say; False at the first
    doubt."""
    if claims is None:
        return False
    try:
        seed = claims.seed_length
        if stage.first and not _claimed_ids_match(claims.records, checkpoint):
            return False
        if stage.first and not _inputs_hold(claims.pending, checkpoint, seed, line_of):
            return False
        return _records_hold(claims.records, checkpoint, seed, line_of, stage)
    except (ValueError, IndexError, ScheduleLogError):
        return False


def _claimed_ids_match(active: Sequence[Record], checkpoint: Checkpoint) -> bool:
    return checkpoint.sources.keys() == {record.id for record in active}


def _records_hold(
    active: Sequence[Record], checkpoint: Checkpoint, seed: int, line_of: LineOf, stage: Stage
) -> bool:
    sources, first, bound = checkpoint.sources, stage.first, stage.soon_ms
    if bound is None and not first:
        return True  # the first part checked them all
    written = _written_forms(checkpoint, len(active))
    for record, form in zip(active, written, strict=True):
        if bound is not None and (record.scheduled_ms <= bound) is not first:
            continue  # the other part's
        create, dispatch = sources[record.id]
        last = create if dispatch is None else dispatch
        if not seed <= create <= last < checkpoint.count:
            return False
        if _as_written(record, create, dispatch, form, line_of):
            continue  # the very line Chime writes for this record: no decoding needed
        if record != _derived(create, dispatch, line_of):
            return False
    return True


def _as_written(
    record: Record, create: int, dispatch: int | None, form: object, line_of: LineOf
) -> bool:
    if dispatch is not None or type(form) is not dict or form.get("id") != record.id:
        return False
    return written_create(line_of(create), create, form)


def _written_forms(checkpoint: Checkpoint, count: int) -> Sequence[object]:
    """The checkpoint's own JSON of each active record, which the claimed records were decoded
    from in the same order (``Claims.of`` a checkpoint's folds); Nones when it has no such list."""
    forms = checkpoint.schedule.get("active") if checkpoint.schedule is not None else None
    return forms if type(forms) is list and len(forms) == count else [None] * count


def _derived(create: int, dispatch: int | None, line_of: LineOf) -> Record | None:
    """The record the create at ``create`` makes, moved on by the dispatch at ``dispatch``."""
    made = _change_at(create, line_of)
    if not isinstance(made, CreateChange):
        return None
    record = made.record
    if dispatch is None:
        return record
    moved = _change_at(dispatch, line_of)
    if not isinstance(record, EveryRecord) or not isinstance(moved, DispatchChange):
        return None
    if moved.id != record.id or moved.accepted_ms is None:
        return None
    period = record.every_seconds * 1000
    following = next_target(record.scheduled_ms, period, moved.accepted_ms)
    if following is None:
        return None
    return EveryRecord(record.id, record.prompt, record.every_seconds, following)


def _change_at(seq: int, line_of: LineOf) -> object:
    event = parse_entry(line_of(seq), seq).event
    return decode_change(event.data) if isinstance(event, ScheduleChanged) else None


def _inputs_hold(
    pending: Sequence[int], checkpoint: Checkpoint, seed: int, line_of: LineOf
) -> bool:
    return all(
        seed <= seq < checkpoint.count
        and isinstance(parse_entry(line_of(seq), seq).event, UserMessage)
        for seq in pending
    )
