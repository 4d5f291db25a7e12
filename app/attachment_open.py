"""Opening a file attached to a message (a click on it in the transcript or on its chip, or the
row's menu "Open …"): its stored bytes are copied to a temporary file, and that copy is handed to
the system's default program for its kind (``QDesktopServices.openUrl``; on Linux the desktop's
own choice through ``xdg-open``, which may ask which program to use). Only the copy is opened, so
a viewer or editor can never change the file the session keeps.

Where the copy lives: one private folder per run of Chime (``tempfile.mkdtemp``: readable by the
user only), a sub-folder per file's sha256, the file under its own name (made safe for the file
system: no folder parts, no leading dot). The copy is read-only and is left for the system to
clean up (a viewer may still be reading it when Chime quits). When the stored file is missing,
the copy cannot be written or no program opens it, the message bar says so.

Must not: open the stored file itself, or anything but a copy of an attachment.
"""

from __future__ import annotations

import asyncio
import logging
import mimetypes
import os
import stat
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices

from app.controller import AppController
from app.qtasync import TaskRunner
from core.events import Attachment
from core.visible_text import visible_name
from ui.i18n import QT_TRANSLATE_NOOP
from ui.main_window import MainWindow

_log = logging.getLogger(__name__)
translate = QCoreApplication.translate

Read = Callable[[str], Awaitable[bytes | None]]
"""A stored file's bytes by its sha256 (``LiveSession.read_attachment``)."""
OpenFile = Callable[[Path], bool]
"""Hands a file to the system's program for it; False when none opened it."""
NAME_CHARS = 120
MISSING = QT_TRANSLATE_NOOP(
    "AttachmentOpener", "“{name}” cannot be opened: its stored copy is missing or damaged."
)
UNWRITTEN = QT_TRANSLATE_NOOP("AttachmentOpener", "“{name}” could not be opened ({reason}).")
NO_PROGRAM = QT_TRANSLATE_NOOP(
    "AttachmentOpener", "“{name}” could not be opened: no program on this computer opens it."
)


def open_with_system(path: Path) -> bool:
    """The system's default program for ``path`` (the real opener; tests inject their own)."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


class AttachmentOpener:
    """Opens the attachments the window asks for (see the module docstring)."""

    def __init__(
        self,
        window: MainWindow,
        controller: AppController,
        tasks: TaskRunner,
        open_file: OpenFile = open_with_system,
    ) -> None:
        self._window = window
        self._controller = controller
        self._tasks = tasks
        self._open_file = open_file
        self._folder: Path | None = None
        window.attachment_open_requested.connect(self.open)

    def open(self, file: Attachment) -> None:
        opened = self._controller.current_session()
        if opened is not None:
            self._tasks.spawn(self._open(opened.session.read_attachment, file))

    async def _open(self, read: Read, file: Attachment) -> None:
        name = visible_name(file.name)
        data = await read(file.sha256)
        if data is None:
            self._say(translate("AttachmentOpener", MISSING).format(name=name))
            return
        try:
            path = await asyncio.to_thread(write_copy, self._folder, file, data)
        except OSError as error:
            _log.warning("attachment %s not copied: %s", file.sha256, error)
            reason = error.strerror or str(error)
            self._say(translate("AttachmentOpener", UNWRITTEN).format(name=name, reason=reason))
            return
        self._folder = path.parent.parent
        if not self._open_file(path):
            self._say(translate("AttachmentOpener", NO_PROGRAM).format(name=name))

    def _say(self, sentence: str) -> None:
        self._window.notify(sentence, 15000, conversation=True)


def write_copy(folder: Path | None, file: Attachment, data: bytes) -> Path:
    """A read-only copy of ``data`` under the file's safe name, in a sub-folder of ``folder`` (a
    new private temporary folder when None or gone); blocking (run it in a thread)."""
    if folder is None or not folder.is_dir():
        folder = Path(tempfile.mkdtemp(prefix="chime-open-"))
    inner = folder / file.sha256[:32]
    inner.mkdir(mode=0o700, exist_ok=True)
    path = inner / safe_name(file)
    if path.exists():
        path.unlink()  # an earlier copy (read-only): written again from the stored bytes
    path.write_bytes(data)
    os.chmod(path, stat.S_IRUSR)
    return path


def safe_name(file: Attachment) -> str:
    """The file's name as a single safe file name, with the suffix of its kind when it has
    none ("attachment" when nothing of the name is left)."""
    name = visible_name(file.name)
    for bad in ("/", "\\", "\x00", ":"):
        name = name.replace(bad, "_")
    name = name.strip().lstrip(".").strip() or "attachment"
    if "." not in name:
        name += mimetypes.guess_extension(file.media_type) or ""
    if len(name) > NAME_CHARS:
        stem, dot, suffix = name.rpartition(".")
        name = stem[: NAME_CHARS - len(suffix) - 1] + dot + suffix if dot else name[:NAME_CHARS]
    return name
