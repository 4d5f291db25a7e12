"""Drives Chime for the survival tests through the public API only (api.md): ScheduleTools over a
MemoryLog and a FakeClock. Owns: turning probe points into tool calls and judging the answers.
Must not: import anything from core.schedule beyond the api.md names.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from core.schedule import ScheduleTools
from tests.fakes import FakeClock, MemoryLog
from tests.survival.dst_points import Point
from tests.survival.tzif_oracle import canonical, fields_from_ms

FAR_PAST = datetime(2000, 1, 1, tzinfo=UTC)
"""The clock for the matrix: every probe (2019-2036) is in the future."""


def local_object(local_ms: int, zone: str) -> dict[str, str]:
    """The §2.5 local `at` object for wall fields given as ms-read-as-UTC; fraction only if any."""
    year, month, day, hour, minute, second, milli = fields_from_ms(local_ms)
    time = f"{hour:02d}:{minute:02d}:{second:02d}" + (f".{milli:03d}" if milli else "")
    return {"date": f"{year:04d}-{month:02d}-{day:02d}", "time": time, "time_zone": zone}


async def create(arguments: Mapping[str, Any], start: datetime = FAR_PAST) -> object:
    """One schedule_create on a fresh session (so the log never grows between probes)."""
    tools = ScheduleTools(MemoryLog(), FakeClock(start))
    return await tools.call("schedule_create", dict(arguments))


async def create_at(at: object, start: datetime = FAR_PAST) -> object:
    return await create({"prompt": "x", "at": at}, start)


@dataclass(frozen=True)
class Mismatch:
    point: Point
    expected: str
    actual: object

    def describe(self) -> str:
        at = local_object(self.point.local_ms, self.point.zone)
        return f"{at} ({self.point.kind}): expected {self.expected}, got {self.actual!r}"


def judge(point: Point, result: object, gap_message: str | None) -> Mismatch | None:
    """None when Chime's answer is the oracle's: the earliest valid instant, or E11 for a gap."""
    if point.expected is None:
        ok = isinstance(result, dict) and result.get("code") == "invalid_rule"
        if ok and gap_message is not None:
            ok = result.get("message") == gap_message
        return None if ok else Mismatch(point, "invalid_rule (E11, gap)", result)
    want = canonical(point.expected)
    ok = isinstance(result, dict) and result.get("scheduledAt") == want
    ok = ok and isinstance(result, dict) and result.get("kind") == "at"
    return None if ok else Mismatch(point, f"scheduledAt {want}", result)


async def reference_gap_message() -> str | None:
    """The E11 message, from the spec's own example (New_York 2026-03-08 02:30 is a gap)."""
    result = await create_at(
        {"date": "2026-03-08", "time": "02:30:00", "time_zone": "America/New_York"}
    )
    message = result.get("message") if isinstance(result, dict) else None
    return message if isinstance(message, str) else None


async def check_points(points: Iterable[Point]) -> tuple[int, list[Mismatch]]:
    """Resolve every point through schedule_create; (points tried, mismatches)."""
    gap_message = await reference_gap_message()
    tried, bad = 0, []
    for point in points:
        tried += 1
        result = await create_at(local_object(point.local_ms, point.zone))
        mismatch = judge(point, result, gap_message)
        if mismatch is not None:
            bad.append(mismatch)
    return tried, bad


async def check_rejected_zone(name: str) -> object | None:
    """A name §6.3 refuses must give invalid_time_zone; returns the bad result, else None."""
    result = await create_at({"date": "2030-06-15", "time": "12:00:00", "time_zone": name})
    ok = isinstance(result, dict) and result.get("code") == "invalid_time_zone"
    return None if ok else result


def run(coro: Any) -> Any:
    return asyncio.run(coro)
