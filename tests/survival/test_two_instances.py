"""Two Chime instances on one data folder (session-log.md §5): a session is live in at most one.

The slow test starts a REAL app process on a folder with one session, waits until that process
holds the session's lock, then opens the same folder in-process (tests/app/harness.py): the second
instance shows the session read-only with the "open elsewhere" banner, runs no agent or owner and
appends nothing. SIGTERM then makes the first process flush and exit 0, and the log scans clean and
opens live in a fresh store. The fast tests race two in-process instances for one session.

Readiness is observed, not signalled: the first process is ready when the session's lock is held
(``/proc/locks`` lists it, then a non-blocking ``flock`` from here fails with EWOULDBLOCK). Waiting
for another process is the one place these tests poll, with short sleeps and a bound.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from core.session.scan import scan
from core.session.store import SessionStore
from tests import wire as v
from tests.app.harness import Chime
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parent.parent.parent
READY_S = 20.0
EXIT_S = 15.0
ELSEWHERE = "open in another window or process"


def session_files(data_dir: Path, session_id: str) -> tuple[Path, Path]:
    folder = data_dir / "sessions" / session_id
    return folder / "session.jsonl", folder / "lock"


def make_session(chime: Chime) -> str:
    """One closed session holding one answered turn (nothing pending: nobody needs to append)."""

    async def build() -> str:
        session = await chime.store.create()
        source = {"kind": "user", "timeZone": None}
        session.append(v.USER_MESSAGE, v.user_message("u1", "hello from before", source))
        session.append(v.TURN_START, v.turn_start(1, 0))
        model = {"provider": "test", "name": "t"}
        session.append(v.ASSISTANT_MESSAGE, v.assistant_message("a1", "hi", [], model, "stop"))
        session.append(v.TURN_END, v.turn_end(1, "completed"))
        await session.close()
        return session.id

    result: str = chime.run(build())
    return result


def listed_in_proc_locks(path: Path) -> bool:
    """True when /proc/locks lists a lock on ``path``'s inode (looking takes no lock)."""
    try:
        text = Path("/proc/locks").read_text()
        inode = os.stat(path).st_ino
    except OSError:
        return True  # no /proc/locks here: fall back to the flock probe alone
    wanted = f":{inode}"
    return any(
        token.count(":") == 2 and token.endswith(wanted) for token in text.split()
    )  # tokens like 00:2f:123456 (major:minor:inode), wherever a waiter's "->" puts them


