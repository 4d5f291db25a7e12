"""The DST matrix's probe points: for each UTC-offset transition, local wall times at and around
the gap or overlap, with the answer the independent tz oracle expects.

Owns: choosing the points and their expected instants. Must not: import Chime or zoneinfo's
resolution (only ``zoneinfo.TZPATH``, the search order zoneinfo itself documents, to read the same
file Chime will). The drivers that ask Chime live in ``chime_driver``.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import re
import zoneinfo
from dataclasses import dataclass

from tests.survival.tzif_oracle import (
    Transition,
    Zone,
    load_zone,
    ms_from_fields,
    transitions,
    wall_instants,
)

ZONE_GRAMMAR = re.compile(r"[A-Za-z][A-Za-z0-9_+.-]*(/[A-Za-z0-9_+.-]+)+")
FIRST_YEAR, LAST_YEAR = 2020, 2035


@dataclass(frozen=True)
class Point:
    """One local wall time to resolve. ``expected`` None means a gap (E11)."""

    zone: str
    local_ms: int
    kind: str  # "gap", "overlap" or "edge" (just outside one), "plain" (no transition near)
    expected: int | None


def bundled_zone_names() -> list[str]:
    """Every zone and link name the tzdata package ships (the bundled tz database)."""
    text = (importlib.resources.files("tzdata") / "zones").read_text(encoding="utf-8")
    return sorted(text.split())


def zone_is_accepted(name: str, known_lower: set[str]) -> bool:
    """schedule.md §6.3, written independently: exactly `UTC`, or the grammar plus a known name."""
    if name == "UTC":
        return True
    return ZONE_GRAMMAR.fullmatch(name) is not None and name.lower() in known_lower


def oracle_zone(name: str, *, source: str = "zoneinfo-order") -> Zone:
    """Parse the zone's TZif file: the one zoneinfo would load (TZPATH first, then the tzdata
    package), or with ``source="tzdata"`` always the tzdata package's copy."""
    roots = tuple(zoneinfo.TZPATH) if source == "zoneinfo-order" else ()
    return load_zone(name, roots)


def year_bounds(first: int = FIRST_YEAR, last: int = LAST_YEAR) -> tuple[int, int]:
    return ms_from_fields(first, 1, 1, 0, 0, 0, 0) // 1000, ms_from_fields(
        last, 12, 31, 23, 59, 59, 0
    ) // 1000


def _expect(zone: Zone, local_ms: int) -> int | None:
    valid, _out_of_range = wall_instants(zone, local_ms)
    return valid[0] if valid else None


def transition_points(zone: Zone, tr: Transition) -> list[Point]:
    """Five probes: one just outside each edge of the gap/overlap, its first, middle, last ms."""
    at = tr.instant * 1000
    low, high = sorted((at + tr.before * 1000, at + tr.after * 1000))
    inside = "gap" if tr.after > tr.before else "overlap"
    probes = [
        (low - 1, "edge"),
        (low, inside),
        (low + (high - low) // 2, inside),
        (high - 1, inside),
        (high, "edge"),
    ]
    return [Point(zone.name, ms, kind, _expect(zone, ms)) for ms, kind in probes]


def plain_points(zone: Zone) -> list[Point]:
    """Probes for a zone with no transition in range: noon mid-year and a January midnight."""
    probes = [ms_from_fields(2026, 6, 15, 12, 0, 0, 0), ms_from_fields(2031, 1, 1, 0, 0, 0, 250)]
    return [Point(zone.name, ms, "plain", _expect(zone, ms)) for ms in probes]


def zone_points(zone: Zone, lo: int, hi: int) -> tuple[int, list[Point]]:
    """(number of transitions in [lo, hi], all probe points of the zone)."""
    found = transitions(zone, lo, hi)
    if not found:
        return 0, plain_points(zone)
    return len(found), [p for tr in found for p in transition_points(zone, tr)]


FIXED_SAMPLE = (
    "America/New_York",
    "Europe/London",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "America/Santiago",
    "Pacific/Apia",
    "Antarctica/Troll",
    "Antarctica/Casey",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Asia/Jerusalem",
    "Asia/Gaza",
    "Africa/Cairo",
    "Africa/Casablanca",
    "America/Nuuk",
    "America/Scoresbysund",
    "America/Havana",
    "America/Asuncion",
    "Australia/Sydney",
    "Europe/Chisinau",
    "Asia/Tehran",
    "America/Mexico_City",
    "Pacific/Fiji",
    "Etc/GMT+5",
    "Etc/GMT-14",
    "Asia/Calcutta",
    "US/Eastern",
)


def sampled_zone_names(extra: int = 14) -> list[str]:
    """The fast matrix's zones: FIXED_SAMPLE plus `extra` others picked by a stable hash."""
    fixed = [n for n in FIXED_SAMPLE if n in set(bundled_zone_names())]
    rest = [n for n in bundled_zone_names() if n not in fixed]
    rest.sort(key=lambda n: hashlib.blake2b(n.encode(), digest_size=8).digest())
    return fixed + rest[:extra]
