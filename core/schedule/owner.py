"""The live reminder owner of one open session (schedule.md §10-§12): coalesced drives, the one
timer, the maintenance claim and the idle wait. Must not read the wall clock (only the injected
clock), keep durable state of its own, or write anything during disposal.

A drive (§10.3): cancel the timer; check liveness; inside the session's FIFO ``queue`` (the one
``ScheduleTools`` uses): barrier, fold, *wake sample*, ``plan_delivery``; a ``wait`` arms one timer
segment; a due decision claims the agent's maintenance phase (refused at once → one idle wait),
folds again, takes the authoritative *decision sample*, and admits the reminder: its
``user/message`` and its dispatch change(s) are ONE atomic group (``claim.admit_reminder``), so
§10.3 steps 7.4 and 7.5 cannot half-happen. Then release, barrier, and (on success) drive again.

Choices the spec leaves open (written down here):

- ``admit_reminder`` is steps 7.4 and 7.5 at once: it builds the follow-up ``user/message``, then
  appends it and the dispatch change(s) as one group. The two ways it can raise are told apart,
  as §10.3 does: ``FollowupBuildError`` says building the follow-up failed (step 7.4: an id source
  or the message itself raised) and nothing was offered to the log, so the owner logs it, releases
  and ends, not faulted and with no timer: the record stays active and is delivered on the next
  trigger. Any other exception is the log refusing the group (closed, read-only, the §8.5 guard),
  handled as step 7.5 and the §11.2 table say: faulted, timer cleared, released, no further
  barrier. The group is atomic, so in neither case was anything of it appended.
- ``claim_maintenance`` raising (rather than returning None) is "the claim mechanism failed":
  faulted (§10.3 step 6).
- Timer segments: ``waker.arm(wake_at)`` receives the segment's end, ``now + min(target − now,
  2147483647 ms)`` with ``now`` the sample of that decision, so a waker only converts it back to a
  delay (and clamps to 0). Every wake is a full drive that re-reads the clock.
- A failed barrier (step 2, or step 8 after a dispatch) is retried on a bounded back-off: the one
  timer is armed ``RETRY_FIRST`` after the failure, doubling with each failure in a row up to
  ``RETRY_MAX``; any successful barrier starts again from ``RETRY_FIRST``. A successful write of
  the log after a failed barrier (``notify_persisted(True)``: the disk healed) is a trigger too.
  Only the first failure of a run is logged. This extends the activity-driven triggers of
  §10.2 (schedule.md says how), so due work resumes by itself once saving works again.
- A log checked in stages after a warm open (``StagedLog``): the barrier is its
  ``flush_staged``, which waits only for the check of the reminders due soon; the log's
  next-due index answers no other reminder until the whole check ends, and the host drives
  again then.
- The idle-trigger condition "the log has a ``schedule/change`` event anywhere" is answered
  without reading a long log: an unforked log has one exactly when its (incremental) fold has
  seen an id or fails; a fork's inherited prefix is scanned once (it never changes).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from core.clock import Clock
from core.events import EventType
from core.instant import datetime_to_ms, ms_to_datetime
from core.schedule.delivery import Delivery, plan_delivery, timer_delay_ms
from core.schedule.fold import ScheduleFold, fold_reader
from core.schedule.log import SessionLog, StagedLog
from core.schedule.tools import TransactionQueue

_log = logging.getLogger(__name__)

RETRY_FIRST = timedelta(seconds=1)
"""The wait before retrying a failed barrier; it doubles with each failure in a row."""
RETRY_MAX = timedelta(seconds=60)
"""The longest wait between two retries of a failed barrier."""


class FollowupBuildError(Exception):
    """``admit_reminder`` could not build the reminder's follow-up (schedule.md §10.3 step 7.4);
    nothing was appended. The owner is not faulted: the reminder stays due for a later trigger."""


class MaintenanceClaim(Protocol):
    """The agent's maintenance phase, held by the owner until ``release()``."""

    def admit_reminder(
        self, text: str, changes: Sequence[Mapping[str, Any]], skipped: Mapping[str, int]
    ) -> None: ...

    def release(self) -> None: ...


class MaintenanceHost(Protocol):
    """What the owner needs from the agent (docs/architecture.md)."""

    def claim_maintenance(self) -> MaintenanceClaim | None: ...

    async def when_idle(self) -> None: ...


