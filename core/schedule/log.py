"""SessionLog: all that the schedule core knows of a session (api.md). Pure: a Protocol only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable


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
