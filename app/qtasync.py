"""The one door to the Qt-hosted asyncio loop: qasync's loop and the app's task runner. No other logic."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from PySide6 import QtCore  # noqa: F401 -- imported before qasync so qasync binds to PySide6
from PySide6.QtWidgets import QApplication
from qasync import QEventLoop

T = TypeVar("T")


def make_event_loop(app: QApplication) -> QEventLoop:
    """The single asyncio loop for the GUI thread, running on Qt's event loop. Blocking work
    (``asyncio.to_thread``) runs on Python's own thread pool rather than qasync's QThreads: the
    threads Python's tools see (coverage, tracing, thread names in ``chime.log``); closing the
    loop waits for them as before."""
    loop = QEventLoop(app)
    loop.set_default_executor(ThreadPoolExecutor(thread_name_prefix="chime-worker"))
    return loop


class TaskRunner:
    """Starts the app's background coroutines on the running loop and keeps each task alive until
    it ends (the loop itself holds tasks only weakly).

    ``spawn``: nobody awaits the task, so an exception escaping it goes to ``sys.excepthook``
    (logged, one short sentence shown), never a traceback. ``share``: a task its starter awaits
    (others may wait for it too, as for a session's close), so its exception reaches whoever
    awaits it and the hook is not told twice.
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def pending(self) -> int:
        """How many started tasks have not ended yet."""
        return len(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, object]) -> asyncio.Task[object]:
        """Run ``coro`` in the background; an exception escaping it reaches ``sys.excepthook``."""
        task = self.share(coro)
        task.add_done_callback(_report)
        return task

    def share(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coro`` as a task its starter awaits (and so receives its exception)."""
        task = asyncio.get_event_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def slot(self, make: Callable[[], Coroutine[Any, Any, object]]) -> Callable[..., None]:
        """A Qt slot that spawns ``make()`` (the signal's arguments are ignored)."""

        def start(*_: object) -> None:
            self.spawn(make())

        return start


def _report(task: asyncio.Task[object]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        sys.excepthook(type(error), error, error.__traceback__)
