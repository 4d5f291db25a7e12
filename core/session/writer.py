"""The group-commit writer of one live session: the persistence barrier, write-behind and retry
(session-log.md §3). Async; the disk work runs on one worker thread through ``jsonl_store``.

``flush`` is the barrier: one write and one fsync cover everything queued before it (group
commit; concurrent flushes share the write in flight). Queued entries are also flushed on their
own within ``write_behind_seconds`` of an append. A failed write or fsync truncates the file back
to its durable length (``LogFile.write_durably``), keeps the entries queued and answers False;
the write-behind timer is re-armed on a bounded back-off (``write_behind_seconds``, doubling with
each failure in a row, at most ``RETRY_MAX_SECONDS``), so retained entries are written on their
own soon after the disk has room again, without hammering a full disk or its log; the next
successful flush writes them once. Only the first failure of a run is logged as a warning (and
the recovery once). Whether writing is allowed at all (verified, writable, open) is the session's
``may_write``, asked before each write starts; ``quiet`` waits for the write in flight, so a
session that holds writes (to re-scan its log) knows the file is still.

A log that vanished (``LogVanishedError``: its file was deleted, e.g. with the data folder, or
moved or replaced while the session was open) is not a failure to retry: nothing written to it
again would be kept. The writer stops writing for good (``lost`` says why; every later flush
answers False at once, no write-behind), keeps every entry queued in memory, reports the failed
write to the persistence observers and tells the ``on_lost`` observers once, so the window can
say so at once and offer to save the conversation elsewhere from memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

from core.session.event_list import EventList
from core.session.jsonl_store import LogFile, LogVanishedError

logger = logging.getLogger(__name__)

WRITE_BEHIND_SECONDS = 0.2
RETRY_MAX_SECONDS = 5.0
"""The longest wait between two retries of a failed write: how long the writes may lag after the
disk heals."""


class Cancellable(Protocol):
    def cancel(self) -> None: ...


Scheduler = Callable[[float, Callable[[], None]], "Cancellable | None"]
"""Calls ``callback`` after ``delay`` seconds; returns a handle, or None when it cannot."""


def loop_scheduler(delay: float, callback: Callable[[], None]) -> Cancellable | None:
    """``call_later`` on the running loop; None (no write-behind) when no loop runs."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(delay, callback)


class GroupCommit:
    """Writes ``entries``' queued lines to ``log``. ``on_committed`` runs after each successful
    write (the session then checks whether a checkpoint is due)."""

    def __init__(
        self,
        log: LogFile,
        entries: EventList,
        *,
        name: str,
        may_write: Callable[[], Awaitable[bool]],
        on_committed: Callable[[], object],
        scheduler: Scheduler = loop_scheduler,
        write_behind_seconds: float = WRITE_BEHIND_SECONDS,
    ) -> None:
        self._log = log
        self._entries = entries
        self._name = name
        self._may_write = may_write
        self._on_committed = on_committed
        self._scheduler = scheduler
        self._delay = write_behind_seconds
        self._batch: list[asyncio.Future[bool]] | None = None
        self._write_behind: Cancellable | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._observers: list[Callable[[bool], None]] = []
        self._stopped = False
        self._failures = 0
        """Writes failed in a row (0 after any success)."""
        self.lost: str | None = None
        """Why the log can no longer be written (its file vanished), else None."""
        self._lost_observers: list[Callable[[str], None]] = []
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"chime-log-{name}")

    async def flush(self) -> bool:
        """The barrier: True only when every entry queued so far is durable."""
        if self.lost is not None or not await self._may_write():
            return False
        target = len(self._entries)
        while self._entries.durable_count < target:
            if not await self._join_batch():
                return False
            if self._entries.durable_count < target and not await self._may_write():
                return False  # asked again before each new write: the session may hold writes
        return True

    async def quiet(self) -> None:
        """Wait until no write is in flight (the session holds new ones first: ``may_write``
        is asked right before each write starts)."""
        if self._batch is not None:
            waiter = asyncio.get_running_loop().create_future()
            self._batch.append(waiter)
            with contextlib.suppress(Exception):  # its flush reports how it ended
                await waiter

    def wake(self, delay: float | None = None) -> None:
        """Entries were queued: flush them within ``write_behind_seconds`` (or ``delay``) unless a
        barrier does it first (one timer at a time)."""
        if self._write_behind is None and not self._stopped and self.lost is None:
            wait = self._delay if delay is None else delay
            self._write_behind = self._scheduler(wait, self._on_write_behind)

    def subscribe(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``callback(ok)`` after each write attempt; returns the unsubscribe function."""
        self._observers.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._observers.remove(callback)

        return unsubscribe

    def subscribe_lost(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(reason)`` once when the log vanished; returns the unsubscribe."""
        self._lost_observers.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._lost_observers.remove(callback)

        return unsubscribe

    def track(self, task: asyncio.Future[Any]) -> None:
        """Keep a background task of the session until it ends (``settle`` awaits it)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Stop the write-behind and wait for the background tasks still running."""
        self._stopped = True
        if self._write_behind is not None:
            self._write_behind.cancel()
            self._write_behind = None
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def shutdown(self) -> None:
        """Let the worker thread go (a write in flight still completes)."""
        self._stopped = True
        self._thread.shutdown(wait=False)

    # -- one write -------------------------------------------------------------------------

    def _join_batch(self) -> asyncio.Future[bool]:
        """A waiter on the write in flight, starting one for everything queued if none is.

        One hop to the writer thread and one back (``call_soon_threadsafe`` straight from the
        write's done callback), no task per batch; each flush has its own waiter, so cancelling
        one never disturbs the others or the write."""
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        if self._batch is None:
            self._batch = []
            count = self._entries.queued_count
            data = self._entries.queued_bytes(count)
            offset = self._entries.durable_length
            work = self._thread.submit(self._log.write_durably, data, offset)
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
            self._entries.commit(count)
        if isinstance(error, LogVanishedError):
            self._lose(error)
        self._count_outcome(error)
        self._notify(ok)
        if ok:
            self._on_committed()
        else:  # retry on its own, e.g. once the disk has room again
            self.wake(min(self._delay * 2 ** min(self._failures - 1, 16), RETRY_MAX_SECONDS))
        _settle_all(waiters, ok)

    def _lose(self, error: LogVanishedError) -> None:
        """The log's file vanished: stop writing for good and tell the observers (once: no
        write follows)."""
        self.lost = f"{error.strerror} ({error.filename})"
        logger.error("session %s: %s; what is in memory is kept", self._name, self.lost)
        for callback in list(self._lost_observers):
            try:
                callback(self.lost)
            except Exception:
                logger.exception("a lost-log observer of session %s failed", self._name)

    def _count_outcome(self, error: BaseException | None) -> None:
        """Log the first failure of a run and the recovery after it, not every retry."""
        if error is None:
            if self._failures:
                logger.info(
                    "session %s: writes work again after %d failed", self._name, self._failures
                )
            self._failures = 0
            return
        self._failures += 1
        if self._failures == 1:
            logger.warning("session %s: write failed, events kept queued: %s", self._name, error)

    def _on_write_behind(self) -> None:
        self._write_behind = None
        if self._entries.queued_count and not self._stopped:
            self.track(asyncio.ensure_future(self.flush()))

    def _notify(self, ok: bool) -> None:
        for callback in list(self._observers):
            try:
                callback(ok)
            except Exception:
                logger.exception("a persistence observer of session %s failed", self._name)


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
