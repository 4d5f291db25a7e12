"""The real thing, in its own process on a real X server: ``chime --background`` with a tray host
(trayer), a session bus and a notification daemon (dunst). A conversation whose reminder fell due
while Chime was not running is caught up with no window shown, the daemon receives a notification
with the conversation's name, and SIGTERM quits cleanly."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.state import AppState, write_state
from app.system import system_clock
from core.host import LoopWaker, SessionHost
from core.llm.offline import OfflineAssistant
from core.session.store import SessionStore
from tests.desktop import desktop_services, read_text

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0


def overdue_session(folder: Path) -> tuple[str, str]:
    """A conversation whose 1-minute reminder was set two minutes ago; (id, title)."""
    start = system_clock() - timedelta(minutes=2)  # the process under test reads the real clock

    def clock() -> datetime:
        return start

    async def make() -> tuple[str, str]:
        store = SessionStore(folder, clock)
        session = await store.create()
        host = SessionHost(
            session, OfflineAssistant(clock), clock, lambda: "UTC", LoopWaker.factory(clock)
        )
        host.start()
        host.submit("remind me in 1 minute to stretch")
        await host.when_idle()
        title = session.title or ""
        await host.dispose()
        return session.id, title

    loop = asyncio.new_event_loop()  # not asyncio.run: it would unset the suite's qasync loop
    try:
        sid, title = loop.run_until_complete(make())
    finally:
        loop.close()
    write_state(folder, AppState(open=(sid,), current=sid))
    return sid, title


def visible_windows(env: dict[str, str]) -> list[str]:
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", "Chime"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.split()


@pytest.mark.slow  # a real Chime process on Xvfb with trayer and dunst: about 5-10 s
def test_a_background_start_catches_up_in_the_tray_and_notifies(tmp_path: Path) -> None:
    if subprocess.run(["which", "xdotool"], capture_output=True, check=False).returncode:
        pytest.skip("needs xdotool (Debian: xdotool)")
    data = tmp_path / "data"
    sid, title = overdue_session(data)
    with desktop_services(tmp_path, tray=True) as desktop:
        env = dict(desktop.env, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT), HOME=str(tmp_path))
        env.pop("CHIME_DATA_DIR", None)
        printed = tmp_path / "printed"
        with printed.open("wb") as sink:
            chime = subprocess.Popen(
                [sys.executable, "-m", "app", "--data-dir", str(data), "--background"],
                env=env,
                cwd=ROOT,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        try:
            notified = wait_for(
                lambda: [n for n in desktop.notifications() if n["summary"]], chime, printed
            )
            assert notified[0]["summary"] == title
            assert notified[0]["body"].startswith("Reminder: stretch")
            assert visible_windows(desktop.env) == []  # in the tray, no window
            log = (data / "sessions" / sid / "session.jsonl").read_text(encoding="utf-8")
            reminders = [
                line
                for line in log.splitlines()
                if '"plugin":"schedule"' in line and "user/message" in line
            ]
            assert len(reminders) == 1  # delivered once, as a turn of its conversation
            assert chime.poll() is None  # alive
        finally:
            chime.send_signal(signal.SIGTERM)
            chime.wait(WAIT_S)
        output = read_text(printed)
        assert chime.returncode == 0, output
        assert "Traceback" not in output
    state = json.loads((data / "state.json").read_text(encoding="utf-8"))
    assert state["openSessions"] == [sid]
    assert os.path.exists(data / "sessions" / sid / "session.jsonl")


def wait_for(probe: object, chime: subprocess.Popen[bytes], output: Path) -> list[dict[str, str]]:
    """What ``probe`` finds once it finds something; a failure that quotes what Chime printed if
    it exits first or nothing comes within ``WAIT_S``."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = probe()  # type: ignore[operator]
        if found:
            return found  # type: ignore[no-any-return]
        if chime.poll() is not None:
            pytest.fail(f"Chime exited ({chime.returncode}) first:\n{read_text(output)}")
        time.sleep(0.2)
    pytest.fail(f"nothing within {WAIT_S} s; Chime printed:\n{read_text(output)}")


@pytest.mark.slow  # two real Chime processes on Xvfb with trayer and dunst: about 10-20 s
def test_a_kill_in_the_tray_loses_nothing_and_admits_nothing_twice(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sid, _title = overdue_session(data)
    log_path = data / "sessions" / sid / "session.jsonl"
    trace = tmp_path / "trace"
    with desktop_services(tmp_path, tray=True) as desktop:
        env = dict(desktop.env, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT), HOME=str(tmp_path))
        env["CHIME_START_TRACE"] = str(trace)
        command = [sys.executable, "-m", "app", "--data-dir", str(data), "--background"]
        printed = tmp_path / "printed"
        with printed.open("wb") as sink:
            first = subprocess.Popen(command, env=env, cwd=ROOT, stdout=sink, stderr=sink)
        try:
            answered = lambda: [n for n in desktop.notifications() if "\n" in n["body"]]  # noqa: E731
            wait_for(answered, first, printed)
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait(WAIT_S)
        before = log_path.read_bytes()
        trace.unlink(missing_ok=True)
        with printed.open("wb") as sink:
            second = subprocess.Popen(command, env=env, cwd=ROOT, stdout=sink, stderr=sink)
        try:
            wait_for(
                lambda: ["ready"] if "engine_ready" in read_text(trace) else [], second, printed
            )
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait(WAIT_S)
        assert second.returncode == 0, read_text(printed)
    after = log_path.read_bytes()
    assert after.startswith(before)  # nothing lost: the killed run's lines are all still there
    lines = after.decode("utf-8").splitlines()
    admitted = [line for line in lines if '"plugin":"schedule"' in line and "user/message" in line]
    assert len(admitted) == 1  # the reminder's turn was admitted once, not again after the kill
    assert all(line.startswith("{") and line.endswith("}") for line in lines)
