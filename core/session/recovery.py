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
``WARM_TURNS`` turns decode where its offsets say, the open returns without it: the session is
``Unchecked`` with a ``CheckpointVerifier`` that ``LiveSession`` runs in worker threads, in two
stages: the digest, the pending inputs and the reminders due soon first (then the owner may
deliver those), the other reminders after; every other barrier awaits both (the folds are for
display until then). Otherwise (a torn or corrupt tail,
misplaced lines) the open hashes before acting on the tail, and a mismatch means a cold open. A
verifier that finds a mismatch deletes the checkpoint files (live sessions only) and re-scans the
whole log.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import SessionFormatError
from core.jsonread import CHECKPOINT, LOG_HEADER
from core.session.block_scan import scan_blocks
from core.session.checkpoint import Checkpoint, Claims, Stage, claims_hold, decode_checkpoint
from core.session.event_list import EventList
from core.session.folds import SessionFolds
from core.session.jsonl_store import (
    CHECKPOINT_NAME,
    LOG_NAME,
    FileOps,
    LogFile,
    MappedOffsets,
    SessionLock,
    discard_checkpoint,
    load_offsets,
    read_file,
    save_torn,
)
from core.session.lines import SessionHeader, parse_header
from core.session.loaded import (
    Access,
    Checked,
    LoadedSession,
    OnDisk,
    ReadOnly,
    Unchecked,
    Writable,
)
from core.session.reconcile import Rescan
from core.session.scan import ScanResult

WARM_TURNS = 50
"""Turns decoded at open (and checked to sit where the offsets say): the window's first screen."""
WARM_ENTRIES = 4096
"""At most this many entries are walked back for them: a log of reminder changes with few turns
is not decoded whole at open (the owner's first decisions waited for it)."""


@dataclass
class _Fold:
    """What a scan fills while a log is read: the folds (schedule included) and the line
    offsets, event by event."""

    folds: SessionFolds
    tail: array[int] = field(default_factory=lambda: array("Q"))

    def scan(self, log: LogFile, start: int) -> ScanResult:
        """Scan ``log`` from ``start``; the mapped pages read are let go as it goes and at its
        end (the peak memory of a cold open is not the log's size)."""
        result = scan_blocks(
            log.buffer(),
            start=start,
            first_seq=self.folds.count,
            sink=self.folds,
            offsets=self.tail,
            release=log.release,
        )
        log.release()
        return result

    def judged(self, result: ScanResult) -> str | None:
        """The read-only reason, or None: corruption makes the session read-only and fails the
        schedule fold; so does a seed length beyond the log (the fold only)."""
        reason = None
        if result.corruption is not None:
            reason = (
                f"The session log is corrupt at {result.corruption.describe()}. It is open "
                "read-only; fork it to continue from its last good turn."
            )
            self.folds.fail_schedule(reason)
        if self.folds.seed_length > self.folds.count:
            self.folds.fail_schedule("the header's seedLength is beyond the end of the log")
        return reason


@dataclass(frozen=True)
class _Found:
    """One way of reading the log (warm or cold) and what its scan found."""

    fold: _Fold
    entries: EventList
    result: ScanResult
    check: Checked | Unchecked
    checkpoint_count: int = 0


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
        header = parse_header(buffer[: min(header_end, LOG_HEADER.max_size + 1)])
        live = read_only_reason is None
        found = _warm(folder, log, header, live=live) or _cold(log, header, header_end + 1)
        corrupt = found.fold.judged(found.result)
        reason = read_only_reason or corrupt
        torn = (
            save_torn(log, found.result.committed, torn_stamp())
            if found.result.torn and live
            else None
        )
    except BaseException:
        log.close()
        raise
    access: Access = ReadOnly(reason) if reason is not None else Writable(lock)
    return LoadedSession(
        header,
        found.entries,
        found.fold.folds,
        OnDisk(folder, log, header_end + 1),
        access,
        found.check,
        found.checkpoint_count,
        torn,
    )


def _scan_into(
    fold: _Fold, log: LogFile, start: int, base: MappedOffsets | None
) -> tuple[EventList, ScanResult]:
    result = fold.scan(log, start)
    entries = EventList(log, base=base, tail=fold.tail, durable_length=result.committed)
    return entries, result


def _shown(entries: EventList) -> bool:
    """Decode the last ``WARM_TURNS`` turns (within ``WARM_ENTRIES``) now, served from the cache
    later. False when a line is not where the offsets say (bytes a checkpoint covered have
    changed)."""
    try:
        shown = entries.tail_turns(WARM_TURNS, WARM_ENTRIES)
    except ValueError:  # not an event line
        return False
    first = len(entries) - len(shown)
    return all(entry.seq == first + i for i, entry in enumerate(shown))


