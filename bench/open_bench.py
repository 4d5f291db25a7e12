"""Session open benchmark: time until the schedule fold is ready and the last 50 turns can be shown.

Run: .venv/bin/python bench/open_bench.py [--sizes 10000,100000,1000000] [--repeat 7]

Generates sessions of 10^4, 10^5 and 10^6 events (a realistic turn mix: user/message, turn/start,
context/time, assistant/message with a tool call, tool/result, assistant/message, turn/end; every
40th turn creates a reminder and every 40th after that deletes one) in a temporary data directory
on the same disk as the repo, then measures with the real store:

- cold: open without a checkpoint (every line parsed once; the close writes the checkpoint);
- warm, shown: open with the checkpoint written by a normal close (median of ``--repeat``) until
  the window can show it: ``SessionStore.open`` + ``schedule_fold()`` + ``tail_turns(50)``;
- warm, verified: the same open until ``await session.verification()`` (the checkpoint's digest
  matched: every byte it covers was hashed; the first barrier waits for this).

Requirement (session-log.md §8, the brief): warm open (shown) of 10^6 ≤ 2× that of 10^5. The
verified ratio is reported too: it grows with the file (hashing is linear), its floor is the
plain xxh3 column.
"""

from __future__ import annotations

import argparse
import asyncio
import mmap
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import xxhash

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    Event,
    ModelRef,
    ScheduleChanged,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.jsonl_store import CHECKPOINT_NAME, OFFSETS_NAME, publish_session
from core.session.lines import SessionHeader, encode_entry
from core.session.store import SessionStore

ROOT = Path(__file__).resolve().parent.parent
AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("openai-compatible", "qwen2.5-7b-instruct")


def clock() -> datetime:
    return datetime.now(UTC)


def turn_items(turn: int, seq: int) -> list[Event]:
    call = ToolCall(f"call_{turn}", "schedule_list", "{}")
    text = f"Question {turn}: what is on my list for today, and can you remind me later? " * 2
    answer = "Nothing is scheduled yet. " * 6
    return [
        UserMessage(f"u{turn}", text, UserSource("Europe/Berlin")),
        TurnStart(turn, seq),
        ContextTime("Europe/Berlin", "Local time: Wednesday 14:00 CEST."),
        AssistantMessage(f"a{turn}", "", (call,), MODEL, "tool_calls"),
        ToolResult(f"call_{turn}", "schedule_list", "[]", is_error=False),
        AssistantMessage(f"b{turn}", answer, (), MODEL, "stop"),
        TurnEnd(turn, "completed"),
    ]


def schedule_item(turn: int) -> Event | None:
    if turn % 40 == 0:
        record = {
            "id": f"schedule-{turn // 40}",
            "kind": "after",
            "prompt": "stand up and stretch",
            "afterSeconds": 3600,
            "scheduledAt": "2026-08-05T13:00:00.000Z",
        }
        return ScheduleChanged({"version": 1, "operation": "create", "schedule": record})
    if turn % 40 == 20 and turn > 40:
        return ScheduleChanged(
            {"version": 1, "operation": "delete", "id": f"schedule-{turn // 40}"}
        )
    return None


def generate(count: int) -> Iterator[bytes]:
    """The lines of a log of ``count`` events, in chunks of about 10,000."""
    seq = turn = 0
    chunk: list[bytes] = []
    while seq < count:
        turn += 1
        items = turn_items(turn, seq)
        extra = schedule_item(turn)
        if extra is not None:
            items.append(extra)
        for event in items[: count - seq]:
            chunk.append(encode_entry(Entry(seq, AT, event)))
            seq += 1
        if len(chunk) > 10_000:
            yield b"".join(chunk)
            chunk = []
    yield b"".join(chunk)


async def open_once(store: SessionStore, sid: str) -> tuple[float, float]:
    """Seconds until the session can be shown, and until it is verified."""
    started = time.perf_counter()
    session = await store.open(sid)
    session.schedule_fold()
    shown = session.tail_turns(50)
    shown_after = time.perf_counter() - started
    assert await session.verification()
    verified_after = time.perf_counter() - started
    assert len(shown) >= 350
    await session.close()
    return shown_after, verified_after


def digest_floor(path: Path, repeat: int) -> float:
    """The median time of one plain single-thread xxh3-128 over the mapped file: the floor of a
    warm open, which must hash every byte the checkpoint covers (session-log.md §8)."""
    times = []
    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
        for _ in range(repeat):
            started = time.perf_counter()
            xxhash.xxh3_128_hexdigest(view)
            times.append(time.perf_counter() - started)
    return statistics.median(times)


async def measure(
    data_dir: Path, count: int, repeat: int
) -> tuple[float, tuple[float, float], int, float]:
    sid = f"bench{count}"
    header = SessionHeader(sid, AT)
    publish_session(data_dir / "sessions" / sid, header.line(), iter(generate(count)))
    size = (data_dir / "sessions" / sid / "session.jsonl").stat().st_size
    store = SessionStore(data_dir, clock)
    cold, _ = await open_once(store, sid)
    assert (data_dir / "sessions" / sid / CHECKPOINT_NAME).exists()
    assert (data_dir / "sessions" / sid / OFFSETS_NAME).exists()
    runs = [await open_once(store, sid) for _ in range(repeat)]
    warm = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
    floor = digest_floor(data_dir / "sessions" / sid / "session.jsonl", repeat)
    return cold, warm, size, floor


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    data_dir = Path(tempfile.mkdtemp(prefix="chime-open-bench-", dir=ROOT))
    try:
        results = {}
        print(
            f"{'events':>9} {'MB':>7} {'cold open ms':>13} {'warm shown ms':>14}"
            f" {'warm verified ms':>17} {'xxh3 of file ms':>16}"
        )
        for count in sizes:
            cold, warm, size, floor = await measure(data_dir, count, args.repeat)
            results[count] = warm
            print(
                f"{count:>9} {size / 1e6:>7.1f} {cold * 1e3:>13.1f} {warm[0] * 1e3:>14.2f}"
                f" {warm[1] * 1e3:>17.2f} {floor * 1e3:>16.2f}"
            )
        if 100_000 in results and 1_000_000 in results:
            big, small = results[1_000_000], results[100_000]
            ratio = big[0] / small[0]
            verdict = "OK" if ratio <= 2 else "OVER"
            print(f"warm shown    10^6 / 10^5 = {ratio:.2f} (requirement <= 2: {verdict})")
            print(f"warm verified 10^6 / 10^5 = {big[1] / small[1]:.2f} (linear in bytes hashed)")
    finally:
        shutil.rmtree(data_dir)


if __name__ == "__main__":
    asyncio.run(main())
