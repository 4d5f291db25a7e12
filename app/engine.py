"""OpenSession: one session opened for the window (live engine or read-only view). Async wiring.

A live session is a ``core.host.SessionHost`` (LiveSession + Agent + ScheduleTools + owner) whose
owner timer is a ``QtWaker``; a read-only one (locked elsewhere, or a corrupt log) has no host, no
owner and appends nothing. Composed on the Qt loop by ``compose`` and started by ``start``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QObject

from app.owner_timer import QtWaker
from app.providers import close_provider
from app.session_bridge import SessionBridge
from core.agent import Agent, Toolset
from core.clock import Clock, NewId, ZoneSource
from core.events import Attachment, Entry, SessionModel, UserMessage
from core.host import SessionHost
from core.llm.provider import ModelProvider
from core.session.live import LiveSession


def unread_turns(entries: Sequence[Entry], read_upto: int) -> int:
    """The reminder turns after ``read_upto``, counted back from the end (only what arrived since
    the person last looked is read)."""
    count = 0
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if entry.seq <= read_upto:
            break
        if isinstance(entry.event, UserMessage) and entry.event.is_reminder:
            count += 1
    return count


McpToolsets = Callable[[LiveSession, Callable[[], ModelProvider]], Toolset]


def _follow_setting(_choice: SessionModel) -> ModelProvider | None:
    return None


@dataclass(frozen=True)
class EngineParts:
    """What every live session shares: time, zone, ids, the system prompt and the provider.

    ``provider`` makes the app setting's provider; ``chosen`` a session's own one for its
    ``session/model`` choice (None: that choice leaves the provider to the setting)."""

    clock: Clock
    zone_source: ZoneSource
    new_id: NewId
    system_prompt: str
    provider: Callable[[], ModelProvider]
    chosen: Callable[[SessionModel], ModelProvider | None] = _follow_setting
    mcp: McpToolsets | None = None
    """Makes a live session's MCP toolset (``app.mcp.service.McpService.toolset``); None: no
    MCP tools at all (the tests' engines)."""

    def provider_for(self, choice: SessionModel | None) -> ModelProvider:
        """The provider a session with this choice (None: none) answers with (agent.md §7)."""
        own = self.chosen(choice) if choice is not None else None
        return own if own is not None else self.provider()


@dataclass
class OpenSession:
    """A session the window shows. ``host`` and ``waker`` are None when it is read-only."""

    session: LiveSession
    bridge: SessionBridge
    host: SessionHost | None = None
    waker: QtWaker | None = None
    read_upto: int = -1
    """The ``seq`` of the last entry the person has seen here (``unread_turns`` counts after it)."""
    attachments: list[Attachment] = field(default_factory=list)
    """Files stored for the message being written in this session (sent with it)."""
    _retiring: set[asyncio.Task[None]] = field(default_factory=set)
    """Replaced providers waiting for the turn that uses them to end before they are closed."""

    @property
    def id(self) -> str:
        return self.session.id

    @property
    def last_seq(self) -> int:
        entries = self.session.entries
        return entries[-1].seq if len(entries) else -1

    @property
    def unread(self) -> int:
        """Reminder turns that arrived here unseen."""
        return unread_turns(self.session.entries, self.read_upto)

    @property
    def live(self) -> bool:
        return self.host is not None

    @property
    def agent(self) -> Agent | None:
        return self.host.agent if self.host is not None else None

    def redrive(self) -> None:
        """Re-drive the owner (app activated, wall clock jumped): it re-reads the clock."""
        if self.host is not None:
            self.host.request_drive()

    def set_provider(self, provider: ModelProvider) -> None:
        """Use ``provider`` from the next turn on (agent.md §5); the one it replaces is closed
        once no turn runs on it any more, so its sockets do not linger (a session may switch
        models many times)."""
        if self.host is None:
            return
        old = self.host.agent.provider
        self.host.set_provider(provider)
        if old is not provider and hasattr(old, "aclose"):  # else nothing to release
            task = asyncio.get_event_loop().create_task(_retire(old, self.host))
            self._retiring.add(task)
            task.add_done_callback(self._retiring.discard)

    async def demote(self) -> None:
        """The session turned read-only after it went live (its verification failed): stop its
        owner and agent for good and keep it open as a view (the lock is kept until ``close``)."""
        host, self.host, self.waker = self.host, None, None
        if host is None:
            return
        self.bridge.drop_agent()
        await self._stop(host)

    async def close(self) -> None:
        """Make the session cold: stop the owner and the agent, flush, release the lock."""
        self.bridge.detach()
        if self.host is not None:
            await self._stop(self.host)
        await self.session.close()

    async def _stop(self, host: SessionHost) -> None:
        """Dispose ``host`` (owner, agent: a running turn just stops; a final flush), then close
        its providers: an endpoint's idle keep-alive sockets close here, not at exit."""
        await host.dispose()
        await asyncio.gather(*self._retiring, return_exceptions=True)
        await close_provider(host.agent.provider)


async def _retire(provider: ModelProvider, host: SessionHost) -> None:
    """Close a replaced provider once the session is idle (a running turn keeps its provider)."""
    await host.when_idle()
    await close_provider(provider)


def compose(session: LiveSession, parts: EngineParts, parent: QObject | None) -> OpenSession:
    """Wire a session: read-only → a bridge only; live → a ``SessionHost`` whose owner is
    driven by a ``QtWaker``."""
    if session.read_only:
        bridge = SessionBridge(session, None, parts.zone_source, parent=parent)
        return OpenSession(session, bridge)
    wakers: list[QtWaker] = []

    def make_waker(callback: Callable[[], None]) -> QtWaker:
        waker = QtWaker(parts.clock, parent)
        waker.woke.connect(callback)
        wakers.append(waker)
        return waker

    hosted: list[SessionHost] = []
    extra = () if parts.mcp is None else (parts.mcp(session, lambda: hosted[0].agent.provider),)
    host = SessionHost(
        session,
        parts.provider_for(session.choices().model),
        parts.clock,
        parts.zone_source,
        make_waker,
        system_prompt=parts.system_prompt,
        new_id=parts.new_id,
        extra_toolsets=extra,
        close_session=False,  # OpenSession.close closes it: a demoted session stays viewable
    )
    hosted.append(host)
    bridge = SessionBridge(session, host.agent, parts.zone_source, parent=parent)
    return OpenSession(session, bridge, host, wakers[0])


def start(opened: OpenSession) -> None:
    """Start the owner (its first drive catches up overdue reminders) and pending input."""
    if opened.host is not None:
        opened.host.start()
