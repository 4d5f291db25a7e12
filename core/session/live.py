"""LiveSession: a session's live log (a SessionLog), its folds, observers and persistence barrier.

``append`` is synchronous and in memory: the event is visible in ``events`` and every fold at
once, and queued for writing. ``flush`` is the barrier (session-log.md §3): one write and one fsync
cover everything queued before it (group commit; concurrent flushes share the write in flight),
and the disk work runs in a worker thread. Queued events are also flushed on their own within
``write_behind_seconds``. A failed write or fsync truncates the file back to its durable length,
keeps the events queued and returns False; the next successful flush writes them once.

No file I/O here (that is ``jsonl_store``); the clock is injected. Choices where the spec is
silent: ``flush`` of a read-only, closed or detached (storage-less) session returns False; a failed
write re-arms the write-behind timer, so retained events are retried every
``write_behind_seconds`` until a write succeeds; observers that raise are logged and do not undo
the append. Envelopes handed out are shared: do not mutate them.

Verification (session-log.md §8): a warm open returns before the checkpoint's digest is known, so
the window can show the session at once. Until ``verified`` is True the folds (``schedule_fold``,
``pending_inputs``, ``open_turn``) come from the unverified checkpoint and are for DISPLAY only.
Every barrier (``flush``) first awaits the verification, and no checkpoint is written before it,
so the tools and the owner, which fold only after a barrier, never answer from unverified state.
On a mismatch the whole log is re-scanned in a worker thread and its state replaces the
checkpoint's, in place (``events`` stays the same object): a corrupt log makes the session
read-only with the reason (flush then returns False); a clean one carries on, with the closers of
a turn the re-scan finds open appended when nothing was queued. A live session whose queued
events no longer fit the re-scanned log (another event count, another open turn, a schedule change
the strict fold refuses) becomes read-only instead (``DRIFTED``); its queued events stay in memory
and are never written. ``await verification()`` tells the window when to refresh what it showed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
from array import array
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from core.clock import Clock
from core.errors import ScheduleLogError, SessionError, SessionReadOnlyError
from core.schedule.fold import ScheduleFold, ScheduleFolder
from core.session import vocabulary as v
from core.session.checkpoint import Checkpoint
from core.session.event_list import EventList
from core.session.events import SessionHeader, encode_line, format_instant, make_envelope
from core.session.folds import SessionFolds
from core.session.jsonl_store import LogFile, MappedOffsets, SessionLock, digest, write_checkpoint
from core.session.repair import closers

logger = logging.getLogger(__name__)

WRITE_BEHIND_SECONDS = 0.2
CHECKPOINT_EVERY = 50_000
"""A checkpoint is also written after this many new durable events (besides on close)."""
DRIFTED = (
    "The session log changed on disk after its checkpoint was written, and what was added since "
    "this window opened no longer fits it. It is open read-only; close and reopen it."
)
UNVERIFIED = "The session log could not be verified ({why}). It is open read-only; reopen it."


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Verifier(Protocol):
    """The deferred digest check of a warm open (built by ``recovery``)."""

    def run(self) -> LoadedSession | None:
        """Blocks (a worker thread runs it): None when the checkpoint's bytes still match, else
        the state of a full re-scan of the log (``read_only_reason`` set when it is corrupt)."""
        ...


Scheduler = Callable[[float, Callable[[], None]], "Cancellable | None"]
"""Calls ``callback`` after ``delay`` seconds; returns a handle, or None when it cannot."""


def loop_scheduler(delay: float, callback: Callable[[], None]) -> Cancellable | None:
    """``call_later`` on the running loop; None (no write-behind) when no loop runs."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(delay, callback)


@dataclass
class LoadedSession:
    """What opening a log found: everything a LiveSession starts from (built by the store)."""

    header: SessionHeader
    folder: Path | None
    log: LogFile | None
    folds: SessionFolds
    schedule: ScheduleFolder | None
    schedule_error: str | None = None
    read_only_reason: str | None = None
    lock: SessionLock | None = None
    base: MappedOffsets | None = None
    tail: array[int] = field(default_factory=lambda: array("Q"))
    durable_length: int = 0
    body_start: int = 0
    checkpoint_count: int = 0
    events: EventList | None = None
    verifier: Verifier | None = None


