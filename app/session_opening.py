"""SessionOpening: opening a session (live, or read-only), creating one, taking over one another
Chime let go, and putting one on screen as a whole ``SessionScreen``.

Every disk step goes through ``SessionStore`` (threads); background work (verification
watchers) starts through the task runner. It talks to the window through values
(``show_session``, ``set_access``, ``notify``), never its children; it closes nothing
(``app.session_actions``).

Choices where the spec is silent:
- Switching to a session in the sidebar opens it (it becomes live) and keeps the others open.
- New session (Ctrl+N) shows an open session that has no message yet instead of making another
  empty one.
- A session shown read-only because another Chime has it open is taken over: every
  ``TAKE_OVER_SECONDS`` (``app.controller``) ``take_over_released`` looks whether its lock is
  free, and then reopens it live here (re-read from disk, so what the other instance wrote is
  shown) in place of the copy.
- With no session at all (none could be created) the composer is disabled and says why.
"""

from __future__ import annotations

import asyncio
import gc
import logging

from app.engine import OpenSession, compose, start
from app.kept_state import KeptState
from app.open_sessions import OpenSessions, in_words, translate
from app.session_listing import SessionListing
from app.session_relay import SessionRelay
from core.errors import ChimeError
from core.session.live import LiveSession
from core.session.store import OPEN_ELSEWHERE
from ui.i18n import QT_TRANSLATE_NOOP
from ui.screen import SessionAccess, SessionScreen

_log = logging.getLogger(__name__)
TORN = QT_TRANSLATE_NOOP(
    "AppController", "A session log's incomplete last write (never saved) was set aside as {name}."
)


