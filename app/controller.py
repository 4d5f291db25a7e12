"""AppController: the window's sessions, composed of small flows over one shared state.

It is the ``OpenSessions`` every flow shares (the open sessions, the one on screen, the engine's
parts, the signals) and composes the flows that act on it, one concern each:

- ``listing`` (``app.session_listing``): the sidebar, unread counts, reminder lines, start view;
- ``kept`` (``app.kept_state``): state.json and each conversation's unsent message;
- ``relay`` (``app.session_relay``): each session's bridge signals, to the window and sidebar;
- ``opening`` (``app.session_opening``): open, create, take over and show a session;
- ``actions`` (``app.session_actions``): close, fork, delete and undo, export, rename from the list;
- ``turns`` (``app.turn_flow``): send, stop, retry, rename, and the providers that answer.

What it does itself is the lifetime: ``start`` (probe the data folder, reopen the sessions of
state.json), the take-over probe, ``redrive_all``, ``unsaved`` and ``shutdown``; its other methods
are the few entry points most callers use, handed to the flow that owns them. The leave warning is
``app.leave_words``. Every disk step goes through ``SessionStore`` (threads) or ``app.state``;
nothing here blocks the GUI thread for long, and nothing reaches into the window's children.

Choices where the spec is silent (the others are in the flows' docstrings):
- A data folder that cannot be written is probed at start and said in the banner, with the reason
  and the fix; sessions still open (read-only) and nothing raises.
- A session shown read-only because another Chime has it open is looked at every
  ``TAKE_OVER_SECONDS`` and reopened live here once its lock is free.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from app.engine import EngineParts, OpenSession
from app.kept_state import KeptState
from app.open_sessions import OpenSessions
from app.paths import writable_problem
from app.qtasync import TaskRunner
from app.session_actions import SessionActions
from app.session_listing import SessionListing
from app.session_opening import SessionOpening
from app.session_relay import SessionRelay
from app.state import RecentModel
from app.turn_flow import TurnFlow, answers_offline, image_refusal
from core.errors import ChimeError
from core.events import SessionModel
from core.llm.provider import ModelProvider
from core.session.store import SessionStore
from ui.main_window import MainWindow

__all__ = ["AppController", "answers_offline"]

_log = logging.getLogger(__name__)
TAKE_OVER_SECONDS = 2.0


class AppController(OpenSessions):
    """The window's sessions and the flows on them. Signals: see ``app.open_sessions``."""

    def __init__(
        self,
        window: MainWindow,
        store: SessionStore,
        parts: EngineParts,
        data_dir: Path,
        tasks: TaskRunner,
        *,
        is_active: Callable[[], bool] = lambda: True,
        recent_models: tuple[RecentModel, ...] = (),
        read_upto: Mapping[str, int] | None = None,
        drafts: Mapping[str, str] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(
            window,
            store,
            parts,
            data_dir,
            tasks,
            is_active=is_active,
            recent_models=recent_models,
            parent=parent,
        )
        self.listing = SessionListing(self)
        self.kept = KeptState(self, read_upto=read_upto, drafts=drafts)
        self.relay = SessionRelay(self, self.listing)
        self.opening = SessionOpening(self, self.listing, self.kept, self.relay)
        self.actions = SessionActions(self, self.opening, self.listing, self.kept)
        self.turns = TurnFlow(self)
        self._take_over = QTimer(self)
        self._take_over.setInterval(int(TAKE_OVER_SECONDS * 1000))
        self._take_over.timeout.connect(lambda: self.tasks.spawn(self.opening.take_over_released()))

    # -- lifetime --------------------------------------------------------------------------
    async def start(self, wanted: list[str], current: str | None) -> None:
        """Open ``wanted`` sessions (catching up their reminders) and show ``current``; with
        none that can be opened, start a new session."""
        problem = await asyncio.to_thread(writable_problem, self.data_dir)
        if problem is not None:
            self.storage_problem = self.cannot_write(problem)
            _log.warning("%s", self.storage_problem)
        self._take_over.start()
        for session_id in wanted:
            await self.opening.open_session(session_id, show=False)
        if not self.open:
            await self.opening.new_session()
            return
        self.opening.show_session(current if current in self.open else next(iter(self.open)))
        self.window.focus_composer()

    def redrive_all(self) -> None:
        """App activated or the wall clock jumped: every owner re-reads the clock."""
        for opened in self.open.values():
            opened.redrive()

    async def unsaved(self) -> int:
        """How many changes of the live sessions are still not on disk after one more barrier
        each (a full disk): what quitting now would lose."""
        count = 0
        for opened in list(self.open.values()):
            session = opened.session
            if not session.read_only and not await session.flush():
                count += len(session.entries) - session.durable_count
        return count

    async def shutdown(self, geometry: str = "") -> None:
        """Quit: record the open sessions, then flush and close every one of them (and let a
        close already under way finish: the loop ends right after)."""
        self.kept.write_state(geometry)
        self.kept.writes = False
        self._take_over.stop()
        watching = self.opening.watching
        await asyncio.gather(*watching, return_exceptions=True)  # closing waits for it too
        await asyncio.gather(*self.closing.values(), return_exceptions=True)
        for opened in list(self.open.values()):
            try:
                await opened.close()
            except (ChimeError, OSError) as error:
                _log.warning("closing %s failed: %s", opened.id, error)
        self.open.clear()

    # -- the entry points most callers use, each handed to its flow -------------------------
    async def open_session(self, session_id: str, *, show: bool = True) -> OpenSession | None:
        return await self.opening.open_session(session_id, show=show)

    async def new_session(self) -> None:
        await self.opening.new_session()

    def show_session(self, session_id: str) -> None:
        self.opening.show_session(session_id)

    async def refresh_sessions(self) -> None:
        await self.listing.refresh_sessions()

    def mark_current_read(self) -> None:
        """The window became active (or was brought back): the current session is read."""
        opened = self.current_session()
        if opened is not None and self.is_active():
            self.listing.mark_read(opened)

    def reveal(self, seq: int) -> None:
        """Show the current session's message ``seq`` (a notification's turn)."""
        self.window.reveal_message(seq)

    def write_state(self, geometry: str = "") -> None:
        self.kept.write_state(geometry)

    async def submit(self, text: str) -> None:
        await self.turns.submit(text)

    def stop(self) -> None:
        self.turns.stop()

    def retry(self) -> None:
        self.turns.retry()

    def rename(self, title: str) -> None:
        self.turns.rename(title)

    def set_provider(
        self,
        factory: Callable[[], ModelProvider],
        chosen: Callable[[SessionModel], ModelProvider | None] | None = None,
    ) -> None:
        self.turns.set_provider(factory, chosen)

    def image_refusal(self) -> str:
        return image_refusal()
