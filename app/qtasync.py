"""The one door to qasync: the event loop factory and a typed ``async_slot``. No other logic."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, cast

from PySide6 import QtCore  # noqa: F401 -- imported before qasync so qasync binds to PySide6
from PySide6.QtWidgets import QApplication
from qasync import QEventLoop, asyncSlot

P = ParamSpec("P")
AsyncHandler = Callable[P, Coroutine[Any, Any, None]]
TaskStarter = Callable[P, None]


def async_slot(*types: type) -> Callable[[AsyncHandler[P]], TaskStarter[P]]:
    """A coroutine method as a Qt slot: calling it starts a task on the Qt loop.

    An exception escaping the coroutine reaches ``sys.excepthook`` (logged and shown briefly).
    """
    return cast("Callable[[AsyncHandler[P]], TaskStarter[P]]", asyncSlot(*types))


def make_event_loop(app: QApplication) -> QEventLoop:
    """The single asyncio loop for the GUI thread, running on Qt's event loop."""
    return QEventLoop(app)
