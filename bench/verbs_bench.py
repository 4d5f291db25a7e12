"""The everyday verbs' costs, each against a same-run baseline (ratios: these machines are noisy).

Run: .venv/bin/python bench/verbs_bench.py [--messages 10000] [--versions 200]

Builds an in-memory session of ``--messages`` exchanges (user message, turn, a tool call and its
result, the answer), with ``--versions`` edits spread over it, then measures:

- find: a ``FindJob`` over the whole shown path, in the 2000-entry slices the window runs between
  paints (total and the slowest slice), against a plain loop reading the same entries' texts;
- history: ``fold_history`` for the last input (the path walk, hidden and failed filtering)
  against a plain backward loop over the same 4000-entry window;
- folds: ``SessionFolds`` fed the whole log with versions, against the same log without them
  (what the conversation tree costs the scan of every open);
- retry far back: ``fold_history`` for a retry of the first input, whose turn failed, at the end
  of the log (the walk on past the window to that turn, so its calls are not made again), against
  a plain backward loop over the same entries.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.agent.history import MAX_EVENTS, fold_history
from core.events import (
    AssistantMessage,
    Entry,
    Event,
    ModelRef,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.find import FindJob
from core.session.folds import SessionFolds

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("bench", "m")


def build(messages: int, versions: int) -> list[Entry]:
    events: list[Event] = []
    every = max(1, messages // versions) if versions else 0
    last_input = -1
    for n in range(messages):
        revise = every and n % every == every - 1 and last_input >= 0
        seq = len(events)
        text = f"question {n} about the oven timer and the garden"
        if revise:
            events.append(UserMessage(f"u{n}", text, UserSource(None), None, last_input))
        else:
            events.append(UserMessage(f"u{n}", text, UserSource(None)))
        last_input = seq
        events += [
            TurnStart(n + 1, seq),
            AssistantMessage(
                f"a{n}", "", (ToolCall(f"c{n}", "schedule_list", "{}"),), MODEL, "tool_calls"
            ),
            ToolResult(f"c{n}", "schedule_list", '{"ok":true,"value":[]}', False),
            AssistantMessage(f"b{n}", f"answer {n}: " + "words " * 30, (), MODEL, "stop"),
            TurnEnd(n + 1, "completed"),
        ]
    return [Entry(seq, AT, event) for seq, event in enumerate(events)]


def retry_of_the_first(entries: list[Entry]) -> list[Entry]:
    """``entries`` with the first exchange's turn failed and a retry of it starting at the end."""
    events = [entry.event for entry in entries]
    events[5] = TurnEnd(1, "failed")
    events.append(TurnStart(max(e.turn for e in events if isinstance(e, TurnStart)) + 1, 0))
    return [Entry(seq, AT, event) for seq, event in enumerate(events)]


def best(runs: int, job: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def fold(entries: list[Entry]) -> SessionFolds:
    folds = SessionFolds()
    for entry in entries:
        folds.feed(entry)
    return folds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--versions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    entries = build(args.messages, args.versions)
    plain = build(args.messages, 0)
    folds = fold(entries)
    conversation = folds.snapshot()
    print(f"{args.messages} exchanges, {args.versions} versions, {len(entries)} events")

    def texts() -> None:
        for entry in entries:
            if isinstance(entry.event, UserMessage | AssistantMessage):
                entry.event.text.lower().count("oven")

    slices: list[float] = []

    def find() -> None:
        slices.clear()
        job = FindJob(entries, conversation, "oven")
        while True:
            start = time.perf_counter()
            done = job.advance(2000)
            slices.append(time.perf_counter() - start)
            if done:
                break

    base = best(args.runs, texts)
    found = best(args.runs, find)  # the slices are the last run's
    print(
        f"find: {found * 1e3:.1f} ms whole path, {len(slices)} slices, slowest {max(slices) * 1e3:.2f} ms "
        f"(plain text loop {base * 1e3:.1f} ms, ratio {found / base:.2f})"
    )

    last = max(e.seq for e in entries if isinstance(e.event, UserMessage))

    def window() -> None:
        for index in range(len(entries) - 1, max(0, len(entries) - MAX_EVENTS) - 1, -1):
            _ = entries[index].event

    base = best(args.runs * 4, window)
    history = best(args.runs * 4, lambda: fold_history(entries, conversation, last))
    print(
        f"history: {history * 1e3:.2f} ms (plain window loop {base * 1e3:.2f} ms, "
        f"ratio {history / base:.2f})"
    )

    retried = retry_of_the_first(plain)
    folded = fold(retried).snapshot()
    base = best(args.runs, lambda: [entry.event for entry in reversed(retried)])
    far = best(args.runs, lambda: fold_history(retried, folded, 0))
    print(
        f"retry far back: {far * 1e3:.1f} ms over {len(retried)} events (plain backward loop "
        f"{base * 1e3:.1f} ms, ratio {far / base:.2f})"
    )

    with_versions = best(args.runs, lambda: fold(entries))
    without = best(args.runs, lambda: fold(plain))
    print(
        f"folds: {with_versions * 1e3:.1f} ms with versions, {without * 1e3:.1f} ms without "
        f"(ratio {with_versions / without:.2f})"
    )


if __name__ == "__main__":
    main()
