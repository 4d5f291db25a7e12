"""SessionBridge: one session (live SessionHost, or a read-only view) as Qt signals. No widgets.

The bridge subscribes to the session's events, the agent's status and streaming deltas and the
persistence barrier outcomes, and re-emits them as Qt signals on the GUI thread; the window's
input reaches the agent through ``submit``/``stop``/``retry``. The logic lives in plain methods
(``async def submit``) so tests can drive it without a window.

Signals:
    event_appended(object): a new ``core.events.Entry`` was appended to the log.
    streaming(str): the next piece of the live answer, as the model sent it ("" when streaming
        ended without an answer being recorded). Only pieces cross, never the growing text, so
        each costs the same however long the answer grows (a 4 MB answer arrives in ~10^5); the
        window joins them in the answer's own row.
    busy_changed(bool): a turn started (True) or the agent went idle (False).
    schedule_changed(object): the active reminders, a tuple of ``ui.screen.ReminderView``.
    persistence_changed(bool): True when the last barrier failed (recent events not durable).
    log_lost(str): the log's file vanished (its folder deleted or moved): nothing more is saved
        there; the reason, once.
    reminder_arrived(object): a reminder follow-up was appended: its ``DueReminder`` values (a
        tuple; empty when its framing could not be read).
    title_changed(str): the session's title changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import assert_never

from PySide6.QtCore import QObject, Signal

from core.agent import Agent, AgentStatus
from core.clock import ZoneSource
from core.errors import ChimeError
from core.events import (
    AssistantMessage,
    Attachment,
    ContextTime,
    Entry,
    Event,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTitle,
    SessionTools,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.instant import read_instant
from core.schedule.records import EveryRecord, Record
from core.session.port import SessionPort
from ui.screen import DeliveredView, ReminderView

_log = logging.getLogger(__name__)


RECENT_DELIVERIES = 5
"""How many delivered reminders the reminders panel is given for its empty state."""
DELIVERY_SCAN = 2000
"""How far back from the end of the log the recently delivered reminders are looked for."""


class SessionBridge(QObject):
    """A session for the window. ``agent`` is None for a read-only session (no owner runs).

    Signals: see the module docstring.
    """

    event_appended = Signal(object)
    streaming = Signal(str)
    busy_changed = Signal(bool)
    schedule_changed = Signal(object)
    persistence_changed = Signal(bool)
    log_lost = Signal(str)
    reminder_arrived = Signal(object)
    title_changed = Signal(str)

    def __init__(
        self,
        session: SessionPort,
        agent: Agent | None,
        zone_source: ZoneSource,
        *,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.agent = agent
        self._zone_source = zone_source
        self._pieces: list[str] = []
        self._persistence_failed = False
        self._delivered: tuple[DeliveredView, ...] | None = None
        self._unsubscribe: list[Callable[[], None]] = [
            session.subscribe(self._on_session_event),
            session.subscribe_persistence(self._on_session_persistence),
            session.subscribe_lost(self.log_lost.emit),
        ]
        self._agent_unsubscribe: list[Callable[[], None]] = []
        if agent is not None:
            self._agent_unsubscribe.append(agent.on_status(self._on_agent_status))
            self._agent_unsubscribe.append(agent.on_delta(self._on_agent_delta))

    @property
    def writable(self) -> bool:
        return self.agent is not None and not self.session.read_only

    def is_busy(self) -> bool:
        return self.agent is not None and self.agent.status == "running"

    def persistence_failed(self) -> bool:
        return self._persistence_failed

    async def submit(self, text: str, attachments: Sequence[Attachment] = ()) -> bool:
        """Append the user's input with the files stored for it (the agent answers it now, or
        after the running turn); files alone make a message too. False (nothing appended) when
        the session is read-only, also when it just became so, or when there is nothing to send."""
        if self.agent is None or self.session.read_only or not (text.strip() or attachments):
            return False
        try:
            self.agent.submit(text, self._zone_source(), attachments)
        except ChimeError as error:  # the log refused it (turned read-only, closed)
            _log.warning("input to %s refused: %s", self.session.id, error)
            return False
        return True

    def stop(self) -> bool:
        """Cancel the running turn (Stop / Esc)."""
        return self.agent.cancel() if self.agent is not None else False

    def retry(self) -> bool:
        """Run a new turn on the failed turn's input."""
        return self.agent.retry() if self.agent is not None else False

    def rename(self, title: str) -> None:
        """Record a new title (a ``session/title`` event)."""
        if self.writable and title.strip():
            self.session.append_event(SessionTitle(title.strip()))

    def active_reminders(self) -> tuple[ReminderView, ...]:
        """The fold's active records as the panel shows them (none when the schedule log cannot
        be folded)."""
        try:
            active = self.session.schedule_fold().active
        except ChimeError as error:
            _log.info("schedule fold of %s failed: %s", self.session.id, error)
            return ()
        return tuple(map(reminder_view, active))

    def recent_deliveries(self) -> tuple[DeliveredView, ...]:
        """The reminders delivered last in this session, newest first (read from the log's
        reminder turns once, then kept up to date as reminders arrive)."""
        if self._delivered is None:
            self._delivered = recent_deliveries(self.session.entries)
        return self._delivered

    def drop_agent(self) -> None:
        """The session turned read-only: stop observing its agent; it is a view from now on."""
        for unsubscribe in self._agent_unsubscribe:
            unsubscribe()
        self._agent_unsubscribe = []
        self.agent = None
        self._end_stream()
        self.busy_changed.emit(False)

    def detach(self) -> None:
        """Stop observing the session (before it is closed)."""
        for unsubscribe in self._unsubscribe + self._agent_unsubscribe:
            unsubscribe()
        self._unsubscribe, self._agent_unsubscribe = [], []

    # -- observers -----------------------------------------------------------------------
    def _on_session_event(self, entry: Entry) -> None:
        event = entry.event
        if isinstance(event, AssistantMessage):  # the streamed answer is an entry now
            self._end_stream(announce=False)
        self.event_appended.emit(entry)
        self._signal(entry, event)

    def _signal(self, entry: Entry, event: Event) -> None:
        """The signal of its own that ``event`` (of ``entry``, just appended) raises, if any."""
        match event:
            case ScheduleChanged():
                self.schedule_changed.emit(self.active_reminders())
            case SessionTitle(title=title):
                self.title_changed.emit(title)
            case UserMessage() if event.is_reminder:
                if self._delivered is not None:
                    newest = delivered_views(entry, event)
                    self._delivered = (newest + self._delivered)[:RECENT_DELIVERIES]
                self.reminder_arrived.emit(event.reminders or ())
            case (
                UserMessage()
                | TurnStart()
                | ContextTime()
                | AssistantMessage()
                | ToolResult()
                | TurnEnd()
                | ExchangeHidden()
                | PathSelected()
                | SessionModel()
                | SessionInstructions()
                | ToolStart()
                | SessionTools()
                | UnknownEvent()
                | MalformedEvent()
            ):
                pass  # event_appended alone carries them
            case unexpected:
                assert_never(unexpected)

    def _on_session_persistence(self, ok: bool) -> None:
        failed = not ok
        if failed != self._persistence_failed:
            self._persistence_failed = failed
            self.persistence_changed.emit(failed)

    def _on_agent_status(self, status: AgentStatus) -> None:
        busy = status == "running"
        if not busy:
            self._end_stream()
        self.busy_changed.emit(busy)

    def stream_so_far(self) -> str:
        """The answer streamed so far ("" when none streams): what a window that starts showing
        this session mid-answer shows first."""
        text = "".join(self._pieces)
        self._pieces = [text] if text else []
        return text

    def _end_stream(self, *, announce: bool = True) -> None:
        """The stream is over; tell the window (``streaming("")``) if it showed any."""
        had_text = bool(self._pieces)
        self._pieces = []
        if had_text and announce:
            self.streaming.emit("")

    def _on_agent_delta(self, text: str) -> None:
        if text:
            self._pieces.append(text)
            self.streaming.emit(text)


