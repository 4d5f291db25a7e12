"""An in-process Chime for tests: real store in tmp_path, offline assistant, fake clock, qasync."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtGui import QIcon

from app.actions_wiring import wire_controller
from app.controller import AppController
from app.engine import EngineParts
from app.paths import resource
from app.qtasync import TaskRunner
from core.llm.offline import OfflineAssistant
from core.session.store import SessionStore
from tests.fakes import FakeClock
from ui.main_window import MainWindow

ZONE = "Europe/Berlin"
WAIT_S = 10.0


def run_loop(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``loop`` until ``coro`` is done (within ``WAIT_S``) and return its result.

    WORKAROUND(qasync 0.28): its ``run_until_complete`` processes Qt events once more after the
    loop stopped, with no running loop: a task stepped then (a turn's barrier, an HTTP request's
    anyio internals) fails with "no running event loop", which a slow machine hits now and then.
    ``run_forever`` leaves such steps queued for the next run instead."""
    task = asyncio.ensure_future(asyncio.wait_for(coro, WAIT_S), loop=loop)
    task.add_done_callback(lambda _task: loop.stop())
    loop.run_forever()
    return task.result()


class Chime:
    """One in-process app: window + controller over ``data_dir``."""

    def __init__(
        self, qtbot: Any, loop: asyncio.AbstractEventLoop, data_dir: Path, clock: FakeClock
    ) -> None:
        self.loop = loop
        self.clock = clock
        self.data_dir = data_dir
        counter = itertools.count(1)
        self.window = MainWindow(clock, QIcon(str(resource("icons", "bell.svg"))))
        qtbot.addWidget(self.window)
        parts = EngineParts(
            clock,
            lambda: ZONE,
            lambda: f"id{next(counter)}",
            resource("prompts", "system.md").read_text(encoding="utf-8"),
            lambda: OfflineAssistant(clock),
        )
        self.store = SessionStore(data_dir, clock)
        self.tasks = TaskRunner()
        self.controller = AppController(self.window, self.store, parts, data_dir, self.tasks)
        wire_controller(self.window, self.controller, self.tasks)

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return run_loop(self.loop, coro)

    def until(self, condition: Callable[[], bool]) -> None:
        """Run the loop until ``condition()`` holds (disk work runs in threads, so poll)."""

        async def wait() -> None:
            while not condition():  # noqa: ASYNC110 -- polls state changed by disk threads and Qt
                await asyncio.sleep(0.002)

        self.run(wait())

    def transcript_texts(self) -> list[str]:
        model = self.window.transcript_model
        return [str(model.index(r).data()) for r in range(model.rowCount())]

    def kinds(self) -> list[str]:
        model = self.window.transcript_model
        return [model.row_at(r).kind for r in range(model.rowCount())]  # type: ignore[union-attr]  # rows exist

    def idle(self) -> bool:
        opened = self.controller.current_session()
        return (
            opened is not None
            and opened.agent is not None
            and opened.agent.status == "idle"
            and not opened.agent.pending_inputs
        )

    def quit(self) -> None:
        self.run(self.controller.shutdown())
