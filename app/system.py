"""The only reader of the machine's clock and zone. Everything else gets a Clock or ZoneSource."""

from __future__ import annotations

import logging
import sys
import time
from datetime import UTC, datetime

_log = logging.getLogger(__name__)


def system_clock() -> datetime:
    """The current instant as an aware UTC datetime, truncated to milliseconds (schedule.md §14.9)."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def local_zone_name() -> str | None:
    """The system's IANA zone name (e.g. ``Europe/Berlin``), or None when it cannot be determined.

        Read afresh on every call (``TZ``, then the system's configuration such as ``/etc/localtime``):
        the zone may change while Chime runs (a flight, ``timedatectl set-timezone``) and every turn
        samples it (agent.md §4). tzlocal keeps the first answer for the process, so its cache is
        forgotten before each call (``_forget_cached_zone``; its ``reload_localzone`` would also build
    the zone object, which warns and scans every zone on a machine without one). The name alone costs
    well under a millisecond; a turn and the half-minute ``app.zone_watch`` ask.
        tzlocal may raise (no zone configured, conflicting configuration); that is an unknown zone, and
        the agent then asks the user for their zone before scheduling a local time (agent.md §4).
    """
    try:
        import tzlocal  # on first use: ~9 ms that the cold start need not pay

        _forget_cached_zone()
        name = tzlocal.get_localzone_name()
    except Exception as error:
        _log.info("system zone unknown: %s", error)
        return None
    return name or None


def _forget_cached_zone() -> None:
    """tzlocal keeps its first zone name in a global of the module for this system
    (``_cache_tz_name`` in tzlocal 5's ``unix`` and ``win32``); forget it so it is read again.
    A tzlocal without that global is left alone (then the test of a changing zone fails)."""
    for name in ("tzlocal.unix", "tzlocal.win32"):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "_cache_tz_name"):
            vars(module)["_cache_tz_name"] = None  # private to tzlocal: see the docstring


def monotonic_seconds() -> float:
    """Seconds on the monotonic clock (does not jump with wall-clock changes; pauses in sleep on
    some systems): used only to notice a wall-clock jump such as a resume from sleep."""
    return time.monotonic()
