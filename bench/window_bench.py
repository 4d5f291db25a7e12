"""A 10^6-event conversation in the real transcript: memory shown, Ctrl+Home, Ctrl+End, the bar.

Run: .venv/bin/python bench/window_bench.py [--events 1000000] [--data DIR]

Generates (or reuses, with ``--data``) a session of about 10,000 messages and one of ``--events``
events (``open_bench``'s generator). For each, a fresh process (offscreen Qt) opens it warm with
the real store, shows it in the real ``MainWindow`` (its tail, as the app does) and reports its
resident memory; for the big one it then times, each until the rows are laid out and painted:

- Ctrl+Home in the transcript until the first message is on screen (goal: within 100 ms);
- Ctrl+End until the newest message is on screen;
- the scroll bar set to the middle of the conversation until that part is on screen.

Then the big session is opened cold (no checkpoint) and shown, with ``--before DIR`` in another
source tree too (e.g. main, ``git archive main | tar -x -C DIR``): the time from the store's open
to its newest rows painted, its memory shown and its peak.

Goal (issue 23): the big session shown in <= 1.3x the memory of the 10,000-message one, and a
peak during the open <= 1.2x the steady figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory_bench import SMALL, build  # noqa: E402 -- after the path to the tree

PROBE = """
import asyncio, json, sys, time
from datetime import UTC, datetime
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from core.session.store import SessionStore
from ui.main_window import MainWindow

def resident():
    with open("/proc/self/status") as lines:
        found = {l.split(":")[0]: int(l.split()[1]) / 1024 for l in lines if l[:2] in ("Vm", "Rs")}
    return found["VmRSS"], found["VmHWM"]

async def opened(data, sid):
    session = await SessionStore(data, lambda: datetime.now(UTC)).open(sid)
    assert await session.verification()
    return session

data, sid, timed = Path(sys.argv[2]), sys.argv[3], sys.argv[4] == "timed"
app = QApplication([])
window = MainWindow(lambda: datetime.now(UTC), QIcon())
window.resize(1200, 800)
window.show()
app.processEvents()
started = time.perf_counter()
session = asyncio.run(opened(data, sid))
model, view = window.transcript_model, window.transcript
model.reset(session.entries, "UTC", conversation=session.conversation())
view.scroll_to_end()
app.processEvents()
view.viewport().repaint()
found = {"shown": resident(), "open_s": time.perf_counter() - started}

def on_screen(seq):
    row = model.row_of_message(seq)
    return row >= 0 and view.visualRect(model.index(row)).intersects(view.viewport().rect())

def timed_ms(act, seq):
    started = time.perf_counter()
    act()
    app.processEvents()
    view.viewport().repaint()
    took = (time.perf_counter() - started) * 1e3
    assert on_screen(seq), seq
    return took

if timed:
    newest = len(session.entries) - 2
    while not on_screen(newest):
        newest -= 1
    view.setFocus()
    home = lambda: QTest.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    end = lambda: QTest.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    middle = len(session.entries) // 2
    while type(session.entries[middle].event).__name__ != "UserMessage":
        middle += 1
    found["home_ms"] = timed_ms(home, 0)
    found["end_ms"] = timed_ms(end, newest)
    found["middle_ms"] = timed_ms(lambda: view.position.bar.setValue(middle), middle)
    found["after"] = resident()
print(json.dumps(found))
"""


def probe(
    data: Path, sid: str, timed: bool, *, tree: Path = ROOT, cold: bool = False
) -> dict[str, object]:
    if cold:
        for name in ("checkpoint.json", "offsets.bin"):
            (data / "sessions" / sid / name).unlink(missing_ok=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    command = [sys.executable, "-c", PROBE, str(tree), str(data), sid, "timed" if timed else "-"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if result.returncode:
        raise SystemExit(f"the probe of {sid} failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--before", type=Path, default=None)
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="chime-window-bench-", dir=ROOT))
    small, big = build(data, SMALL), build(data, args.events)
    little = probe(data, small, timed=False)
    large = probe(data, big, timed=True)
    small_rss, big_rss = little["shown"][0], large["shown"][0]  # type: ignore[index]
    print(
        f"shown, RSS: {small_rss:.0f} MB (10,000 messages), {big_rss:.0f} MB ({args.events:,}"
        f" events): {big_rss / small_rss:.2f}x (goal <= 1.3)"
    )
    print(f"peak while shown: {large['shown'][1]:.0f} MB")  # type: ignore[index]
    for name in ("home", "end", "middle"):
        print(f"{name}: {large[name + '_ms']:.0f} ms to the rows on screen")
    print(f"after the three moves: RSS {large['after'][0]:.0f} MB")  # type: ignore[index]
    trees = ([("before", args.before)] if args.before else []) + [("after", ROOT)]
    for name, tree in trees:  # a cold open (no checkpoint) shown, interleaved
        found = probe(data, big, timed=False, tree=tree, cold=True)
        shown = found["shown"]
        print(
            f"{name}: cold open shown in {found['open_s']:.2f} s (the store's open to the newest "
            f"rows painted), RSS {shown[0]:.0f} MB, peak {shown[1]:.0f} MB"  # type: ignore[index]
        )
    if args.data is None:
        print(f"(sessions kept in {data}: delete it, or pass it as --data next time)")


if __name__ == "__main__":
    main()
