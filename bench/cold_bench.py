"""Cold open of a 10^6-event session against orjson reading every line, round by round.

Run: .venv/bin/python bench/cold_bench.py [--events 1000000] [--rounds 3] [--before DIR] [--data DIR]

Each round runs, each in a fresh process and one after the other (so a busy machine slows all
alike): the floor (``orjson.loads`` of every line of the log, cyclic GC off: ``memory_bench``'s
FLOOR), then the cold open of the same log (no checkpoint: the real store opens it, folds its
schedule, decodes the last 50 turns and waits for its verification: ``memory_bench``'s PROBE) with
this tree, with this tree's compiled fast paths left out ("pure Python") and, with ``--before
DIR``, with another tree (e.g. main exported with
``git archive main | tar -x -C DIR``). Reported: CPU seconds (the machine is shared: CPU time is
the comparable one) and each round's ratio to its own floor, with the median. Goal (issue 23):
cold open <= 1x the floor. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory_bench import build, floor, probe  # noqa: E402 -- after the path to the tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=None)
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="chime-cold-bench-", dir=ROOT))
    trees = [("after", ROOT, "cold"), ("pure Python", ROOT, "cold-pure")]
    trees += [("before", args.before, "cold")] if args.before else []
    ratios: dict[str, list[float]] = {name: [] for name, _tree, _what in trees}
    try:
        sid = build(data, args.events)
        log = data / "sessions" / sid / "session.jsonl"
        print(f"log: {args.events} events, {log.stat().st_size / 1e6:.1f} MB")
        for number in range(1, args.rounds + 1):
            orjson_s = floor(log)
            line = f"round {number}: orjson every line {orjson_s:.2f} s CPU"
            for name, tree, what in trees:
                cpu = probe(tree, data, sid, what)["cpu"]
                ratios[name].append(cpu / orjson_s)
                line += f"; {name} cold open {cpu:.2f} s = {cpu / orjson_s:.2f}x"
            print(line)
        for name, found in ratios.items():
            print(
                f"{name}: cold open / orjson median {statistics.median(found):.2f}x "
                f"(range {min(found):.2f}-{max(found):.2f}x; goal <= 1.0)"
            )
    finally:
        if args.data is None:
            shutil.rmtree(data)


if __name__ == "__main__":
    main()
