"""One line of the session list, read cheaply (session-log.md §1, §8).

Runs in a worker thread (``SessionStore.list``); reads through ``jsonl_store``. The header gives
the id and creation time; the checkpoint's folds (when its covered length fits the file; not
re-hashed, since a title is cosmetic) give the title and last activity up to its length; only the
bytes after it are scanned. A session without a checkpoint is scanned whole once; its close then
writes one.

``active_reminders`` (desktop.md §1: the sidebar's badge for every session, cold ones too) is the
checkpoint's schedule fold state (``ScheduleFolder.from_json``) fed the ``schedule/change`` events
of the scanned bytes at index ``>= seedLength`` (a fork's inherited prefix is not in scope). Like
the title it is cosmetic: the checkpoint is not re-hashed, so a log edited under an intact-looking
checkpoint may show a stale count until the session is opened (a checkpoint whose schedule state
does not decode is ignored whole: the log is scanned). It is None, and no badge is shown,
when the fold cannot be known cheaply: the checkpoint kept a failed fold, a change in the scanned
bytes fails it, the scan meets a corrupt line, or ``seedLength`` is beyond the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from core.errors import ScheduleLogError, SessionError
from core.schedule.fold import CHANGE_TYPE, ScheduleFolder
from core.session.checkpoint import decode_checkpoint
from core.session.events import parse_header, parse_instant
from core.session.folds import SessionFolds
from core.session.jsonl_store import (
    CHECKPOINT_NAME,
    LOG_NAME,
    log_length,
    read_file,
    read_head,
    read_range,
)
from core.session.scan import scan


@dataclass(frozen=True)
class SessionSummary:
    """What the sidebar shows. ``problem`` is set when the header cannot be read."""

    id: str
    title: str | None
    created_at: datetime | None
    last_activity_at: datetime
    parent_id: str | None = None
    event_count: int = 0
    problem: str | None = None
    active_reminders: int | None = None
    """Cosmetic (see the module docstring); None when unknown: show no badge then."""


def summarize(folder: Path, session_id: str) -> SessionSummary:
    """The summary of the session in ``folder``."""
    path = folder / LOG_NAME
    head = read_head(path)
    try:
        header = parse_header(head)
    except SessionError as error:
        return SessionSummary(session_id, None, None, _EPOCH_START, problem=str(error))
    folds, schedule, start = _checkpoint_state(folder, header.id, log_length(path))
    if folds is None:
        folds, schedule, start = SessionFolds(header.seed_length), ScheduleFolder(), len(head) + 1
    reminders = _ActiveReminders(schedule, header.seed_length)
    clean = _scan_tail(path, start, folds, reminders)
    created = parse_instant(header.created_at)
    last = parse_instant(folds.last_at) if folds.last_at else created
    known = clean and header.seed_length <= folds.count
    count = reminders.count() if known else None
    summary = SessionSummary(header.id, folds.display_title, created, last, header.parent_id)
    return replace(summary, event_count=folds.count, active_reminders=count)


def _scan_tail(path: Path, start: int, folds: SessionFolds, reminders: _ActiveReminders) -> bool:
    """Feed the events from byte ``start`` on to both folds; False when a line is corrupt."""

    def sink(seq: int, _pos: int, envelope: dict[str, Any]) -> None:
        reminders.feed(seq, envelope)
        folds.feed(envelope)

    result = scan(read_range(path, start), start=0, first_seq=folds.count, sink=sink)
    return result.corruption is None


class _ActiveReminders:
    """The schedule fold of a listed session, kept only to count its active records."""

    def __init__(self, folder: ScheduleFolder | None, seed_length: int) -> None:
        self._folder = folder
        self._seed_length = seed_length

    def feed(self, seq: int, envelope: Mapping[str, Any]) -> None:
        """Fold one scanned event: a schedule change in scope; a failing one loses the count."""
        if self._folder is None or seq < self._seed_length:
            return
        if envelope.get("type") == CHANGE_TYPE:
            try:
                self._folder.feed(envelope.get("data"))
            except ScheduleLogError:
                self._folder = None

    def count(self) -> int | None:
        return None if self._folder is None else len(self._folder.fold().active)


def _checkpoint_state(
    folder: Path, session_id: str, size: int
) -> tuple[SessionFolds | None, ScheduleFolder | None, int]:
    """The checkpoint's folds, schedule folder (None: its fold had failed) and covered length,
    or ``(None, None, 0)`` when there is no usable checkpoint."""
    raw = read_file(folder / CHECKPOINT_NAME)
    checkpoint = decode_checkpoint(raw) if raw is not None else None
    if checkpoint is None or checkpoint.session_id != session_id or checkpoint.length > size:
        return None, None, 0
    try:
        folds = SessionFolds.from_json(checkpoint.folds)
        state = checkpoint.schedule
        schedule = None if state is None else ScheduleFolder.from_json(state)
    except (KeyError, TypeError, ValueError, ScheduleLogError):
        return None, None, 0
    return folds, schedule, checkpoint.length


_EPOCH_START = datetime.fromisoformat("1970-01-01T00:00:00+00:00")
