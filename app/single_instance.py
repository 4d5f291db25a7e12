"""One Chime per data folder: a second start hands its ``--session`` to the running one and exits.

The running instance listens on a local socket named after the user and the data folder
(``QLocalServer``, readable by this user only); a start that reaches it sends one JSON line
(``{"session": ID or null}``, read by the bounded decode: a line it refuses asks for no session),
waits for the answer ``ok`` and exits, and the running instance raises its window and opens that
session (``InstanceGuard.requested``). Two data folders have two
names, so they still run side by side. A socket left by a crashed instance answers nobody: it is
removed and listened on anew. A start that cannot reach the running instance in time (it hangs)
runs on as before, and then sees the running instance's sessions read-only (their locks).
Must not: touch the session store or the engine (the composition root connects ``requested``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from core.jsonread import INSTANCE_REQUEST, parse_json

CONNECT_MS = 1000
ANSWER_MS = 3000


def server_name(folder: Path) -> str:
    """The socket's name for this user and data folder (short: a path may be too long)."""
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "")
    digest = hashlib.sha256(f"{user}:{folder.resolve()}".encode()).hexdigest()[:24]
    return f"chime-{digest}"


def hand_over(folder: Path, session: str | None) -> bool:
    """Whether a running Chime on ``folder`` took the start (it raises its window, opens
    ``session``); False when none answers."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(folder))
    if not socket.waitForConnected(CONNECT_MS):
        return False
    socket.write((json.dumps({"session": session}) + "\n").encode())
    socket.flush()
    answered = socket.waitForReadyRead(ANSWER_MS) and bytes(socket.readAll().data()).startswith(
        b"ok"
    )
    socket.disconnectFromServer()
    return answered


class InstanceGuard(QObject):
    """The running instance's end: ``requested(session id or None)`` for each later start."""

    requested = Signal(object)

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._name = server_name(folder)
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_connection)
        self._clients: list[QLocalSocket] = []
        self.listening = self._listen()

    def _listen(self) -> bool:
        if self._server.listen(self._name):
            return True
        QLocalServer.removeServer(self._name)  # a crashed instance's socket: nobody answered it
        return self._server.listen(self._name)

    def close(self) -> None:
        """Stop listening and drop the starts still connected (before the objects go)."""
        self._server.close()
        for client in self._clients:
            client.readyRead.disconnect()
            client.abort()
        self._clients.clear()

    def _on_connection(self) -> None:
        while (client := self._server.nextPendingConnection()) is not None:
            self._clients = [
                c for c in self._clients if c.state() != c.LocalSocketState.UnconnectedState
            ]
            self._clients.append(client)
            client.readyRead.connect(lambda c=client: self._read(c))

    def _read(self, client: QLocalSocket) -> None:
        if not client.canReadLine():
            return
        session = asked_session(bytes(client.readLine().data()))
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
    """This start's guard, or None when a running instance took the start over."""
    if hand_over(folder, session):
        return None
    return InstanceGuard(folder)
