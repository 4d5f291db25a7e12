"""One Chime per data folder: a second start hands its ``--session`` to the running one and exits.

The running instance listens on a local socket in a directory private to the user
(``private_dir``): ``$XDG_RUNTIME_DIR/chime`` where the session provides that directory, else
``<temp>/chime-<uid>``, created with mode 0700. Before using it Chime checks that the directory is
a real directory (not a link), owned by the user and closed to group and others; another user
who made it first, or opened it up, gets no door: Chime then starts its window as a lone instance
(the sessions' locks still keep two writers apart) and logs why. The socket is named after the
data folder inside that directory, so two data folders still run side by side.

A start that finds the socket (a socket file of its own user) connects, checks who listens
(``SO_PEERCRED`` on the connection, where the system has it: Linux), sends one JSON line
(``{"session": ID or null}``), waits for the answer ``ok`` and exits; the running instance raises
its window and opens that session (``InstanceGuard.requested``). The running instance checks the
peer the same way and refuses a connection of another user. It reads at most
``INSTANCE_REQUEST.max_size`` bytes of a request (Qt's read buffer is capped to it) and drops a
start that sends more without ending its line; at most ``MAX_STARTS`` starts wait at once (the
oldest is dropped). A socket left by a crashed instance answers nobody: it is removed and listened
on anew. A start that cannot reach the running instance in time (it hangs) runs on as before, and
then sees the running instance's sessions read-only (their locks).

The running instance listens once its window is first painted (``app.main``: QtNetwork is loaded
then, not before the first paint); a start in that fraction of a second runs as a lone instance
and sees the sessions read-only, as one that cannot reach the door does.

Must not: touch the session store or the engine (the composition root connects ``requested``).
"""

from __future__ import annotations

import json
import logging
import os
import stat
import struct
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCryptographicHash, QObject, Signal

from core.jsonread import INSTANCE_REQUEST, parse_json

if TYPE_CHECKING:  # QtNetwork loads when a door is used: after the first paint, or for a start
    # that finds a socket to hand over to (its library and 25 enum classes cost ~5% of a start)
    from PySide6.QtNetwork import QLocalSocket

_log = logging.getLogger(__name__)

CONNECT_MS = 1000
ANSWER_MS = 3000
MAX_REQUEST = INSTANCE_REQUEST.max_size
"""The most a start may send before its line ends (a session id needs well under 1 KB)."""
MAX_STARTS = 8
"""Starts connected at once; a further one drops the oldest."""


def own_uid() -> int:
    """This user's id (0 where the system has none: Windows, whose folders then never count as
    private, so Chime runs there as a lone instance kept apart by the sessions' locks)."""
    getuid = getattr(os, "getuid", None)
    return int(getuid()) if getuid is not None else 0


def private_dir(uid: int, env: Mapping[str, str] = os.environ) -> Path | None:
    """This user's directory for the door (created 0700 when missing), or None when the
    directory there is not private to ``uid`` (another user's, a link, open to others)."""
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime and is_private(Path(runtime), uid):
        folder = Path(runtime) / "chime"
    else:
        folder = Path(tempfile.gettempdir()) / f"chime-{uid}"
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as error:
        _log.warning("no private directory for the single-instance socket: %s", error)
        return None
    if not is_private(folder, uid):
        _log.warning(
            "%s is not private to this user: starting without a single-instance door", folder
        )
        return None
    return folder


def is_private(folder: Path, uid: int) -> bool:
    """``folder`` is a directory (not a link) of ``uid`` that group and others cannot enter."""
    try:
        status = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(status.st_mode) and status.st_uid == uid and not status.st_mode & 0o077


def socket_path(folder: Path, uid: int, env: Mapping[str, str] = os.environ) -> Path | None:
    """Where the door of data folder ``folder`` is for ``uid``; None when it has no safe place."""
    place = private_dir(uid, env)
    if place is None:
        return None
    return place / door_name(folder)


def door_name(folder: Path) -> str:
    """The socket's file name for data folder ``folder`` (short: a socket path is limited): the
    start of its path's SHA-256, by Qt's hash (``hashlib`` loads OpenSSL, ~12 M instructions a
    start would spend before its first paint)."""
    path = str(folder.resolve()).encode()
    digest = QCryptographicHash.hash(path, QCryptographicHash.Algorithm.Sha256)
    return f"chime-{bytes(digest.toHex().data()).decode()[:24]}"


