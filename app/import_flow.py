"""ImportFlow: Session ▸ Import conversations… (issue 21): the file question, the import in a
worker thread (``app.import_run``) with its progress dialog and Cancel, and what the window says.

When it ends the sidebar lists the new conversations (nothing is opened: an export may hold
hundreds) and the message bar says how many were imported and what of them could not be
(pictures and files the export holds only the names of, or that Chime cannot attach). A file that cannot be
imported, or a cancel, gets one sentence and imports nothing. One import runs at a time. A file
imported before says so and imports nothing again; one that holds some conversations imported
before imports the others and says how many were left out (``app.import_run``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject

from app.controller import AppController
from app.import_run import AlreadyImported, Cancelled, ImportRefused, ImportResult, run_import
from app.qtasync import TaskRunner
from core.visible_text import visible_name
from ui.import_progress import ImportProgress
from ui.main_window import MainWindow

_log = logging.getLogger(__name__)
AskPath = Callable[[MainWindow], Path | None]
NOTICE_MS = 15000


class ImportFlow(QObject):
    """Runs one import at a time (see the module docstring)."""

    def __init__(
        self,
        window: MainWindow,
        controller: AppController,
        tasks: TaskRunner,
        ask: AskPath,
        data_dir: Path,
    ) -> None:
        super().__init__(controller)
        self._window, self._controller, self._tasks = window, controller, tasks
        self._ask, self._data_dir = ask, data_dir
        self.running: asyncio.Task[object] | None = None
        self.progress: ImportProgress | None = None
        window.window_actions.action("import_conversations").triggered.connect(self.start)

    def start(self) -> None:
        """Ask for a file and import it (nothing when an import already runs)."""
        if self.running is not None:
            return
        path = self._ask(self._window)
        if path is not None:
            self.running = self._tasks.spawn(self.run(path))

    async def run(self, path: Path) -> None:
        name = visible_name(path.name)
        cancelled = threading.Event()
        dialog = ImportProgress(self._window, name)
        dialog.cancel_requested.connect(cancelled.set)
        self.progress = dialog
        dialog.show()
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int, count: int) -> None:
            loop.call_soon_threadsafe(dialog.set_progress, done, total, count)

        now = self._controller.parts.clock()
        try:
            with ThreadPoolExecutor(1, thread_name_prefix="chime-import") as worker:
                # a thread of Python's own: qasync's default executor runs QThreads, which
                # Python's tracers (coverage, debuggers) never see
                result = await loop.run_in_executor(
                    worker, partial(run_import, path, self._data_dir, now, progress, cancelled)
                )
        except Cancelled:
            self._window.notify(self.tr("Import cancelled: nothing was imported."), NOTICE_MS)
        except AlreadyImported as error:
            text = self.tr(
                "{name} was imported before: its %n conversation(s) are in the list already. "
                "Nothing was imported.",
                "",
                error.count,
            )
            self._window.notify(text.format(name=name), NOTICE_MS)
        except ImportRefused as error:
            self._refused(name, str(error))
        except OSError as error:
            self._refused(name, error.strerror or str(error))
        else:
            await self._controller.refresh_sessions()
            self._window.notify(self._done_words(name, result), NOTICE_MS)
        finally:
            dialog.finish()
            dialog.deleteLater()
            self.progress = None
            self.running = None

    def _refused(self, name: str, reason: str) -> None:
        _log.warning("import of %s refused: %s", name, reason)
        text = self.tr("{name} could not be imported ({reason}). Nothing was imported.")
        self._window.notify(text.format(name=name, reason=reason), NOTICE_MS)

    def _done_words(self, name: str, result: ImportResult) -> str:
        count = len(result.session_ids)
        words = [self.tr("Imported %n conversation(s) from {name}.", "", count).format(name=name)]
        lost = result.images + result.files
        if lost:
            words.append(
                self.tr(
                    "%n picture(s) or file(s) were not imported (the export holds only their "
                    "names).",
                    "",
                    lost,
                )
            )
        if result.already:
            words.append(
                self.tr("%n conversation(s) imported before were left out.", "", result.already)
            )
        if result.skipped:
            words.append(
                self.tr("%n message part(s) Chime cannot show were left out.", "", result.skipped)
            )
        return " ".join(words)