def _cold(log: LogFile, header: SessionHeader, body: int) -> _Found:
    fold = _Fold(SessionFolds(header.seed_length))
    entries, result = _scan_into(fold, log, body, None)
    if result.corruption is None:
        _shown(entries)
    return _Found(fold, entries, result, Checked())


def _warm(folder: Path, log: LogFile, header: SessionHeader, *, live: bool) -> _Found | None:
    """Start from the checkpoint when it holds; the digest runs while the rest is prepared."""
    checkpoint = read_checkpoint(folder)
    if checkpoint is None or checkpoint.session_id != header.id or checkpoint.length > log.size():
        return None
    if checkpoint.schedule is None:  # a failed fold is the log's to say: fold it again
        return None
    start = _from_checkpoint(folder, checkpoint)
    if start is None:
        return None
    fold, offsets = start
    claims = Claims.of(fold.folds)  # before the scan of the tail feeds the folds
    entries, result = _scan_into(fold, log, checkpoint.length, offsets)
    aligned = result.corruption is not None or _shown(entries)
    verifier = CheckpointVerifier(log, checkpoint, folder, header, live, offsets.view, claims)
    if aligned and result.corruption is None and not result.torn:
        return _Found(fold, entries, result, Unchecked(verifier), checkpoint.count)
    if not aligned or not verifier.stands():
        entries.close()  # acting on the tail (a cut, a verdict) needs the digest first
        return None
    return _Found(fold, entries, result, Checked(), checkpoint.count)


def read_checkpoint(folder: Path) -> Checkpoint | None:
    """The session folder's checkpoint, or None when there is none that reads (and seals)."""
    raw = read_file(folder / CHECKPOINT_NAME, CHECKPOINT.max_size)
    return decode_checkpoint(raw) if raw is not None else None


@dataclass(frozen=True)
class CheckpointVerifier:
    """The deferred half of a warm open (``LiveSession`` runs its stages in worker threads)."""

    log: LogFile
    checkpoint: Checkpoint
    folder: Path
    header: SessionHeader
    live: bool
    offsets: Sequence[int]
    """The checkpoint's line offsets (``offsets.bin``, its digest already checked)."""
    claims: Claims | None
    """What its folds claimed when they were decoded."""

    def first(self, soon_ms: int | None) -> bool:
        """The first stage: the log still has the digest the checkpoint covers, and which
        reminders it claims, its pending inputs and each reminder due by ``soon_ms`` (None:
        every one) are what the log's own lines say. Hashing starts here, once the window has
        what it shows: it would only compete with the open for the cores."""
        checkpoint = self.checkpoint
        if self.log.start_digest(checkpoint.length).result() != checkpoint.digest:
            return False
        return claims_hold(checkpoint, self.claims, self._line, Stage(True, soon_ms))

    def rest(self, soon_ms: int | None) -> bool:
        """The second stage: each reminder due after ``soon_ms`` is what the log says."""
        return claims_hold(self.checkpoint, self.claims, self._line, Stage(False, soon_ms))

    def stands(self) -> bool:
        """Both stages at once: the whole check."""
        return self.first(None)

    def fall_back(self) -> Rescan:
        """A full re-scan of the log, after deleting the stale checkpoint files of a live
        session (a stage found the checkpoint wrong)."""
        if self.live:
            discard_checkpoint(self.folder)
        return rescan(self.folder, self.header)

    def _line(self, seq: int) -> bytes:
        offsets, count = self.offsets, self.checkpoint.count
        if not 0 <= seq < count:
            raise IndexError(f"event {seq} is not covered by the checkpoint")
        end = offsets[seq + 1] if seq + 1 < count else self.checkpoint.length
        return self.log.read_at(offsets[seq], end - 1)


def rescan(folder: Path, header: SessionHeader) -> Rescan:
    """Folds, line offsets and verdict of the whole log, read through a mapping of its own (the
    session's own map may be in use on the event loop); never repairs anything."""
    reader = LogFile(folder / LOG_NAME, writable=False)
    try:
        fold = _Fold(SessionFolds(header.seed_length))
        result = fold.scan(reader, reader.buffer().find(b"\n") + 1)
    finally:
        reader.close()
    reason = fold.judged(result)
    return Rescan(fold.folds, fold.tail, result.committed, reason)


def _from_checkpoint(folder: Path, checkpoint: Checkpoint) -> tuple[_Fold, MappedOffsets] | None:
    offsets = load_offsets(folder, checkpoint.count, checkpoint.offsets_digest)
    if offsets is None:
        return None
    try:
        folds = checkpoint.folds()
    except ValueError:
        offsets.close()
        return None
    return _Fold(folds), offsets
