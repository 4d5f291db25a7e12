"""SessionLog: all that the schedule core knows of a session (api.md). Pure: Protocols only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from core.schedule.fold import ScheduleFold


@runtime_checkable
class SessionLog(Protocol):
    """A session's live event log, as the schedule tools and the owner see it.

    ``append`` makes the event visible in ``events`` at once (the live log) and may raise to refuse;
    ``flush`` is the persistence barrier: it returns True only when everything appended so far is
    durable, and False (or raises) when that is not certain.
    """

    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...

    @property
    def seed_length(self) -> int: ...

    def append(self, type: str, data: Mapping[str, Any]) -> None: ...

    async def flush(self) -> bool: ...


@runtime_checkable
class FoldingLog(SessionLog, Protocol):
    """A SessionLog that keeps its schedule fold up to date as it is appended to (the on-disk
    session has 10^6 events: re-folding them per tool call is too slow). ``schedule_fold()`` is by
    definition ``fold_schedule(events, seed_length)`` and raises ScheduleLogError like it."""

    def schedule_fold(self) -> ScheduleFold: ...


@runtime_checkable
class StagedLog(FoldingLog, Protocol):
    """A FoldingLog that may have opened from a checkpoint it checks against the log in stages
    (session-log.md §8). ``flush`` waits for the whole check; ``flush_staged`` only for the
    first stage (the digest, the pending inputs, the reminders due soon): the barrier of the
    owner and of the agent's turns, never of the schedule tools. Until the whole check ends,
    ``schedule_fold()``'s next-due index answers no reminder the first stage did not check, and
    the owner must drive again when ``verification()`` resolves."""

    @property
    def verified(self) -> bool: ...

    async def verification(self) -> bool: ...

    async def flush_staged(self) -> bool: ...
