"""Import benchmark: a ChatGPT export of about 100 MB read and written as sessions.

Run: .venv/bin/python bench/import_bench.py [--megabytes 100]

Builds a ``conversations.json`` of the given size (conversations of 40 messages with a regenerated
answer and an edited question each, about 60 KB apiece) in a temporary folder on the repo's disk,
then runs ``app.import_run.run_import`` on it and reports the wall time, the conversations per
second and the process's peak resident memory (before and after) against the file's size: the import reads in
1 MiB pieces and holds one conversation at a time, so the peak stays a small multiple of the
largest conversation, whatever the file's size.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.import_run import run_import
from tests.core.importing.chatgpt_export import Conversation


def conversation(n: int) -> dict[str, object]:
    c = Conversation(f"Conversation {n}", 1_600_000_000.0 + n * 3600)
    parent = "sys"
    for turn in range(20):
        user = c.say(f"u{turn}", parent, "user", f"Question {turn} of {n}: " + "words " * 100)
        parent = c.say(f"a{turn}", user, "assistant", "An answer. " * 200)
    c.say("a-regen", "u19", "assistant", "Another answer.")
    c.say("u-edit", "a18", "user", "An edited question")
    return c.to_json()


def build(path: Path, megabytes: int) -> int:
    count = 0
    with path.open("wb") as out:
        out.write(b"[")
        while out.tell() < megabytes * 1_000_000:
            out.write((b"," if count else b"") + json.dumps(conversation(count)).encode())
            count += 1
        out.write(b"]")
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=100)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(dir=Path(__file__).resolve().parent))
    try:
        source = folder / "conversations.json"
        count = build(source, args.megabytes)
        size = source.stat().st_size
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        started = time.perf_counter()
        result = run_import(
            source, folder / "data", datetime.now(UTC), lambda *_: None, threading.Event()
        )
        took = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        assert len(result.session_ids) == count
        print(f"file: {size / 1e6:.1f} MB, {count} conversations")
        print(f"import: {took:.1f} s, {count / took:.0f} conversations/s")
        print(f"peak resident memory: {before / 1e6:.0f} MB before, {peak / 1e6:.0f} MB after")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
