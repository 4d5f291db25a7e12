"""Fold throughput: fold_schedule over a 200k-event in-memory log, against a same-run baseline.

The baseline is a plain loop that only reads each event's ``type`` and ``data``: the floor any
fold must pay. Also reports the incremental ScheduleFolder's cost per fed payload. Run with
``.venv/bin/python bench/fold_bench.py``; figures go to stdout, nothing is asserted.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This checkout's code, not whichever one an editable install of a shared venv points at.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.events import EventType
from core.instant import format_instant_ms
from core.schedule import ScheduleFolder, fold_schedule

CHANGE_TYPE = EventType.SCHEDULE_CHANGE.value
EVENTS = 200_000
RUNS = 5
START_MS = 1_785_931_200_000  # 2026-08-05T12:00:00.000Z


def _chat(index: int) -> dict[str, Any]:
    kind = "user/message" if index % 4 == 0 else "assistant/message"
    return {
        "seq": index,
        "type": kind,
        "data": {"text": f"message {index}", "source": {"kind": "user"}},
    }


def _change(index: int, data: dict[str, Any]) -> dict[str, Any]:
    return {"seq": index, "type": CHANGE_TYPE, "data": data}


def _create(sid: str, kind: str, target: int) -> dict[str, Any]:
    record: dict[str, Any] = {"id": sid, "kind": kind, "prompt": f"reminder {sid}"}
    if kind == "after":
        record["afterSeconds"] = 60
    if kind == "every":
        record["everySeconds"] = 300
    record["scheduledAt"] = format_instant_ms(target)
    return {"version": 1, "operation": "create", "schedule": record}


def build_log(size: int) -> list[dict[str, Any]]:
    """Half chat envelopes, half valid schedule changes (creates, deletes, dispatches)."""
    events: list[dict[str, Any]] = []
    number = 0
    while len(events) < size:
        number += 1
        base = START_MS + number * 1000
        cycle = [
            _create(f"schedule-{number}a", "after", base + 60_000),
            _create(f"schedule-{number}b", "at", base + 120_000),
            _create(f"schedule-{number}e", "every", base + 300_000),
            {"version": 1, "operation": "dispatch", "id": f"schedule-{number}a"},
            {"version": 1, "operation": "delete", "id": f"schedule-{number}b"},
            {
                "version": 1,
                "operation": "dispatch",
                "id": f"schedule-{number}e",
                "acceptedAt": format_instant_ms(base + 900_000),
            },
            {"version": 1, "operation": "delete", "id": f"schedule-{number}e"},
        ]
        for data in cycle:
            events.append(_chat(len(events)))
            events.append(_change(len(events), data))
    return events[:size]


def baseline(events: list[dict[str, Any]]) -> int:
    """Read each event's type and data, nothing else."""
    count = 0
    for event in events:
        if event["type"] == CHANGE_TYPE and event["data"] is not None:
            count += 1
    return count


def best_of(runs: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def incremental(events: list[dict[str, Any]]) -> ScheduleFolder:
    folder = ScheduleFolder()
    for event in events:
        if event["type"] == CHANGE_TYPE:
            folder.feed(event["data"])
    return folder


def main() -> None:
    events = build_log(EVENTS)
    changes = sum(1 for event in events if event["type"] == CHANGE_TYPE)
    fold = fold_schedule(events)
    print(
        f"log: {len(events)} events, {changes} schedule changes, {len(fold.seen_ids)} ids, "
        f"{len(fold.active)} active at the end"
    )
    # Interleaved rounds, so a busy machine slows baseline and fold alike; ratios per round.
    rounds = [
        (
            best_of(1, lambda: baseline(events)),
            best_of(1, lambda: fold_schedule(events)),
            best_of(1, lambda: incremental(events)),
        )
        for _ in range(RUNS)
    ]
    base = min(r[0] for r in rounds)
    full = min(r[1] for r in rounds)
    feed = min(r[2] for r in rounds)
    ratios = sorted(r[1] / r[0] for r in rounds)
    print(f"baseline loop     : {base * 1e3:8.1f} ms  {len(events) / base:12,.0f} events/s")
    print(
        f"fold_schedule     : {full * 1e3:8.1f} ms  {len(events) / full:12,.0f} events/s  "
        f"ratio fold/baseline {full / base:5.1f}x (median per round {ratios[RUNS // 2]:.1f}x)"
    )
    print(f"fold per change   : {full / changes * 1e6:8.2f} us (chat events included)")
    print(
        f"ScheduleFolder    : {feed * 1e3:8.1f} ms  {feed / changes * 1e6:8.2f} us per fed change"
    )
    snapshot = best_of(RUNS, lambda: incremental(events[:2]).fold())
    print(f"one feed + fold() : {snapshot * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
