"""AttachFlow: files added to the message being written (agent.md §7), from the paperclip, a drop
on the window or a paste into the message box.

Each file is read by ``app.attach_read`` (only a regular file, bounded by the bytes read, in a
daemon thread with a time limit, so neither a device nor a pipe nor a hung mount can fill memory,
hang the window or hold up quitting) and stored in its session's folder
(``LiveSession.add_attachment``, which tells text from images and refuses the rest with a
sentence); an image is refused at once while the offline assistant answers
the session. Accepted files wait in their session (``OpenSession.attachments``, chips above the
message box) until its next message takes them (``AppController.submit``); the chip's ✕ takes one
off. Refused ones are said in the message bar, all in one message, and nothing else changes.

Choices where the spec is silent: the files belong to the session they were added in (their bytes
are in its folder), so switching sessions shows each one's own waiting files; a file added twice
(the same bytes) is one chip; a folder is refused with a sentence (its files can be chosen).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from app.attach_read import (
    FOLDER,
    READ_SECONDS,
    SLOW,
    SPECIAL,
    UNREADABLE,
    ReadWords,
    read_file,
    read_in_background,
)
from app.controller import AppController, answers_offline
from app.engine import OpenSession
from app.qtasync import TaskRunner
from app.refusal_words import refused_text
from core.errors import ChimeError
from core.events import Attachment
from core.session.attachments import image_type
from core.session.refusal import Refused
from core.visible_text import visible_name
from ui.main_window import MainWindow

_log = logging.getLogger(__name__)

AskPaths = Callable[[MainWindow], list[Path]]
translate = QCoreApplication.translate


class AttachFlow:
    """Adds files to the current session's next message (see the module docstring)."""

    def __init__(
        self, window: MainWindow, controller: AppController, tasks: TaskRunner, ask: AskPaths
    ) -> None:
        self._window = window
        self._controller = controller
        self._tasks = tasks
        self._ask = ask
        composer = window.composer
        window.window_actions.action("attach_files").triggered.connect(self.choose)
        composer.files_offered.connect(lambda paths: self.offer([Path(p) for p in paths]))
        composer.image_pasted.connect(lambda name, data: self.offer_data(name, bytes(data)))
        composer.attachments.removed.connect(self.remove)

    def choose(self) -> None:
        """The paperclip (Ctrl+U): ask for files and add them."""
        opened = self._writable_current()
        if opened is None:
            return
        paths = self._ask(self._window)
        if paths:
            self._tasks.spawn(self.add_paths(opened, paths))

    def offer(self, paths: Sequence[Path]) -> None:
        """Files dropped on the window or pasted into the message box."""
        opened = self._writable_current()
        if opened is not None and paths:
            self._tasks.spawn(self.add_paths(opened, list(paths)))

    def offer_data(self, name: str, data: bytes) -> None:
        """A picture pasted into the message box."""
        opened = self._writable_current()
        if opened is not None:
            self._tasks.spawn(self._add_all(opened, [(name, data)]))

    def remove(self, sha256: str) -> None:
        """The chip's ✕: the file is no longer sent with the message (its bytes stay stored)."""
        opened = self._controller.current_session()
        if opened is not None:
            opened.attachments[:] = [f for f in opened.attachments if f.sha256 != sha256]

    async def add_paths(self, opened: OpenSession, paths: list[Path]) -> None:
        """Read each file (``app.attach_read``) and add it."""
        words = ReadWords(*(translate("AttachFlow", s) for s in (FOLDER, UNREADABLE, SPECIAL)))
        found: list[tuple[str, bytes | Refused]] = []
        for path in paths:
            data = await read_in_background(partial(read_file, path, words))
            found.append((path.name, data if data is not None else self._slow(path)))
        await self._add_all(opened, found)

    @staticmethod
    def _slow(path: Path) -> Refused:
        sentence = translate("AttachFlow", SLOW)
        return Refused(sentence.format(name=visible_name(path.name), seconds=round(READ_SECONDS)))

    async def _add_all(self, opened: OpenSession, files: list[tuple[str, bytes | Refused]]) -> None:
        refusals = []
        for name, data in files:
            outcome = data if isinstance(data, Refused) else await self._store(opened, name, data)
            if isinstance(outcome, Refused):
                refusals.append(refused_text(outcome))
                continue
            if all(f.sha256 != outcome.sha256 for f in opened.attachments):
                opened.attachments.append(outcome)
            if self._controller.current == opened.id:
                self._window.show_attachments(opened.attachments)
        if refusals:
            self._window.notify(" ".join(refusals), 15000, conversation=True)

    async def _store(self, opened: OpenSession, name: str, data: bytes) -> Attachment | Refused:
        if image_type(data) is not None and answers_offline(opened):
            return Refused(self._controller.image_refusal())
        try:
            return await opened.session.add_attachment(name, data)
        except ChimeError as error:  # the session turned read-only meanwhile
            _log.warning("attachment refused by %s: %s", opened.id, error)
            return Refused(
                translate("AttachFlow", "“{name}” was not added: {reason}").format(
                    name=visible_name(name), reason=error
                )
            )

    def _writable_current(self) -> OpenSession | None:
        opened = self._controller.current_session()
        if opened is None or not opened.live or opened.session.read_only:
            return None
        return opened
