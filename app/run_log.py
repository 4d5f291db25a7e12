"""Where one run's log goes and how an unexpected error is shown: ``chime.log`` in the data
folder (rotating; stderr when it cannot be written) and ``sys.excepthook``.

Unexpected exceptions are logged with their traceback and shown as one short sentence, never a
traceback. Used by ``app.main.run`` before the window is built; imports no engine module.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QCoreApplication

from ui.main_window import MainWindow

LOG_FILE = "chime.log"
_log = logging.getLogger("app")


class QuietFileHandler(logging.handlers.RotatingFileHandler):
    """``chime.log`` that degrades quietly when it cannot be written (a full disk): the record
    is dropped and counted, one line on stderr says so (not a traceback per record), and the
    first record written again is followed by how many were lost."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
        self.lost = 0

    def emit(self, record: logging.LogRecord) -> None:
        lost = self.lost
        super().emit(record)
        if lost and self.lost == lost:  # written: say what is missing before it
            self.lost = 0
            note = f"{lost} log messages were lost while {LOG_FILE} could not be written"
            super().emit(
                logging.makeLogRecord(
                    {
                        "name": __name__,
                        "levelname": "WARNING",
                        "levelno": logging.WARNING,
                        "msg": note,
                    }
                )
            )

    def handleError(self, record: logging.LogRecord) -> None:
        if not self.lost:
            error = sys.exc_info()[1]
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            sys.stderr.write(f"chime: cannot write {LOG_FILE} ({reason}); dropping log messages\n")
        self.lost += 1


def setup_logging(folder: Path) -> bool:
    """Log to ``chime.log`` in the data directory (rotating: 3 × 1 MB). When that file cannot be
    opened (a read-only or missing folder), log to stderr instead and return False."""
    path = folder / LOG_FILE
    handler: logging.Handler
    problem: OSError | None = None
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))  # created private
        handler = QuietFileHandler(path)
    except OSError as error:
        problem = error
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    if problem is not None:
        _log.warning("cannot open %s (%s); logging to stderr", path, problem)
    return problem is None


def install_excepthook(window_ref: list[MainWindow], *, logged_to_file: bool = True) -> None:
    """Unexpected exceptions: full details to the log (file, else stderr), one sentence to the
    user. It promises nothing about saving: a disk error may be what went wrong."""
    where = f"{LOG_FILE} in the data folder" if logged_to_file else "the error output (stderr)"

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        logging.getLogger("app.crash").error("unexpected error", exc_info=(kind, error, tb))
        if window_ref and issubclass(kind, Exception):
            from PySide6.QtWidgets import QMessageBox  # on the first error, not at every start

            box = QMessageBox(
                QMessageBox.Icon.Warning,
                "Chime",
                _crash_sentence(error, where),
                QMessageBox.StandardButton.Ok,
                window_ref[0],
            )
            box.open()

    sys.excepthook = hook


def _crash_sentence(error: BaseException, where: str) -> str:
    if isinstance(error, OSError):
        reason = error.strerror or str(error)
        return (
            QCoreApplication.translate(
                "Crash",
                "Chime could not use the disk: %1. Recent changes may not be saved; details are "
                "in %2.",
            )
            .replace("%2", where)
            .replace("%1", reason)
        )
    return QCoreApplication.translate(
        "Crash", "Something unexpected went wrong; details are in %1."
    ).replace("%1", where)
