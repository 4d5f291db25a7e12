"""Append benchmark: one ``append`` + ``flush`` versus a bare ``os.write`` + ``os.fsync``.

Run: .venv/bin/python bench/append_bench.py [--rounds 300]

Both write the same bytes (one ~300-byte event line) to files in the same temporary directory on
the repo's disk, interleaved round by round (alternating which goes first) so that disk noise hits both alike. The store's path
is what the app pays per barrier: build and encode the envelope, queue it, hop to a worker thread,
``pwrite`` + ``fsync``, hop back, update the index. Target (issue 23): ratio ≤ 1.5 with an
fsync of 1 ms or more; the disk's fsync time here varies with the machine's load, so the store's
own cost (its time minus the bare time, per round) is also given, and the ratio it makes with a
1 ms fsync.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.events import UserMessage, UserSource
from core.session.lines import encode_entry
from core.session.store import SessionStore

ROOT = Path(__file__).resolve().parent.parent
TEXT = "Remind me to check the deployment logs in half an hour, and to stretch every hour. " * 2


def clock() -> datetime:
    return datetime.now(UTC)


async def run(rounds: int) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="chime-append-bench-", dir=ROOT))
    try:
        store = SessionStore(data_dir, clock)
        session = await store.create()
        message = UserMessage("m", TEXT, UserSource("Europe/Berlin"))
        payload = encode_entry(session.append_event(message))
        await session.flush()
        fd = os.open(data_dir / "bare.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        store_times: list[float] = []
        bare_times: list[float] = []
        for round_number in range(rounds):
            # alternate which goes first, so neither always follows the other's journal commit
            for which in (0, 1) if round_number % 2 else (1, 0):
                started = time.perf_counter()
                if which == 0:
                    session.append_event(message)
                    assert await session.flush()
                    store_times.append(time.perf_counter() - started)
                else:
                    os.write(fd, payload)
                    os.fsync(fd)
                    bare_times.append(time.perf_counter() - started)
        os.close(fd)
        await session.close()
    finally:
        shutil.rmtree(data_dir)
    store_median = statistics.median(store_times)
    bare_median = statistics.median(bare_times)
    ratios = sorted(s / b for s, b in zip(store_times, bare_times, strict=True))
    print(f"rounds: {rounds}, line: {len(payload)} bytes")
    print(f"bare os.write+os.fsync  median {bare_median * 1e6:8.1f} us")
    print(f"append+flush            median {store_median * 1e6:8.1f} us")
    ratio = store_median / bare_median
    print(
        f"ratio of medians {ratio:.2f}; median of per-round ratios {statistics.median(ratios):.2f}"
    )
    extra = statistics.median(s - b for s, b in zip(store_times, bare_times, strict=True))
    print(f"the store's own cost per round (median of store - bare): {extra * 1e6:.0f} us")
    # The goal's premise is an fsync of 1 ms or more; this disk's varies with the machine's load,
    # so the store's own cost is also put against a 1 ms fsync (rounds are not filtered by their
    # bare time: picking the slow ones would favour the store).
    at_1ms = (0.001 + extra) / 0.001
    print(
        f"ratio with a 1 ms fsync: {at_1ms:.2f} (target <= 1.5: {'OK' if at_1ms <= 1.5 else 'OVER'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(run(args.rounds))


if __name__ == "__main__":
    main()
