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

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from core.errors import SessionError
from core.instant import parse_instant
from core.jsonread import LOG_HEADER
from core.schedule.fold import ScheduleFolder
from core.schedule.records import Record
from core.session.folds import SessionFolds
from core.session.jsonl_store import LOG_NAME, LogFile, log_length, read_head
from core.session.lines import parse_header
from core.session.recovery import read_checkpoint
from core.session.scan import scan


@dataclass(frozen=True)
class SessionFileSummary:
    """A stored session as its files tell it, read cheaply for the session list (the app turns it
    into the sidebar's ``ui.session_list.SessionListItem``). ``problem`` is set when the header
    cannot be read."""

    id: str
    title: str | None
    created_at: datetime | None
    last_activity_at: datetime
    parent_id: str | None = None
    event_count: int = 0
    problem: str | None = None
    active_reminders: int | None = None
    """Cosmetic (see the module docstring); None when unknown: show no badge then."""
    reminders: tuple[Record, ...] = ()
    """The active records behind ``active_reminders`` (empty when unknown): what the
    all-reminders view lists of a closed session, and whether one is already due."""


def summarize(folder: Path, session_id: str) -> SessionFileSummary:
    """The summary of the session in ``folder``."""
    path = folder / LOG_NAME
    head = read_head(path, LOG_HEADER.max_size)
    try:
        header = parse_header(head)
    except SessionError as error:
        return SessionFileSummary(session_id, None, None, _last_written(path), problem=str(error))
    folds, start = _checkpoint_state(folder, header.id, log_length(path))
    if folds is None:
        folds, start = SessionFolds(header.seed_length), len(head) + 1
    clean = _scan_tail(path, start, folds)
    created = parse_instant(header.created_at)
    last = parse_instant(folds.last_at) if folds.last_at else created
    schedule, count = folds.schedule, None
    active: tuple[Record, ...] = ()
    if clean and header.seed_length <= folds.count and isinstance(schedule, ScheduleFolder):
        active = tuple(schedule.fold().active)
        count = len(active)
    summary = SessionFileSummary(header.id, folds.display_title, created, last, header.parent_id)
    return replace(summary, event_count=folds.count, active_reminders=count, reminders=active)


def _scan_tail(path: Path, start: int, folds: SessionFolds) -> bool:
    """Feed the events from byte ``start`` on to the folds; False when a line is corrupt. The log
    is mapped and its pages let go as the scan goes (a long log without a checkpoint is not read
    into memory)."""
    log = LogFile(path, writable=False)
    try:
        buffer = log.buffer()
        result = scan(
            buffer, start=start, first_seq=folds.count, sink=folds.read, release=log.release
        )
    finally:
        log.close()
    return result.corruption is None


def _checkpoint_state(folder: Path, session_id: str, size: int) -> tuple[SessionFolds | None, int]:
    """The checkpoint's folds and covered length, or ``(None, 0)`` when there is no usable
    checkpoint."""
    checkpoint = read_checkpoint(folder)
    if checkpoint is None or checkpoint.session_id != session_id or checkpoint.length > size:
        return None, 0
    try:
        return checkpoint.folds(), checkpoint.length
    except ValueError:
        return None, 0


_EPOCH_START = datetime.fromisoformat("1970-01-01T00:00:00+00:00")


def _last_written(path: Path) -> datetime:
    """When the log was last written (its file's time: a header that cannot be read says
    nothing), else the epoch."""
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except (OSError, ValueError, OverflowError):
        return _EPOCH_START
