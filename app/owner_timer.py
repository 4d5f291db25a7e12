"""QtWaker: the reminder owner's one single-shot timer; ClockJumpWatch: notices resume/clock jumps.

Timers are only wake-up calls: every wake re-reads the wall clock (schedule.md §14.8), so a
rollback re-arms instead of firing early and a forward jump fires the overdue reminder once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QObject, QTimer, Signal

from core.clock import Clock

MAX_TIMER_MS = 2**31 - 1
"""QTimer.start(2**31) raises OverflowError; longer waits re-arm on each capped wake."""


class QtWaker(QObject):
    """The owner's ``Waker``: ``arm(wake_at)`` starts one single-shot timer, ``cancel()`` stops it.

    When the timer fires before ``wake_at`` (the cap, or a wall-clock rollback), it re-arms for the
    rest; once the clock has reached ``wake_at`` it emits ``woke``.

    Signals:
        woke(): time to drive; app.main connects it to ``ScheduleOwner.request_drive``.
    """

    woke = Signal()

    def __init__(self, clock: Clock, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._wake_at: datetime | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_timer_timeout)

    def arm(self, wake_at: datetime) -> None:
        """Wake at ``wake_at`` (aware UTC); replaces any earlier arming."""
        self._wake_at = wake_at
        self._start()

    def cancel(self) -> None:
        """Forget the pending wake-up (disposal, or nothing is active)."""
        self._wake_at = None
        self._timer.stop()

    @property
    def wake_at(self) -> datetime | None:
        """The instant the waker is armed for (None when idle)."""
        return self._wake_at

    def is_armed(self) -> bool:
        return self._timer.isActive()

    def remaining_ms(self) -> int:
        """Milliseconds until the timer fires (-1 when not armed)."""
        return self._timer.remainingTime() if self._timer.isActive() else -1

    def _start(self) -> None:
        if self._wake_at is None:
            return
        delay_ms = int((self._wake_at - self._clock()).total_seconds() * 1000)
        self._timer.start(max(0, min(delay_ms, MAX_TIMER_MS)))

    def _on_timer_timeout(self) -> None:
        if self._wake_at is None:
            return
        if self._clock() < self._wake_at:
            self._start()
            return
        self._wake_at = None
        self.woke.emit()


class ClockJumpWatch(QObject):
    """Notices that wall time moved differently from monotonic time (resume from sleep, clock set).

    Every ``interval_ms`` it compares how far each clock advanced; a difference above
    ``tolerance_s`` emits ``jumped``. Qt has no portable resume signal; this approximates one.

    Signals:
        jumped(): the wall clock jumped; re-drive every owner.
    """

    jumped = Signal()

    def __init__(
        self,
        clock: Clock,
        monotonic: Callable[[], float],
        *,
        interval_ms: int = 15000,
        tolerance_s: float = 5.0,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._clock = clock
        self._monotonic = monotonic
        self._tolerance_s = tolerance_s
        self._last = (clock(), monotonic())
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)

    def start(self) -> None:
        self._last = (self._clock(), self._monotonic())
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def check(self) -> None:
        """Compare both clocks now; emit ``jumped`` when they disagree by more than the tolerance."""
        wall, mono = self._clock(), self._monotonic()
        wall_step = (wall - self._last[0]).total_seconds()
        mono_step = mono - self._last[1]
        self._last = (wall, mono)
        if abs(wall_step - mono_step) > self._tolerance_s:
            self.jumped.emit()