class SessionOpening:
    """Opens, creates and shows sessions."""

    def __init__(
        self,
        sessions: OpenSessions,
        listing: SessionListing,
        kept: KeptState,
        relay: SessionRelay,
    ) -> None:
        self._sessions = sessions
        self._listing = listing
        self._kept = kept
        self._relay = relay
        self.watching: set[asyncio.Task[object]] = set()
        """Verification watchers still running (quitting waits for them)."""

    async def open_session(self, session_id: str, *, show: bool = True) -> OpenSession | None:
        """Open a session (live, or read-only when it is locked elsewhere or corrupt). One chosen
        again while it is being closed opens once that close has released its lock."""
        sessions = self._sessions
        if session_id in sessions.open:
            if show:
                self.show_session(session_id)
            return sessions.open[session_id]
        closing = sessions.closing.get(session_id)
        if closing is not None:  # chosen again while closing: its lock is still ours, wait
            await asyncio.wait({closing})
            if session_id in sessions.open:  # another choice reopened it meanwhile
                return await self.open_session(session_id, show=show)
        try:
            session = await sessions.store.open(session_id)
        except (ChimeError, OSError) as error:
            _log.warning("cannot open session %s: %s", session_id, error)
            failed = translate("AppController", "Could not open the session: ")
            sessions.window.notify(failed + in_words(error))
            return None
        return self.adopt(session, show=show)

    async def take_over_released(self) -> list[str]:
        """Open live here the sessions shown read-only because another instance had them open
        and has let them go; returns their ids."""
        sessions = self._sessions
        taken = []
        for session_id, opened in list(sessions.open.items()):
            if opened.session.read_only_reason != OPEN_ELSEWHERE:
                continue
            if (
                not await sessions.store.lock_is_free(session_id)
                or sessions.open.get(session_id) is not opened
            ):
                continue
            del sessions.open[session_id]
            await opened.close()
            shown = sessions.current == session_id
            if await self.open_session(session_id, show=shown) is not None:
                taken.append(session_id)
            elif sessions.current == session_id:  # it could not be opened again: show another
                sessions.current = None
                await self.show_any()
        if taken:
            self._listing.refresh_sidebar()
        return taken

    async def show_any(self) -> None:
        """Show the newest open session, or a new one when none is open."""
        if self._sessions.open:
            self.show_session(next(reversed(list(self._sessions.open))))
        else:
            await self.new_session()

    async def new_session(self) -> None:
        """Create a session and show it (Ctrl+N); an open session without messages is shown
        instead of a second empty one. When it cannot be created the banner says why and the
        session on screen (if any) stays."""
        sessions = self._sessions
        blank = self._blank_session()
        if blank is not None:
            self.show_session(blank)
            sessions.window.focus_composer()
            return
        try:
            session = await sessions.store.create()
        except OSError as error:
            _log.warning("cannot create a session in %s: %s", sessions.data_dir, error)
            self._cannot_create(sessions.cannot_write(error))
            return
        except ChimeError as error:
            _log.warning("cannot create a session: %s", error)
            self._cannot_create(str(error))
            return
        self.adopt(session, show=True)
        sessions.session_created.emit(session.id)
        sessions.window.focus_composer()

    def _blank_session(self) -> str | None:
        """An open, writable session with no message yet (the current one first)."""
        open_ones, current = self._sessions.open, self._sessions.current
        order = [current, *reversed(list(open_ones))] if current else list(open_ones)
        for session_id in order:
            opened = open_ones.get(session_id) if session_id else None
            if opened is not None and not opened.session.read_only and _has_no_message(opened):
                return opened.id
        return None

    def _cannot_create(self, why: str) -> None:
        sessions = self._sessions
        text = translate("AppController", "Could not create a new session. ") + why
        sessions.window.notify(text, 15000)
        opened = sessions.current_session()
        if opened is not None:  # it stays on screen, with the reason above it
            sessions.say_above(opened, text)
            return
        nothing = SessionAccess(
            translate("AppController", "not saved"),
            text,
            banner=text,
            writable=False,
            placeholder=translate("AppController", "Nothing can be saved — see above."),
        )
        sessions.window.show_no_session(nothing, sessions.parts.zone_source())

    def adopt(self, session: LiveSession, *, show: bool) -> OpenSession:
        """Make an opened or created session one of the open ones (its engine started)."""
        sessions = self._sessions
        opened = compose(session, sessions.parts, sessions)
        opened.read_upto = self._kept.read_upto(opened.id, opened.last_seq)
        sessions.open[opened.id] = opened
        if opened.unread:  # reminder turns that came while the person was away, before a restart
            sessions.unread_changed.emit()
        self._relay.connect(opened)
        start(opened)
        if show:
            self.show_session(opened.id)
        else:
            self._kept.changed()
        if session.torn_tail is not None:
            torn = translate("AppController", TORN).format(name=session.torn_tail.name)
            sessions.window.notify(torn, 30000)
        if not session.verified:
            watcher = sessions.tasks.spawn(self._after_verification(opened))
            self.watching.add(watcher)
            watcher.add_done_callback(self.watching.discard)
        return opened

    async def _after_verification(self, opened: OpenSession) -> None:
        """A warm open showed the checkpoint's state at once; when its verification says that
        state did not stand, show the re-scanned one: transcript, reminders, title, and the
        read-only banner (its owner and agent stopped) when the session turned read-only."""
        try:
            stood = await opened.session.verification()
        except asyncio.CancelledError:  # its loop or the session went away first
            return
        open_ones = self._sessions.open
        if stood or open_ones.get(opened.id) is not opened:
            return
        _log.warning("session %s: state refreshed after its verification", opened.id)
        if opened.session.read_only:
            await opened.demote()
        if open_ones.get(opened.id) is not opened:
            return
        if self._sessions.current == opened.id:
            self.show_session(opened.id)
        else:
            self._listing.refresh_sidebar()

    def show_session(self, session_id: str) -> None:
        """Put an open session on screen: transcript, reminders, title, state, banner, composer."""
        sessions = self._sessions
        opened = sessions.open[session_id]
        previous, sessions.current = sessions.current, session_id
        if previous != session_id:
            sessions.window.leave_conversation()
        self._listing.mark_read(opened)  # shown because it was chosen (or the app started on it)
        session, bridge = opened.session, opened.bridge
        screen = SessionScreen(
            session.title,
            session.entries,
            sessions.parts.zone_source(),
            bridge.active_reminders(),
            sessions.access(opened),
            busy=bridge.is_busy(),
            persistence_failed=bridge.persistence_failed(),
            streaming=bridge.stream_so_far(),
            thinking=bridge.thinking_so_far(),
            delivered=bridge.recent_deliveries(),
            conversation=session.conversation(),
        )
        sessions.window.show_session(screen)
        self._kept.swap_draft(previous, session_id)
        sessions.window.show_attachments(opened.attachments)
        self._kept.changed()
        self._listing.refresh_sidebar()
        sessions.session_shown.emit(session_id)
        # The loaded session's objects are long-lived: keep them out of the cyclic collector's
        # full passes, which otherwise stall a scroll frame by ~50 ms (bench/ui_bench.py).
        gc.freeze()


def _has_no_message(opened: OpenSession) -> bool:
    """The session holds no user message (a new one, perhaps renamed): no turn has started and
    no input waits (every message is one or the other)."""
    queue = opened.session.inputs()
    return queue.last_turn == 0 and not queue.pending