def held_elsewhere(path: Path) -> bool:
    """A non-blocking flock from here: EWOULDBLOCK means another process holds the lock."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return True
        raise
    finally:
        os.close(fd)  # also drops a lock we just took
    return False


def wait_until_locked(process: subprocess.Popen[bytes], lock: Path) -> None:
    """Bounded wait for the first instance to hold ``lock`` (another process: short sleeps)."""
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline:
        assert process.poll() is None, "the first instance exited early"
        if listed_in_proc_locks(lock) and held_elsewhere(lock):
            return
        time.sleep(0.05)
    pytest.fail(f"the first instance did not take {lock} within {READY_S} s")


def start_real_app(data_dir: Path, session_id: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    env.pop("CHIME_DATA_DIR", None)
    return subprocess.Popen(
        [sys.executable, "-m", "app", "--data-dir", str(data_dir), "--session", session_id],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def assert_scans_clean(log: Path) -> None:
    data = log.read_bytes()
    result = scan(data, start=data.find(b"\n") + 1, first_seq=0)
    assert result.corruption is None
    assert not result.torn
    assert result.committed == len(data)


@pytest.mark.slow
def test_a_session_live_in_a_real_process_is_read_only_here_and_survives_its_sigterm(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> None:
    data_dir = tmp_path / "data"
    sid = make_session(Chime(qtbot, loop, data_dir, clock))
    log, lock = session_files(data_dir, sid)
    size = log.stat().st_size
    process = start_real_app(data_dir, sid, tmp_path)
    try:
        wait_until_locked(process, lock)
        second = Chime(qtbot, loop, data_dir, clock)
        second.run(second.controller.start([sid], sid))
        second.window.show()
        opened = second.controller.current_session()
        assert opened is not None
        assert opened.session.read_only
        assert (opened.host, opened.agent, opened.waker) == (None, None, None)  # nothing runs
        assert ELSEWHERE in second.window.banner.label.text()
        assert second.window.banner.isVisible()
        assert second.window.status.state_label.text() == "Session: read-only: open elsewhere"
        assert not second.window.composer.editor.isEnabled()
        second.run(second.controller.submit("written from the second instance?"))
        assert len(opened.session.events) == 4
        second.quit()
        assert log.stat().st_size == size  # nothing appended by the second instance
        assert held_elsewhere(lock)  # quitting the viewer left the owner's lock alone
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=EXIT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors.decode(errors="replace")
    assert b"Traceback" not in errors
    assert not held_elsewhere(lock)  # the lock died with its process
    assert_scans_clean(log)
    fresh = SessionStore(data_dir, clock)

    async def reopen() -> tuple[bool, int]:
        session = await fresh.open(sid)
        await session.verification()
        found = (session.read_only, len(session.events))
        await session.close()
        return found

    assert loop.run_until_complete(reopen()) == (False, 4)


def test_two_instances_racing_to_open_one_session_never_both_own_it(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> None:
    first = Chime(qtbot, loop, tmp_path, clock)
    second = Chime(qtbot, loop, tmp_path, clock)  # its own store: its own lock descriptor
    sid = make_session(first)

    async def race() -> list[Any]:
        return list(
            await asyncio.gather(
                first.controller.open_session(sid), second.controller.open_session(sid)
            )
        )

    opened = first.run(race())
    assert sorted(o.live for o in opened) == [False, True]
    viewer = next(o for o in opened if not o.live)
    assert viewer.session.read_only
    assert ELSEWHERE in (viewer.session.read_only_reason or "")
    first.quit()
    second.quit()


def test_a_session_created_by_one_instance_is_read_only_in_the_other(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> None:
    first = Chime(qtbot, loop, tmp_path, clock)
    second = Chime(qtbot, loop, tmp_path, clock)
    first.run(first.controller.start([], None))  # creates and owns a new session
    second.run(second.controller.start([], None))  # creates and owns another one
    mine, theirs = first.controller.current, second.controller.current
    assert mine is not None
    assert theirs is not None
    assert mine != theirs
    crossed = [
        first.run(first.controller.open_session(theirs)),
        second.run(second.controller.open_session(mine)),
    ]
    assert [o is not None and o.live for o in crossed] == [False, False]
    assert [o is not None and o.session.read_only for o in crossed] == [True, True]
    assert first.controller.open[mine].live
    assert second.controller.open[theirs].live
    first.quit()
    second.quit()


def shown_in_two(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> tuple[Chime, Chime, str]:
    """One session opened by a first instance (live), then by a second one (read-only)."""
    first = Chime(qtbot, loop, tmp_path, clock)
    second = Chime(qtbot, loop, tmp_path, clock)
    sid = make_session(first)
    first.run(first.controller.start([sid], sid))
    second.run(second.controller.start([sid], sid))
    return first, second, sid


def test_a_session_shown_read_only_is_taken_over_live_once_the_other_instance_lets_it_go(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> None:
    first, second, sid = shown_in_two(qtbot, loop, tmp_path, clock)
    assert second.controller.open[sid].session.read_only
    assert second.run(second.controller.opening.take_over_released()) == []  # still held: stays so
    first.run(first.controller.submit("written while the other looked"))
    first.until(first.idle)
    first.quit()  # the first instance quits: its lock goes

    assert second.run(second.controller.opening.take_over_released()) == [sid]
    opened = second.controller.open[sid]
    assert opened.live
    assert not opened.session.read_only
    assert not second.window.banner.isVisible()
    assert second.window.status.state_label.text() == "Session: live"
    assert "written while the other looked" in second.transcript_texts()
    second.run(second.controller.submit("and now from here"))
    second.until(second.idle)
    assert "and now from here" in second.transcript_texts()
    second.quit()


def test_the_read_only_banner_says_the_session_opens_here_once_the_other_one_closes_it(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> None:
    first, second, _ = shown_in_two(qtbot, loop, tmp_path, clock)
    banner = second.window.banner.label.text()
    assert ELSEWHERE in banner
    assert "opens here live by itself once" in banner
    first.quit()
    second.quit()


def test_a_released_session_that_no_longer_opens_is_replaced_on_screen_and_said(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock
) -> None:
    first, second, sid = shown_in_two(qtbot, loop, tmp_path, clock)
    first.quit()
    log, _ = session_files(tmp_path, sid)
    log.write_bytes(b"[" * 10_000 + b"\n")  # broken while nobody had it open
    assert second.run(second.controller.opening.take_over_released()) == []
    assert sid not in second.controller.open
    assert second.controller.current not in (None, sid)  # a new session to type into
    message = second.window.message_bar.text()
    assert message.startswith("Could not open the session: the session header cannot be read")
    second.quit()
