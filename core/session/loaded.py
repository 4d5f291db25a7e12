"""What opening a session log found: the frozen value a ``LiveSession`` starts from. Pure types.

Built once by ``recovery`` (or ``LiveSession.detached``) and never changed. Where a session lives
(``OnDisk`` or nowhere), whether it may be written (``Writable`` or ``ReadOnly``) and whether its
state still waits for a check (``Checked`` or ``Unchecked``) are each one value of explicit
variants, so no combination of optional fields has to be read as a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeAlias

from core.session.event_list import EventList
from core.session.folds import SessionFolds
from core.session.jsonl_store import LogFile, SessionLock
from core.session.lines import SessionHeader
from core.session.reconcile import Rescan


@dataclass(frozen=True)
class OnDisk:
    """A stored session: its folder, its open log and where its first event line starts."""

    folder: Path
    log: LogFile
    body_start: int


@dataclass(frozen=True)
class Writable:
    """Appends are taken; ``lock`` is the live lock held for it (None: a detached session)."""

    lock: SessionLock | None


@dataclass(frozen=True)
class ReadOnly:
    """Nothing is appended; ``reason`` is the sentence the window shows."""

    reason: str


Access: TypeAlias = Writable | ReadOnly


class Verifier(Protocol):
    """The deferred check of a warm open, in two stages (built by ``recovery``). Each blocks (a
    worker thread runs it)."""

    def first(self, soon_ms: int | None) -> bool:
        """The digest, the pending inputs and the reminders due by ``soon_ms`` (None: all)."""
        ...

    def rest(self, soon_ms: int | None) -> bool:
        """The reminders due after ``soon_ms``."""
        ...

    def fall_back(self) -> Rescan:
        """A full re-scan of the log (a stage found the checkpoint wrong)."""
        ...


@dataclass(frozen=True)
class Checked:
    """The state rests on bytes read or hashed at open."""


@dataclass(frozen=True)
class Unchecked:
    """A warm open: the state is the checkpoint's word until ``verifier`` has run."""

    verifier: Verifier


@dataclass(frozen=True)
class LoadedSession:
    """Everything a ``LiveSession`` starts from. ``checkpoint_count`` is how many events the
    checkpoint on disk already covers (0: none); ``torn`` is where this open set a torn tail
    aside (session-log.md §4.2), if it did."""

    header: SessionHeader
    entries: EventList
    folds: SessionFolds
    disk: OnDisk | None
    access: Access
    check: Checked | Unchecked
    checkpoint_count: int = 0
    torn: Path | None = None
