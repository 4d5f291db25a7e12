"""Search across sessions: the sidebar's search of every session's messages (core.session.search).

    .venv/bin/python bench/search_bench.py [--sessions 200] [--messages 500] [--runs 5]

Writes ``--sessions`` closed sessions of ``--messages`` messages each (half questions, half
Markdown answers of a few sentences, every event a real session line), then times, as the app
runs it (one worker thread):

1. the first search, with no index at all (every log scanned, every ``search.txt`` written);
2. a repeated search with every index warm (each index checked against its log, then read);
3. an index refreshed when one session is closed after growing by one exchange (what
   ``app.session_search`` does on close), and the search after it;
4. a word found in no session (the whole of every index is read).

The floor, in the same run: reading all the logs and ``bytes.find`` of the query in each (what a
search without any index costs at least). The warm searches are reported as ratios to it; goal
(issue 23): <= 0.5x, else the index is not worth having. Figures are medians of ``--runs``;
informative, not a gate.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = [
    "reminder",
    "plan",
    "garden",
    "budget",
    "coffee",
    "meeting",
    "review",
    "kitchen",
    "travel",
    "morning",
    "answer",
    "project",
    "window",
    "message",
    "session",
    "friday",
    "summary",
    "draft",
    "letter",
    "invoice",
    "recipe",
    "stretch",
    "water",
]


async def write_sessions(folder: Path, sessions: int, messages: int) -> list[str]:
    from core.events import (
        AssistantMessage,
        ModelRef,
        TurnEnd,
        TurnStart,
        UserMessage,
        UserSource,
    )
    from core.session.store import SessionStore

    now = [datetime(2026, 1, 1, tzinfo=UTC)]

    def clock() -> datetime:
        now[0] += timedelta(milliseconds=10)
        return now[0]

    store = SessionStore(folder, clock)
    model = ModelRef("offline", "offline")
    ids = []
    for s in range(sessions):
        session = await store.create()
        for n in range(messages // 2):
            words = " ".join(WORDS[(s + n + k) % len(WORDS)] for k in range(12))
            question = f"question {n} of session {s}: what about the {words}?"
            seq = session.append_event(UserMessage(f"u{s}-{n}", question, UserSource("UTC"))).seq
            session.append_event(TurnStart(n + 1, seq))
            answer = (
                f"Here is **point {n}**: the {words} matters because of `item_{n}`.\n\n"
                f"- first, the {WORDS[n % len(WORDS)]}\n- then the {WORDS[s % len(WORDS)]}\n\n"
                "That is all for now; ask again when you need more."
            )
            session.append_event(AssistantMessage(f"a{s}-{n}", answer, (), model, "stop"))
            session.append_event(TurnEnd(n + 1, "completed"))
        await session.flush()
        await session.close()
        ids.append(session.id)
    return ids


def timed(work) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = work()
    return (time.perf_counter() - start) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from core.events import AssistantMessage, ModelRef, TurnEnd, TurnStart, UserMessage, UserSource
    from core.session import jsonl_store as disk
    from core.session.search import INDEX_NAME, refresh, search
    from core.session.store import SessionStore

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        start = time.perf_counter()
        ids = asyncio.run(write_sessions(folder, args.sessions, args.messages))
        logs = sum((disk.session_dir(folder, sid) / disk.LOG_NAME).stat().st_size for sid in ids)
        print(
            f"wrote {args.sessions} sessions of {args.messages} messages "
            f"({logs / 1e6:.1f} MB of logs) in {time.perf_counter() - start:.1f} s"
        )
        needle = f"question 7 of session {args.sessions - 1}:"
        cold, found = timed(lambda: search(folder, ids, needle))
        print(f"1. first search, no index: {cold:.0f} ms ({len(found)} match)")  # type: ignore[arg-type]
        indexes = sum((disk.session_dir(folder, sid) / INDEX_NAME).stat().st_size for sid in ids)
        print(f"   indexes written: {indexes / 1e6:.1f} MB")
        warm = [timed(lambda: search(folder, ids, "garden budget"))[0] for _ in range(args.runs)]
        hits = len(search(folder, ids, "garden budget"))
        print(f"2. repeated search, warm index: {statistics.median(warm):.0f} ms ({hits} matches)")

        async def grow() -> None:
            store = SessionStore(folder, lambda: datetime(2026, 2, 1, tzinfo=UTC))
            session = await store.open(ids[0])
            seq = session.append_event(
                UserMessage("new", "a zanzibar question", UserSource("UTC"))
            ).seq
            session.append_event(TurnStart(9999, seq))
            answer = AssistantMessage("new-a", "a zanzibar answer", (), ModelRef("o", "o"), "stop")
            session.append_event(answer)
            session.append_event(TurnEnd(9999, "completed"))
            await session.flush()
            await session.close()

        asyncio.run(grow())
        closed, _ = timed(lambda: refresh(disk.session_dir(folder, ids[0])))
        after, found = timed(lambda: search(folder, ids, "zanzibar"))
        print(
            f"3. index refreshed on close after one more exchange: {closed:.1f} ms; "
            f"the search after it: {after:.0f} ms ({len(found)} match)"  # type: ignore[arg-type]
        )
        absent = [timed(lambda: search(folder, ids, "no such word"))[0] for _ in range(args.runs)]
        print(f"4. a word in no session, warm index: {statistics.median(absent):.0f} ms")
        logs = [disk.session_dir(folder, sid) / disk.LOG_NAME for sid in ids]
        floors = [timed(lambda: scan_logs(logs, b"no such word"))[0] for _ in range(args.runs)]
        floor = statistics.median(floors)
        print(f"floor: read every log + bytes.find: {floor:.0f} ms")
        print(
            f"ratios to the floor: warm search {statistics.median(warm) / floor:.2f}x, "
            f"word in no session {statistics.median(absent) / floor:.2f}x (goal <= 0.5x)"
        )


def scan_logs(logs: list[Path], needle: bytes) -> int:
    """The floor: each log read whole and searched once."""
    return sum(log.read_bytes().find(needle) >= 0 for log in logs)


if __name__ == "__main__":
    main()
