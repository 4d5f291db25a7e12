"""Long hostile-endpoint campaign: one real session, many rounds against a hostile 127.0.0.1 server.

Each round the endpoint misbehaves in a randomly chosen way (the survival suite's broken and odd
streams, random garbage lines, mutated chunks with fields of the wrong type, floods cut at a small
answer bound, huge answers, stray tool-call batches with bad JSON, unknown names, shared ids, and
error bodies echoing the API key), the agent answers through ``SessionHost`` with the real
``OpenAICompatProvider``, and the round is judged: the turn ends completed or failed with a
readable ``{kind, message}``; a failed input is answered by ``retry()`` once the endpoint behaves;
every tool call gets exactly one result with a distinct id; no 8-character piece of the key shows
up in the session. At the end the session file is reopened from disk and scanned whole.

    .venv/bin/python scripts/hostile_endpoint.py [--rounds N] [--seconds S] [--seed K]

Prints the rounds per kind and outcome and every violation (exit status 1 when any).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import wire as v  # noqa: E402  # after the path setup above
from tests.core.llm.loopback import Sse, chunk  # noqa: E402  # after the path setup above
from tests.survival import hostile_kit as kit  # noqa: E402  # after the path setup above
from tests.survival.hostile_server import (  # noqa: E402  # after the path setup above
    EchoHeaders,
    Flood,
    HostileReply,
    HostileServer,
    Raw,
)
from tests.survival.test_hostile_streams import BROKEN, TOLERATED  # noqa: E402  # after the path setup above

KEY = "sk-chime-LONGRUN-9b2e51d7-NeverShown-Qx44"
PIECES = {KEY[i : i + 8] for i in range(len(KEY) - 7)}
BOUND = 2_000
WEIRD: list[Any] = [None, 0, -1, 1.5, "", "x", [], {}, [None], {"a": 1}, True, "\u2028", "\ud800"]


def garbage_line(rng: random.Random) -> str:
    alphabet = '{}[]":,\\ \n\r\t\u2028\u0085\ufeffaz09😀'
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))


def mutated_chunk(rng: random.Random) -> dict[str, Any]:
    """A valid chunk with one field, at any depth, replaced by a value of a random type."""
    value = chunk("hi", finish=rng.choice([None, "stop"]))
    paths = [
        ("model",),
        ("choices",),
        ("choices", 0),
        ("choices", 0, "delta"),
        ("choices", 0, "index"),
    ]
    paths += [("choices", 0, "finish_reason"), ("choices", 0, "delta", "content"), ("usage",)]
    path = rng.choice(paths)
    target: Any = value
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = rng.choice(WEIRD)
    return value


def tool_batch(rng: random.Random) -> Sse:
    names = ["schedule_create", "schedule_list", "schedule_delete", "nope", ""]
    texts = [
        "{}",
        "{bad",
        "[1]",
        "null",
        '{"prompt": "p", "after_seconds": 3600}',
        '"s"',
        "\\ud800",
    ]
    calls = []
    for index in range(rng.randint(1, 12)):
        call_id = rng.choice(["dup", f"c{index}", ""])
        function = {"name": rng.choice(names), "arguments": rng.choice(texts)}
        calls.append({"index": index, "id": call_id, "type": "function", "function": function})
    return Sse([chunk(tool_calls=calls), chunk(finish="tool_calls")])


def huge(rng: random.Random) -> Sse:
    pieces = rng.randint(1, 8)
    return Sse([chunk("y" * 999 + "\u2029") for _ in range(pieces)] + [chunk(finish="stop")])


MAKERS: dict[str, Callable[[random.Random], HostileReply]] = {
    "broken": lambda rng: BROKEN[rng.choice(sorted(BROKEN))],
    "tolerated": lambda rng: TOLERATED[rng.choice(sorted(TOLERATED))],
    "garbage": lambda rng: Sse([garbage_line(rng) for _ in range(rng.randint(1, 4))]),
    "raw-bytes": lambda rng: Raw(bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))),
    "mutated": lambda rng: Sse([mutated_chunk(rng) for _ in range(rng.randint(1, 3))]),
    "flood": lambda rng: Flood(rng.choice(["text", "arguments", "empty", "line", "event"]), "ab"),
    "huge": huge,
    "tools": tool_batch,
    "echo-key": lambda rng: EchoHeaders(
        rng.choice([400, 401, 403, 404, 500]), "p" * rng.randint(0, 90)
    ),
}


class Campaign:
    def __init__(self, rig: kit.Rig, server: HostileServer) -> None:
        self.rig = rig
        self.server = server
        self.tally: Counter[str] = Counter()
        self.violations: list[str] = []

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.violations.append(what)

    async def round(self, number: int, kind: str, reply: HostileReply) -> None:
        before = len(self.rig.events())
        self.server.hostile += [reply, kit.GOOD] if kind == "tools" else [reply]
        await self.rig.ask(f"round {number}")
        events = self.rig.events()
        ends = [e["data"] for e in events[before:] if e["type"] == v.TURN_END]
        self.check(len(ends) == 1, f"round {number} ({kind}): {len(ends)} turn ends")
        if not ends:
            return
        end = ends[-1]
        self.tally[f"{kind}:{end['status']}"] += 1
        if end["status"] == "failed":
            self.judge_failure(number, kind, end)
            self.server.hostile.append(kit.GOOD)
            await self.rig.retry()
            after = [e["data"] for e in self.rig.events()[before:] if e["type"] == v.TURN_END]
            self.check(after[-1]["status"] == "completed", f"round {number}: retry {after[-1]}")
        else:
            self.check(end["status"] == "completed", f"round {number} ({kind}): {end}")
        self.judge_tools(number, self.rig.events()[before:])

    def judge_failure(self, number: int, kind: str, end: dict[str, Any]) -> None:
        try:
            kit.assert_readable_failure(end)
        except AssertionError as error:
            self.violations.append(f"round {number} ({kind}): unreadable failure {error}")

    def judge_tools(self, number: int, events: list[dict[str, Any]]) -> None:
        calls = [c["id"] for d in kit.of_type(events, v.ASSISTANT_MESSAGE) for c in d["toolCalls"]]
        results = [d["callId"] for d in kit.of_type(events, v.TOOL_RESULT)]
        self.check(results == calls, f"round {number}: results {results} for calls {calls}")
        self.check(len(set(calls)) == len(calls), f"round {number}: repeated call ids {calls}")


async def campaign(rounds: int, seconds: float, seed: int, data_dir: Path) -> Campaign:
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    server = HostileServer([])
    async with server:
        rig = await kit.open_rig(server, data_dir, api_key=KEY, max_answer_chars=BOUND)
        run = Campaign(rig, server)
        try:
            for number in range(rounds):
                if time.monotonic() > deadline:
                    break
                kind = rng.choice(sorted(MAKERS))
                await run.round(number, kind, MAKERS[kind](rng))
        finally:
            await kit.close_rig(rig)
        events = kit.read_log(data_dir, rig.session.id)
        text = json.dumps(events, ensure_ascii=False)
        run.check(not any(p in text for p in PIECES), "the key shows up in the session file")
        reopened = await rig.store.open(rig.session.id, read_only=True)
        run.check(len(reopened.events) == len(events), "the reopened session lost events")
        await reopened.close()
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        run = asyncio.run(campaign(args.rounds, args.seconds, args.seed, Path(folder)))
    total = sum(run.tally.values())
    print(f"{total} rounds in {time.monotonic() - started:.1f} s (seed {args.seed})")
    for key, count in sorted(run.tally.items()):
        print(f"  {key:<28} {count}")
    print(f"{len(run.violations)} violations")
    for violation in run.violations[:50]:
        print("  " + violation)
    return 1 if run.violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
