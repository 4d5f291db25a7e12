"""SIGKILL campaign of the real window: Chime's own process on a real X server, killed mid-work.

    .venv/bin/python scripts/window_kills.py [--rounds 30] [--seed 1]

Starts Xvfb (and openbox when installed) on a display it picks, then repeats: start
``python -m app --data-dir DIR`` (the real window, the xcb platform), wait until its engine runs
(``CHIME_START_TRACE``), type a message into the window with xdotool (a reminder due in a minute,
a list, a delete, a chat line), press Enter, wait a random 0-2.5 s and SIGKILL the process. After
every kill each session's log is judged by the crash matrix's independent checks
(``tests/survival/crash_checks.py``: its own line scanner, not core.session's): the bytes
committed before are still the log's prefix, no corruption before the tail, every group a
reminder with its dispatches, no reminder dispatched twice, no request creating two reminders,
and the schedule fold succeeds. A last start quits with SIGTERM and must exit 0. Prints the
figures and exits 1 on any violation. Not part of the test suite (it takes minutes).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.desktop import read_text, start_x_server  # noqa: E402
from tests.survival.crash_checks import (  # noqa: E402 -- after the path is set
    admission_violations,
    fold_violation,
    group_violations,
    request_violations,
    scan_log,
)

MESSAGES = (
    "remind me in 1 minute to stretch",
    "remind me in 2 minutes to drink water",
    "every 30 minutes remind me to look away from the screen",
    "what reminders do I have",
    "delete the water reminder",
    "hello there",
)
WAIT_S = 60.0


def run_chime(folder: Path, env: dict[str, str], trace: Path) -> subprocess.Popen[bytes]:
    trace.unlink(missing_ok=True)
    chime = subprocess.Popen(
        [sys.executable, "-m", "app", "--data-dir", str(folder)],
        env=dict(env, CHIME_START_TRACE=str(trace), QT_QPA_PLATFORM="xcb"),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline and "engine_ready" not in read_text(trace):
        if chime.poll() is not None:
            raise RuntimeError(f"Chime exited with {chime.returncode} before its engine ran")
        time.sleep(0.05)
    return chime


def type_into(env: dict[str, str], text: str) -> None:
    subprocess.run(["xdotool", "type", "--delay", "8", text], env=env, check=False, timeout=30)
    subprocess.run(["xdotool", "key", "Return"], env=env, check=False, timeout=10)


def judge(folder: Path, committed: dict[Path, bytes]) -> list[str]:
    """The crash matrix's checks on every session log; ``committed`` is updated in place."""
    found: list[str] = []
    for log in sorted(folder.glob("sessions/*/session.jsonl")):
        raw = log.read_bytes()
        before = committed.get(log, b"")
        if not raw.startswith(before):
            found.append(f"{log.parent.name}: committed bytes were rewritten")
        scan = scan_log(raw)
        if scan.corrupt:
            found.append(f"{log.parent.name}: {scan.corrupt}")
        envelopes = scan.envelopes
        found += [f"{log.parent.name}: {v}" for v in group_violations(envelopes)]
        found += [f"{log.parent.name}: {v}" for v in admission_violations(envelopes)]
        found += [f"{log.parent.name}: {v}" for v in request_violations(envelopes)]
        failed = fold_violation(envelopes, 0)
        if failed:
            found.append(f"{log.parent.name}: {failed}")
        committed[log] = raw[: scan.committed]
    return found


def campaign(rounds: int, seed: int) -> int:
    randomly = random.Random(seed)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("CHIME_DATA_DIR", None)
    violations: list[str] = []
    events = 0
    with tempfile.TemporaryDirectory() as scratch:
        folder, trace = Path(scratch) / "data", Path(scratch) / "trace"
        processes = start_x_server(env, screen="1280x800x24", window_manager=True)
        committed: dict[Path, bytes] = {}
        try:
            for number in range(rounds):
                chime = run_chime(folder, env, trace)
                type_into(env, randomly.choice(MESSAGES))
                time.sleep(randomly.uniform(0.0, 2.5))
                chime.send_signal(signal.SIGKILL)
                chime.wait(WAIT_S)
                found = judge(folder, committed)
                violations += [f"round {number + 1}: {v}" for v in found]
            chime = run_chime(folder, env, trace)
            chime.send_signal(signal.SIGTERM)
            if chime.wait(WAIT_S) != 0:
                violations.append(f"the last start quit with {chime.returncode}")
            violations += [f"after the last start: {v}" for v in judge(folder, committed)]
            events = sum(raw.count(b"\n") - 1 for raw in committed.values())
        finally:
            for process in reversed(processes):
                process.terminate()
                process.wait(10)
    print(f"{rounds} SIGKILLs of the real window, {events} committed events checked")
    print(f"{len(violations)} violations")
    for violation in violations:
        print("  " + violation)
    return 1 if violations else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    missing = [p for p in ("Xvfb", "xdotool") if shutil.which(p) is None]
    if missing:
        print(f"window kills: needs {', '.join(missing)} (Debian: xvfb, xdotool); nothing run")
        return 0
    return campaign(args.rounds, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
