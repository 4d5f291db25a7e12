"""The in-memory half of a live session: its entries, their folds, the append guard, observers.

Synchronous and free of I/O: ``append`` makes entries visible to every fold and observer at once
and queues their lines for the writer (``core.session.writer``), which decides when they reach
the disk. The clock is injected (it stamps ``at``). The §8.5 guard of schedule.md lives here: a
group holding a ``schedule/change`` that the strict fold refuses (honouring ``seed_length``)
appends nothing. Observers that raise are logged and do not undo the append.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from core.clock import Clock
from core.errors import ScheduleLogError
from core.events import Entry, Event
from core.instant import format_instant
from core.schedule.fold import ScheduleFold
from core.session.event_list import EventList
from core.session.folds import InputState, OpenTurn, ScheduleFailed, SessionFolds
from core.session.lines import SessionHeader, encode_entry
from core.session.reconcile import schedule_after

logger = logging.getLogger(__name__)

Unsubscribe = Callable[[], None]


class SessionMemory:
    """A session's entries (``EventList``: durable ones on disk, the rest queued) and folds."""

    def __init__(
        self, header: SessionHeader, entries: EventList, folds: SessionFolds, clock: Clock
    ) -> None:
        self.header = header
        self.entries = entries
        self.folds = folds
        self._clock = clock
        self._observers: list[Callable[[Entry], None]] = []

    # -- the folds -------------------------------------------------------------------------

    def schedule_fold(self) -> ScheduleFold:
        """Equal to ``fold_schedule(events, seed_length)``; ScheduleLogError when that fails."""
        schedule = self.folds.schedule
        if isinstance(schedule, ScheduleFailed):
            raise ScheduleLogError(schedule.reason)
        return schedule.fold()

    def inputs(self) -> InputState:
        return self.folds.inputs()

    def open_turn(self) -> OpenTurn | None:
        return self.folds.open_turn

    def open_calls(self) -> dict[str, str]:
        """Tool calls of the open turn without a result: call id -> tool name, in call order."""
        return dict(self.folds.open_calls)

    # -- appends ---------------------------------------------------------------------------

    def append(self, events: Sequence[Event]) -> list[Entry]:
        """Append ``events`` as one group (a group of k >= 2 carries ``group: k`` on its first
        line). Refused, appending nothing: ScheduleLogError (the guard), TypeError/ValueError
        (data that is not JSON)."""
        at = format_instant(self._clock())
        first = len(self.entries)
        size = len(events) if len(events) > 1 else None
        entries = [
            Entry(first + i, at, event, size if i == 0 else None) for i, event in enumerate(events)
        ]
        lines = [encode_entry(entry) for entry in entries]
        trial = schedule_after(self.folds.schedule, entries, self.header.seed_length)
        if trial is not None:
            self.folds.schedule = trial  # the changes are in it already: not fed again
        for entry, line in zip(entries, lines, strict=True):
            self.entries.queue(entry, line)
            self.folds.feed(entry)
            self.folds.note_schedule(entry)
        for entry in entries:
            self._notify(entry)
        return entries

    # -- observers -------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Entry], None]) -> Unsubscribe:
        """Call ``callback(entry)`` after each append; returns the unsubscribe function."""
        self._observers.append(callback)
        return lambda: _discard(self._observers, callback)

    def _notify(self, entry: Entry) -> None:
        for callback in list(self._observers):
            try:
                callback(entry)
            except Exception:
                logger.exception("an event observer of session %s failed", self.header.id)


def _discard(items: list[Any], item: object) -> None:
    with contextlib.suppress(ValueError):
        items.remove(item)
