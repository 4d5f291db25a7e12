"""SessionPort: the one session interface the agent and the host need. Pure: a Protocol only.

It is api.md's ``SessionLog`` (JSON envelopes in ``events``, ``append``, the ``flush`` barrier)
extended by what the engine above the log uses: the typed ``entries`` (core.events), typed and
atomic appends, the incremental folds and the observers. ``LiveSession`` implements it, and so
does the one test fake (``tests/fakes.py``), which ``tests/core/session/test_contract.py`` runs
through the same checks as the real session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from core.events import Attachment, Entry, Event
from core.schedule.log import FoldingLog
from core.session.conversation import Conversation
from core.session.folds import InputState, SessionChoices
from core.session.refusal import Refused

Unsubscribe = Callable[[], None]


@runtime_checkable
class SessionPort(FoldingLog, Protocol):
    """A live session: the log, its folds, and who is told about appends and writes."""

    @property
    def id(self) -> str: ...

    @property
    def read_only(self) -> bool: ...

    @property
    def read_only_reason(self) -> str | None:
        """Why it is read-only (the sentence the window shows), else None."""
        ...

    @property
    def entries(self) -> Sequence[Entry]:
        """Every entry so far, oldest first (the same events as ``events``, decoded)."""
        ...

    def inputs(self) -> InputState:
        """The input queue fold (agent.md §1)."""
        ...

    def conversation(self) -> Conversation:
        """The conversation tree fold (agent.md §7): the shown path, versions, hidden exchanges."""
        ...

    def choices(self) -> SessionChoices:
        """The session's own model and instructions (agent.md §7)."""
        ...

    async def add_attachment(self, name: str, data: bytes) -> Attachment | Refused:
        """Store a file for a message (agent.md §7): its record, or why it cannot be attached
        (not text nor an image, too big, the disk refused). Appends nothing."""
        ...

    async def read_attachment(self, sha256: str) -> bytes | None:
        """A stored file's bytes; None when missing or damaged."""
        ...

    def append_event(self, event: Event) -> Entry:
        """Append one event (visible at once, written by the next barrier); raises to refuse."""
        ...

    def append_events(self, events: Sequence[Event]) -> list[Entry]:
        """Append events as ONE atomic group (session-log.md §3); all or nothing."""
        ...

    def subscribe(self, callback: Callable[[Entry], None]) -> Unsubscribe:
        """``callback(entry)`` after every append."""
        ...

    def subscribe_persistence(self, callback: Callable[[bool], None]) -> Unsubscribe:
        """``callback(ok)`` after every write attempt."""
        ...

    def subscribe_lost(self, callback: Callable[[str], None]) -> Unsubscribe:
        """``callback(reason)`` once if the log's file vanished (deleted with its folder, moved):
        nothing more is saved; what is in memory is kept."""
        ...

    async def close(self) -> bool:
        """Flush and release the session; returns the final flush's outcome."""
        ...
