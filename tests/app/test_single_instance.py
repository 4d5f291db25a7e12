"""The single-instance door belongs to its user (issue 24, point 4): another user's socket at the
old predictable name, a private directory made or opened up by someone else, a listener of
another user at the door's own path, and a start that sends without end cannot keep Chime from
starting, learn the session asked for, or fill its memory."""

from __future__ import annotations

import hashlib
import os
import pwd
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtNetwork import QLocalSocket

from app import single_instance
from app.single_instance import (
    MAX_REQUEST,
    InstanceGuard,
    claim,
    door_name,
    hand_over,
    is_private,
    private_dir,
    socket_path,
)

AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="playing another user needs root")

OTHER_USER = """
import os, socket, sys
path, mode = sys.argv[1], sys.argv[2]
if mode == "dir":
    os.mkdir(os.path.dirname(path), 0o777)
    os.chmod(os.path.dirname(path), 0o777)
listener = socket.socket(socket.AF_UNIX)
listener.bind(path)
listener.listen(4)
print("listening", flush=True)
while True:
    client, _ = listener.accept()
    client.settimeout(2)
    try:
        print("heard " + client.recv(4096).decode(errors="replace").strip(), flush=True)
        client.sendall(b"ok\\n")
    except OSError:
        pass
    client.close()
"""


@pytest.fixture
def shared_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary directory every user may write in (as /tmp is), used as Chime's temp dir,
    so nothing here touches the real /tmp/chime-<uid> that other runs use."""
    folder = Path(tempfile.mkdtemp(prefix="chime-door-", dir="/tmp"))
    folder.chmod(0o1777)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def as_nobody(path: Path, mode: str) -> subprocess.Popen[str]:
    """A process of user ``nobody`` listening at ``path`` that answers ``ok`` to anyone."""
    nobody = pwd.getpwnam("nobody")
    process = subprocess.Popen(
        [sys.executable, "-c", OTHER_USER, str(path), mode],
        stdout=subprocess.PIPE,
        text=True,
        user=nobody.pw_uid,
        group=nobody.pw_gid,
        extra_groups=[],
        cwd="/",
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "listening"
    return process


def heard_by(process: subprocess.Popen[str]) -> list[str]:
    """What the other user's process was told (it is stopped)."""
    process.kill()
    out, _ = process.communicate(timeout=10)
    return [line.removeprefix("heard ") for line in out.splitlines() if line.startswith("heard")]


def starts_its_window(folder: Path) -> InstanceGuard:
    """What ``app.main.run`` does first: a guard (its window starts) or None (it exits)."""
    guard = claim(folder, "s-secret")
    assert guard is not None, "Chime exited without a window"
    return guard


@AS_ROOT
def test_another_user_at_the_old_predictable_name_cannot_stop_chime(
    qapp, tmp_path: Path, shared_tmp: Path
) -> None:
    """The attack of issue 24: nobody listens at /tmp/chime-<hash of uid and folder> and answers
    ok; Chime printed "already running" and exited, handing over the session id."""
    digest = hashlib.sha256(f"{os.getuid()}:{tmp_path.resolve()}".encode()).hexdigest()[:24]
    old_door = Path("/tmp") / f"chime-{digest}"  # where Qt put the old name
    squatter = as_nobody(old_door, "file")
    try:
        guard = starts_its_window(tmp_path)
        assert guard.listening
        guard.close()
    finally:
        heard = heard_by(squatter)
        old_door.unlink(missing_ok=True)
    assert not any("s-secret" in line for line in heard)


@AS_ROOT
def test_a_private_directory_made_by_another_user_is_not_used(
    qapp, tmp_path: Path, shared_tmp: Path
) -> None:
    door = shared_tmp / f"chime-{os.getuid()}" / door_name(tmp_path)
    squatter = as_nobody(door, "dir")
    try:
        assert private_dir(os.getuid()) is None
        guard = starts_its_window(tmp_path)
        assert not guard.listening  # a lone instance: no door in someone else's directory
        guard.close()
    finally:
        heard = heard_by(squatter)
    assert heard == []


@AS_ROOT
def test_a_listener_of_another_user_at_the_door_itself_is_refused_by_its_credentials(
    qapp, tmp_path: Path, shared_tmp: Path
) -> None:
    """Made as if the directory's guard had failed: nobody's socket moved into the private
    directory and given to this user; the peer's credentials still tell."""
    staging = shared_tmp / "staging"
    staging.mkdir(mode=0o777)
    staging.chmod(0o777)
    squatter = as_nobody(staging / "door", "file")
    door = socket_path(tmp_path, os.getuid())
    assert door is not None
    os.rename(staging / "door", door)
    os.chown(door, os.getuid(), os.getgid())
    try:
        assert not hand_over(tmp_path, "s-secret")
        guard = starts_its_window(tmp_path)
        assert guard.listening  # the squatter's socket file was replaced by Chime's own
        guard.close()
    finally:
        heard = heard_by(squatter)
    # The socket file was this user's and its listener answers ok to anyone: only the
    # connection's credentials told it apart, and Chime hung up without sending anything.
    assert set(heard) <= {""}