def peer_uid(connection: QLocalSocket) -> int | None:
    """The user id of the process at the other end of ``connection`` (``SO_PEERCRED``); None
    where the system cannot tell (then the private directory is the only guard)."""
    import socket as pysocket  # once a second start knocks (not before the first paint)

    option = getattr(pysocket, "SO_PEERCRED", None)
    descriptor = int(connection.socketDescriptor())
    if option is None or descriptor < 0:
        return None
    probe = pysocket.fromfd(descriptor, pysocket.AF_UNIX, pysocket.SOCK_STREAM)  # a duplicate
    try:
        _pid, uid, _gid = struct.unpack("3i", probe.getsockopt(pysocket.SOL_SOCKET, option, 12))
    finally:
        probe.close()
    return int(uid)


def same_user(connection: QLocalSocket, uid: int) -> bool:
    peer = peer_uid(connection)
    return peer is None or peer == uid


def _own_socket(path: Path, uid: int) -> bool:
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISSOCK(status.st_mode) and status.st_uid == uid


def hand_over(folder: Path, session: str | None, uid: int | None = None) -> bool:
    """Whether a running Chime of this user on ``folder`` took the start (it raises its window,
    opens ``session``); False when none answers, or whoever answers is not this user."""
    uid = own_uid() if uid is None else uid
    path = socket_path(folder, uid)
    if path is None or not _own_socket(path, uid):
        return False
    from PySide6.QtNetwork import QLocalSocket

    socket = QLocalSocket()
    socket.setReadBufferSize(64)
    socket.connectToServer(str(path))
    if not socket.waitForConnected(CONNECT_MS):
        return False
    if not same_user(socket, uid):
        _log.warning("the socket %s is held by another user: not handing over", path)
        socket.abort()
        return False
    socket.write((json.dumps({"session": session}) + "\n").encode())
    socket.flush()
    answered = socket.waitForReadyRead(ANSWER_MS) and bytes(socket.readLine(8).data()).startswith(
        b"ok"
    )
    socket.disconnectFromServer()
    return answered


class InstanceGuard(QObject):
    """The running instance's end: ``requested(session id or None)`` for each later start.
    ``listening`` is False when there is no private place for the door (see the module)."""

    requested = Signal(object)

    def __init__(self, folder: Path, uid: int | None = None, parent: QObject | None = None) -> None:
        from PySide6.QtNetwork import QLocalServer

        super().__init__(parent)
        self._uid = own_uid() if uid is None else uid
        self._path = socket_path(folder, self._uid)
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_connection)
        self._clients: list[QLocalSocket] = []
        self.listening = self._path is not None and self._listen(str(self._path))

    def _listen(self, name: str) -> bool:
        if self._server.listen(name):
            return True
        self._server.removeServer(name)  # a crashed instance's socket: nobody answered it
        return self._server.listen(name)

    def close(self) -> None:
        """Stop listening and drop the starts still connected (before the objects go)."""
        self._server.close()
        for client in self._clients:
            client.readyRead.disconnect()
            client.abort()
        self._clients.clear()

    def _on_connection(self) -> None:
        while (client := self._server.nextPendingConnection()) is not None:
            if not same_user(client, self._uid):
                _log.warning("refused a connection of another user to the single-instance door")
                client.abort()
                continue
            client.setReadBufferSize(MAX_REQUEST)
            self._clients = [
                c for c in self._clients if c.state() != c.LocalSocketState.UnconnectedState
            ]
            while len(self._clients) >= MAX_STARTS:
                self._clients.pop(0).abort()
            self._clients.append(client)
            client.readyRead.connect(lambda c=client: self._read(c))

    def _read(self, client: QLocalSocket) -> None:
        if not client.canReadLine():
            if client.bytesAvailable() >= MAX_REQUEST:  # longer than any request: not a start
                client.abort()
            return
        session = asked_session(bytes(client.readLine(MAX_REQUEST).data()))
        client.write(b"ok\n")
        client.flush()
        self.requested.emit(session)


def asked_session(line: bytes) -> str | None:
    """The session a start's request line asks for; None when it asks for none, or is a line the
    bounded decode refuses (nested too deeply, not UTF-8, not JSON) or not of that shape."""
    try:
        asked = parse_json(line, INSTANCE_REQUEST)
    except ValueError:
        return None
    session = asked.get("session") if isinstance(asked, dict) else None
    return session if isinstance(session, str) and session else None


def claim(folder: Path, session: str | None) -> InstanceGuard | None:
    """This start's guard, or None when a running instance of this user took the start over
    (``app.main`` makes the two steps apart: the guard listens once the window is painted)."""
    if hand_over(folder, session):
        return None
    return InstanceGuard(folder)