def reminder_view(record: Record) -> ReminderView:
    """What the reminders panel shows of one active record."""
    every = record.every_seconds if isinstance(record, EveryRecord) else None
    return ReminderView(record.id, record.kind, record.prompt, record.scheduled_datetime, every)


def delivered_views(entry: Entry, message: UserMessage) -> tuple[DeliveredView, ...]:
    """The reminders one reminder turn (``message``, the event of ``entry``) delivered, last of
    its batch first."""
    at = read_instant(entry.at)
    items = message.reminders or ()
    return tuple(DeliveredView(r.prompt, r.occurrence_at, at) for r in reversed(items))


def recent_deliveries(entries: Sequence[Entry]) -> tuple[DeliveredView, ...]:
    """The last ``RECENT_DELIVERIES`` delivered reminders, newest first, looked for in the last
    ``DELIVERY_SCAN`` entries (a line not verified yet that cannot be read is skipped)."""
    found: list[DeliveredView] = []
    count = len(entries)
    for seq in range(count - 1, max(-1, count - 1 - DELIVERY_SCAN), -1):
        try:
            entry = entries[seq]
        except ValueError:
            continue
        if isinstance(entry.event, UserMessage) and entry.event.is_reminder:
            found.extend(delivered_views(entry, entry.event))
            if len(found) >= RECENT_DELIVERIES:
                break
    return tuple(found[:RECENT_DELIVERIES])
