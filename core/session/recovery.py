"""Opening a session log: checkpoint check, tail scan, torn-tail repair, corruption verdict.

Runs in a worker thread (the store calls ``load_session`` through ``asyncio.to_thread``); every
file operation goes through ``jsonl_store``. Implements session-log.md §4 and §8:

1. An invalid header or unknown version raises SessionFormatError; the file is untouched.
2. A checkpoint whose length fits the file gives the folds and line offsets of the bytes it
   covers; otherwise the whole log is scanned (cold open).
3. The bytes after that are scanned. A torn tail of a live session is copied to
   ``session.jsonl.torn-<UTC>`` and cut off (a read-only viewer leaves it alone: the owner may
   still be writing it). Corruption opens the session read-only with the line and the reason,
   and makes the schedule fold fail.

The checkpoint's digest (session-log.md §8: it vouches only for bytes whose digest still matches)
is off the path to the first screen. When the bytes after the checkpoint scan clean and the last
``WARM_TURNS`` turns parse where its offsets say, the open returns without it: the session gets a
``CheckpointVerifier`` that ``LiveSession`` runs at once in a worker thread and that every
barrier awaits (the folds are for display until then). Otherwise (a torn or corrupt tail,
misplaced lines) the open hashes before acting on the tail, and a mismatch means a cold open. A
verifier that finds a mismatch deletes the checkpoint files (live sessions only) and re-scans the
whole log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import ScheduleLogError, SessionFormatError
from core.schedule.fold import ScheduleFolder
from core.session import vocabulary as v
from core.session.checkpoint import Checkpoint, decode_checkpoint
from core.session.event_list import EventList
from core.session.events import SessionHeader, parse_header
from core.session.folds import SessionFolds
from core.session.jsonl_store import (
    CHECKPOINT_NAME,
    LOG_NAME,
    FileOps,
    LogFile,
    SessionLock,
    discard_checkpoint,
    load_offsets,
    read_file,
    save_torn,
)
from core.session.live import LoadedSession
from core.session.scan import ScanResult, scan


class _Feeder:
    """The scan's sink: line offsets, the session folds and the schedule fold, event by event."""

    def __init__(self, loaded: LoadedSession) -> None:
        self.loaded = loaded
        self.seed_length = loaded.header.seed_length

    def __call__(self, seq: int, start: int, envelope: dict[str, Any]) -> None:
        loaded = self.loaded
        loaded.tail.append(start)
        loaded.folds.feed(envelope)
        if envelope["type"] != v.SCHEDULE_CHANGE or seq < self.seed_length:
            return
        if loaded.schedule is not None and loaded.schedule_error is None:
            try:
                loaded.schedule.feed(envelope["data"])
            except ScheduleLogError as error:
                loaded.schedule_error = f"event {seq}: {error}"


WARM_TURNS = 50
"""Turns parsed at open (and checked to sit where the offsets say): the window's first screen."""


def load_session(
    folder: Path,
    *,
    lock: SessionLock | None,
    read_only_reason: str | None,
    ops: FileOps | None,
    torn_stamp: Callable[[], str],
) -> LoadedSession:
    """Open ``folder``'s log. Live (``read_only_reason`` None) sessions get their torn tail cut."""
    log = LogFile(folder / LOG_NAME, writable=read_only_reason is None, ops=ops)
    try:
        buffer = log.buffer()
        header_end = buffer.find(b"\n")
        if header_end < 0:
            raise SessionFormatError("the session log has no complete header line")
        header = parse_header(buffer[:header_end])
        live = read_only_reason is None
        found = _warm(folder, log, header, live=live) or _cold(folder, log, header, header_end + 1)
        loaded, result = found
        loaded.lock, loaded.read_only_reason = lock, read_only_reason
        loaded.body_start = header_end + 1
        _conclude(loaded, log, result, torn_stamp)
    except BaseException:
        log.close()
        raise
    return loaded


def _scan_into(loaded: LoadedSession, log: LogFile, start: int) -> ScanResult:
    result = scan(log.buffer(), start=start, first_seq=loaded.folds.count, sink=_Feeder(loaded))
    loaded.durable_length = result.committed
    base = loaded.base.view if loaded.base is not None else None
    loaded.events = EventList(log, base=base, tail=loaded.tail, durable_length=result.committed)
    return result


def _shown(loaded: LoadedSession) -> bool:
    """Parse the last ``WARM_TURNS`` turns now (served from the cache later). False when a line is
    not where the offsets say (bytes a checkpoint covered have changed)."""
    events = loaded.events
    assert events is not None  # _scan_into built it
    try:
        shown = events.tail_turns(WARM_TURNS)
    except (ValueError, AttributeError):  # not JSON, or JSON that is not an object
        return False
    first = len(events) - len(shown)
    return all(event.get("seq") == first + i for i, event in enumerate(shown))


