"""Memory and open time of a 10^6-event session against a 10,000-message one, engine side.

Run: .venv/bin/python bench/memory_bench.py [--events 1000000] [--before DIR] [--data DIR]

Times are wall and CPU seconds (the machine may be shared: CPU time is the comparable one).
Generates (or reuses, with ``--data``) two sessions with ``open_bench``'s generator: one of about
10,000 messages (35,700 events) and one of ``--events`` events. Each figure comes from a fresh
process that opens a session with the real store, folds its schedule, decodes the last 50 turns
(what the window shows first) and waits for the checkpoint's verification, then reports its
resident memory (VmRSS, split into anonymous memory and mapped file pages) and its peak (VmHWM):

- cold: no checkpoint (every line read; the close writes one);
- warm: with the checkpoint the cold open's close wrote;
- refresh: the search index written from nothing (``core.session.search.refresh``).

``--before DIR`` runs the same probes against another source tree (e.g. main exported with
``git archive main | tar -x -C DIR``), interleaved in the same run, for a before/after. Goals
(issue 23): the big session open in <= 1.3x the memory of the 10,000-message one, a peak during
the open <= 1.2x the steady figure, the cold open <= 1x the time ``orjson`` takes to parse every
line of the same file (the floor, measured here in its own process).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.open_bench import AT, generate  # noqa: E402 -- after the path to the tree
from core.session.jsonl_store import publish_session  # noqa: E402 -- after the path to the tree
from core.session.lines import SessionHeader  # noqa: E402 -- after the path to the tree

SMALL = 35_700
"""Events of a session of about 10,000 messages (a user message and an answer per turn of 7)."""

PROBE = """
import asyncio, json, sys, time
from datetime import UTC, datetime
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from core.session.store import SessionStore
from core.session import search

def status():
    found = {}
    with open("/proc/self/status") as lines:
        for line in lines:
            key = line.split(":")[0]
            if key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                found[key] = int(line.split()[1]) / 1024
    return found

async def main():
    data, sid, what = Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    if what == "cold-pure":  # the compiled fast paths left out (docs/architecture.md)
        from core.session import block_scan
        from core.schedule import fold
        block_scan.compiled_check = fold.compiled_feed = None
    base = status()
    started, cpu = time.perf_counter(), time.process_time()
    if what == "refresh":
        search.refresh(data / "sessions" / sid)
    else:
        session = await SessionStore(data, lambda: datetime.now(UTC)).open(sid)
        session.schedule_fold()
        session.tail_turns(50)
        assert await session.verification()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(json.dumps({"seconds": seconds, "cpu": cpu, "base": base, **status()}))
    if what != "refresh":
        await session.close()

asyncio.run(main())
"""

FLOOR = """
import gc, sys, time, orjson
data = open(sys.argv[1], "rb").read()
gc.disable()
started = time.process_time()
for line in data.split(b"\\n")[1:]:
    if line:
        orjson.loads(line)
print(time.process_time() - started)
"""


def probe(tree: Path, data: Path, sid: str, what: str) -> dict[str, float]:
    if what in ("cold", "cold-pure", "refresh"):
        folder = data / "sessions" / sid
        for name in ("checkpoint.json", "offsets.bin", "search.txt"):
            (folder / name).unlink(missing_ok=True)
    command = [sys.executable, "-c", PROBE, str(tree), str(data), sid, what]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


CHECKS = """
import sys, time
from array import array
sys.path.insert(0, sys.argv[2])
from core.session.block_scan import scan_blocks
class Null:
    def read(self, *parts): pass
    def read_block(self, *parts, **options): pass
data = open(sys.argv[1], "rb").read()
started = time.process_time()
scan_blocks(data, start=data.find(b"\\n") + 1, first_seq=0, sink=Null(), offsets=array("Q"))
print(time.process_time() - started)
"""
"""Every check session-log.md section 4 makes of every line (the block scan, folding nothing): what
a cold open costs before any fold, in pure Python over orjson."""


def floor(log: Path, script: str = FLOOR, tree: Path = ROOT) -> float:
    command = [sys.executable, "-c", script, str(log), str(tree)]
    return float(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def build(data: Path, count: int) -> str:
    sid = f"mem{count}"
    if not (data / "sessions" / sid).exists():
        header = SessionHeader(sid, AT).line()
        publish_session(data / "sessions" / sid, header, iter(generate(count)))
    return sid


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--before", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--what", default="cold,warm,refresh")
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="chime-memory-bench-", dir=ROOT))
    trees = ([("before", args.before)] if args.before else []) + [("after", ROOT)]
    try:
        small, big = build(data, SMALL), build(data, args.events)
        orjson_s = floor(data / "sessions" / big / "session.jsonl")
        print(
            f"orjson.loads of every line of the big log: {orjson_s:.2f} s CPU (the cold open's floor)"
        )
        for name, tree in trees:
            checks = floor(data / "sessions" / big / "session.jsonl", CHECKS, tree)
            print(
                f"{name}: every line checked, nothing folded: {checks:.2f} s CPU"
                f" ({checks / orjson_s:.2f}x floor)"
            )
        print(
            f"{'tree':>6} {'what':>8} {'session':>11} {'wall s':>6} {'CPU s':>6} {'RSS MB':>7}"
            f" {'anon':>6}"
            f" {'file':>6} {'peak':>6}"
        )
        steady: dict[tuple[str, str], float] = {}
        peaks: dict[tuple[str, str], float] = {}
        for what in args.what.split(","):
            for sid in (small, big):
                for name, tree in trees:
                    found = probe(tree, data, sid, what)
                    steady[(name, f"{what}{sid}")] = found["VmRSS"]
                    peaks[(name, f"{what}{sid}")] = found["VmHWM"]
                    ratio = (
                        f" CPU {found['cpu'] / orjson_s:.2f}x floor"
                        if (what == "cold" and sid == big)
                        else ""
                    )
                    print(
                        f"{name:>6} {what:>8} {sid:>11} {found['seconds']:>6.2f} {found['cpu']:>6.2f}"
                        f" {found['VmRSS']:>7.0f} {found['RssAnon']:>6.0f}"
                        f" {found['RssFile']:>6.0f} {found['VmHWM']:>6.0f}{ratio}"
                    )
        for name, _tree in trees:
            for what in ("cold", "warm"):
                if (name, f"{what}{big}") not in steady:
                    continue
                share = steady[(name, f"{what}{big}")] / steady[(name, f"{what}{small}")]
                print(
                    f"{name}: {what} open, RSS of the big session / the 10,000-message one:"
                    f" {share:.2f} (goal <= 1.3); its peak / its RSS:"
                    f" {peaks[(name, f'{what}{big}')] / steady[(name, f'{what}{big}')]:.2f}"
                    " (goal <= 1.2)"
                )
    finally:
        if args.data is None:
            shutil.rmtree(data)


if __name__ == "__main__":
    main()
