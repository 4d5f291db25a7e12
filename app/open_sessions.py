"""OpenSessions: what the session flows share: the open sessions, the one on screen, the
engine's parts, and the signals the other flows follow.

It holds state and says how a session may be used (``access``); it starts nothing and never
reaches into the window's children. The flows that act on it (``app.session_opening``,
``app.session_relay``, ``app.session_listing``, ``app.session_actions``, ``app.turn_flow``,
``app.kept_state``) are composed by ``app.controller.AppController``, which is one.

Choices where the spec is silent:
- A data folder that cannot be written (probed at start, or a new session that cannot be created)
  is said in the banner, with the reason and the fix; sessions still open (read-only) and nothing
  raises.

Signals (for the flows of the per-session choices, attachments and search):
    session_shown(str): this session was put on screen.
    choices_changed(str): this session's model, temperature or instructions changed.
    session_closed(str): this session was made cold (its log is complete on disk).
    session_created(str): a new, empty session was made live by New session (before any input).
    unread_changed(): an open session's count of unread reminder turns changed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.engine import EngineParts, OpenSession
from app.qtasync import TaskRunner
from app.state import RecentModel
from core.events import Entry
from core.session.store import SessionStore
from ui.main_window import MainWindow
from ui.screen import SessionAccess

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("AppController", …)


class OpenSessions(QObject):
    """The open sessions and the one on screen. Signals: see the module docstring."""

    session_shown = Signal(str)
    choices_changed = Signal(str)
    session_closed = Signal(str)
    session_created = Signal(str)
    unread_changed = Signal()

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
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.window = window
        self.store = store
        self.parts = parts
        self.data_dir = data_dir
        self.tasks = tasks
        self.is_active = is_active
        """Whether the window is the active one (a reminder turn shown there is read)."""
        self.open: dict[str, OpenSession] = {}
        self.current: str | None = None
        self.closing: dict[str, asyncio.Future[None]] = {}
        """Sessions whose close (flush, lock release) is still running, by id."""
        self.storage_problem: str | None = None
        """Why the data folder cannot be written (shown in the banner), or None."""
        self.recent_models = recent_models
        """The model picker's recent choices, newest first (kept in state.json)."""
        self.tray_explained = False
        """Closing into the tray was explained once (kept in state.json)."""
        self.entry_observers: list[Callable[[str, Entry], None]] = []
        """Called with (session id, entry) after each new entry of an open session (find)."""

    def current_session(self) -> OpenSession | None:
        return self.open.get(self.current) if self.current else None

    def title_of(self, session_id: str) -> str:
        """An open session's title as the window says it ("New session" until it has one)."""
        opened = self.open.get(session_id)
        title = opened.session.title if opened is not None else None
        return title or translate("AppController", "New session")

    def cannot_write(self, error: OSError) -> str:
        """The sentence for a data folder that cannot be written, with the reason and the fix."""
        reason = error.strerror or str(error)
        return translate(
            "AppController",
            "Chime cannot write to {folder}: {reason}. Conversations cannot be saved; choose "
            "another folder with --data-dir or fix its permissions.",
        ).format(folder=self.data_dir, reason=reason)

    def say_above(self, opened: OpenSession, text: str) -> None:
        """A failure the session on screen shows in its banner (no fork offered for it)."""
        self.window.set_access(self.access(opened).with_banner(text))

    def access(self, opened: OpenSession) -> SessionAccess:
        """How the session may be used: live, read-only (open elsewhere), corrupt, or shown on a
        folder that cannot be written (then the banner says so)."""
        reason = opened.session.read_only_reason or ""
        banner = self.storage_problem
        if not opened.session.read_only:
            return SessionAccess(translate("AppController", "live"), banner=banner)
        if banner is not None:  # forking would fail too: say what fixes it
            return SessionAccess(
                translate("AppController", "read-only: folder not writable"),
                reason,
                banner=banner,
                writable=False,
                placeholder=translate("AppController", "Read-only — nothing can be saved here."),
            )
        corrupt = "corrupt" in reason
        return SessionAccess(
            translate("AppController", "corrupt")
            if corrupt
            else translate("AppController", "read-only: open elsewhere"),
            reason,
            banner=reason or translate("AppController", "This session is read-only."),
            offer_fork=True,
            fork_label=""
            if corrupt
            else translate("AppController", "Fork a copy to continue here"),
            writable=False,
            placeholder=translate("AppController", "Read-only session — fork it to continue."),
        )


def in_words(error: Exception) -> str:
    """A disk error's reason without its errno and path ("Permission denied"), else the message."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
