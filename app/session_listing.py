"""SessionListing: what the sessions sidebar, the reminders overview, the tray's unread list and
the next start's first paint show of the open and the stored sessions.

It reads the stored sessions through the store (in a thread) and hands the window whole values
(``set_sessions``); it opens, closes and writes nothing.

Choices where the spec is silent:
- Reminder badges: an open session shows its live fold's count; a cold one the count its listing
  read (``SessionFileSummary.active_reminders``, from the checkpoint and the bytes after it), and
  no badge when that count is unknown (None).
- The filter searches titles of every session and the loaded message text of open ones.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from app.engine import OpenSession
from app.open_sessions import OpenSessions, translate
from app.session_bridge import reminder_view
from app.start_view import TAIL_ENTRIES, StartView
from core.errors import SessionError
from core.events import Entry
from core.instant import read_instant
from core.session.find import findable_text
from core.session.summary import SessionFileSummary
from ui.all_reminders import ReminderLine
from ui.session_list import SessionListItem

_log = logging.getLogger(__name__)
SEARCH_TEXT_EVENTS = 400


class SessionListing:
    """The sidebar's sessions (open and stored), unread counts and reminder lines."""

    def __init__(self, sessions: OpenSessions) -> None:
        self._sessions = sessions
        self.stored: list[SessionFileSummary] = []
        """The stored sessions as the last listing read them."""
        self.trashed: list[str] = []
        """Sessions moved to the trash, oldest first (Undo restores the last)."""

    async def refresh_sessions(self) -> None:
        """Re-read the stored sessions (in a thread) and redraw the sidebar."""
        try:
            self.stored = await self._sessions.store.list()
        except (SessionError, OSError) as error:
            _log.warning("listing sessions failed: %s", error)
        self.refresh_sidebar()

    def refresh_sidebar(self) -> None:
        self._sessions.window.set_sessions(self._items(), self._sessions.current)

    def session_ids(self) -> list[str]:
        """Every session the sidebar lists, in its order (open ones and stored ones)."""
        return [item.id for item in self._items()]

    def step_session(self, step: int, shown: Sequence[str] = ()) -> str | None:
        """The id ``step`` places after the current one in the sidebar's order as ``shown``
        (groups, pins and folders; its own order when nothing is shown), wrapping."""
        ids = list(shown) or self.session_ids()
        if not ids:
            return None
        current = self._sessions.current
        position = ids.index(current) if current in ids else 0
        return ids[(position + step) % len(ids)]

    def mark_read(self, opened: OpenSession) -> None:
        """Everything of ``opened`` is read now (it is on screen in the active window)."""
        if opened.read_upto == opened.last_seq:
            return
        had = opened.unread
        opened.read_upto = opened.last_seq
        if had:
            self._sessions.unread_changed.emit()
            self.refresh_sidebar()

    def unread_sessions(self) -> list[tuple[str, str, int]]:
        """(id, title, unread reminder turns) of the open sessions with some, newest first."""
        found = [
            (sid, self._sessions.title_of(sid), opened.unread)
            for sid, opened in self._sessions.open.items()
        ]
        return [item for item in reversed(found) if item[2] > 0]

    def reminder_lines(self) -> list[ReminderLine]:
        """Every active reminder of every conversation: the live folds of the open ones, the
        derived summaries of the closed ones (read by ``refresh_sessions``; never opened)."""
        opened_ones = self._sessions.open
        lines = [
            ReminderLine(sid, self._sessions.title_of(sid), view, opened.live)
            for sid, opened in opened_ones.items()
            for view in opened.bridge.active_reminders()
        ]
        for summary in self.stored:
            if summary.id in opened_ones or summary.id in self.trashed:
                continue
            title = stored_title(summary)
            lines += [
                ReminderLine(summary.id, title, reminder_view(r), False) for r in summary.reminders
            ]
        return lines

    def start_view(self) -> StartView:
        """What the next start shows with its first paint (``app.start_view``): the sidebar as it
        is now and the current conversation's title, reminders and tail."""
        opened = self._sessions.current_session()
        items = tuple(self._items())
        if opened is None:
            return StartView(items, None)
        entries = opened.session.entries
        count = len(entries)
        tail = []
        for seq in range(max(0, count - TAIL_ENTRIES), count):
            try:
                tail.append(entries[seq])
            except ValueError:  # an unreadable line: the tail starts after it
                tail.clear()
        return StartView(
            items,
            opened.id,
            opened.session.title,
            opened.bridge.active_reminders(),
            tuple(tail),
            count,
            opened.session.conversation(),
        )

    def _items(self) -> list[SessionListItem]:
        now = self._sessions.parts.clock()
        items = {s.id: _stored_item(s, now) for s in self.stored if s.id not in self.trashed}
        for sid, opened in self._sessions.open.items():
            items[sid] = self._open_item(opened)
        return sorted(items.values(), key=lambda s: (s.last_activity, s.id), reverse=True)

    def _open_item(self, opened: OpenSession) -> SessionListItem:
        session = opened.session
        last = read_instant(session.last_activity) or self._sessions.parts.clock()
        return SessionListItem(
            opened.id,
            self._sessions.title_of(opened.id),
            last,
            reminder_count=len(opened.bridge.active_reminders()),
            live=opened.live,
            unread=opened.unread > 0,
            unread_count=opened.unread,
            read_only=session.read_only,
            search_text=_search_text(session.entries),
            fork=session.header.parent_id is not None,
        )


def _stored_item(summary: SessionFileSummary, now: datetime) -> SessionListItem:
    count = summary.active_reminders or 0
    overdue = any(record.scheduled_datetime <= now for record in summary.reminders)
    return SessionListItem(
        summary.id,
        stored_title(summary),
        summary.last_activity_at,
        reminder_count=count,
        overdue=overdue,
        fork=summary.parent_id is not None,
    )


def stored_title(summary: SessionFileSummary) -> str:
    """A closed session's title as the list shows it."""
    return summary.title or (
        translate("AppController", "Unreadable session")
        if summary.problem
        else translate("AppController", "New session")
    )


def _search_text(entries: Sequence[Entry]) -> str:
    count = len(entries)
    texts = []
    for seq in range(max(0, count - SEARCH_TEXT_EVENTS), count):
        try:
            event = entries[seq].event
        except ValueError:  # a corrupt line of a session not verified yet: nothing to search
            continue
        text = findable_text(event)
        if text is not None:
            texts.append(text)
    return "\n".join(texts)
