"""SessionActions: what the window's session actions do to a whole session: close, fork, delete
and undo, export, and rename from the list.

Every disk step goes through ``SessionStore`` (threads); each outcome is said in the window's
message bar (``notify``) or the session's banner. It asks nothing: the wiring asks first
(``app.actions_wiring``, with ``app.leave_words``).

Choices where the spec is silent:
- Close makes the current session cold and shows the next open one (or a new session).
- A fork is titled "<title> (fork)", so it can be told from its original.
- Delete, Undo and exports say what they did in the window's message bar; a delete's message
  offers Undo, and the next message replaces it.
- A session whose folder vanished while it was open is exported from memory (JSONL: the exact
  log; Markdown), events not yet saved included, so nothing is lost silently.
"""

from __future__ import annotations

import logging
from pathlib import Path

from app.kept_state import KeptState
from app.open_sessions import OpenSessions, in_words, translate
from app.session_listing import SessionListing
from app.session_opening import SessionOpening
from core.errors import ChimeError
from ui.session_list import fork_title

_log = logging.getLogger(__name__)


class SessionActions:
    """Close, fork, delete, undo, export and rename a session."""

    def __init__(
        self,
        sessions: OpenSessions,
        opening: SessionOpening,
        listing: SessionListing,
        kept: KeptState,
    ) -> None:
        self._sessions = sessions
        self._opening = opening
        self._listing = listing
        self._kept = kept

    async def rename_session(self, session_id: str, title: str) -> None:
        """Rename a session from the list (in place): a closed one is opened first, since
        the title is an event of its log."""
        opened = self._sessions.open.get(session_id) or await self._opening.open_session(
            session_id, show=False
        )
        if opened is not None:
            opened.bridge.rename(title)

    async def close_session(self, session_id: str | None = None) -> None:
        """Make a session cold (flush, stop its owner, release the lock); show another one."""
        sessions = self._sessions
        target = session_id or sessions.current
        opened = sessions.open.pop(target, None) if target else None
        if opened is None or target is None:
            return
        closing = sessions.tasks.share(opened.close())
        sessions.closing[target] = closing
        try:
            await closing
        finally:
            sessions.closing.pop(target, None)
        sessions.session_closed.emit(target)
        sessions.unread_changed.emit()
        if sessions.current == target:
            sessions.current = None
            await self._opening.show_any()
        self._kept.changed()
        await self._listing.refresh_sessions()

    async def fork_current(self) -> None:
        """Fork the current session from its last good turn into a new live session."""
        sessions = self._sessions
        opened = sessions.current_session()
        if opened is None:
            return
        if not opened.session.read_only:
            await opened.session.flush()
        failed = translate("AppController", "Could not fork: ")
        try:
            child = await sessions.store.fork(opened.id, len(opened.session.entries))
        except ChimeError as error:
            sessions.window.notify(failed + str(error))
            return
        except OSError as error:
            _log.warning("cannot fork %s: %s", opened.id, error)
            sessions.say_above(opened, failed + sessions.cannot_write(error))
            return
        forked = self._opening.adopt(child, show=True)
        title = opened.session.title or translate("AppController", "New session")
        forked.bridge.rename(fork_title(title))
        await self._listing.refresh_sessions()

    async def delete_current(self) -> None:
        """Move the current session to the trash (Undo restores it)."""
        sessions = self._sessions
        target = sessions.current
        if target is None:
            return
        title = sessions.title_of(target)
        await self.close_session(target)
        try:
            await sessions.store.trash(target)
        except (ChimeError, OSError) as error:
            failed = translate("AppController", "Could not delete: ")
            sessions.window.notify(failed + in_words(error))
            return
        self._listing.trashed.append(target)
        text = translate("AppController", "“{title}” moved to the trash. Undo: Ctrl+Shift+T")
        sessions.window.notify(text.format(title=title), 15000, action="undo_delete")
        await self._listing.refresh_sessions()

    async def undo_delete(self) -> None:
        """Restore the most recently deleted session and open it."""
        sessions = self._sessions
        if not self._listing.trashed:
            return
        target = self._listing.trashed.pop()
        await sessions.store.restore(target)
        restored = await self._opening.open_session(target)
        if restored is not None:
            text = translate("AppController", "“{title}” is back.")
            sessions.window.notify(text.format(title=sessions.title_of(target)), 6000)
        await self._listing.refresh_sessions()

    async def export_current(self, kind: str, target: Path) -> None:
        """Write the current session as Markdown or raw JSONL to ``target``."""
        sessions = self._sessions
        current = sessions.current
        if current is None:
            return
        opened = sessions.current_session()
        if opened is not None and not opened.session.read_only:
            await opened.session.flush()
        store, zone = sessions.store, sessions.parts.zone_source()
        try:
            if opened is not None and opened.session.lost is not None:  # from memory
                await store.export_live(opened.session, kind, target, zone)
            elif kind == "markdown":
                await store.export_markdown(current, target, zone)
            else:
                await store.export_jsonl(current, target)
        except (ChimeError, OSError) as error:
            text = translate("AppController", "Could not export to {target}: {reason}")
            sessions.window.notify(text.format(target=target, reason=in_words(error)), 15000)
            return
        sessions.window.notify(translate("AppController", "Exported to ") + str(target))
