"""Where one run's log goes and how an unexpected error is shown: ``chime.log`` in the data
folder (rotating; stderr when it cannot be written) and ``sys.excepthook``.

Unexpected exceptions are logged with their traceback and shown as one short sentence, never a
traceback. Used by ``app.main.run`` before the window is built; imports no engine module.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QCoreApplication

from app.paths import LOG_FILE
from ui.main_window import MainWindow

_log = logging.getLogger("app")


class EarlyRecords(logging.Handler):
    """The records logged before the first paint, kept until ``setup_logging`` opens the log
    file (its rotating handler loads ``logging.handlers``, which pulls in socket, pickle and
    queue: a start's first paint does not wait for them)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def setup_logging(folder: Path, early: EarlyRecords | None = None) -> bool:
    """Log to ``chime.log`` in the data directory (rotating: 3 × 1 MB), after the ``early``
    records. When that file cannot be opened (a read-only or missing folder), log to stderr
    instead and return False."""
    from app.log_file import QuietFileHandler  # after the first paint (see ``EarlyRecords``)

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
    if early is not None:
        root.removeHandler(early)
        for record in early.records:
            handler.handle(record)
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
