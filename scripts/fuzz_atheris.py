"""Coverage-guided fuzzing (atheris/libFuzzer) of the `at` string parser, the local `at` object
and the change decoder, through the public API, each answer checked against the survival suite's
independent models. Optional: `pip install '.[fuzz]'` (atheris is not a dev dependency).

    .venv/bin/python scripts/fuzz_atheris.py [--count N] [--seconds S] [libFuzzer flags...]

Prints the inputs tried and the failures (each failing input is printed as it is found), then
exits 1 if any input broke a rule.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import atheris

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

with atheris.instrument_imports():
    from core.schedule import ScheduleLogError, ScheduleTools, fold_schedule

from tests.fakes import FakeClock, MemoryLog  # noqa: E402  # after the path setup above
from tests.survival import fold_oracle  # noqa: E402  # after the path setup above
from tests.survival.time_oracle import RejectionError, expected_create  # noqa: E402  # idem

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
NOW_MS = 1785931200000
STATE = {"tried": 0, "failed": 0, "count": 0, "deadline": 0.0}


def _create(at: object) -> Any:
    tools = ScheduleTools(MemoryLog(), FakeClock(NOW))
    return asyncio.run(tools.call("schedule_create", {"prompt": "p", "at": at}))


def _check_at(at: object) -> None:
    expected = expected_create({"prompt": "p", "at": at}, NOW_MS)
    result = _create(at)
    if isinstance(expected, RejectionError):
        assert isinstance(result, dict), (at, result)
        assert result.get("code") == expected.code, (at, result)
    else:
        assert isinstance(result, dict), (at, result)
        assert result.get("scheduledAt") == expected["scheduledAt"], (at, result)


def _check_fold(raw: str) -> None:
    try:
        payloads = json.loads(raw)
    except ValueError:
        return
    events = (
        [{"type": "schedule/change", "data": p} for p in payloads]
        if isinstance(payloads, list)
        else [{"type": "schedule/change", "data": payloads}]
    )
    expected = fold_oracle.fold(events)
    try:
        got = fold_schedule(events).to_json()
    except ScheduleLogError:
        got = None
    assert got == expected, (raw, got, expected)


def _one(data: bytes) -> None:
    """First byte picks the target; the rest is UTF-8 text (so the dictionary's tokens land
    verbatim). The local object's three fields are separated by NUL."""
    if not data:
        return
    text = data[1:].decode("utf-8", errors="replace")
    mode = data[0] % 3
    if mode == 0:
        _check_at(text)
    elif mode == 1:
        date, time_, zone = ([*text.split("\x00", 2), "", ""])[:3]
        _check_at({"date": date, "time": time_, "time_zone": zone})
    else:
        _check_fold(text)


def test_one_input(data: bytes) -> None:
    STATE["tried"] += 1
    try:
        _one(data)
    except Exception as error:  # a fuzz harness records every failure kind
        STATE["failed"] += 1
        print(f"FAILURE {type(error).__name__}: {error!r:.500}", flush=True)
    if STATE["tried"] >= STATE["count"] or time.monotonic() > STATE["deadline"]:
        print(f"atheris: {STATE['tried']} inputs, {STATE['failed']} failures", flush=True)
        os._exit(1 if STATE["failed"] else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=120.0)
    args, libfuzzer = parser.parse_known_args()
    logging.disable(logging.CRITICAL)  # contained failures are logged by design
    STATE["count"], STATE["deadline"] = args.count, time.monotonic() + args.seconds
    dictionary = f"-dict={Path(__file__).with_suffix('.dict')}"
    atheris.Setup([sys.argv[0], dictionary, *libfuzzer], test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
