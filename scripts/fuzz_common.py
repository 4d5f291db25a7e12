"""Shared harness of the long-running fuzz scripts: runs the survival suite's property bodies
(tests/survival/test_fuzz_*.py) under hypothesis for a count or a time budget, without stopping at
the first failure, and prints inputs tried and failures per target.

    .venv/bin/python scripts/fuzz_<area>.py [--count N] [--seconds S] [--show K] [--only NAME]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402  # after the path setup above
from hypothesis import strategies as st  # noqa: E402  # after the path setup above

Target = tuple[Callable[..., Any], Mapping[str, st.SearchStrategy[Any]]]
BATCH = 200


@dataclass
class Tally:
    tried: int = 0
    failures: list[str] = field(default_factory=list)


def body(test: Any) -> Callable[..., Any]:
    """The undecorated function under a hypothesis test."""
    return test.hypothesis.inner_test  # type: ignore[no-any-return]  # hypothesis attribute


def _batch(check: Callable[..., Any], strategies: Mapping[str, Any], tally: Tally) -> None:
    @settings(
        max_examples=BATCH,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(**strategies)
    def run(**kwargs: Any) -> None:
        tally.tried += 1
        try:
            check(**kwargs)
        except Exception as error:  # a fuzz harness records every failure kind
            where = traceback.extract_tb(error.__traceback__)[-1]
            summary = f"{type(error).__name__} at {Path(where.filename).name}:{where.lineno}"
            tally.failures.append(f"{summary}: {error!r:.300} <- {kwargs!r:.400}")

    run()


def fuzz(target: Target, count: int, seconds: float) -> Tally:
    check, strategies = target
    tally = Tally()
    deadline = time.monotonic() + seconds
    while tally.tried < count and time.monotonic() < deadline:
        _batch(check, strategies, tally)
    return tally


def main(targets: Mapping[str, Target], description: str) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--count", type=int, default=5000, help="inputs per target (at least)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time budget per target")
    parser.add_argument("--show", type=int, default=5, help="failures to print per target")
    parser.add_argument("--only", choices=sorted(targets), action="append")
    args = parser.parse_args()
    logging.disable(
        logging.CRITICAL
    )  # contained failures are logged by design; keep output to counts
    total_tried = total_failed = 0
    for name in args.only or list(targets):
        started = time.perf_counter()
        tally = fuzz(targets[name], args.count, args.seconds)
        elapsed = time.perf_counter() - started
        print(f"{name}: {tally.tried} inputs, {len(tally.failures)} failures, {elapsed:.1f} s")
        for failure in tally.failures[: args.show]:
            print("    " + failure)
        total_tried += tally.tried
        total_failed += len(tally.failures)
    print(f"total: {total_tried} inputs, {total_failed} failures")
    return 1 if total_failed else 0
