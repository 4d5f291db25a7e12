"""Find in a long conversation, engine side: the first match and the full count, before and after.

Run: .venv/bin/python bench/find_bench.py [--events 1000000] [--data DIR]

Builds (or reuses, with ``--data``) a session of ``--events`` events with ``open_bench``'s
generator, opens it warm and runs find for a word only in the first message ("Question 1:") and
for one in every answer ("scheduled"), in slices of ``STEP`` entries like the window's
``FindFlow``, each way in the same run:

- before: every entry of the shown path decoded and matched (what ``FindJob`` did before it read
  raw lines: ``shown`` over the whole sequence, ``findable_text``, the pattern);
- after: ``FindJob`` (blocks of raw lines, only the lines that may match decoded).

Prints the CPU time to the first match, to the full count, the longest slice (the window's stall:
goal < 50 ms), and the process's resident memory after each (the log's mapped pages let go).
Goal (issue 23): the first match within 1 s, no slice over 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.open_bench import AT, generate
from core.events import Entry
from core.session.conversation import Conversation, shown
from core.session.find import FindJob, Hit, findable_text
from core.session.jsonl_store import publish_session
from core.session.lines import SessionHeader
from core.session.store import SessionStore

STEP = 250
SLICE_S = 0.008
WAYS = ("before", "after")
QUERIES = ("Question 1:", "scheduled")


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Before:
    """The walk every entry took before: decode, filter by the shown path, match."""

    def __init__(self, entries: list[Entry], conversation: Conversation, query: str) -> None:
        self.hits: list[Hit] = []
        self._pattern = re.compile(re.escape(query), re.IGNORECASE)
        self._walk: Iterator[Entry] = shown(conversation, iter(entries))

    def advance(self, budget: int) -> bool:
        for _ in range(budget):
            entry = next(self._walk, None)
            if entry is None:
                return True
            text = findable_text(entry.event)
            count = len(self._pattern.findall(text)) if text else 0
            if count:
                self.hits.append(Hit(entry.seq, count))
        return False


def run(advance: Callable[[int], bool], hits: Sequence[Hit]) -> tuple[float, float, float]:
    """CPU seconds to the first hit and to the end, and of the longest slice, run like
    ``FindFlow`` (CPU time of this thread: on a machine shared with other work, wall time would
    count the time others ran)."""
    clock = time.thread_time
    started = clock()
    first = longest = 0.0
    done = False
    while not done:
        begun = clock()
        done = advance(STEP)
        while not done and clock() < begun + SLICE_S:
            done = advance(STEP)
        longest = max(longest, clock() - begun)
        if hits and not first:
            first = clock() - started
    return first, clock() - started, longest


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--after-only", action="store_true")
    args = parser.parse_args()
    ways = ("after",) if args.after_only else WAYS
    data = args.data or Path(tempfile.mkdtemp(prefix="chime-find-bench-"))
    sid = f"big{args.events}"
    if not (data / "sessions" / sid).exists():
        header = SessionHeader(sid, AT).line()
        publish_session(data / "sessions" / sid, header, iter(generate(args.events)))
    store = SessionStore(data, lambda: datetime.now(UTC))
    session = await store.open(sid)
    await session.verification()
    try:
        print(
            f"{'query':>14} {'way':>7} {'first ms':>9} {'count ms':>9} {'hits':>7}"
            f" {'longest slice ms':>17} {'RSS MB':>7}"
        )
        for query in QUERIES:
            for way in ways:
                conversation = session.conversation()
                job: Before | FindJob
                if way == "before":
                    job = Before(session.entries, conversation, query)  # type: ignore[arg-type]
                else:
                    job = FindJob(session.entries, conversation, query)
                first, total, longest = run(job.advance, job.hits)
                print(
                    f"{query:>14} {way:>7} {first * 1e3:>9.0f} {total * 1e3:>9.0f}"
                    f" {len(job.hits):>7} {longest * 1e3:>17.1f} {resident_mb():>7.0f}"
                )
    finally:
        await session.close()
        if args.data is None:
            shutil.rmtree(data)


if __name__ == "__main__":
    asyncio.run(main())
