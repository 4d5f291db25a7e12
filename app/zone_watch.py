"""ZoneWatch: notices the system's time zone changing while Chime runs, so what shows local times
follows it within ``INTERVAL_MS`` (the status bar's zone, the reminders panel).

Each turn samples the zone itself (``app.system.local_zone_name`` reads it afresh every time);
the screen shows times between turns, so this watch samples the same source every half minute
and emits ``changed`` when the answer differs. ``follow_zone`` puts the new zone on screen.
Must not: cache the zone for anyone (the source is asked every time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from core.clock import ZoneSource

if TYPE_CHECKING:  # the engine is imported after the first paint (app.main)
    from app.controller import AppController

INTERVAL_MS = 30_000
"""How often the zone is sampled between turns (a change shows within a minute)."""


class ZoneWatch(QObject):
    """Samples ``source`` every ``interval_ms``; ``changed(zone name or None)`` on a change."""

    changed = Signal(object)

    def __init__(
        self, source: ZoneSource, interval_ms: int = INTERVAL_MS, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._source = source
        self._last: str | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)

    def start(self) -> None:
        self._last = self._source()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def check(self) -> None:
        zone = self._source()
        if zone != self._last:
            self._last = zone
            self.changed.emit(zone)


def follow_zone(controller: AppController, zone: str | None) -> None:
    """The status bar and the shown session's reminders panel in ``zone``."""
    window = controller.window
    window.set_zone(zone)
    opened = controller.current_session()
    if opened is not None:
        bridge = opened.bridge
        window.set_reminders(bridge.active_reminders(), zone, bridge.recent_deliveries())
