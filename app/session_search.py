"""SessionSearch: the sidebar's search of every session's messages, closed ones included
(desktop.md §1), over the derived index ``sessions/<id>/search.txt`` (``core.session.search``).

The sidebar asks (``search_wanted``, ~200 ms after typing stops, or on Enter); the search runs in
a worker thread and its matches (a snippet each) go back to the sidebar. One search runs at a
time: text typed meanwhile is searched once the running search ends, and only the newest text.
A session's index is brought up to date when the session is closed (a cheap incremental scan of
what it appended), so the first search after that reads it instead of the whole log.

Choices where the spec is silent: open sessions are searched both ways: at once through the
message text the controller keeps for the sidebar (their newest events), and through the index
like closed ones (their whole history; the open log is read up to its last complete line).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

from PySide6.QtCore import QObject

from app.controller import AppController
from app.qtasync import TaskRunner
from core.session import jsonl_store as disk
from core.session.search import UNREADABLE, Match, refresh, search
from ui.main_window import MainWindow

_log = logging.getLogger(__name__)


class SessionSearch(QObject):
    """Runs the sidebar's searches and keeps the indexes of closed sessions up to date."""

    def __init__(
        self, window: MainWindow, controller: AppController, tasks: TaskRunner, data_dir: Path
    ) -> None:
        super().__init__(controller)
        self._window = window
        self._controller = controller
        self._tasks = tasks
        self._data_dir = data_dir
        self._lock = threading.Lock()
        """One index writer at a time (a search refreshes the indexes it reads)."""
        self._running: asyncio.Task[object] | None = None
        self._wanted: str | None = None
        self._refreshing: set[asyncio.Task[object]] = set()
        self._stopped = False
        self.searches = 0
        """How many searches ran (for tests)."""
        window.search_wanted.connect(self.search)
        controller.session_closed.connect(self.index_closed)

    @property
    def busy(self) -> bool:
        """A search or an index refresh is running."""
        return self._running is not None

    def search(self, query: str) -> None:
        """Search every listed session's messages for ``query`` (a blank one clears)."""
        if self._stopped:
            return
        if not query.strip():
            self._wanted = None
            self._window.sessions.set_matches("", {})
            return
        self._wanted = query
        if self._running is None:
            self._running = self._tasks.spawn(self._run())

    async def _run(self) -> None:
        try:
            while self._wanted is not None:
                query, self._wanted = self._wanted, None
                ids = self._controller.listing.session_ids()
                found = await asyncio.to_thread(self._search, ids, query)
                self.searches += 1
                self._window.sessions.set_matches(query, {m.session_id: m.snippet for m in found})
        finally:
            self._running = None

    def _search(self, ids: list[str], query: str) -> list[Match]:
        with self._lock:
            return search(self._data_dir, ids, query)

    def index_closed(self, session_id: str) -> None:
        """A session went cold: bring its index up to date in the background."""
        if self._stopped:
            return
        task = self._tasks.spawn(asyncio.to_thread(self._refresh, session_id))
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def stop(self) -> None:
        """The app quits: no new search or refresh starts; the running ones end first (a
        refresh is a short incremental write; a search's answer has nowhere to go)."""
        self._stopped = True
        self._wanted = None
        self._window.sessions.stop_search()
        if self._running is not None:
            self._running.cancel()
        running = [t for t in (self._running, *self._refreshing) if t is not None]
        await asyncio.gather(*running, return_exceptions=True)

    def _refresh(self, session_id: str) -> None:
        with self._lock:
            try:
                refresh(disk.session_dir(self._data_dir, session_id))
            except UNREADABLE as error:  # moved to the trash meanwhile, unreadable: next search
                _log.info("search index of %s not refreshed: %s", session_id, error)
