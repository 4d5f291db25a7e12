"""Typed fakes (not mocks) shared by the tests: a clock, a scripted log, a recording waker."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any


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


class FakeLog:
    """An in-memory SessionLog with scripted barrier outcomes.

    ``barrier_outcomes`` are consumed one per ``flush``: True/False, or an Exception to raise;
    when exhausted, ``default_outcome`` applies. ``barriers`` counts the flushes awaited and
    ``appended`` records every (type, data) appended. ``append_fails`` makes append raise.
    """

    def __init__(
        self,
        events: Iterable[Mapping[str, Any]] = (),
        *,
        seed_length: int = 0,
        barrier_outcomes: Sequence[bool | BaseException] = (),
        default_outcome: bool = True,
    ) -> None:
        self._events: list[dict[str, Any]] = [dict(e) for e in events]
        self._seed_length = seed_length
        self._outcomes = list(barrier_outcomes)
        self.default_outcome = default_outcome
        self.barriers = 0
        self.appended: list[tuple[str, dict[str, Any]]] = []
        self.append_fails = False

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        return self._events

    @property
    def seed_length(self) -> int:
        return self._seed_length

    def append(self, type: str, data: Mapping[str, Any]) -> None:
        if self.append_fails:
            raise OSError("append refused by the test")
        self._events.append({"seq": len(self._events), "type": type, "data": dict(data)})
        self.appended.append((type, dict(data)))

    async def flush(self) -> bool:
        self.barriers += 1
        if self._outcomes:
            outcome = self._outcomes.pop(0)
            if isinstance(outcome, BaseException):
                raise outcome
            return outcome
        return self.default_outcome


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
