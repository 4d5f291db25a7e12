"""LiveSession: one open session, a small facade over its parts (session-log.md §3, §8).

- ``SessionMemory`` (``memory``): the entries, their folds, the append guard and observers;
- ``GroupCommit`` (``writer``): the persistence barrier with group commit, write-behind, retry;
- ``Checkpointer`` (``checkpointer``): the derived checkpoint;
- ``reconcile``: the pure decision after a warm open's failed verification.

The facade owns the lifecycle: ``start()`` begins the deferred verification of a warm open (the
constructor starts nothing), ``close()`` flushes, checkpoints and releases the lock, ``abandon()``
drops what is queued. It is the api.md ``SessionLog`` (``events`` as JSON envelopes, ``append``,
``flush``) and ``core.session.port.SessionPort`` (typed ``entries``, ``append_event(s)``, the folds).

Verification (session-log.md §8): until ``verified`` the folds come from the unverified
checkpoint and are for DISPLAY only. It runs in two stages in worker threads: first the digest,
the pending inputs and the reminders due within ``SOON_SECONDS`` of the open; then the other
reminders. Writes wait for the first stage. ``flush`` (the tools' barrier, and every barrier of
a caller that is not the owner or a turn) waits for both, and no checkpoint is written before
both, so the tools never answer from unverified state. ``flush_staged``, the owner's and the
agent's barrier, waits for the first stage only (a turn reads no reminder): until the second
ends, the schedule's next-due index holds every reminder after the first stage's bound
(``DueIndex.hold_after``), so the owner delivers only reminders already checked against their
own lines, and the host drives it again when the check ends. On a mismatch, writes are held
(and the write in flight awaited), the whole log is re-scanned in a worker thread and replaces
the checkpoint's state in place (``entries`` stays the same object); what follows is
``reconcile.decide``. ``await verification()`` tells the window when to refresh what it showed.

Choices where the spec is silent: ``flush`` of a read-only, closed or detached (storage-less)
session returns False; entries handed out are frozen values and may be kept.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.clock import Clock
from core.errors import SessionError, SessionReadOnlyError
from core.events import Attachment, Entry, Event, decode_event
from core.instant import datetime_to_ms, format_instant
from core.jsonvalue import compact_json
from core.schedule.fold import ScheduleFold, ScheduleFolder
from core.session.attachments import AttachmentStore, classify
from core.session.checkpoint import Checkpoint
from core.session.checkpointer import CHECKPOINT_EVERY, Checkpointer
from core.session.conversation import Conversation
from core.session.event_list import EventList, JsonEvents
from core.session.folds import InputState, OpenTurn, SessionChoices, SessionFolds
from core.session.lines import SessionHeader
from core.session.loaded import Checked, LoadedSession, ReadOnly, Unchecked, Verifier, Writable
from core.session.memory import SessionMemory, Unsubscribe
from core.session.reconcile import Before, CarryOn, Rescan, decide, refold
from core.session.refusal import RefusalCode, Refused
from core.session.writer import WRITE_BEHIND_SECONDS, GroupCommit, Scheduler, loop_scheduler

_log = logging.getLogger(__name__)

UNVERIFIED = "The session log could not be verified ({why}). It is open read-only; reopen it."
SOON_SECONDS = 30
"""A warm open's first stage checks the reminders due within this many seconds of its start; the
owner may deliver those while the others are checked (10^5 of them take about a second)."""


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
        self.header = loaded.header
        self._loaded = loaded
        self.read_only_reason = (
            loaded.access.reason if isinstance(loaded.access, ReadOnly) else None
        )
        self._memory = SessionMemory(loaded.header, loaded.entries, loaded.folds, clock)
        self._clock = clock
        self._events = JsonEvents(loaded.entries)
        self._closed = False
        self._closed_ok = True
        self._verifying: asyncio.Future[bool] | None = None
        self._gate: asyncio.Future[bool] | None = None
        """Writes wait on it while a warm open's first stage or a re-scan runs; its result says
        whether they may go at all (False: the check was cancelled with its loop)."""
        disk = loaded.disk
        self._writer = (
            None
            if disk is None
            else GroupCommit(
                disk.log,
                loaded.entries,
                name=self.id,
                may_write=self._may_write,
                on_committed=self.checkpoint_if_due,
                scheduler=scheduler,
                write_behind_seconds=write_behind_seconds,
            )
        )
        self._files = None if disk is None else AttachmentStore(disk.folder)
        self._detached_files: dict[str, bytes] = {}
        self._checkpointer = (
            None
            if disk is None
            else Checkpointer(
                disk.folder,
                disk.log.path,
                every=checkpoint_every,
                covered=loaded.checkpoint_count,
            )
        )

    @classmethod
    def detached(cls, session_id: str, clock: Clock, *, seed_length: int = 0) -> LiveSession:
        """An in-memory session with no storage: every ``flush`` returns False."""
        header = SessionHeader(session_id, format_instant(clock()), None, seed_length)
        folds = SessionFolds(seed_length)
        if seed_length:
            folds.fail_schedule("the header's seedLength is beyond the end of the log")
        loaded = LoadedSession(header, EventList(None), folds, None, Writable(None), Checked())
        return cls(loaded, clock)

    def start(self) -> None:
        """Begin the deferred verification of a warm open (needs a running loop); idempotent."""
        check = self._loaded.check
        if isinstance(check, Unchecked) and self._verifying is None:
            self._gate = asyncio.get_running_loop().create_future()
            self._verifying = asyncio.ensure_future(self._verify(check.verifier))
            # the last release once the check is done, after its own waiters: who awaits the
            # verification (the window stopping a turn on a corrupt log) hears of it first
            self._verifying.add_done_callback(self._checked)

    # -- what it is ----------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def seed_length(self) -> int:
        return self.header.seed_length

    @property
    def torn_tail(self) -> Path | None:
        """Where opening it set aside a torn tail (bytes never acknowledged), if it did."""
        return self._loaded.torn

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
        if isinstance(self._loaded.check, Checked):
            return True
        verifying = self._verifying
        return verifying is not None and verifying.done() and not verifying.cancelled()

    async def verification(self) -> bool:
        """Wait until ``verified``. True when the state the session opened with stood; False when
        a re-scan replaced it or the check failed (then refresh what was shown)."""
        if isinstance(self._loaded.check, Checked):
            return True
        self.start()
        assert self._verifying is not None  # start() made it
        return await asyncio.shield(self._verifying)

    # -- reading -------------------------------------------------------------------------

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        """Every event so far as JSON envelopes (api.md); ``entries`` is the typed sequence."""
        return self._events

    @property
    def entries(self) -> Sequence[Entry]:
        return self._memory.entries

    @property
    def durable_count(self) -> int:
        """How many events are known durable (the rest wait for a barrier)."""
        return self._memory.entries.durable_count

    @property
    def title(self) -> str | None:
        """The latest ``session/title``, else the first user message's first line, else None."""
        return self._memory.folds.display_title

    @property
    def titled_by_person(self) -> bool:
        """A ``session/title`` given by the person (a rename, a fork's) is the title: a title
        the model writes never replaces it."""
        folds = self._memory.folds
        return folds.title is not None and not folds.title_by_model

    @property
    def last_activity(self) -> str:
        """``at`` of the newest event (canonical UTC), or the header's ``createdAt``."""
        return self._memory.folds.last_at or self.header.created_at

    def inputs(self) -> InputState:
        """The input queue (agent.md §1): pending and failed seqs, the open turn."""
        return self._memory.folds.inputs()

    def conversation(self) -> Conversation:
        """The conversation tree (agent.md §7): the shown path, versions, hidden exchanges."""
        return self._memory.folds.snapshot()

    def choices(self) -> SessionChoices:
        """The session's own model and instructions (agent.md §7)."""
        return self._memory.folds.choices()

    def pending_inputs(self) -> tuple[int, ...]:
        """Seqs of the pending ``user/message`` events, oldest first (agent.md §1)."""
        return self._memory.inputs().pending

    def open_turn(self) -> OpenTurn | None:
        """The turn that has started and not ended, if any."""
        return self._memory.open_turn()

    def open_calls(self) -> dict[str, str]:
        """Tool calls of the open turn without a result: call id -> tool name, in call order."""
        return self._memory.open_calls()

    def started_calls(self) -> frozenset[str]:
        """The open calls that had a ``tool/start`` (MCP calls that had begun)."""
        return frozenset(self._memory.folds.started_calls)

    async def add_attachment(self, name: str, data: bytes) -> Attachment | Refused:
        """Store a file for a message (agent.md §7): its record, or why it cannot be attached.
        Appends nothing; SessionReadOnlyError on a read-only session."""
        if self.read_only_reason is not None:
            raise SessionReadOnlyError(self.read_only_reason)
        record = classify(name, data)
        if isinstance(record, Refused):
            return record
        if self._files is None:
            self._detached_files[record.sha256] = data
            return record
        try:
            await asyncio.to_thread(self._files.put, record, data)
        except OSError as error:
            _log.warning("attachment %s not saved: %s", record.name, error)
            why = str(error.strerror or error)
            saved = f"“{record.name}” could not be saved ({why})."
            return Refused(saved, RefusalCode.NOT_SAVED, (record.name, why))
        return record

    async def read_attachment(self, sha256: str) -> bytes | None:
        """A stored file's bytes; None when missing or damaged."""
        if self._files is None:
            return self._detached_files.get(sha256)
        return await asyncio.to_thread(self._files.read, sha256)

    def schedule_fold(self) -> ScheduleFold:
        """Equal to ``fold_schedule(events, seed_length)``; ScheduleLogError when that fails.

        Before ``verified`` it is the checkpoint's word: show it, decide nothing on it (a barrier
        first, as the tools and the owner do)."""
        return self._memory.schedule_fold()

    def tail_turns(self, turns: int, within: int | None = None) -> list[Entry]:
        """The entries of the last ``turns`` turns, each from its input message, oldest first.
        Walks back from the end (at most ``within`` entries) decoding only what it returns (the
        window's first screen)."""
        return self._memory.entries.tail_turns(turns, within)

    def byte_span(self, count: int) -> tuple[int, int]:
        """Where the lines of durable events ``[0, count)`` lie in the log (for a verbatim fork)."""
        entries = self._memory.entries
        durable = entries.durable_count
        if not 0 <= count <= durable:
            raise IndexError(f"{count} is not within the durable events")
        disk = self._loaded.disk
        start = disk.body_start if disk is not None else 0
        if count == 0:
            return start, start
        return start, entries.start(count) if count < durable else entries.durable_length

    def subscribe(self, callback: Callable[[Entry], None]) -> Unsubscribe:
        """Call ``callback(entry)`` after each append; returns the unsubscribe function."""
        return self._memory.subscribe(callback)

    def subscribe_persistence(self, callback: Callable[[bool], None]) -> Unsubscribe:
        """Call ``callback(ok)`` after each write attempt; returns the unsubscribe function."""
        if self._writer is None:
            return lambda: None
        return self._writer.subscribe(callback)

    def subscribe_lost(self, callback: Callable[[str], None]) -> Unsubscribe:
        """Call ``callback(reason)`` once if the log's file vanishes (writer.py): nothing more is
        saved, what is in memory stays (``log_bytes`` for a copy)."""
        if self._writer is None:
            return lambda: None
        return self._writer.subscribe_lost(callback)

    @property
    def lost(self) -> str | None:
        """Why the log can no longer be written (its file vanished), else None."""
        return None if self._writer is None else self._writer.lost

    def log_bytes(self) -> bytes:
        """The whole log as this session holds it, the events not yet durable included (a copy
        to save elsewhere when the file vanished). Blocking: call it in a worker thread."""
        entries, disk = self._memory.entries, self._loaded.disk
        durable = disk.log.read_at(0, entries.durable_length) if disk is not None else b""
        return durable + entries.queued_bytes(entries.queued_count)

    # -- appends -------------------------------------------------------------------------

    def append(self, type: str, data: Mapping[str, Any]) -> None:
        """api.md: append one event given as JSON (``data`` is copied). Refusals as
        ``append_events``, and ValueError for a type that is not a non-empty string."""
        self.append_event(decode_event(_event_type(type), json.loads(compact_json(data))))

    def append_event(self, event: Event) -> Entry:
        """Append one event; returns its entry (``seq``, ``at``)."""
        return self.append_events([event])[0]

    def append_events(self, events: Sequence[Event]) -> list[Entry]:
        """Append events that become durable together: all or none after a crash (§3).

        Raises to refuse, and then nothing is appended: SessionReadOnlyError, SessionError
        (closed), ScheduleLogError (the schedule.md §8.5 guard: a ``schedule/change`` that would
        make the fold fail, honouring ``seed_length``), TypeError/ValueError (not JSON)."""
        if self._closed:
            raise SessionError(f"session {self.id} is closed")
        if self.read_only_reason is not None:
            raise SessionReadOnlyError(self.read_only_reason)
        entries = self._memory.append(events)
        if self._writer is not None:
            self._writer.wake()
        return entries

    # -- the barrier ---------------------------------------------------------------------

    async def flush(self) -> bool:
        """The persistence barrier: True only when every event appended so far is durable.
        Awaits the open's whole verification first: the state a barrier vouches for is verified."""
        if self._writer is None:
            return False
        if self._verifying is not None and not self._verifying.done():
            await asyncio.shield(self._verifying)
        return self.verified and await self._writer.flush()

    async def flush_staged(self) -> bool:
        """The owner's and the agent's barrier (``core.schedule.log.StagedLog``): ``flush``,
        waiting only for the first stage of a warm open's check; until the second ends, the
        next-due index holds the reminders that stage did not reach, so the owner decides only
        on checked ones."""
        if self._writer is None:
            return False
        return await self._writer.flush()

    async def _may_write(self) -> bool:
        self.start()  # a warm open's check runs before anything is written, started or not
        while (gate := self._gate) is not None and not gate.done():
            await asyncio.shield(gate)
        allowed = gate is None or (not gate.cancelled() and gate.result())
        return allowed and not (self.read_only or self._closed)

    # -- verification --------------------------------------------------------------------

    async def _verify(self, verifier: Verifier) -> bool:
        try:
            return await self._stages(verifier)
        except Exception as error:  # the log vanished or cannot be read: trust nothing
            reason = UNVERIFIED.format(why=error)
            self.read_only_reason = self.read_only_reason or reason
            self._memory.folds.fail_schedule(reason)
            return False

    def _checked(self, verifying: asyncio.Future[bool]) -> None:
        self._let_writes(not verifying.cancelled())

    async def _stages(self, verifier: Verifier) -> bool:
        """The two stages; True when the checkpoint stood, False when a re-scan replaced it."""
        soon = self._soon()
        if await asyncio.to_thread(verifier.first, soon):
            self._hold(soon)
            self._let_writes(True)
            if await asyncio.to_thread(verifier.rest, soon):
                self._hold(None)
                return True
            await self._hold_writes()
        self._adopt(await asyncio.to_thread(verifier.fall_back))
        return False

    def _soon(self) -> int | None:
        """The first stage's bound; None (every reminder in the first stage) when the clock
        cannot be read."""
        try:
            return datetime_to_ms(self._clock()) + SOON_SECONDS * 1000
        except Exception:  # a failing clock must not make the check fail: check all at once
            _log.exception("the clock failed; the checkpoint is checked in one stage")
            return None

    def _hold(self, bound_ms: int | None) -> None:
        schedule = self._memory.folds.schedule
        if isinstance(schedule, ScheduleFolder):
            schedule.hold_after(bound_ms)

    def _let_writes(self, allowed: bool) -> None:
        gate = self._gate
        if gate is not None and not gate.done():
            gate.set_result(allowed)

    async def _hold_writes(self) -> None:
        """Hold new writes and wait for the one in flight: the re-scan reads a still file."""
        self._gate = asyncio.get_running_loop().create_future()
        writer = self._writer
        assert writer is not None  # only a session on disk opens warm, and it has a writer
        await writer.quiet()

    def _adopt(self, fresh: Rescan) -> None:
        """The re-scan's state replaces the checkpoint's; what follows is ``reconcile.decide``."""
        entries = self._memory.entries
        folds = self._memory.folds
        before = Before(
            entries.durable_count, folds.open_turn, dict(folds.open_calls), self.read_only
        )
        queued = entries.queued_entries()
        entries.rebase(fresh.tail, fresh.durable_length)
        fits = refold(fresh.folds, queued)
        self._memory.folds = fresh.folds
        if self._checkpointer is not None:
            self._checkpointer.forget()
        verdict = decide(before, fresh, queued, fits=fits)
        if isinstance(verdict, CarryOn):
            for closer in verdict.append:  # one by one, as recovery writes them (§4.4)
                self.append_event(closer)
        elif verdict.reason is not None:
            self.read_only_reason = verdict.reason

    # -- checkpoint and close ------------------------------------------------------------

    def checkpoint_if_due(self) -> asyncio.Future[None] | None:
        """Start writing a checkpoint when ``checkpoint_every`` durable events are not covered
        yet (after writes, and after an open that had to scan many events); returns its task."""
        checkpointer, writer = self._checkpointer, self._writer
        entries = self._memory.entries
        if checkpointer is None or writer is None or not checkpointer.due(entries.durable_count):
            return None
        if entries.queued_count or not self.verified or self._closed or self.read_only:
            return None
        task = checkpointer.start(self._checkpoint_state(), entries.offsets())
        writer.track(task)
        return task

    def _checkpoint_state(self) -> Checkpoint:
        entries = self._memory.entries
        return Checkpoint.of(
            self.id, entries.durable_length, entries.durable_count, self._memory.folds
        )

    async def close(self) -> bool:
        """Flush, write the checkpoint, release the lock. Returns the final flush's outcome."""
        if self._closed:
            return self._closed_ok
        await self._settle_verification()
        ok = await self.flush() if not self.read_only and self._writer is not None else True
        self._closed, self._closed_ok = True, ok
        if self._writer is not None:
            await self._writer.settle()
        checkpointer, entries = self._checkpointer, self._memory.entries
        behind = checkpointer is not None and checkpointer.behind(entries.durable_count)
        if ok and not self.read_only and behind and not entries.queued_count:
            assert checkpointer is not None  # behind() said so
            await checkpointer.write(self._checkpoint_state(), entries.offsets())
        self._release()
        return ok

    async def abandon(self) -> None:
        """Close without writing what is queued (an open whose recovery could not be made
        durable): the queued entries are dropped, the file keeps its durable bytes."""
        self._closed, self._closed_ok = True, False
        await self._settle_verification()
        if self._writer is not None:
            await self._writer.settle()
        self._release()

    async def _settle_verification(self) -> None:
        """Wait for the verification: its digest threads read the log's descriptor."""
        if self._verifying is not None:
            await asyncio.gather(self._verifying, return_exceptions=True)

    def _release(self) -> None:
        if self._writer is not None:
            self._writer.shutdown()
        access, disk = self._loaded.access, self._loaded.disk
        if isinstance(access, Writable) and access.lock is not None:
            access.lock.release()
        if disk is not None:
            disk.log.close()
        self._memory.entries.close()


def _event_type(type: object) -> str:
    """The api's callers are not type-checked: a type must be a non-empty string."""
    if not isinstance(type, str) or not type:
        raise ValueError(f"an event type is a non-empty string, not {type!r}")
    return type
