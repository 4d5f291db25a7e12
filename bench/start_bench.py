"""Start benchmark: how soon a start shows the person's day, on a real X server.

    .venv/bin/python bench/start_bench.py [--sessions 200] [--runs 3]

Builds a data folder of ``--sessions`` conversations (each a few messages and a reminder, made by
the real engine), three of them open, and starts ``python -m app`` on it under Xvfb (started here;
openbox too when installed), ``CHIME_START_TRACE`` recording when the window is first painted and
when the engine has opened and listed the sessions, with what the window shows at each (sessions
listed, transcript rows). Each run is made twice, interleaved: with the derived
``start-view.json`` the last quit wrote, and with it deleted (as before it existed). Figure: the
time until the list and the tail are visible, as a ratio to the time of the first paint (medians).
Goal: <= 1.3 with the start view.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.start_view import START_VIEW  # noqa: E402 -- after the path is set
from app.state import AppState, write_state  # noqa: E402
from core.host import LoopWaker, SessionHost  # noqa: E402
from core.llm.offline import OfflineAssistant  # noqa: E402
from core.session.store import SessionStore  # noqa: E402
from tests.desktop import read_text, start_x_server  # noqa: E402

WAIT_S = 120.0


async def make_folder(folder: Path, sessions: int) -> list[str]:
    """``sessions`` conversations of three exchanges and a reminder for tomorrow each."""
    start = datetime(2026, 8, 5, 9, 0, tzinfo=UTC)
    ids = []
    for n in range(sessions):
        moment = start + timedelta(minutes=n)

        def clock(moment: datetime = moment) -> datetime:
            return moment

        store = SessionStore(folder, clock)
        session = await store.create()
        host = SessionHost(
            session, OfflineAssistant(clock), clock, lambda: "UTC", LoopWaker.factory(clock)
        )
        host.start()
        for text in (
            f"remind me tomorrow at 9 to do task {n}",
            "what reminders do I have",
            "thanks",
        ):
            host.submit(text)
            await host.when_idle()
        await host.dispose()
        ids.append(session.id)
    return ids


def one_start(folder: Path, env: dict[str, str], trace: Path) -> dict[str, tuple[float, int, int]]:
    """Start Chime, wait for the engine, quit it; the milestones (seconds since the launch, sessions
    listed, transcript rows)."""
    trace.unlink(missing_ok=True)
    launched = time.monotonic()
    chime = subprocess.Popen(
        [sys.executable, "-m", "app", "--data-dir", str(folder)],
        env=dict(env, CHIME_START_TRACE=str(trace), QT_QPA_PLATFORM="xcb"),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = launched + WAIT_S
    while time.monotonic() < deadline and "engine_ready" not in read_text(trace):
        time.sleep(0.05)
    chime.send_signal(signal.SIGTERM)
    chime.wait(WAIT_S)
    found = {}
    for line in read_text(trace).splitlines():
        name, at, sessions, rows = line.split()
        found[name] = (float(at) - launched, int(sessions), int(rows))
    return found


def visible_at(milestones: dict[str, tuple[float, int, int]]) -> float:
    """When the list and the tail were first both on screen."""
    for name in ("first_paint", "engine_ready"):
        at, sessions, rows = milestones[name]
        if sessions and rows:
            return at
    return milestones["engine_ready"][0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("Xvfb"):
        print("start bench: needs Xvfb (Debian: xvfb); nothing measured")
        return 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("CHIME_DATA_DIR", None)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "data"
        built = time.monotonic()
        ids = asyncio.run(make_folder(folder, args.sessions))
        write_state(folder, AppState(open=tuple(ids[-3:]), current=ids[-1]))
        print(f"{args.sessions} sessions made in {time.monotonic() - built:.1f} s")
        processes = start_x_server(env, screen="1280x800x24", window_manager=True)
        try:
            trace = Path(scratch) / "trace"
            one_start(folder, env, trace)  # writes start-view.json at its quit; warms the caches
            kept = (folder / START_VIEW).read_bytes()
            report = {"with": [], "without": []}
            for _ in range(args.runs):
                for case in ("with", "without"):
                    if case == "with":
                        (folder / START_VIEW).write_bytes(kept)
                    else:
                        (folder / START_VIEW).unlink(missing_ok=True)
                    milestones = one_start(folder, env, trace)
                    paint = milestones["first_paint"][0]
                    report[case].append((paint, visible_at(milestones), milestones))
        finally:
            for process in reversed(processes):
                process.terminate()
                process.wait(10)
    for case, runs in report.items():
        paint = statistics.median(r[0] for r in runs)
        visible = statistics.median(r[1] for r in runs)
        first = runs[-1][2]["first_paint"]
        print(
            f"{case} the start view: first paint {paint * 1000:.0f} ms (showing {first[1]} sessions,"
            f" {first[2]} rows), list and tail visible {visible * 1000:.0f} ms:"
            f" ratio {visible / paint:.2f}" + (" (goal <= 1.3)" if case == "with" else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
