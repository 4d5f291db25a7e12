"""Fold throughput: fold_schedule over a 200k-event in-memory log, against the reference fold.

    .venv/bin/python bench/fold_bench.py [--rounds 9] [--reference DIR]

The floor is the reference implementation's ``foldScheduleEvents`` (npm ``@deepseek-ai/dsh-schedule``)
run by ``node`` on the same log in the same run: one Node process parses the log once, warms up,
then folds it once per round, interleaved with one ``fold_schedule`` per round, so a busy machine
slows both alike. Install the reference once, outside the repository's tracked files::

    npm install --prefix bench/.reference @deepseek-ai/dsh-schedule

(``bench/.reference/`` is gitignored; ``--reference`` names another folder). Without ``node`` or the
package the Node rows are skipped with a sentence. Also reported: a plain Python loop reading each
event's ``type`` and ``data`` (the floor of any Python fold) and the incremental ScheduleFolder's
cost per fed payload, and in the reference rounds the same fold in pure Python (its compiled feed,
``core/schedule/plainfeed.pyx``, left out). Goal (issue 23): fold_schedule / reference <= 1.0.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

# This checkout's code, not whichever one an editable install of a shared venv points at.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.events import EventType
from core.instant import format_instant_ms
from core.schedule import ScheduleFolder, fold_schedule
from core.schedule import fold as fold_module

CHANGE_TYPE = EventType.SCHEDULE_CHANGE.value
EVENTS = 200_000
RUNS = 5
REFERENCE = Path(__file__).resolve().parent / ".reference"
PACKAGE = "@deepseek-ai/dsh-schedule"
DRIVER = """
import { foldScheduleEvents } from '@deepseek-ai/dsh-schedule';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const events = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const once = () => {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const fold = foldScheduleEvents(events);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return `${ms} ${(used.user + used.system) / 1000} ${fold.active.length} ${fold.seenIds.length}`;
};
for (let i = 0; i < 5; i++) once();
console.log('ready');
for await (const _ of createInterface({ input: process.stdin })) console.log(once());
"""
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


class Reference:
    """The reference fold in a Node process that folds the log once per ``fold()``."""

    def __init__(self, folder: Path, log: Path) -> None:
        self._process = subprocess.Popen(
            ["node", "--input-type=module", "-e", DRIVER, str(log)],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._read() == "ready", "the reference driver did not start"

    def fold(self) -> tuple[Timing, int, int]:
        """One fold: its wall and CPU seconds, its active count and its seen count."""
        assert self._process.stdin is not None
        self._process.stdin.write("fold\n")
        self._process.stdin.flush()
        wall, cpu, active, seen = self._read().split()
        return Timing(float(wall) / 1000, float(cpu) / 1000), int(active), int(seen)

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)

    def _read(self) -> str:
        assert self._process.stdout is not None
        return self._process.stdout.readline().strip()


def reference_missing(folder: Path) -> str | None:
    """Why the reference cannot run, or None."""
    if shutil.which("node") is None:
        return "node is not on PATH: the reference rows are skipped."
    if not (folder / "node_modules" / PACKAGE / "package.json").is_file():
        return (
            f"{PACKAGE} is not installed in {folder}: the reference rows are skipped "
            f"(npm install --prefix {folder} {PACKAGE})."
        )
    return None


class Timing(NamedTuple):
    wall: float
    cpu: float


def timed(work: Callable[[], object]) -> Timing:
    """Wall and CPU seconds of one call (CPU: this thread's, what a loaded machine steals not)."""
    wall, cpu = time.perf_counter(), time.thread_time()
    work()
    return Timing(time.perf_counter() - wall, time.thread_time() - cpu)


def against_reference(events: list[dict[str, Any]], folder: Path, rounds: int) -> None:
    """Interleaved rounds of the reference fold and fold_schedule; ratios per round, on CPU time
    (the machine is shared: wall time also counts waiting for a core) and on wall time."""
    why = reference_missing(folder)
    if why is not None:
        print(why)
        return
    fold = fold_schedule(events)

    def pure() -> None:  # the same fold without its compiled feed (core/schedule/plainfeed.pyx)
        with mock.patch.object(fold_module, "compiled_feed", None):
            fold_schedule(events)

    with tempfile.TemporaryDirectory(prefix="chime-fold-bench-") as name:
        log = Path(name) / "log.json"
        log.write_text(json.dumps(events), "utf-8")
        reference = Reference(folder, log)
        try:
            pairs = []
            for _ in range(rounds):
                node, active, seen = reference.fold()
                assert (active, seen) == (len(fold.active), len(fold.seen_ids)), "folds differ"
                pairs.append((node, timed(lambda: fold_schedule(events)), timed(pure)))
        finally:
            reference.close()
    for what in ("cpu", "wall"):
        theirs = [getattr(pair[0], what) for pair in pairs]
        for name, column in (("fold_schedule", 1), ("pure Python", 2)):
            ours = [getattr(pair[column], what) for pair in pairs]
            ratios = sorted(o / t for t, o in zip(theirs, ours, strict=True))
            print(
                f"{what:4} reference (node) best {min(theirs) * 1e3:6.1f} ms, {name} best "
                f"{min(ours) * 1e3:6.1f} ms; ratio per round median "
                f"{statistics.median(ratios):.2f}x (range {ratios[0]:.2f}-{ratios[-1]:.2f}x), "
                f"best/best {min(ours) / min(theirs):.2f}x"
            )
    print("goal: fold_schedule / reference <= 1.0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    args = parser.parse_args()
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
    against_reference(events, args.reference, args.rounds)


if __name__ == "__main__":
    main()
