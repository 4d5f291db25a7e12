"""Long crash matrix: the whole engine in child processes on real files, SIGKILLed at random
(after a random real delay, at a random file-ops call before/after it or mid-write, or at a kill
point between a tool's effect and the turn's end: once a reminder's create or delete, or a tool's
result, is durable), and the session judged after every kill by tests/survival/crash_checks.py,
which also checks that no request ever creates a reminder twice (a resumed turn continues from
the log). Prints the counts; exit 1 on any violation.

    .venv/bin/python scripts/crash_matrix.py [--kills 200] [--per-session 50] [--seed N]

The kills are spread over sessions of ``--per-session`` kills each (a fresh session and seed per
block keeps every child's log, and so its run time, bounded).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.survival.crash_checks import Figures, Matrix  # noqa: E402  # needs ROOT on sys.path


def add(total: Figures, part: Figures) -> None:
    for name in vars(total):
        if name != "violations":
            setattr(total, name, getattr(total, name) + getattr(part, name))
    total.violations += part.violations


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--per-session", type=int, default=50)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    total, started = Figures(), time.monotonic()
    done = 0
    with tempfile.TemporaryDirectory(prefix="chime-crash-") as temp:
        while done < args.kills:
            block = min(args.per_session, args.kills - done)
            seed = args.seed + done
            figures = Matrix(Path(temp) / f"s{done}", seed).run(block)
            add(total, figures)
            done += block
            print(f"[{time.monotonic() - started:6.1f}s] seed {seed}: {figures.summary()}")
    print(f"seed {args.seed} TOTAL: {total.summary()}")
    for problem in total.violations[:50]:
        print("VIOLATION", problem)
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
