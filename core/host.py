"""SessionHost: one live session wired together (LiveSession + Agent + ScheduleTools + owner).
Owns the wiring and the lifetime; must not know Qt (the window observes it) or read the machine
clock or zone (both injected). This is the embedding API: see docs/embedding.md.

Wiring (schedule.md §10.1-§10.2): the tools' ``on_change`` and the waker's expiry request a drive;
the agent reporting ``idle`` and ``request_drive()`` (app activation, resume from sleep) request
one only when the log holds a ``schedule/change``; each write of the log is reported to the owner
(``notify_persisted``), so a successful one after a failed barrier drives at once; a session still
checking its checkpoint in stages (``StagedLog``) drives once more when the check ends (the
reminders it held are checked, or a re-scan replaced them). ``dispose()`` disposes the owner (clears its
timer, ends its idle wait, awaits its drive), then the agent (a running turn ends
``interrupted``), then flushes and closes the session (releasing its lock).

Choices the spec leaves open: a read-only session cannot be hosted (``SessionReadOnlyError``: show
it without an agent); ``submit`` samples the zone source when the text is submitted unless the
caller passes the zone it sampled when the text was typed.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from core.agent import Agent, AgentStatus, ToolRegistry, Toolset
from core.clock import Clock, NewId, ZoneSource
from core.errors import SessionReadOnlyError
from core.events import Attachment, Entry
from core.llm.provider import ModelProvider
from core.schedule import ScheduleTools
from core.schedule.log import StagedLog
from core.schedule.owner import ScheduleOwner, Waker
from core.session.port import SessionPort
from core.time_context import sample_zone

SYSTEM_PROMPT_PATH = Path(__file__).resolve().parent.parent / "resources" / "prompts" / "system.md"
WakerFactory = Callable[[Callable[[], None]], Waker]
"""Builds the session's one timer; the callback is the owner's timer-expiry trigger."""
Unsubscribe = Callable[[], None]

_log = logging.getLogger(__name__)
_UNSET: Any = object()


def load_system_prompt(path: Path = SYSTEM_PROMPT_PATH) -> str:
    """The system prompt kept in ``resources/prompts/system.md`` (agent.md §6)."""
    return path.read_text(encoding="utf-8").strip()


def new_event_id() -> str:
    return uuid.uuid4().hex


class LoopWaker:
    """A ``Waker`` on the running asyncio loop (``call_later``), for embedding without Qt.

    ``arm(wake_at)`` converts the owner's segment end into a delay with the injected clock,
    clamped to [0, 2147483647] ms; the owner re-reads the clock on every wake.
    """

    MAX_DELAY_MS = 2_147_483_647

    def __init__(self, clock: Clock, callback: Callable[[], None]) -> None:
        self._clock = clock
        self._callback = callback
        self._handle: asyncio.TimerHandle | None = None
        self.delay_ms: float | None = None
        """The delay of the armed segment (None when nothing is armed)."""

    @classmethod
    def factory(cls, clock: Clock) -> WakerFactory:
        return lambda callback: cls(clock, callback)

    def arm(self, wake_at: datetime) -> None:
        self.cancel()
        delay_ms = (wake_at - self._clock()).total_seconds() * 1000
        self.delay_ms = max(0.0, min(delay_ms, self.MAX_DELAY_MS))
        self._handle = asyncio.get_running_loop().call_later(self.delay_ms / 1000, self._fire)

    def cancel(self) -> None:
        self.delay_ms = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle, self.delay_ms = None, None
        self._callback()


class SessionHost:
    """One live session, ready for a window or embedding code. Build it inside the running event
    loop's thread, connect observers, then ``start()``; end with ``await dispose()``.

    Attributes for the window: ``session`` (the log: events, ``subscribe``), ``agent`` (status,
    ``on_status``/``on_delta``/``on_turn_end``), ``tools`` (``ScheduleTools``), ``owner``.
    """

    def __init__(
        self,
        session: SessionPort,
        provider: ModelProvider,
        clock: Clock,
        zone_source: ZoneSource,
        waker_factory: WakerFactory,
        *,
        system_prompt: str | None = None,
        new_id: NewId = new_event_id,
        extra_toolsets: Sequence[Toolset] = (),
        close_session: bool = True,
    ) -> None:
        if session.read_only:
            raise SessionReadOnlyError("a read-only session cannot be hosted live")
        self.session = session
        self._zone_source = zone_source
        self._close_session = close_session
        self._disposed = False
        self._started = False
        self.tools = ScheduleTools(session, clock, on_change=self._on_tools_change)
        self.agent = Agent(
            session,
            provider,
            ToolRegistry([self.tools, *extra_toolsets]),
            clock,
            zone_source,
            system_prompt=load_system_prompt() if system_prompt is None else system_prompt,
            new_id=new_id,
        )
        self.waker = waker_factory(self._on_wake)
        self.owner = ScheduleOwner(
            session, clock, self.tools.queue, self.agent, self.waker, is_live=self._is_live
        )
        self._unsubscribe = self.agent.on_status(self._on_agent_status)
        self._checked: asyncio.Future[None] | None = None
        self._unsubscribe_writes = session.subscribe_persistence(self.owner.notify_persisted)

    # --- lifetime -------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the owner (its first drive) and answers input left pending by an earlier run.
        Needs a running event loop; a second call does nothing."""
        if self._started or self._disposed:
            return
        self._started = True
        self.owner.start()
        self.agent.start()
        session = self.session
        if isinstance(session, StagedLog) and not session.verified:
            self._checked = asyncio.ensure_future(self._drive_when_checked(session))

    async def _drive_when_checked(self, session: StagedLog) -> None:
        """The staged check of a warm open ended: what its next-due index held is checked now,
        or a re-scan replaced it; the owner decides again."""
        await session.verification()
        self.owner.request_drive()  # dispose cancels this wait before it disposes the owner

    async def dispose(self) -> None:
        """Stops for good: owner, then agent, then flush and close the session. Idempotent."""
        if self._disposed:
            return
        self._disposed = True
        self._unsubscribe()
        self._unsubscribe_writes()
        checked = self._checked
        if checked is not None:
            checked.cancel()  # only this wait (the check itself is shielded); no await before
            # the agent's dispose: a turn resuming meanwhile would run on
        await self.owner.dispose()
        await self.agent.dispose()
        if checked is not None:
            await asyncio.gather(checked, return_exceptions=True)
        try:
            await self.session.flush()
        except Exception:
            _log.exception("host: the final flush failed")
        if self._close_session:
            await self.session.close()

    # --- input ----------------------------------------------------------------------------

    def submit(
        self,
        text: str,
        time_zone: str | None = _UNSET,
        attachments: Sequence[Attachment] = (),
    ) -> str:
        """Appends the user's message at once (also while a turn runs); returns its id.
        ``attachments`` were stored with ``session.add_attachment`` first."""
        zone = sample_zone(self._zone_source) if time_zone is _UNSET else time_zone
        return self.agent.submit(text, zone, attachments)

    def cancel(self) -> bool:
        """Stop: ends the running turn (``cancelled``); False when none runs."""
        return self.agent.cancel()

    def retry(self, input_seq: int | None = None) -> bool:
        """Queues a new turn on a failed input (default: the newest); False when it did not fail."""
        return self.agent.retry(input_seq)

    def request_drive(self) -> None:
        """App activation or resume from sleep: re-check reminders now (if the session has any)."""
        self.owner.notify_idle()

    def set_provider(self, provider: ModelProvider) -> None:
        """Swaps the model; it answers from the next turn (a running turn keeps its provider)."""
        self.agent.provider = provider

    async def when_idle(self) -> None:
        """Resolves when no turn runs or is pending (a reminder due later does not count)."""
        await self.agent.when_idle()

    # --- observers ------------------------------------------------------------------------

    @property
    def status(self) -> AgentStatus:
        return self.agent.status

    def on_event(self, callback: Callable[[Entry], None]) -> Unsubscribe:
        """``callback(entry)`` after every append (turns, reminders, schedule changes); the entry
        is a frozen ``core.events.Entry`` (``entry.event`` typed, ``entry.to_json()`` the line)."""
        return self.session.subscribe(callback)

    def on_status(self, callback: Callable[[AgentStatus], None]) -> Unsubscribe:
        return self.agent.on_status(callback)

    def on_delta(self, callback: Callable[[str], None]) -> Unsubscribe:
        return self.agent.on_delta(callback)

    def on_reasoning(self, callback: Callable[[str], None]) -> Unsubscribe:
        """Streaming reasoning, apart from the answer text (``on_delta``)."""
        return self.agent.on_reasoning(callback)

    def on_turn_end(self, callback: Callable[[int, str], None]) -> Unsubscribe:
        return self.agent.on_turn_end(callback)

    def on_persistence(self, callback: Callable[[bool], None]) -> Unsubscribe:
        """``callback(ok)`` after each write attempt (False: recent events are not durable yet)."""
        return self.session.subscribe_persistence(callback)

    # --- wiring ---------------------------------------------------------------------------

    def _is_live(self) -> bool:
        return not self._disposed

    def _on_tools_change(self) -> None:
        self.owner.request_drive()

    def _on_wake(self) -> None:
        self.owner.request_drive()

    def _on_agent_status(self, status: AgentStatus) -> None:
        if status == "idle":
            self.owner.notify_idle()
