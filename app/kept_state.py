"""KeptState: what state.json keeps across starts of the open sessions: which are live, which is
shown, how far each was read, each conversation's unsent message, and the window's geometry.

Writes state.json through ``app.state`` (small, on the GUI thread, as before); reads the message
box only through the window's ``draft``/``replace_draft``. It opens and shows nothing.

Choices where the spec is silent:
- Each conversation keeps its own unsent message: switching away keeps it, coming back shows it;
  the first one shown keeps what was typed before the engine ran.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from app.open_sessions import OpenSessions
from app.state import AppState, write_state

_log = logging.getLogger(__name__)


class KeptState:
    """state.json's view of the open sessions, and the drafts of those not on screen."""

    def __init__(
        self,
        sessions: OpenSessions,
        *,
        read_upto: Mapping[str, int] | None = None,
        drafts: Mapping[str, str] | None = None,
    ) -> None:
        self._sessions = sessions
        self._read_upto = dict(read_upto or {})
        """What state.json said was read of each session (taken when the session opens)."""
        self._drafts: dict[str, str] = dict(drafts or {})
        """The unsent message of each conversation not on screen (the one shown is in the box)."""
        self.writes = True
        """False once quitting has recorded the sessions (their closes change nothing then)."""

    def read_upto(self, session_id: str, default: int) -> int:
        """How far the session was read when the last run ended (``default`` when not known)."""
        return self._read_upto.pop(session_id, default)

    def write_state(self, geometry: str = "") -> None:
        """Record the live sessions. An instance that holds none (a second instance showing
        sessions read-only) leaves state.json to the instance that owns them."""
        sessions = self._sessions
        live = tuple(sid for sid, o in sessions.open.items() if not o.session.read_only)
        if not live:
            return
        current = sessions.current if sessions.current in live else live[0]
        read = tuple((sid, sessions.open[sid].read_upto) for sid in live)
        state = AppState(
            live,
            current,
            geometry,
            recent_models=sessions.recent_models,
            read_upto=read,
            tray_explained=sessions.tray_explained,
            drafts=tuple(self.drafts().items()),
        )
        try:
            write_state(sessions.data_dir, state)
        except OSError as error:
            _log.warning("cannot write state.json: %s", error)

    def changed(self) -> None:
        """The open sessions or the one shown changed: record them (unless quitting)."""
        if self.writes:
            self.write_state(self._sessions.window.saved_geometry())

    def swap_draft(self, previous: str | None, shown: str) -> None:
        """Each conversation keeps its own unsent message: the one left is kept for it, the one
        shown gets its own back. The first one shown keeps what was typed before the engine ran
        (its kept draft comes back only into an empty message box)."""
        if previous == shown:
            return
        window = self._sessions.window
        kept = self._drafts.pop(shown, "")
        if previous is None:
            if kept and not window.draft():
                window.replace_draft(kept)
            return
        left = window.draft()
        if left.strip():
            self._drafts[previous] = left
        window.replace_draft(kept)

    def drafts(self) -> dict[str, str]:
        """The unsent message of each open conversation that has one (state.json keeps them)."""
        sessions = self._sessions
        found = {sid: text for sid, text in self._drafts.items() if sid in sessions.open}
        typed = sessions.window.draft()
        if sessions.current is not None and typed.strip():
            found[sessions.current] = typed
        return found
