"""The time-context reading sent to the model at the start of a turn (agent.md §4).

Owns: deciding whether the turn's zone is known, valid and unambiguous, and rendering the
reading's text. Pure apart from zoneinfo's read-only tz database: no clock, no system zone, no
logging, no asyncio. The clock reading and the sampled zone names are passed in; the only caller
supplied callable is the ``ZoneSource`` that ``sample_zone`` shields.

Choices the spec leaves open (written down here):

- A zone is valid when it is exactly ``UTC`` or an ``Area/Location`` name (letters, digits, ``_``,
  ``+``, ``-``; at least one ``/``) that ``zoneinfo`` loads. Bare names such as ``EST`` or ``GMT``
  are rejected even though the tz database has files for them: they are abbreviations, not places.
- The zones given are the current sample plus the zone each of the turn's user inputs recorded
  (``source.timeZone``). Any missing or invalid entry makes the zone unknown; two different valid
  names make it mixed. Both give the ambiguous reading. An empty sequence is unknown.
- The ambiguous reading still states the current instant in UTC, so the model can handle
  relative requests ("in 10 minutes") that need no zone.
- Instants are rendered to the second. An offset with seconds (only historical local mean times)
  is rendered ``±HH:MM:SS``; every offset in use today is whole minutes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.clock import ZoneSource

_AREA_LOCATION = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)+")


@dataclass(frozen=True, slots=True)
class TimeReading:
    """One time-context reading: the text for the model and what it concluded about the zone.

    ``zone_name`` is the valid, unambiguous zone, or None; ``ambiguous`` is True exactly when
    ``zone_name`` is None. The agent records ``context/time`` as ``{timeZone: zone_name, text}``.
    """

    text: str
    zone_name: str | None
    ambiguous: bool


def load_zone(name: str | None) -> ZoneInfo | None:
    """The zone for ``name`` when it is ``UTC`` or a loadable ``Area/Location`` name, else None."""
    if name is None or (name != "UTC" and _AREA_LOCATION.fullmatch(name) is None):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def format_local(now: datetime, zone: ZoneInfo) -> str:
    """``YYYY-MM-DDTHH:MM:SS±HH:MM[Area/Location]`` for the aware instant ``now`` in ``zone``."""
    local = now.astimezone(zone).replace(microsecond=0)
    return f"{local.isoformat()}[{zone.key}]"


def time_reading(now: datetime, zones: Sequence[str | None]) -> TimeReading:
    """The reading for instant ``now`` (aware) given the zone names sampled for the turn's inputs."""
    if now.utcoffset() is None:
        raise ValueError("time_reading needs an aware datetime")
    names = set(zones)
    if len(names) == 1:
        (name,) = names
        zone = load_zone(name)
        if zone is not None:
            return _known(now, zone)
    return _ambiguous(now, mixed=len({n for n in names if load_zone(n) is not None}) > 1)


def _known(now: datetime, zone: ZoneInfo) -> TimeReading:
    text = "\n".join(
        (
            f"Local time: {format_local(now, zone)}",
            f"Time zone: {zone.key}",
            f"Interpret dates and times the user gives without a zone in {zone.key}, and pass an "
            "explicit offset or time_zone to schedule_create.",
        )
    )
    return TimeReading(text=text, zone_name=zone.key, ambiguous=False)


def _ambiguous(now: datetime, *, mixed: bool) -> TimeReading:
    utc = now.astimezone(UTC).replace(microsecond=0)
    why = (
        "The user's inputs in this turn came from different time zones"
        if mixed
        else "The user's time zone is unknown"
    )
    text = "\n".join(
        (
            f"Current time (UTC): {utc.isoformat()}",
            f"Time zone: ambiguous. {why}.",
            "Before scheduling a local date or time, ask the user which time zone they are in; "
            "relative delays need no zone.",
        )
    )
    return TimeReading(text=text, zone_name=None, ambiguous=True)


def sample_zone(source: ZoneSource) -> str | None:
    """Calls ``source``; a failure of any kind means the zone is unknown (None)."""
    try:
        name = source()
    except Exception:  # the zone provider is foreign code; any failure is "unknown", by spec
        return None
    return name if isinstance(name, str) else None
