"""The derived checkpoint's content (session-log.md §8). Pure: no I/O, no clock.

A checkpoint lets a session of 10^6 events open without parsing them. It vouches for the first
``length`` bytes of ``session.jsonl`` (header included) only while their xxh3-128 ``digest`` still
matches; the folds are then taken from it and only the bytes after ``length`` are scanned. The line
offsets of its ``count`` events live beside it in ``offsets.bin`` (little-endian uint64 each), with
their own digest. Both files are derived: deleting them only makes the next open slower.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from core.errors import ScheduleLogError
from core.jsonread import parse_json
from core.jsonvalue import compact_json
from core.schedule.fold import ScheduleFolder
from core.session.folds import ScheduleFailed, ScheduleState, SessionFolds

CHECKPOINT_VERSION = 3
"""Version 3 folds failed inputs, the conversation tree and the session's model and instructions
(agent.md §7); a file of another version is ignored (the next open scans the log once and writes
a version 3)."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class Checkpoint:
    """Fold state after the first ``count`` events, which end at byte ``length`` of the log.

    ``schedule`` is ``ScheduleFold.to_json()``, or None when the fold had failed with
    ``schedule_error``; ``folds_state`` is ``SessionFolds.to_json()``.
    """

    session_id: str
    length: int
    count: int
    digest: str
    offsets_digest: str
    schedule: Mapping[str, Any] | None
    schedule_error: str | None
    folds_state: Mapping[str, Any]

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
        return SessionFolds.from_json(self.folds_state, schedule)

    def encode(self) -> bytes:
        return compact_json(
            {
                "version": CHECKPOINT_VERSION,
                "sessionId": self.session_id,
                "length": self.length,
                "count": self.count,
                "digest": self.digest,
                "offsetsDigest": self.offsets_digest,
                "schedule": self.schedule,
                "scheduleError": self.schedule_error,
                "folds": self.folds_state,
            }
        ).encode("utf-8")


def decode_checkpoint(raw: bytes) -> Checkpoint | None:
    """The checkpoint in ``raw``, or None when it is unreadable or of another version."""
    try:
        value = parse_json(raw)
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
        )
    except (ValueError, KeyError, TypeError):
        return None


def _typed(value: object, kind: type[_T]) -> _T:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"expected {kind.__name__}")
    return value


def _optional_mapping(value: object) -> Mapping[str, Any] | None:
    return None if value is None else _typed(value, dict)