class Waker(Protocol):
    """One timer. ``arm`` replaces any armed time; when it fires, the waker's creator calls
    ``ScheduleOwner.request_drive()``. ``cancel`` is harmless when nothing is armed."""

    def arm(self, wake_at: datetime) -> None: ...

    def cancel(self) -> None: ...


class ScheduleOwner:
    """Delivers due reminders of one live session as follow-up turns of its agent."""

    def __init__(
        self,
        log: SessionLog,
        clock: Clock,
        queue: TransactionQueue,
        agent: MaintenanceHost,
        waker: Waker,
        *,
        is_live: Callable[[], bool] = lambda: True,
    ) -> None:
        self._log = log
        self._read_fold = fold_reader(log)
        # a staged log's own barrier: due reminders need not wait for all to be checked
        self._flush = log.flush_staged if isinstance(log, StagedLog) else log.flush
        self._clock = clock
        self._queue = queue
        self._agent = agent
        self._waker = waker
        self._is_live = is_live
        self._drive_task: asyncio.Task[None] | None = None
        self._again = False
        self._idle_wait: asyncio.Task[None] | None = None
        self._armed = False
        self._faulted = False
        self._disposing = False
        self._prefix_has_changes: bool | None = None
        self._has_changes = False
        self._failed_barriers = 0
        """Barriers failed in a row (0 after any success): the retry's back-off."""

    @property
    def faulted(self) -> bool:
        return self._faulted

    @property
    def waiting_for_idle(self) -> bool:
        return self._idle_wait is not None

    def start(self) -> None:
        """Owner start: the first drive (§10.2). Needs a running event loop."""
        self.request_drive()

    def request_drive(self) -> None:
        """A trigger (§10.2): cancels the timer; at most one drive runs, and any number of
        triggers during a drive cause exactly one more. Ignored when faulted or disposing."""
        if self._disposing or self._faulted:
            return
        self._cancel_timer()
        if self._drive_task is not None:
            self._again = True
            return
        self._drive_task = asyncio.get_running_loop().create_task(self._drive_loop())

    def notify_idle(self) -> None:
        """The agent reported idle (or the app was activated/resumed): a trigger, but only when
        the session's log holds a ``schedule/change`` anywhere (§10.2)."""
        if not (self._disposing or self._faulted) and self._log_has_changes():
            self.request_drive()

    def notify_persisted(self, ok: bool) -> None:
        """A write of the session's log ended; after a failed barrier, a successful write is a
        trigger (the disk healed: the due work need not wait for the retry timer)."""
        if ok and self._failed_barriers and not (self._disposing or self._faulted):
            self.request_drive()

    async def drained(self) -> None:
        """Resolves when no drive runs or is due to run (for tests and orderly shutdown)."""
        while self._drive_task is not None:
            await asyncio.shield(self._drive_task)

    async def dispose(self) -> None:
        """§10.8: stops new work, clears the timer, ends the idle wait, awaits the drive in
        flight. Writes nothing durable; arms no timer afterwards."""
        self._disposing = True
        self._cancel_timer()
        if self._idle_wait is not None:
            self._idle_wait.cancel()
        tasks = [t for t in (self._drive_task, self._idle_wait) if t is not None]
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- drives ---------------------------------------------------------------------------

    async def _drive_loop(self) -> None:
        try:
            while True:
                self._again = False
                try:
                    await self._drive()
                except Exception:  # contained: a bug must not kill the owner's task silently
                    _log.exception("schedule owner: drive failed unexpectedly")
                if not self._again or self._disposing or self._faulted:
                    break
        finally:
            self._drive_task = None

    async def _drive(self) -> None:
        self._cancel_timer()
        if not self._live():
            return
        async with self._queue.turn():
            if await self._drive_in_queue():
                if await self._barrier():
                    self.request_drive()
                else:
                    self._retry_later("the post-dispatch barrier failed")

    async def _drive_in_queue(self) -> bool:
        """Steps 2-7; True when a claim admitted a reminder (step 8 follows)."""
        if not await self._barrier():
            self._retry_later("barrier failed")
            return False
        if not self._live():
            return False
        decision = self._fold_and_decide()
        if decision is None:
            return False
        delivery, now = decision
        if delivery.kind == "wait":
            self._arm(delivery.wake_at, now)
            return False
        try:
            claim = self._agent.claim_maintenance()
        except Exception:
            self._fault("the maintenance claim failed")
            return False
        if claim is None:
            self._start_idle_wait()
            return False
        return self._admit(claim)

    def _admit(self, claim: MaintenanceClaim) -> bool:
        """Step 7, inside the claim; always releases it."""
        try:
            if not self._live():
                return False
            decision = self._fold_and_decide()
            if decision is None:
                return False
            delivery, now = decision
            if delivery.kind == "wait" or delivery.framing is None:
                self._arm(delivery.wake_at, now)
                return False
            try:
                claim.admit_reminder(delivery.framing, delivery.changes, delivery.skipped)
            except FollowupBuildError:  # step 7.4: not faulted, no timer, due at the next trigger
                _log.exception("schedule owner: the reminder's follow-up could not be built")
                return False
            except Exception:
                self._fault("the log refused the reminder's group; nothing was appended")
                return False
            self._has_changes = True
            return True
        finally:
            claim.release()

    def _fold_and_decide(self) -> tuple[Delivery, datetime] | None:
        """Fold (failure → faulted) and one clock sample + decision (failure → logged)."""
        try:
            fold = self._read_fold()
        except Exception:
            self._fault("the schedule log cannot be folded")
            return None
        return self._decide(fold)

    def _decide(self, fold: ScheduleFold) -> tuple[Delivery, datetime] | None:
        try:
            now = self._clock()
            return plan_delivery(fold, now), now
        except Exception:
            _log.exception("schedule owner: deciding failed (clock); waiting for the next trigger")
            return None

    # --- timer, idle wait, state ----------------------------------------------------------

    def _arm(self, wake_at: datetime | None, now: datetime) -> None:
        if wake_at is None or self._disposing or self._faulted:
            return
        delay_ms = timer_delay_ms(wake_at, now)
        self._armed = True
        self._waker.arm(ms_to_datetime(datetime_to_ms(now) + delay_ms))

    def _cancel_timer(self) -> None:
        if self._armed:
            self._armed = False
            self._waker.cancel()

    def _start_idle_wait(self) -> None:
        if self._idle_wait is None and not self._disposing:
            self._idle_wait = asyncio.get_running_loop().create_task(self._await_idle())

    async def _await_idle(self) -> None:
        try:
            await self._agent.when_idle()
        except Exception:
            _log.exception("schedule owner: the idle wait failed; waiting for the next trigger")
            return
        finally:
            self._idle_wait = None
        self.request_drive()

    async def _barrier(self) -> bool:
        try:
            ok = await self._flush() is True
        except Exception:
            if not self._failed_barriers:
                _log.exception("schedule owner: persistence barrier raised")
            ok = False
        self._failed_barriers = 0 if ok else self._failed_barriers + 1
        return ok

    def _retry_later(self, what: str) -> None:
        """Arm the one timer for a retry of the failed barrier, on the bounded back-off."""
        failures = self._failed_barriers
        if failures == 1:
            _log.warning("schedule owner: %s; retrying on its own until saving works", what)
        delay = min(RETRY_FIRST * 2 ** min(failures - 1, 16), RETRY_MAX)
        try:
            now = self._clock()
            self._arm(now + delay, now)
        except Exception:
            _log.exception("schedule owner: the retry could not be armed; waiting for a trigger")

    def _live(self) -> bool:
        return not self._disposing and not self._faulted and self._is_live()

    def _fault(self, why: str) -> None:
        _log.exception("schedule owner faulted: %s", why)
        self._faulted = True
        self._cancel_timer()

    def _log_has_changes(self) -> bool:
        if self._has_changes:
            return True
        try:
            self._has_changes = bool(self._read_fold().seen_ids)
        except Exception:
            self._has_changes = True  # a change that fails the fold is still a change
        if not self._has_changes and self._log.seed_length > 0:
            if self._prefix_has_changes is None:
                prefix = self._log.events
                change = EventType.SCHEDULE_CHANGE.value
                self._prefix_has_changes = any(
                    prefix[i].get("type") == change for i in range(self._log.seed_length)
                )
            self._has_changes = self._prefix_has_changes
        return self._has_changes
