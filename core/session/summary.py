"""One line of the session list, read cheaply (session-log.md §1, §8).

Runs in a worker thread (``SessionStore.list``); reads through ``jsonl_store``. The header gives
the id and creation time; the checkpoint's folds (when its covered length fits the file; not
re-hashed, since a title is cosmetic) give the title and last activity up to its length; only the
bytes after it are scanned. A session without a checkpoint is scanned whole once; its close then
writes one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from core.errors import SessionError
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


def summarize(folder: Path, session_id: str) -> SessionSummary:
    """The summary of the session in ``folder``."""
    path = folder / LOG_NAME
    head = read_head(path)
    try:
        header = parse_header(head)
    except SessionError as error:
        return SessionSummary(session_id, None, None, _EPOCH_START, problem=str(error))
    folds, start = _checkpoint_folds(folder, header.id, log_length(path))
    if folds is None:
        folds, start = SessionFolds(header.seed_length), len(head) + 1
    scan(
        read_range(path, start),
        start=0,
        first_seq=folds.count,
        sink=lambda _s, _p, e: folds.feed(e),
    )
    created = parse_instant(header.created_at)
    last = parse_instant(folds.last_at) if folds.last_at else created
    return SessionSummary(
        header.id, folds.display_title, created, last, header.parent_id, folds.count
    )


def _checkpoint_folds(folder: Path, session_id: str, size: int) -> tuple[SessionFolds | None, int]:
    raw = read_file(folder / CHECKPOINT_NAME)
    checkpoint = decode_checkpoint(raw) if raw is not None else None
    if checkpoint is None or checkpoint.session_id != session_id or checkpoint.length > size:
        return None, 0
    try:
        return SessionFolds.from_json(checkpoint.folds), checkpoint.length
    except (KeyError, TypeError, ValueError):
        return None, 0


_EPOCH_START = datetime.fromisoformat("1970-01-01T00:00:00+00:00")
