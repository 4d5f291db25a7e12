"""Pure decisions about a live session's folds: the schedule trial of an append, and what a
warm open's failed verification means (session-log.md §8). No I/O, no asyncio, no clock.

A warm open shows the checkpoint's state at once; when the digest then fails, the log is
re-scanned and the re-scan's state replaces the checkpoint's, with the entries appended since the
open fed on (``refold``). ``decide`` says what follows:

- the re-scan found the log corrupt: read-only with its reason;
- the session was read-only already: it stays so, nothing more;
- the queued entries no longer fit the re-scanned log (another durable event count, another open
  turn under queued entries, a schedule change the strict fold refuses now): read-only with
  ``DRIFTED``; the queued entries stay in memory and are never written;
- else it carries on, and when nothing was queued, a turn the re-scan finds open gets its closers
  (session-log.md §4.4) appended, unless the session had that very turn open already (writes go
  on during a staged check's second stage, so a running turn may be on disk: the agent running
  it, or the open's recovery, ends it).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import ScheduleLogError
from core.events import Entry, Event, ScheduleChanged
from core.schedule.fold import ScheduleFolder
from core.session.folds import OpenTurn, ScheduleFailed, ScheduleState, SessionFolds
from core.session.repair import closers

DRIFTED = (
    "The session log changed on disk after its checkpoint was written, and what was added since "
    "this window opened no longer fits it. It is open read-only; close and reopen it."
)


def schedule_after(
    schedule: ScheduleState, entries: Sequence[Entry], seed_length: int
) -> ScheduleFolder | None:
    """The schedule folder once ``entries`` are folded (None: they hold no schedule change).
    Raises ScheduleLogError when the fold has failed (then every change is refused) or would
    fail with them, and ``schedule`` is then unchanged; else it is fed (all or none, in place:
    copying a folder of 10^5 records per append cost more than the append) and returned."""
    changes = [
        (entry.seq, event) for entry in entries if isinstance(event := entry.event, ScheduleChanged)
    ]
    if not changes:
        return None
    if isinstance(schedule, ScheduleFailed):
        raise ScheduleLogError(schedule.reason)
    schedule.feed_all(change.data for seq, change in changes if seq >= seed_length)
    return schedule


def refold(fresh: SessionFolds, queued: Sequence[Entry]) -> bool:
    """Feed ``queued`` onto the re-scanned folds; False when the strict schedule fold refuses
    them now (the schedule is then failed)."""
    try:
        trial = schedule_after(fresh.schedule, queued, fresh.seed_length)
    except ScheduleLogError as error:
        fresh.fail_schedule(f"after a re-scan: {error}")
        trial, fits = None, False
    else:
        fits = True
    if trial is not None:
        fresh.schedule = trial
    for entry in queued:
        fresh.feed(entry)
        fresh.note_schedule(entry)
    return fits


@dataclass(frozen=True)
class Rescan:
    """A full re-scan of the log: its folds, line offsets, durable length, and the reason it is
    read-only (corrupt) or None."""

    folds: SessionFolds
    tail: array[int]
    durable_length: int
    read_only_reason: str | None


@dataclass(frozen=True)
class Before:
    """What the live session had when its verification failed."""

    durable_count: int
    open_turn: OpenTurn | None
    open_calls: dict[str, str]
    read_only: bool


@dataclass(frozen=True)
class CarryOn:
    """The re-scanned state stands; ``append`` are the closers of a turn it finds open."""

    append: tuple[Event, ...] = ()


@dataclass(frozen=True)
class TurnReadOnly:
    """The session must turn read-only with ``reason`` (None: it already is)."""

    reason: str | None


def decide(
    before: Before, fresh: Rescan, queued: Sequence[Entry], *, fits: bool
) -> CarryOn | TurnReadOnly:
    """What follows a failed verification, once ``refold`` fed ``queued`` onto the re-scan."""
    if fresh.read_only_reason is not None:
        return TurnReadOnly(fresh.read_only_reason)
    if before.read_only:
        return TurnReadOnly(None)
    folds = fresh.folds
    after = (folds.open_turn, folds.open_calls)
    moved = bool(queued) and (before.open_turn, before.open_calls) != after
    if not fits or before.durable_count != len(fresh.tail) or moved:
        return TurnReadOnly(DRIFTED)
    if queued or folds.open_turn is None or after == (before.open_turn, before.open_calls):
        return CarryOn()  # none open, or the very turn the session had open: its runner ends it
    return CarryOn(
        tuple(closers(folds.open_turn.turn, folds.open_calls, frozenset(folds.started_calls)))
    )