class LiveSession:
    """One open session. Create through ``SessionStore``, or ``LiveSession.detached`` (no storage)."""

    def __init__(
        self,
        loaded: LoadedSession,
        clock: Clock,
        *,
        scheduler: Scheduler = loop_scheduler,
        write_behind_seconds: float = WRITE_BEHIND_SECONDS,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        self._loaded = loaded
        self.header = loaded.header
        self.read_only_reason = loaded.read_only_reason
        self._clock = clock
        self._scheduler = scheduler
        self._write_behind_seconds = write_behind_seconds
        self._checkpoint_every = checkpoint_every
        self._events = loaded.events if loaded.events is not None else EventList(None)
        self._folds = loaded.folds
        self._schedule = loaded.schedule
        self._schedule_error = loaded.schedule_error
        self._checkpoint_count = loaded.checkpoint_count
        self._observers: list[Callable[[Mapping[str, Any]], None]] = []
        self._persistence_observers: list[Callable[[bool], None]] = []
        self._batch: list[asyncio.Future[bool]] | None = None
        self._write_behind: Cancellable | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._closed = False
        self._closed_ok = True
        self._checkpointing: asyncio.Future[None] | None = None
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"chime-log-{self.id}")
        self._verifying: asyncio.Future[bool] | None = None
        if loaded.verifier is not None:
            self._verifying = asyncio.ensure_future(self._verify(loaded.verifier))

    @classmethod
    def detached(cls, session_id: str, clock: Clock, *, seed_length: int = 0) -> LiveSession:
        """An in-memory session with no storage: every ``flush`` returns False."""
        header = SessionHeader(session_id, format_instant(clock()), None, seed_length)
        error = "seed_length is beyond the log" if seed_length else None
        return cls(
            LoadedSession(header, None, None, SessionFolds(seed_length), ScheduleFolder(), error),
            clock,
        )

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def seed_length(self) -> int:
        return self.header.seed_length

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def verified(self) -> bool:
        """True once the folds rest on verified bytes (at once after a cold open). A verification
        cancelled with its event loop never counts as done."""
        verifying = self._verifying
        return verifying is None or (verifying.done() and not verifying.cancelled())

    async def verification(self) -> bool:
        """Wait until ``verified``. True when the state the session opened with stood; False when
        a re-scan replaced it or the check failed (then refresh what was shown)."""
        if self._verifying is None:
            return True
        return await asyncio.shield(self._verifying)

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        return self._events

    @property
    def durable_count(self) -> int:
        """How many events are known durable (the rest wait for a barrier)."""
        return self._events.durable_count

    @property
    def title(self) -> str | None:
        """The latest ``session/title``, else the first user message's first line, else None."""
        return self._folds.display_title

    @property
    def last_activity(self) -> str:
        """``at`` of the newest event (canonical UTC), or the header's ``createdAt``."""
        return self._folds.last_at or self.header.created_at

    def pending_inputs(self) -> tuple[int, ...]:
        """Seqs of the pending ``user/message`` events, oldest first (agent.md §1)."""
        return tuple(self._folds.pending)

    def open_turn(self) -> int | None:
        """The number of the turn that has started and not ended, if any."""
        return self._folds.open_turn

    def open_calls(self) -> dict[str, str]:
        """Tool calls of the open turn without a result: call id -> tool name, in call order."""
        return dict(self._folds.open_calls)

    def byte_span(self, count: int) -> tuple[int, int]:
        """Where the lines of durable events ``[0, count)`` lie in the log (for a verbatim fork)."""
        if not 0 <= count <= self._events.durable_count:
            raise IndexError(f"{count} is not within the durable events")
        start = self._loaded.body_start
        if count == 0:
            return start, start
        durable = self._events.durable_count
        return start, self._events.start(count) if count < durable else self._events.durable_length

    def schedule_fold(self) -> ScheduleFold:
        """Equal to ``fold_schedule(events, seed_length)``; ScheduleLogError when that fails.

        Before ``verified`` it is the checkpoint's word: show it, decide nothing on it (a barrier
        first, as the tools and the owner do)."""
        if self._schedule is None or self._schedule_error is not None:
            raise ScheduleLogError(self._schedule_error or "the schedule fold failed")
        return self._schedule.fold()

    # -- appends ---------------------------------------------------------------------------

    def append(self, type: str, data: Mapping[str, Any]) -> Any:
        """Append one event; returns its envelope (``seq``, ``at``, ``type``, ``data``).

        Raises to refuse, and then nothing is appended: SessionReadOnlyError, SessionError
        (closed), ScheduleLogError (the schedule.md §8.5 guard: a ``schedule/change`` that would
        make the fold fail, honouring ``seed_length``), TypeError/ValueError (not JSON).
        Typed ``Any`` so that LiveSession is both api.md's SessionLog (``-> None``) and the
        envelope-returning log of architecture.md (``-> Mapping``).
        """
        return self.append_group([(type, data)])[0]

    def append_group(
        self, items: Sequence[tuple[str, Mapping[str, Any]]]
    ) -> list[Mapping[str, Any]]:
        """Append events that become durable together: all or none after a crash (§3).

        A group of k ≥ 2 events carries ``"group": k`` on its first line. Refusals as ``append``.
        """
        self._check_writable()
        at = format_instant(self._clock())
        first = len(self._events)
        size = len(items) if len(items) > 1 else None
        lines = [
            encode_line(
                make_envelope(
                    first + i, at, _event_type(t), dict(d), group=size if i == 0 else None
                )
            )
            for i, (t, d) in enumerate(items)
        ]
        envelopes: list[dict[str, Any]] = [json.loads(line) for line in lines]
        trial = self._trial_schedule(envelopes)
        if trial is not None:
            self._schedule = trial
        for envelope, line in zip(envelopes, lines, strict=True):
            self._events.queue(envelope, line)
            self._folds.feed(envelope)
        self._arm_write_behind()
        for envelope in envelopes:
            self._notify(envelope)
        return list(envelopes)

    def _check_writable(self) -> None:
        if self._closed:
            raise SessionError(f"session {self.id} is closed")
        if self.read_only_reason is not None:
            raise SessionReadOnlyError(self.read_only_reason)

    def _trial_schedule(self, envelopes: list[dict[str, Any]]) -> ScheduleFolder | None:
        changes = [e["data"] for e in envelopes if e["type"] == v.SCHEDULE_CHANGE]
        if not changes:
            return None
        if self._schedule is None or self._schedule_error is not None:
            raise ScheduleLogError(self._schedule_error or "the schedule fold failed")
        trial = self._schedule.copy()
        for data in changes:
            trial.feed(data)
        return trial

    # -- observers -------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Mapping[str, Any]], None]) -> Callable[[], None]:
        """Call ``callback(envelope)`` after each append; returns the unsubscribe function."""
        self._observers.append(callback)
        return lambda: _discard(self._observers, callback)

    def subscribe_persistence(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``callback(ok)`` after each write attempt; returns the unsubscribe function."""
        self._persistence_observers.append(callback)
        return lambda: _discard(self._persistence_observers, callback)

    def _notify(self, envelope: Mapping[str, Any]) -> None:
        for callback in list(self._observers):
            try:
                callback(envelope)
            except Exception:
                logger.exception("an event observer of session %s failed", self.id)

    def _notify_persistence(self, ok: bool) -> None:
        for callback in list(self._persistence_observers):
            try:
                callback(ok)
            except Exception:
                logger.exception("a persistence observer of session %s failed", self.id)

    # -- the barrier -----------------------------------------------------------------------

    async def flush(self) -> bool:
        """The persistence barrier: True only when every event appended so far is durable.

        Awaits the open's verification first: the state a barrier vouches for is verified."""
        if self._verifying is not None and not self._verifying.done():
            await asyncio.shield(self._verifying)
        if self._loaded.log is None or self.read_only or self._closed or not self.verified:
            return False
        target = len(self._events)
        while self._events.durable_count < target:
            if not await self._join_batch():
                return False
        return True

    def _join_batch(self) -> asyncio.Future[bool]:
        """A waiter on the write in flight, starting one for everything queued if none is.

        One hop to the writer thread and one back (``call_soon_threadsafe`` straight from the
        write's done callback), no task per batch; each flush has its own waiter, so cancelling
        one never disturbs the others or the write."""
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        if self._batch is None:
            self._batch = []
            log = self._loaded.log
            assert log is not None  # flush checked it
            count = self._events.queued_count
            data = self._events.queued_bytes(count)
            work = self._writer.submit(log.write_durably, data, self._events.durable_length)
            work.add_done_callback(functools.partial(_post, loop, self._written, count))
        self._batch.append(waiter)
        return waiter

    def _written(self, count: int, work: Future[None]) -> None:
        waiters, self._batch = self._batch or [], None
        error = work.exception()
        if error is not None and not isinstance(error, OSError):
            _settle_all(waiters, error)  # a bug, not the disk: the callers see it
            return
        ok = error is None
        if ok:
            self._events.commit(count)
        else:
            logger.warning("session %s: write failed, events kept queued: %s", self.id, error)
        self._notify_persistence(ok)
        if ok:
            self.checkpoint_if_due()
        else:
            self._arm_write_behind()  # retry on its own, e.g. once the disk has room again
        _settle_all(waiters, ok)

    def _arm_write_behind(self) -> None:
        if self._write_behind is None and self._loaded.log is not None:
            self._write_behind = self._scheduler(self._write_behind_seconds, self._on_write_behind)

    def _on_write_behind(self) -> None:
        self._write_behind = None
        if self._events.queued_count and not self._closed:
            self._track(asyncio.ensure_future(self.flush()))

    def _track(self, task: asyncio.Future[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- verification ----------------------------------------------------------------------

    async def _verify(self, verifier: Verifier) -> bool:
        try:
            fresh = await asyncio.to_thread(verifier.run)
        except Exception as error:  # the log vanished or cannot be read: trust nothing
            logger.warning("session %s: the log could not be verified: %s", self.id, error)
            reason = UNVERIFIED.format(why=error)
            self.read_only_reason = self.read_only_reason or reason
            self._schedule_error = self._schedule_error or reason
            return False
        if fresh is None:
            return True
        logger.warning("session %s: the checkpoint no longer matches the log; re-scanned", self.id)
        self._adopt(fresh)
        return False

    def _adopt(self, fresh: LoadedSession) -> None:
        """Replace the checkpoint's state by the re-scan's (see the module docstring)."""
        count, turn = self._events.durable_count, self._turn_state()
        queued = self._events.queued_events()
        self._events.rebase(fresh.tail, fresh.durable_length)
        base, self._loaded.base = self._loaded.base, None
        assert base is not None  # only a checkpoint start is verified later
        with contextlib.suppress(BufferError):
            base.close()
        self._folds, self._schedule = fresh.folds, fresh.schedule
        self._schedule_error, self._checkpoint_count = fresh.schedule_error, 0
        fits = self._refeed(queued) and count == len(fresh.tail)
        if fresh.read_only_reason is not None:
            self.read_only_reason = fresh.read_only_reason
        elif self.read_only_reason is not None:
            return
        elif not fits or (queued and turn != self._turn_state()):
            self.read_only_reason = DRIFTED
        elif not queued:
            for event_type, data in closers(self.open_turn(), self.open_calls()):
                self.append(event_type, data)

    def _turn_state(self) -> tuple[int | None, dict[str, str]]:
        return self._folds.open_turn, dict(self._folds.open_calls)

    def _refeed(self, queued: list[dict[str, Any]]) -> bool:
        """Fold the queued events onto the re-scanned state; False when the strict schedule fold
        refuses them now."""
        for envelope in queued:
            self._folds.feed(envelope)
        try:
            trial = self._trial_schedule(queued)
        except ScheduleLogError as error:
            self._schedule_error = self._schedule_error or f"after a re-scan: {error}"
            return False
        if trial is not None:
            self._schedule = trial
        return True

    # -- reading the tail ------------------------------------------------------------------

    def tail_events(self, count: int) -> list[Mapping[str, Any]]:
        """The last ``count`` events, oldest first (parses only those)."""
        return list(self._events[max(0, len(self._events) - count) :])

    def tail_turns(self, turns: int) -> list[Mapping[str, Any]]:
        """The events of the last ``turns`` turns, each from its input message, oldest first.

        Walks back from the end parsing only what it returns (the window's first screen).
        """
        return list(self._events.tail_turns(turns))

    # -- checkpoint and close --------------------------------------------------------------

    def checkpoint_if_due(self) -> asyncio.Future[None] | None:
        """Start writing a checkpoint when ``checkpoint_every`` durable events are not covered yet
        (after writes, and after an open that had to scan many events); returns its task."""
        due = self._events.durable_count - self._checkpoint_count >= self._checkpoint_every
        busy = self._checkpointing is not None and not self._checkpointing.done()
        idle = not self._events.queued_count and self.verified
        if not due or busy or not idle or self._closed or self.read_only:
            return None
        self._checkpointing = asyncio.ensure_future(self._write_checkpoint())
        self._track(self._checkpointing)
        return self._checkpointing

    async def _write_checkpoint(self) -> None:
        folder, log = self._loaded.folder, self._loaded.log
        assert folder is not None  # only stored sessions have durable events to checkpoint
        assert log is not None
        if self._events.queued_count:
            return  # appended since it was scheduled: the folds are ahead of the durable bytes
        count, length = self._events.durable_count, self._events.durable_length
        offsets = self._events.offsets_bytes()
        schedule = (
            self._schedule.fold().to_json()
            if self._schedule_error is None and self._schedule
            else None
        )
        state = Checkpoint(
            self.id,
            length,
            count,
            "",
            digest(offsets),
            schedule,
            self._schedule_error,
            self._folds.to_json(),
        )
        self._checkpoint_count = count
        try:
            await asyncio.to_thread(_store_checkpoint, folder, log.path, state, offsets)
        except OSError as error:
            logger.warning("session %s: checkpoint not written: %s", self.id, error)

    async def close(self) -> bool:
        """Flush, write the checkpoint, release the lock. Returns the final flush's outcome."""
        if self._closed:
            return self._closed_ok
        await self._settle()
        ok = await self.flush() if self.read_only_reason is None and self._loaded.log else True
        self._closed, self._closed_ok = True, ok
        self._cancel_write_behind()  # armed by appends, or by a failed final flush
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if (
            ok
            and self.read_only_reason is None
            and self._checkpoint_count < self._events.durable_count
        ):
            await self._write_checkpoint()
        self._release()
        return ok

    def _cancel_write_behind(self) -> None:
        if self._write_behind is not None:
            self._write_behind.cancel()
            self._write_behind = None

    async def abandon(self) -> None:
        """Close without writing what is queued (an open whose recovery could not be made
        durable): the queued events are dropped, the file keeps its durable bytes."""
        self._closed, self._closed_ok = True, False
        self._cancel_write_behind()
        await self._settle()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._release()

    async def _settle(self) -> None:
        """Wait for the verification: its digest threads read the log's descriptor."""
        if self._verifying is not None:
            await asyncio.gather(self._verifying, return_exceptions=True)

    def _release(self) -> None:
        self._writer.shutdown(wait=False)
        loaded = self._loaded
        if loaded.lock is not None:
            loaded.lock.release()
        if loaded.log is not None:
            loaded.log.close()
        if loaded.base is not None:
            with contextlib.suppress(BufferError):
                loaded.base.close()


def _store_checkpoint(folder: Path, log_path: Path, state: Checkpoint, offsets: bytes) -> None:
    """Worker-thread half of a checkpoint: hash the covered bytes, then replace the files."""
    reader = LogFile(log_path, writable=False)
    try:
        found = reader.start_digest(state.length).result()
    finally:
        reader.close()
    checkpoint = dataclasses.replace(state, digest=found)
    write_checkpoint(folder, checkpoint.encode(), offsets)


def _post(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: object) -> None:
    """Run ``callback(*args)`` on ``loop`` from a worker thread."""
    with contextlib.suppress(RuntimeError):  # the loop closed while the write ran
        loop.call_soon_threadsafe(callback, *args)


def _settle_all(waiters: list[asyncio.Future[bool]], outcome: bool | BaseException) -> None:
    for waiter in waiters:
        if waiter.done():
            continue  # its flush was cancelled
        if isinstance(outcome, BaseException):
            waiter.set_exception(outcome)
        else:
            waiter.set_result(outcome)


def _event_type(type: object) -> str:
    if not isinstance(type, str) or not type:
        raise ValueError(f"an event type is a non-empty string, not {type!r}")
    return type


def _discard(items: list[Any], item: object) -> None:
    with contextlib.suppress(ValueError):
        items.remove(item)
