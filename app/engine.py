"""OpenSession: one session opened for the window (live engine or read-only view). Async wiring.

A live session is its ``LiveSession`` plus an ``Agent``, ``ScheduleTools`` and a ``ScheduleOwner``
driven by a ``QtWaker``; a read-only one (locked elsewhere, or a corrupt log) has no agent and no
owner and appends nothing. The pieces are composed here, on the Qt loop, by ``open_session``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject

from app.owner_timer import QtWaker
from app.session_bridge import SessionBridge
from core.agent import Agent, ToolRegistry
from core.clock import Clock, NewId, ZoneSource
from core.llm.provider import ModelProvider
from core.schedule import ScheduleTools
from core.schedule.owner import ScheduleOwner
from core.session.live import LiveSession

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EngineParts:
    """What every live session shares: time, zone, ids, the system prompt and the provider."""

    clock: Clock
    zone_source: ZoneSource
    new_id: NewId
    system_prompt: str
    provider: Callable[[], ModelProvider]


@dataclass
class OpenSession:
    """A session the window shows. ``agent``/``owner``/``waker`` are None when read-only."""

    session: LiveSession
    bridge: SessionBridge
    agent: Agent | None = None
    owner: ScheduleOwner | None = None
    waker: QtWaker | None = None
    unread: bool = False
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.session.id

    @property
    def live(self) -> bool:
        return self.agent is not None

    def redrive(self) -> None:
        """Re-drive the owner (app activated, wall clock jumped): it re-reads the clock."""
        if self.owner is not None:
            self.owner.notify_idle()

    def set_provider(self, provider: ModelProvider) -> None:
        """Use ``provider`` from the next turn on (agent.md §5)."""
        if self.agent is not None:
            self.agent.provider = provider

    async def close(self) -> None:
        """Make the session cold: stop the owner, the agent, flush and release the lock."""
        self.bridge.detach()
        if self.waker is not None:
            self.waker.cancel()
        if self.owner is not None:
            await self.owner.dispose()
        if self.agent is not None:
            await self.agent.dispose()
        await self.session.close()


def compose(session: LiveSession, parts: EngineParts, parent: QObject | None) -> OpenSession:
    """Wire a session: read-only → a bridge only; live → agent, tools, owner and waker too."""
    if session.read_only:
        bridge = SessionBridge(session, None, parts.zone_source, parent=parent)
        return OpenSession(session, bridge)
    waker = QtWaker(parts.clock, parent)
    owner_box: list[ScheduleOwner] = []
    tools = ScheduleTools(session, parts.clock, on_change=lambda: _drive(owner_box))
    agent = Agent(
        session,
        parts.provider(),
        ToolRegistry([tools]),
        parts.clock,
        parts.zone_source,
        system_prompt=parts.system_prompt,
        new_id=parts.new_id,
    )
    owner = ScheduleOwner(
        session, parts.clock, tools.queue, agent, waker, is_live=lambda: not session.closed
    )
    owner_box.append(owner)
    waker.woke.connect(owner.request_drive)
    agent.on_status(lambda status: owner.notify_idle() if status == "idle" else None)
    bridge = SessionBridge(session, agent, parts.zone_source, parent=parent)
    return OpenSession(session, bridge, agent, owner, waker)


def start(opened: OpenSession) -> None:
    """Start the agent (pending input) and the owner's first drive (catches up overdue reminders)."""
    if opened.agent is not None:
        opened.agent.start()
    if opened.owner is not None:
        opened.owner.start()


def _drive(owner_box: list[ScheduleOwner]) -> None:
    if owner_box:
        owner_box[0].request_drive()
