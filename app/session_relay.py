"""SessionRelay: each open session's bridge signals, carried to the window for the session on
screen (its entries, stream, busy state, reminders, title, disk trouble) and to the sidebar.

Hands the window values through its methods, never its children; decides nothing about which
session is shown (``app.session_opening``) and starts no work.

Choices where the spec is silent:
- The window title follows the session's title as soon as it has one (its first message).
- A session whose folder vanished while it was open (deleted with the data folder, moved) is said
  at once in the message bar, with its title and the data folder, offering "Export as JSONL"
  when it is on screen (``app.session_actions`` then writes its exports from memory).
- Each live session answers with the provider of its own ``session/model`` choice (agent.md §7),
  resolved again whenever that choice changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine import OpenSession
from app.event_effects import Touches, touches
from app.open_sessions import OpenSessions, translate
from app.session_listing import SessionListing
from core.events import Entry, Event, SessionModel, UserMessage
from core.framing import DueReminder
from core.session.conversation import Conversation
from ui.main_window import request_attention
from ui.screen import ReminderView

LOST_NOTICE_MS = 10 * 60 * 1000
"""How long the sentence about a vanished session folder stays (its close button dismisses it)."""


class SessionRelay:
    """Connects each open session's bridge to the window and the sidebar."""

    def __init__(self, sessions: OpenSessions, listing: SessionListing) -> None:
        self._sessions = sessions
        self._listing = listing

    def connect(self, opened: OpenSession) -> None:
        sid = opened.id
        bridge = opened.bridge
        bridge.event_appended.connect(lambda e: self._on_event(sid, e))
        bridge.streaming.connect(lambda text: self._on_streaming(sid, text))
        bridge.thinking.connect(lambda text: self._on_thinking(sid, text))
        bridge.busy_changed.connect(lambda busy: self._on_busy(sid, busy))
        bridge.schedule_changed.connect(lambda records: self._on_schedule(sid, records))
        bridge.persistence_changed.connect(lambda failed: self._on_persistence(sid, failed))
        bridge.log_lost.connect(lambda _reason: self._on_lost(sid))
        bridge.reminder_arrived.connect(lambda due: self._on_reminder(sid, due))
        bridge.title_changed.connect(lambda _title: self._on_title(sid))

    def _on_event(self, session_id: str, entry: Entry) -> None:
        sessions = self._sessions
        opened = sessions.open.get(session_id)
        shown = session_id == sessions.current
        if opened is not None and shown and sessions.is_active():
            opened.read_upto = entry.seq
        elif isinstance(entry.event, UserMessage) and entry.event.is_reminder:
            sessions.unread_changed.emit()
        effects = touches(entry.event)
        if effects.choice:
            self._on_choice(session_id, entry.event)
        if shown:
            sessions.window.add_entry(entry, self._conversation_after(session_id, effects))
        for observer in sessions.entry_observers:
            observer(session_id, entry)
        if effects.title and shown:
            sessions.window.set_session_title(sessions.open[session_id].session.title)
        if effects.listing:
            self._listing.refresh_sidebar()

    def _on_choice(self, session_id: str, event: Event) -> None:
        """The session chose its model (it answers with it from its next turn) or instructions."""
        opened = self._sessions.open.get(session_id)
        if opened is not None and isinstance(event, SessionModel):
            opened.set_provider(self._sessions.parts.provider_for(event))
        self._sessions.choices_changed.emit(session_id)

    def _on_streaming(self, session_id: str, piece: str) -> None:
        if session_id == self._sessions.current:
            self._sessions.window.show_stream_piece(piece)

    def _on_thinking(self, session_id: str, piece: str) -> None:
        if session_id == self._sessions.current:
            self._sessions.window.show_thinking_piece(piece)

    def _on_busy(self, session_id: str, busy: bool) -> None:
        sessions = self._sessions
        if session_id == sessions.current:
            sessions.window.set_busy(busy)
            sessions.window.set_zone(sessions.parts.zone_source())

    def _on_schedule(self, session_id: str, records: Sequence[ReminderView]) -> None:
        sessions = self._sessions
        opened = sessions.open.get(session_id)
        if session_id == sessions.current and opened is not None:
            delivered = opened.bridge.recent_deliveries()
            sessions.window.set_reminders(records, sessions.parts.zone_source(), delivered)
        self._listing.refresh_sidebar()

    def _on_persistence(self, session_id: str, failed: bool) -> None:
        if session_id == self._sessions.current:
            self._sessions.window.set_persistence_warning(failed)

    def _on_lost(self, session_id: str) -> None:
        """The session's log vanished: say so at once, and offer a copy from memory (the export
        button only when it is on screen: the export acts on the session shown)."""
        sessions = self._sessions
        text = translate(
            "AppController",
            "“{title}” can no longer be saved: its folder in {folder} was deleted or moved. "
            "Chime keeps the conversation open; save a copy elsewhere before quitting.",
        ).format(title=sessions.title_of(session_id), folder=sessions.store.data_dir)
        current = session_id == sessions.current
        sessions.window.notify(text, LOST_NOTICE_MS, "export_jsonl" if current else "")
        if current:
            sessions.window.set_persistence_warning(True)

    def _on_reminder(self, session_id: str, due: Sequence[DueReminder]) -> None:
        sessions = self._sessions
        if session_id == sessions.current:
            prompts = "; ".join(reminder.prompt for reminder in due) or translate(
                "AppController", "(unreadable)"
            )
            sessions.window.announce(translate("AppController", "Reminder: ") + prompts)
        if not sessions.is_active():
            request_attention(sessions.window)
        self._listing.refresh_sidebar()

    def _on_title(self, session_id: str) -> None:
        sessions = self._sessions
        opened = sessions.open.get(session_id)
        if opened is not None and session_id == sessions.current:
            sessions.window.set_session_title(opened.session.title)
        self._listing.refresh_sidebar()

    def _conversation_after(self, session_id: str, effects: Touches) -> Conversation | None:
        """The session's conversation tree after an event that may change what the transcript
        shows of it (agent.md §7); None otherwise (nothing to re-read)."""
        if not effects.conversation:
            return None
        return self._sessions.open[session_id].session.conversation()