def test_a_directory_of_another_uid_or_open_to_others_is_not_private(
    tmp_path: Path, shared_tmp: Path
) -> None:
    """Without root: the same rule faked with a uid that is not the directory's owner."""
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    assert is_private(mine, os.getuid())
    assert not is_private(mine, os.getuid() + 1)  # as another user sees it
    mine.chmod(0o750)
    assert not is_private(mine, os.getuid())
    link = tmp_path / "link"
    link.symlink_to(mine)
    mine.chmod(0o700)
    assert not is_private(link, os.getuid())
    other = os.getuid() + 1
    (shared_tmp / f"chime-{other}").mkdir(mode=0o700)  # made by "someone else" for ``other``
    assert private_dir(other) is None
    assert socket_path(tmp_path, other) is None
    assert not hand_over(tmp_path, "s-1", uid=other)


def test_xdg_runtime_dir_is_used_when_it_is_private(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    assert private_dir(os.getuid(), {"XDG_RUNTIME_DIR": str(runtime)}) == runtime / "chime"
    assert (runtime / "chime").stat().st_mode & 0o777 == 0o700


def test_a_start_that_sends_without_end_is_dropped_and_the_door_still_opens(
    qtbot, tmp_path: Path, shared_tmp: Path
) -> None:
    guard = InstanceGuard(tmp_path)
    heard: list[object] = []
    guard.requested.connect(heard.append)
    door = socket_path(tmp_path, os.getuid())
    assert door is not None
    flood = QLocalSocket()
    flood.connectToServer(str(door))
    assert flood.waitForConnected(1000)
    flood.write(b"x" * (40 * MAX_REQUEST))  # 2.5 MB of a line that never ends
    qtbot.waitUntil(lambda: flood.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert heard == []
    assert all(c.bytesAvailable() <= MAX_REQUEST for c in guard._clients)
    flood.abort()
    assert guard.listening
    with qtbot.waitSignal(guard.requested) as asked:
        start = QLocalSocket()
        start.connectToServer(str(door))
        assert start.waitForConnected(1000)
        start.write(b'{"session": "s-2"}\n')
        start.flush()
    assert asked.args == ["s-2"]
    start.abort()
    guard.close()


def test_more_starts_than_may_wait_drop_the_oldest(qtbot, tmp_path: Path, shared_tmp: Path) -> None:
    guard = InstanceGuard(tmp_path)
    door = socket_path(tmp_path, os.getuid())
    assert door is not None
    idle = []
    for _ in range(single_instance.MAX_STARTS + 3):
        start = QLocalSocket()
        start.connectToServer(str(door))
        assert start.waitForConnected(1000)
        idle.append(start)
    qtbot.waitUntil(lambda: len(guard._clients) == single_instance.MAX_STARTS)
    qtbot.waitUntil(lambda: idle[0].state() == QLocalSocket.LocalSocketState.UnconnectedState)
    for start in idle:
        start.abort()
    guard.close()


def test_a_start_that_was_handed_over_gets_no_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The hand-over itself runs across two processes in tests/app/test_install.py.)"""
    monkeypatch.setattr(single_instance, "hand_over", lambda _folder, _session: True)
    assert claim(tmp_path, "s-9") is None


def test_a_listener_of_the_same_user_at_the_door_takes_the_start(
    qapp, tmp_path: Path, shared_tmp: Path
) -> None:
    """A process of its own: PySide holds the GIL while Qt waits, so a thread could not answer."""
    door = socket_path(tmp_path, os.getuid())
    assert door is not None
    running = subprocess.Popen(
        [sys.executable, "-c", OTHER_USER, str(door), "file"], stdout=subprocess.PIPE, text=True
    )
    assert running.stdout is not None
    assert running.stdout.readline().strip() == "listening"
    try:
        assert hand_over(tmp_path, "s-4")
    finally:
        heard = heard_by(running)
    assert heard == ['{"session": "s-4"}']


def test_the_running_instance_hangs_up_on_another_users_connection(
    qtbot, tmp_path: Path, shared_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played by faking the credentials the connection reports (a real other user cannot enter
    the private directory at all)."""
    guard = InstanceGuard(tmp_path)
    heard: list[object] = []
    guard.requested.connect(heard.append)
    monkeypatch.setattr(single_instance, "peer_uid", lambda _connection: os.getuid() + 1)
    door = socket_path(tmp_path, os.getuid())
    assert door is not None
    intruder = QLocalSocket()
    intruder.connectToServer(str(door))
    assert intruder.waitForConnected(1000)
    intruder.write(b'{"session": "s-1"}\n')
    intruder.flush()
    qtbot.waitUntil(lambda: intruder.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert heard == []
    assert guard._clients == []
    guard.close()


def test_no_place_for_the_door_means_a_lone_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing" / "deeper"))
    assert private_dir(os.getuid()) is None
    assert not is_private(tmp_path / "missing", os.getuid())
    guard = InstanceGuard(tmp_path)
    assert not guard.listening
    guard.close()


def test_an_unconnected_socket_has_no_peer(qapp) -> None:
    assert single_instance.peer_uid(QLocalSocket()) is None


def test_a_socket_left_by_a_crashed_instance_is_not_an_answer_and_is_taken_over(
    qapp, tmp_path: Path, shared_tmp: Path
) -> None:
    door = socket_path(tmp_path, os.getuid())
    assert door is not None
    left = socket.socket(socket.AF_UNIX)
    left.bind(str(door))  # bound, never listening: what a killed Chime leaves
    left.close()
    assert not hand_over(tmp_path, "s-1")
    guard = InstanceGuard(tmp_path)
    assert guard.listening
    guard.close()
