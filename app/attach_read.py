"""Reading a file the user attaches (agent.md §7): only a regular file, never more bytes than an
attachment may have, in a thread that can neither hang the window nor hold up quitting.

``read_file`` asks the file system what the path is before opening it and refuses a folder, a
device (``/dev/zero``), a named pipe or a socket with a sentence; it opens without blocking
(``O_NONBLOCK``: a pipe swapped in after the check cannot hold the open) and checks the opened
file again, so what it reads is the regular file it checked. It reads at most ``IMAGE_LIMIT`` + 1
bytes and counts what it read: a file that reports a small size and keeps giving bytes (a
special file of ``/proc``, a file still growing) is refused once it passes the limit, never read
on. ``read_in_background`` runs the read in a daemon thread and stops waiting after
``READ_SECONDS`` (a file on a hung network mount): the attachment is then refused with a
sentence, and the abandoned thread cannot keep the process alive at quit (Python does not join
daemon threads; the default executor's workers would be joined).

Must not: decide what the bytes are (``core.session.attachments.classify`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from core.session.attachments import IMAGE_LIMIT, size_refusal
from core.session.refusal import Refused
from core.visible_text import visible_name
from ui.i18n import QT_TRANSLATE_NOOP

T = TypeVar("T")

READ_SECONDS = 20.0
"""How long an attachment may take to read (a local 5 MB file takes milliseconds)."""
CHUNK = 256 * 1024

FOLDER = QT_TRANSLATE_NOOP("AttachFlow", "“{name}” is a folder: choose the files in it instead.")
UNREADABLE = QT_TRANSLATE_NOOP("AttachFlow", "“{name}” could not be read ({reason}).")
SPECIAL = QT_TRANSLATE_NOOP(
    "AttachFlow",
    "“{name}” is not a regular file (a device, a pipe or a socket), so it cannot be attached.",
)
SLOW = QT_TRANSLATE_NOOP(
    "AttachFlow", "“{name}” was not added: reading it took longer than {seconds} seconds."
)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


@dataclass(frozen=True, slots=True)
class ReadWords:
    """The sentences of ``read_file``, translated on the GUI thread ({name}, {reason})."""

    folder: str = FOLDER
    unreadable: str = UNREADABLE
    special: str = SPECIAL


def read_file(path: Path, words: ReadWords = ReadWords()) -> bytes | Refused:
    """A regular file's bytes, or why it cannot be attached: a folder, a device, pipe or socket,
    unreadable, or too big (told by its size before reading, and by the bytes read). Blocking:
    run it through ``read_in_background``."""
    name = visible_name(path.name or str(path))
    try:
        refused = _kind_refusal(os.stat(path).st_mode, name, words)
        if refused is not None:
            return refused
        fd = os.open(path, _OPEN_FLAGS)
        try:
            status = os.fstat(fd)
            refused = _kind_refusal(status.st_mode, name, words)
            if refused is None:
                refused = size_refusal(name, status.st_size)
            return refused if refused is not None else _read_bounded(fd, name)
        finally:
            os.close(fd)
    except OSError as error:
        return Refused(words.unreadable.format(name=name, reason=error.strerror or error))


def _kind_refusal(mode: int, name: str, words: ReadWords) -> Refused | None:
    if stat.S_ISDIR(mode):
        return Refused(words.folder.format(name=name))
    if not stat.S_ISREG(mode):
        return Refused(words.special.format(name=name))
    return None


def _read_bounded(fd: int, name: str) -> bytes | Refused:
    """At most ``IMAGE_LIMIT`` bytes from ``fd``; a refusal once more than that arrives."""
    chunks: list[bytes] = []
    count = 0
    while count <= IMAGE_LIMIT:
        chunk = os.read(fd, min(CHUNK, IMAGE_LIMIT + 1 - count))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        count += len(chunk)
    too_big = size_refusal(name, count)
    assert too_big is not None, "more than IMAGE_LIMIT bytes is always too big"
    return too_big


async def read_in_background(work: Callable[[], T], seconds: float = READ_SECONDS) -> T | None:
    """``work()`` run in a daemon thread; None when it has not finished after ``seconds`` (the
    thread is abandoned: it ends on its own or with the process)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not done.done():
            outcome()

    def run() -> None:
        try:
            result = work()
        except BaseException as error:  # handed to the awaiting task, raised there
            failed = error
            _call_soon(loop, settle, lambda: done.set_exception(failed))
        else:
            _call_soon(loop, settle, lambda: done.set_result(result))

    threading.Thread(target=run, name="chime-attach-read", daemon=True).start()
    try:
        return await asyncio.wait_for(done, seconds)
    except TimeoutError:
        return None


def _call_soon(
    loop: asyncio.AbstractEventLoop,
    settle: Callable[[Callable[[], None]], None],
    outcome: Callable[[], None],
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed (Chime quit): nobody waits now
        loop.call_soon_threadsafe(settle, outcome)