def _cold(
    folder: Path, log: LogFile, header: SessionHeader, body: int
) -> tuple[LoadedSession, ScanResult]:
    folds = SessionFolds(header.seed_length)
    loaded = LoadedSession(header, folder, log, folds, ScheduleFolder())
    result = _scan_into(loaded, log, body)
    if result.corruption is None:
        _shown(loaded)
    return loaded, result


def _warm(
    folder: Path, log: LogFile, header: SessionHeader, *, live: bool
) -> tuple[LoadedSession, ScanResult] | None:
    """Start from the checkpoint when it holds; the digest runs while the rest is prepared."""
    raw = read_file(folder / CHECKPOINT_NAME)
    checkpoint = decode_checkpoint(raw) if raw is not None else None
    if checkpoint is None or checkpoint.session_id != header.id or checkpoint.length > log.size():
        return None
    loaded = _from_checkpoint(folder, log, header, checkpoint)
    if loaded is None:
        return None
    result = _scan_into(loaded, log, checkpoint.length)
    aligned = result.corruption is not None or _shown(loaded)
    if aligned and result.corruption is None and not result.torn:
        loaded.verifier = CheckpointVerifier(log, checkpoint, folder, header, live)
        return loaded, result
    if not aligned or log.start_digest(checkpoint.length).result() != checkpoint.digest:
        assert loaded.base is not None  # a checkpoint start always maps its offsets
        loaded.base.close()  # acting on the tail (a cut, a verdict) needs the digest first
        return None
    return loaded, result


@dataclass
class CheckpointVerifier:
    """The deferred half of a warm open (``LiveSession`` runs ``run`` in a worker thread)."""

    log: LogFile
    checkpoint: Checkpoint
    folder: Path
    header: SessionHeader
    live: bool

    def run(self) -> LoadedSession | None:
        """None when the digest matched; else the state of a full re-scan of the log (after
        deleting the stale checkpoint files of a live session). Hashing starts here, once the
        window has what it shows: it would only compete with the open for the cores."""
        checkpoint = self.checkpoint
        if self.log.start_digest(checkpoint.length).result() == checkpoint.digest:
            return None
        if self.live:
            discard_checkpoint(self.folder)
        return rescan(self.folder, self.header)


def rescan(folder: Path, header: SessionHeader) -> LoadedSession:
    """Folds, line offsets and verdict of the whole log, read through a mapping of its own (the
    session's own map may be in use on the event loop); never repairs anything."""
    reader = LogFile(folder / LOG_NAME, writable=False)
    try:
        buffer = reader.buffer()
        fresh = LoadedSession(
            header, folder, None, SessionFolds(header.seed_length), ScheduleFolder()
        )
        result = scan(buffer, start=buffer.find(b"\n") + 1, first_seq=0, sink=_Feeder(fresh))
    finally:
        reader.close()
    fresh.durable_length = result.committed
    _judge(fresh, result)
    return fresh


def _from_checkpoint(
    folder: Path, log: LogFile, header: SessionHeader, checkpoint: Checkpoint
) -> LoadedSession | None:
    offsets = load_offsets(folder, checkpoint.count, checkpoint.offsets_digest)
    if offsets is None:
        return None
    try:
        folds = SessionFolds.from_json(checkpoint.folds)
        schedule = None
        if checkpoint.schedule is not None:
            schedule = ScheduleFolder.from_json(checkpoint.schedule)
    except (KeyError, TypeError, ValueError, ScheduleLogError):
        offsets.close()
        return None
    return LoadedSession(
        header,
        folder,
        log,
        folds,
        schedule,
        checkpoint.schedule_error,
        base=offsets,
        checkpoint_count=checkpoint.count,
    )


def _conclude(
    loaded: LoadedSession, log: LogFile, result: ScanResult, torn_stamp: Callable[[], str]
) -> None:
    _judge(loaded, result)
    if result.torn and loaded.read_only_reason is None:
        save_torn(log, result.committed, torn_stamp())


def _judge(loaded: LoadedSession, result: ScanResult) -> None:
    """Corruption makes the session read-only and fails the schedule fold; so does a seed
    length beyond the log (the fold only)."""
    if result.corruption is not None:
        reason = (
            f"The session log is corrupt at {result.corruption.describe()}. It is open read-only; "
            "fork it to continue from its last good turn."
        )
        loaded.read_only_reason = reason
        loaded.schedule_error = loaded.schedule_error or reason
    if loaded.header.seed_length > loaded.folds.count and loaded.schedule_error is None:
        loaded.schedule_error = "the header's seedLength is beyond the end of the log"
