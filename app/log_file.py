"""QuietFileHandler: ``chime.log``, the rotating log file in the data folder. Writes that file.

Imported by ``app.main.setup_logging`` once the window is painted (``logging.handlers`` loads
socket, pickle and queue).
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

from app.paths import LOG_FILE


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
