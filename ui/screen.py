"""What the window shows of one session, as frozen values the app hands over whole. Pure: no Qt.

The app decides (``app.controller``); the window only renders: ``MainWindow.show_session(screen)``
puts a whole ``SessionScreen`` on screen, and the small ``MainWindow`` setters update one part of
it (a new entry, the streamed text, the reminders, busy, the persistence warning).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from core.events import Entry
from core.frozen import frozen
from ui.shown_path import ShownConversation


@frozen
class ReminderView:
    """One active reminder as the reminders panel shows it (the app builds it from the schedule
    fold's record; the widgets never import the schedule package, which loads pydantic and
    asyncio and would slow the first paint)."""

    id: str
    kind: Literal["after", "at", "every"]
    prompt: str
    scheduled_at: datetime
    every_seconds: int | None = None


@frozen
class DeliveredView:
    """A reminder that was delivered recently, as the panel lists it when none is active: its
    text, the time it was due and the time it arrived (the app reads them from the log's
    reminder turns)."""

    prompt: str
    due_at: datetime
    delivered_at: datetime | None


@frozen
class SessionAccess:
    """How the session on screen may be used: the status-bar state, the banner, the composer.

    ``banner`` is None when no banner shows; ``fork_label`` names its button when ``offer_fork``
    (empty: the default "Fork from last good turn"). ``placeholder`` is the composer's text when
    it is not ``writable``.
    """

    state: str
    detail: str = ""
    banner: str | None = None
    offer_fork: bool = False
    fork_label: str = ""
    writable: bool = True
    placeholder: str = ""

    def with_banner(self, banner: str) -> SessionAccess:
        """The same access with another banner sentence, and no fork offered for it."""
        return SessionAccess(
            self.state, self.detail, banner, False, "", self.writable, self.placeholder
        )


@frozen
class SessionScreen:
    """Everything ``show_session`` needs: the transcript's entries (a lazy sequence), the zone its
    times are shown in, the active reminders (and the recently delivered ones), the access, what
    runs, and the answer (and its thinking) streamed so far (a session shown while it answers). ``conversation`` is
    the session's conversation tree (its shown path, agent.md §7; None: every event is shown)."""

    title: str | None
    entries: Sequence[Entry]
    zone_name: str | None
    reminders: tuple[ReminderView, ...]
    access: SessionAccess
    busy: bool = False
    persistence_failed: bool = False
    streaming: str = ""
    delivered: tuple[DeliveredView, ...] = ()
    thinking: str = ""
    """The streamed answer's thinking so far (shown folded at the top of its row)."""
    conversation: ShownConversation | None = None
