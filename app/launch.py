"""The process around one run of Chime: its command-line arguments, the wait for the window's first
paint, SIGTERM/SIGINT waking the Qt loop, the start trace of ``bench/start_bench.py``, and
replacing the process to start again.

Used by ``app.main.run``; builds no window and imports no engine module.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app import __version__
from app.system import monotonic_seconds
from ui.main_window import MainWindow

if TYPE_CHECKING:  # after the first paint (``install_signal_quit``)
    from PySide6.QtCore import QSocketNotifier

_log = logging.getLogger("app")

FIRST_PAINT_WAIT_MS = 2000
"""How long a start waits for the window to be exposed before it goes on loading the engine (a
window manager that keeps a new window unmapped, on another workspace, must not stop the start)."""


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="chime", description="Chime: chat with reminders.")
    parser.add_argument("--data-dir", help="data directory (default: CHIME_DATA_DIR or per-user)")
    parser.add_argument("--session", help="open this session id")
    parser.add_argument("--version", action="version", version=f"Chime {__version__}")
    parser.add_argument(
        "--background",
        action="store_true",
        help="start in the tray without showing the window (what start at login runs)",
    )
    parser.add_argument(
        "--install-desktop-entry",
        action="store_true",
        help="put Chime in the desktop's app launcher (a .desktop file and the icon), then exit",
    )
    parser.add_argument(
        "--uninstall-desktop-entry", action="store_true", help="remove that entry, then exit"
    )
    return parser.parse_args(list(argv))


def paint_first(app: QApplication, window: QWidget) -> None:
    """Turn Qt's event loop until the shown window is exposed and painted, at most
    ``FIRST_PAINT_WAIT_MS``. On X the server (and its window manager) map a new window in their
    own time: one ``processEvents`` often ran before the expose arrived, and the window stayed
    blank until the engine had loaded. Qt marks an exposed widget window ``WA_Mapped`` (asking
    its ``windowHandle`` would build QWindow's enum classes)."""
    if not window.isVisible():  # a background start: nothing to paint yet
        app.processEvents()
        return
    deadline = QTimer()  # wakes the wait below when nothing else does
    deadline.setSingleShot(True)
    deadline.start(FIRST_PAINT_WAIT_MS)
    mapped = Qt.WidgetAttribute.WA_Mapped
    while not window.testAttribute(mapped) and deadline.isActive():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    deadline.stop()
    app.processEvents()  # the paint the expose asked for


def trace_start(window: MainWindow, milestone: str) -> None:
    """For ``bench/start_bench.py``: with ``CHIME_START_TRACE`` set to a file, append the
    milestone, the monotonic time and what the window shows (sessions listed, transcript rows)."""
    path = os.environ.get("CHIME_START_TRACE")
    if not path:
        return
    shown = f"{window.sessions.model.rowCount()} {window.transcript_model.rowCount()}"
    with open(path, "a", encoding="utf-8") as trace:
        trace.write(f"{milestone} {monotonic_seconds()} {shown}\n")


def install_signal_quit(app: QApplication, quit_now: Callable[[], object]) -> QSocketNotifier:
    """SIGTERM/SIGINT wake the Qt loop through a socket, then ``quit_now()`` runs on it."""
    import signal  # all three after the first paint
    import socket

    from PySide6.QtCore import QSocketNotifier

    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno())
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: None)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, app)

    def on_ready() -> None:
        try:
            reader.recv(64)
        except OSError:
            return
        quit_now()

    notifier.activated.connect(on_ready)
    notifier.setProperty("sockets", (reader, writer))  # keeps both ends alive
    return notifier


def restart_command(folder: Path) -> list[str]:
    """How this Chime starts again on ``folder``: the same interpreter and package (or the
    bundle's own executable), without ``--session`` so that the sessions open at quit reopen."""
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: the executable is Chime
        return [sys.executable, "--data-dir", str(folder)]
    return [sys.executable, "-m", "app", "--data-dir", str(folder)]


def restart(folder: Path) -> int:
    """Replace this process with a new start (everything is flushed and every lock released
    by now). Returns 1 only when that cannot be done; the user is told to start Chime."""
    command = restart_command(folder)
    _log.info("Chime starts again: %s", command)
    for handler in logging.getLogger().handlers:
        handler.flush()  # exec runs no exit handlers
    try:
        os.execv(command[0], command)
    except OSError as error:
        _log.error("cannot start again: %s", error)
        reason = error.strerror or str(error)
        sys.stderr.write(f"chime: could not start again ({reason}); start Chime yourself.\n")
    return 1
