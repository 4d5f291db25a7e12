"""The only reader of the machine's clock and zone. Everything else gets a Clock or ZoneSource."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime

_log = logging.getLogger(__name__)


def system_clock() -> datetime:
    """The current instant as an aware UTC datetime, truncated to milliseconds (schedule.md §14.9)."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def local_zone_name() -> str | None:
    """The system's IANA zone name (e.g. ``Europe/Berlin``), or None when it cannot be determined.

    tzlocal may raise (no zone configured, conflicting configuration); that is an unknown zone, and
    the agent then asks the user for their zone before scheduling a local time (agent.md §4).
    """
    try:
        import tzlocal  # on first use: ~9 ms that the cold start need not pay

        name = tzlocal.get_localzone_name()
    except Exception as error:
        _log.info("system zone unknown: %s", error)
        return None
    return name or None


def monotonic_seconds() -> float:
    """Seconds on the monotonic clock (does not jump with wall-clock changes; pauses in sleep on
    some systems): used only to notice a wall-clock jump such as a resume from sleep."""
    return time.monotonic()
