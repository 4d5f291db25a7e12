"""Typed fakes (not mocks) shared by the tests: a clock, the one session log, a recording waker."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from core.errors import SessionReadOnlyError
from core.events import Attachment, Entry, Event, EventType, decode_event
from core.instant import format_instant
from core.schedule.fold import ScheduleFold
from core.session.attachments import classify
from core.session.conversation import Conversation
from core.session.event_list import EventList, JsonEvents
from core.session.folds import InputState, SessionChoices, SessionFolds
from core.session.lines import SessionHeader
from core.session.memory import SessionMemory
from core.session.refusal import Refused


class FakeClock:
    """A Clock that moves only when the test says so. Negative advances model a wall-clock rollback."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None or start.utcoffset() != timedelta(0):
            raise ValueError("FakeClock needs an aware UTC start")
        self._now = start.astimezone(UTC)
        self.calls = 0

    def __call__(self) -> datetime:
        self.calls += 1
        return self._now

    def advance(self, delta: timedelta | float) -> None:
        self._now += delta if isinstance(delta, timedelta) else timedelta(seconds=delta)

    def set(self, when: datetime) -> None:
        self._now = when.astimezone(UTC)


class MemoryLog:
    """The one test session: a ``core.session.port.SessionPort`` held in memory.

    Its entries, folds and append guard are the real ``SessionMemory`` (so what the agent, the
    tools and the owner see of it is what the on-disk session gives them); only the barrier is
    scripted, and ``tests/core/session/test_contract.py`` runs it through the same checks as
    ``LiveSession``. Knobs and records:

    - ``outcomes``: consumed one per ``flush`` (True/False, or an exception to raise), then
      ``default_outcome``; ``gate``: when set, each flush waits for it first;
    - ``refuse_appends`` / ``refuse_groups``: appends (or only groups of two or more events)
      raise and append nothing; ``read_only_reason`` (or ``read_only = True``): appends raise
      SessionReadOnlyError with that reason;
    - ``barriers``: flushes awaited; ``durable``: events covered by the last successful one;
      ``appended``: every (type, data) appended, as JSON; ``groups``: each group's entries;
    - ``inject(type, data)``: a raw event that bypasses every check (how corrupt logs are built).
    """

    def __init__(
        self,
        events: Iterable[Mapping[str, Any]] = (),
        *,
        seed_length: int = 0,
        outcomes: Sequence[bool | BaseException] = (),
        default_outcome: bool = True,
        clock: Callable[[], datetime] | None = None,
        session_id: str = "memory-log",
    ) -> None:
        self._clock = clock or FakeClock(datetime(2026, 8, 5, 12, 0, tzinfo=UTC))
        header = SessionHeader(session_id, format_instant(self._clock()), None, seed_length)
        self._memory = SessionMemory(
            header, EventList(None), SessionFolds(seed_length), self._clock
        )
        self._events = JsonEvents(self._memory.entries)
        self.outcomes = list(outcomes)
        self.default_outcome = default_outcome
        self.gate: asyncio.Event | None = None
        self.refuse_appends = False
        self.refuse_groups = False
        self.read_only_reason: str | None = None
        self.closed = False
        self.files: dict[str, bytes] = {}
        self.barriers = 0
        self.durable = 0
        self.appended: list[tuple[str, Any]] = []
        self.groups: list[list[Entry]] = []
        self._persistence: list[Callable[[bool], None]] = []
        for event in events:
            self.inject(event["type"], event["data"])
        if seed_length > len(self._memory.entries):
            self._memory.folds.fail_schedule("the header's seedLength is beyond the end of the log")

    # -- SessionLog (api.md) ---------------------------------------------------------------

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        return self._events

    @property
    def seed_length(self) -> int:
        return self._memory.header.seed_length

    def append(self, type: str, data: Mapping[str, Any]) -> None:
        self.append_event(decode_event(type, json.loads(json.dumps(data))))

    async def flush(self) -> bool:
        self.barriers += 1
        if self.gate is not None:
            await self.gate.wait()
        outcome = self.outcomes.pop(0) if self.outcomes else self.default_outcome
        if isinstance(outcome, BaseException):
            raise outcome
        if outcome:
            self.durable = len(self._memory.entries)
        for callback in list(self._persistence):
            callback(outcome)
        return outcome

    # -- SessionPort -----------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self._memory.header.id

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    @read_only.setter
    def read_only(self, value: bool) -> None:
        self.read_only_reason = "read-only by the test" if value else None

    @property
    def entries(self) -> Sequence[Entry]:
        return self._memory.entries

    def inputs(self) -> InputState:
        return self._memory.inputs()

    def conversation(self) -> Conversation:
        return self._memory.folds.snapshot()

    async def add_attachment(self, name: str, data: bytes) -> Attachment | Refused:
        record = classify(name, data)
        if isinstance(record, Attachment):
            self.files[record.sha256] = data
        return record

    async def read_attachment(self, sha256: str) -> bytes | None:
        return self.files.get(sha256)

    def choices(self) -> SessionChoices:
        return self._memory.folds.choices()

    def schedule_fold(self) -> ScheduleFold:
        return self._memory.schedule_fold()

    def append_event(self, event: Event) -> Entry:
        return self.append_events([event])[0]

    def append_events(self, events: Sequence[Event]) -> list[Entry]:
        if self.read_only_reason is not None:
            raise SessionReadOnlyError(self.read_only_reason)
        if self.refuse_appends or (self.refuse_groups and len(events) > 1):
            raise OSError("append refused by the test")
        entries = self._memory.append(events)
        self.appended += [(str(e.type), e.event.to_data()) for e in entries]
        if len(entries) > 1:
            self.groups.append(entries)
        return entries

    def subscribe(self, callback: Callable[[Entry], None]) -> Callable[[], None]:
        return self._memory.subscribe(callback)

    def subscribe_persistence(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        self._persistence.append(callback)
        return lambda: self._persistence.remove(callback)

    def subscribe_lost(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """A memory log never loses its file: the callback is never called."""
        return lambda: None

    async def close(self) -> bool:
        self.closed = True
        return await self.flush()

    # -- for tests -------------------------------------------------------------------------

    def inject(self, type: str, data: Any) -> Entry:
        """Append a raw event, bypassing the append guard (a change the strict fold refuses
        fails the schedule fold, as it does when such a log is read from disk)."""
        memory = self._memory
        event = decode_event(type, data)
        entry = Entry(len(memory.entries), format_instant(self._clock()), event)
        memory.entries.queue(entry, b"")  # no writer reads it; raw data need not even be JSON
        memory.folds.feed(entry)
        memory.folds.feed_schedule(entry)
        return entry

    @property
    def changes(self) -> list[Any]:
        """The ``schedule/change`` payloads appended (not injected), in order."""
        return [data for kind, data in self.appended if kind == EventType.SCHEDULE_CHANGE]

    def of_type(self, kind: str) -> list[Any]:
        return [entry.event.to_data() for entry in self.entries if entry.type == kind]

    def types(self) -> list[str]:
        return [str(entry.type) for entry in self.entries]


class PlainLog:
    """A view of a ``MemoryLog`` showing only api.md's ``SessionLog``: code given it cannot use
    the incremental fold, so it folds ``events`` with ``fold_schedule`` (the acceptance suite's
    own fakes look like this)."""

    def __init__(self, log: MemoryLog) -> None:
        self.log = log

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        return self.log.events

    @property
    def seed_length(self) -> int:
        return self.log.seed_length

    def append(self, type: str, data: Mapping[str, Any]) -> None:
        self.log.append(type, data)

    async def flush(self) -> bool:
        return await self.log.flush()


class RecordingWaker:
    """A Waker that remembers the armed target; the test (or worker) moves the clock, then fires."""

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.armed: datetime | None = None

    def arm(self, wake_at: datetime) -> None:
        self.armed = wake_at

    def cancel(self) -> None:
        self.armed = None

    def fire(self) -> None:
        self.armed = None
        self.callback()
