"""AppController: the open sessions, the current one, and the window's actions on them.

Owns the set of open (live or read-only) sessions, which one is on screen, state.json and the
sessions sidebar's contents; connects each session's bridge to the window. Every disk step goes
through ``SessionStore`` (threads) or ``app.state``; nothing here blocks the GUI thread for long.
Background work (verification watchers, closes) starts through the ``TaskRunner`` it is given.

Choices where the spec is silent:
- Switching to a session in the sidebar opens it (it becomes live) and keeps the others open;
  Close makes the current one cold and shows the next open one (or a new session).
- Reminder badges: an open session shows its live fold's count; a cold one the count its listing
  read (``SessionFileSummary.active_reminders``, from the checkpoint and the bytes after it), and
  no badge when that count is unknown (None).
- The filter searches titles of every session and the loaded message text of open ones.
- New session (Ctrl+N) shows an open session that has no message yet instead of making another
  empty one; a fork is titled "<title> (fork)", so it can be told from its original.
- The window title follows the session's title as soon as it has one (its first message).
- Delete, Undo and exports say what they did in the window's message bar; a delete's message
  offers Undo, and the next message replaces it.
- A session whose folder vanished while it was open (deleted with the data folder, moved) is said
  at once in the message bar, with its title and the data folder, offering "Export as JSONL"
  when it is on screen; its exports (JSONL: the exact log; Markdown) are then written from
  memory, events not yet saved included, so nothing is lost silently.
- A session shown read-only because another Chime has it open is taken over: every
  ``TAKE_OVER_SECONDS`` the controller looks whether its lock is free, and then reopens it live
  here (re-read from disk, so what the other instance wrote is shown) in place of the copy.
- A data folder that cannot be written (probed at start, or a new session that cannot be created)
  is said in the banner, with the reason and the fix; sessions still open (read-only) and nothing
  raises. With no session at all the composer is disabled and says why.
- Closing or deleting a live session with active reminders, or quitting while open sessions have
  some, is said first in one sentence with the count and the next due time (``leave_warning``;
  the wiring asks it, with "Don't ask again"): closed, they wait until the session is opened
  again; deleted, they stop (Undo brings the session back with them).
- Each live session answers with the provider of its own ``session/model`` choice (agent.md §7),
  resolved again whenever that choice or the app's settings change; a session without one
  follows the settings. Files added to a message wait in their own session (they are stored in
  its folder) and are sent with its next message; a message of files only is allowed.

Signals (for the flows of the per-session choices, attachments and search):
    session_shown(str): this session was put on screen.
    choices_changed(str): this session's model, temperature or instructions changed.
    session_closed(str): this session was made cold (its log is complete on disk).
    session_created(str): a new, empty session was made live by New session (before any input).
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from app.engine import EngineParts, OpenSession, compose, start
from app.event_effects import Touches, touches
from app.paths import writable_problem
from app.qtasync import TaskRunner
from app.session_bridge import reminder_view
from app.start_view import TAIL_ENTRIES, StartView
from app.state import AppState, RecentModel, write_state
from core.errors import ChimeError, SessionError
from core.events import Attachment, Entry, Event, SessionModel, UserMessage
from core.framing import DueReminder
from core.instant import read_instant
from core.llm.provider import ModelProvider
from core.readable import zone_or_utc
from core.session.conversation import Conversation
from core.session.find import findable_text
from core.session.live import LiveSession
from core.session.store import OPEN_ELSEWHERE, SessionStore
from core.session.summary import SessionFileSummary
from ui.all_reminders import ReminderLine
from ui.dialogs import LeaveWarning
from ui.i18n import QT_TRANSLATE_NOOP
from ui.main_window import MainWindow, request_attention
from ui.screen import ReminderView, SessionAccess, SessionScreen
from ui.session_list import SessionListItem, fork_title
from ui.timefmt import short_day, short_month

_log = logging.getLogger(__name__)
SEARCH_TEXT_EVENTS = 400
TAKE_OVER_SECONDS = 2.0
LOST_NOTICE_MS = 10 * 60 * 1000
"""How long the sentence about a vanished session folder stays (its close button dismisses it)."""
TORN = QT_TRANSLATE_NOOP(
    "AppController", "A session log's incomplete last write (never saved) was set aside as {name}."
)

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("LeaveWarning", …)
OFFLINE_PROVIDER = "offline"
"""``ModelInfo.provider`` of the offline assistant."""


class AppController(QObject):
    """The window's sessions. Signals: see the module docstring."""

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
        read_upto: Mapping[str, int] | None = None,
        drafts: Mapping[str, str] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.window = window
        self.store = store
        self.parts = parts
        self.data_dir = data_dir
        self._tasks = tasks
        self._is_active = is_active
        self.open: dict[str, OpenSession] = {}
        self.current: str | None = None
        self._stored: list[SessionFileSummary] = []
        self._trashed: list[str] = []
        self._writes_state = True
        self._watching: set[asyncio.Task[object]] = set()
        """Verification watchers still running (quitting waits for them)."""
        self._closing: dict[str, asyncio.Future[None]] = {}
        """Sessions whose close (flush, lock release) is still running, by id."""
        self.storage_problem: str | None = None
        """Why the data folder cannot be written (shown in the banner), or None."""
        self._take_over = QTimer(self)
        self._take_over.setInterval(int(TAKE_OVER_SECONDS * 1000))
        self._take_over.timeout.connect(lambda: self._tasks.spawn(self.take_over_released()))
        self.recent_models = recent_models
        """The model picker's recent choices, newest first (kept in state.json)."""
        self.tray_explained = False
        """Closing into the tray was explained once (kept in state.json)."""
        self._read_upto = dict(read_upto or {})
        self._drafts: dict[str, str] = dict(drafts or {})
        """The unsent message of each conversation not on screen (the one shown is in the box)."""
        """What state.json said was read of each session (taken when the session opens)."""
        self.entry_observers: list[Callable[[str, Entry], None]] = []
        """Called with (session id, entry) after each new entry of an open session (find)."""

    # -- opening and showing -------------------------------------------------------------
    async def start(self, wanted: list[str], current: str | None) -> None:
        """Open ``wanted`` sessions (catching up their reminders) and show ``current``; with
        none that can be opened, start a new session."""
        problem = await asyncio.to_thread(writable_problem, self.data_dir)
        if problem is not None:
            self.storage_problem = self._cannot_write(problem)
            _log.warning("%s", self.storage_problem)
        self._take_over.start()
        for session_id in wanted:
            await self.open_session(session_id, show=False)
        if not self.open:
            await self.new_session()
            return
        self.show_session(current if current in self.open else next(iter(self.open)))
        self.window.focus_composer()

    async def open_session(self, session_id: str, *, show: bool = True) -> OpenSession | None:
        """Open a session (live, or read-only when it is locked elsewhere or corrupt). One chosen
        again while it is being closed opens once that close has released its lock."""
        if session_id in self.open:
            if show:
                self.show_session(session_id)
            return self.open[session_id]
        closing = self._closing.get(session_id)
        if closing is not None:  # chosen again while closing: its lock is still ours, wait
            await asyncio.wait({closing})
            if session_id in self.open:  # another choice reopened it meanwhile
                return await self.open_session(session_id, show=show)
        try:
            session = await self.store.open(session_id)
        except (ChimeError, OSError) as error:
            _log.warning("cannot open session %s: %s", session_id, error)
            self.window.notify(self.tr("Could not open the session: ") + _in_words(error))
            return None
        return self._adopt(session, show=show)

    async def take_over_released(self) -> list[str]:
        """Open live here the sessions shown read-only because another instance had them open
        and has let them go; returns their ids."""
        taken = []
        for session_id, opened in list(self.open.items()):
            if opened.session.read_only_reason != OPEN_ELSEWHERE:
                continue
            if (
                not await self.store.lock_is_free(session_id)
                or self.open.get(session_id) is not opened
            ):
                continue
            del self.open[session_id]
            await opened.close()
            if await self.open_session(session_id, show=self.current == session_id) is not None:
                taken.append(session_id)
            elif self.current == session_id:  # it could not be opened again: show another
                self.current = None
                await self._show_any()
        if taken:
            self.refresh_sidebar()
        return taken

    async def _show_any(self) -> None:
        if self.open:
            self.show_session(next(reversed(list(self.open))))
        else:
            await self.new_session()

    async def new_session(self) -> None:
        """Create a session and show it (Ctrl+N); an open session without messages is shown
        instead of a second empty one. When it cannot be created the banner says why and the
        session on screen (if any) stays."""
        blank = self._blank_session()
        if blank is not None:
            self.show_session(blank)
            self.window.focus_composer()
            return
        try:
            session = await self.store.create()
        except OSError as error:
            _log.warning("cannot create a session in %s: %s", self.data_dir, error)
            self._cannot_create(self._cannot_write(error))
            return
        except ChimeError as error:
            _log.warning("cannot create a session: %s", error)
            self._cannot_create(str(error))
            return
        self._adopt(session, show=True)
        self.session_created.emit(session.id)
        self.window.focus_composer()

    def _blank_session(self) -> str | None:
        """An open, writable session with no message yet (the current one first)."""
        order = [self.current, *reversed(list(self.open))] if self.current else list(self.open)
        for session_id in order:
            opened = self.open.get(session_id) if session_id else None
            if opened is not None and not opened.session.read_only and _has_no_message(opened):
                return opened.id
        return None

    def _cannot_write(self, error: OSError) -> str:
        """The sentence for a data folder that cannot be written, with the reason and the fix."""
        reason = error.strerror or str(error)
        return self.tr(
            "Chime cannot write to {folder}: {reason}. Conversations cannot be saved; choose "
            "another folder with --data-dir or fix its permissions."
        ).format(folder=self.data_dir, reason=reason)

    def _cannot_create(self, why: str) -> None:
        text = self.tr("Could not create a new session. ") + why
        self.window.notify(text, 15000)
        opened = self.current_session()
        if opened is not None:  # it stays on screen, with the reason above it
            self._say_above(opened, text)
            return
        nothing = SessionAccess(
            self.tr("not saved"),
            text,
            banner=text,
            writable=False,
            placeholder=self.tr("Nothing can be saved — see above."),
        )
        self.window.show_no_session(nothing, self.parts.zone_source())

    def _adopt(self, session: LiveSession, *, show: bool) -> OpenSession:
        opened = compose(session, self.parts, self)
        opened.read_upto = self._read_upto.pop(opened.id, opened.last_seq)
        self.open[opened.id] = opened
        if opened.unread:  # reminder turns that came while the person was away, before a restart
            self.unread_changed.emit()
        self._connect(opened)
        start(opened)
        if show:
            self.show_session(opened.id)
        else:
            self._state_changed()
        if session.torn_tail is not None:
            self.window.notify(self.tr(TORN).format(name=session.torn_tail.name), 30000)
        if not session.verified:
            watcher = self._tasks.spawn(self._after_verification(opened))
            self._watching.add(watcher)
            watcher.add_done_callback(self._watching.discard)
        return opened

    async def _after_verification(self, opened: OpenSession) -> None:
        """A warm open showed the checkpoint's state at once; when its verification says that
        state did not stand, show the re-scanned one: transcript, reminders, title, and the
        read-only banner (its owner and agent stopped) when the session turned read-only."""
        try:
            stood = await opened.session.verification()
        except asyncio.CancelledError:  # its loop or the session went away first
            return
        if stood or self.open.get(opened.id) is not opened:
            return
        _log.warning("session %s: state refreshed after its verification", opened.id)
        if opened.session.read_only:
            await opened.demote()
        if self.open.get(opened.id) is not opened:
            return
        if self.current == opened.id:
            self.show_session(opened.id)
        else:
            self.refresh_sidebar()

    def _connect(self, opened: OpenSession) -> None:
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

    def show_session(self, session_id: str) -> None:
        """Put an open session on screen: transcript, reminders, title, state, banner, composer."""
        opened = self.open[session_id]
        previous, self.current = self.current, session_id
        if previous != session_id:
            self.window.leave_conversation()
        self._mark_read(opened)  # shown because it was chosen (or the app started on it)
        session = opened.session
        screen = SessionScreen(
            session.title,
            session.entries,
            self.parts.zone_source(),
            opened.bridge.active_reminders(),
            self._access(opened),
            busy=opened.bridge.is_busy(),
            persistence_failed=opened.bridge.persistence_failed(),
            streaming=opened.bridge.stream_so_far(),
            thinking=opened.bridge.thinking_so_far(),
            delivered=opened.bridge.recent_deliveries(),
            conversation=session.conversation(),
        )
        self.window.show_session(screen)
        self._swap_draft(previous, session_id)
        self.window.show_attachments(opened.attachments)
        self._state_changed()
        self.refresh_sidebar()
        self.session_shown.emit(session_id)
        # The loaded session's objects are long-lived: keep them out of the cyclic collector's
        # full passes, which otherwise stall a scroll frame by ~50 ms (bench/ui_bench.py).
        gc.freeze()

    def _say_above(self, opened: OpenSession, text: str) -> None:
        """A failure the session on screen shows in its banner (no fork offered for it)."""
        self.window.set_access(self._access(opened).with_banner(text))

    def _access(self, opened: OpenSession) -> SessionAccess:
        """How the session may be used: live, read-only (open elsewhere), corrupt, or shown on a
        folder that cannot be written (then the banner says so)."""
        reason = opened.session.read_only_reason or ""
        banner = self.storage_problem
        if not opened.session.read_only:
            return SessionAccess(self.tr("live"), banner=banner)
        if banner is not None:  # forking would fail too: say what fixes it
            return SessionAccess(
                self.tr("read-only: folder not writable"),
                reason,
                banner=banner,
                writable=False,
                placeholder=self.tr("Read-only — nothing can be saved here."),
            )
        corrupt = "corrupt" in reason
        return SessionAccess(
            self.tr("corrupt") if corrupt else self.tr("read-only: open elsewhere"),
            reason,
            banner=reason or self.tr("This session is read-only."),
            offer_fork=True,
            fork_label="" if corrupt else self.tr("Fork a copy to continue here"),
            writable=False,
            placeholder=self.tr("Read-only session — fork it to continue."),
        )

    def current_session(self) -> OpenSession | None:
        return self.open.get(self.current) if self.current else None

    # -- actions ---------------------------------------------------------------------------
    async def submit(self, text: str) -> None:
        """Send the composer's text with the files added to it; refused by a session that is (or
        just turned) read-only, the text goes back into the composer and the state is shown. An
        image waiting for a session the offline assistant answers is said, and nothing is sent."""
        opened = self.current_session()
        if opened is None:
            return
        files = tuple(opened.attachments)
        refusal = self.attachments_refusal(opened, files)
        if refusal:
            self.window.notify(refusal, 12000, conversation=True)
            self.window.set_draft(text)
            return
        self.window.scroll_to_end()
        if await opened.bridge.submit(text, files):
            opened.attachments.clear()
            if self.current == opened.id:
                self.window.show_attachments(())
        elif opened.session.read_only:
            self.window.set_access(self._access(opened))
            self.window.set_draft(text)

    def attachments_refusal(self, opened: OpenSession, files: Sequence[Attachment]) -> str:
        """Why these files cannot be sent in this session ("" when they can): the offline
        assistant reads no image."""
        if not any(f.media_type.startswith("image/") for f in files) or not answers_offline(opened):
            return ""
        return self.image_refusal()

    def image_refusal(self) -> str:
        """Why an image cannot go to a session the offline assistant answers."""
        return self.tr(
            "The offline assistant cannot read images; choose a model that reads images in "
            "the model picker."
        )

    def stop(self) -> None:
        opened = self.current_session()
        if opened is not None:
            opened.bridge.stop()

    def retry(self) -> None:
        opened = self.current_session()
        if opened is not None and not opened.bridge.retry():
            self.window.notify(
                self.tr("There is no failed turn to retry."), 5000, conversation=True
            )

    def rename(self, title: str) -> None:
        opened = self.current_session()
        if opened is not None:
            opened.bridge.rename(title)

    async def rename_session(self, session_id: str, title: str) -> None:
        """Rename a session from the list (in place): a closed one is opened first, since
        the title is an event of its log."""
        opened = self.open.get(session_id) or await self.open_session(session_id, show=False)
        if opened is not None:
            opened.bridge.rename(title)

    async def close_session(self, session_id: str | None = None) -> None:
        """Make a session cold (flush, stop its owner, release the lock); show another one."""
        target = session_id or self.current
        opened = self.open.pop(target, None) if target else None
        if opened is None or target is None:
            return
        closing = self._tasks.share(opened.close())
        self._closing[target] = closing
        try:
            await closing
        finally:
            self._closing.pop(target, None)
        self.session_closed.emit(target)
        self.unread_changed.emit()
        if self.current == target:
            self.current = None
            await self._show_any()
        self._state_changed()
        await self.refresh_sessions()

    async def fork_current(self) -> None:
        """Fork the current session from its last good turn into a new live session."""
        opened = self.current_session()
        if opened is None:
            return
        if not opened.session.read_only:
            await opened.session.flush()
        try:
            child = await self.store.fork(opened.id, len(opened.session.entries))
        except ChimeError as error:
            self.window.notify(self.tr("Could not fork: ") + str(error))
            return
        except OSError as error:
            _log.warning("cannot fork %s: %s", opened.id, error)
            self._say_above(opened, self.tr("Could not fork: ") + self._cannot_write(error))
            return
        forked = self._adopt(child, show=True)
        forked.bridge.rename(fork_title(opened.session.title or self.tr("New session")))
        await self.refresh_sessions()

    async def delete_current(self) -> None:
        """Move the current session to the trash (Undo restores it)."""
        target = self.current
        if target is None:
            return
        title = self._title_of(target)
        await self.close_session(target)
        try:
            await self.store.trash(target)
        except (ChimeError, OSError) as error:
            self.window.notify(self.tr("Could not delete: ") + _in_words(error))
            return
        self._trashed.append(target)
        text = self.tr("“{title}” moved to the trash. Undo: Ctrl+Shift+T").format(title=title)
        self.window.notify(text, 15000, action="undo_delete")
        await self.refresh_sessions()

    def _title_of(self, session_id: str) -> str:
        opened = self.open.get(session_id)
        return (opened.session.title if opened is not None else None) or self.tr("New session")

    async def undo_delete(self) -> None:
        """Restore the most recently deleted session and open it."""
        if not self._trashed:
            return
        target = self._trashed.pop()
        await self.store.restore(target)
        restored = await self.open_session(target)
        if restored is not None:
            text = self.tr("“{title}” is back.").format(title=self._title_of(target))
            self.window.notify(text, 6000)
        await self.refresh_sessions()

    async def export_current(self, kind: str, target: Path) -> None:
        """Write the current session as Markdown or raw JSONL to ``target``."""
        if self.current is None:
            return
        opened = self.current_session()
        if opened is not None and not opened.session.read_only:
            await opened.session.flush()
        try:
            if opened is not None and opened.session.lost is not None:  # from memory
                await self.store.export_live(opened.session, kind, target, self.parts.zone_source())
            elif kind == "markdown":
                await self.store.export_markdown(self.current, target, self.parts.zone_source())
            else:
                await self.store.export_jsonl(self.current, target)
        except (ChimeError, OSError) as error:
            text = self.tr("Could not export to {target}: {reason}")
            self.window.notify(text.format(target=target, reason=_in_words(error)), 15000)
            return
        self.window.notify(self.tr("Exported to ") + str(target))

    def leave_warning(self, kind: Literal["close", "quit", "delete"]) -> LeaveWarning | None:
        """What closing or deleting the current session, or quitting, would do to its active
        reminders, in one sentence; None when no live session on the way out has any."""
        if kind == "quit":
            leaving = [o for o in self.open.values() if o.live]
        else:
            current = self.current_session()
            leaving = [current] if current is not None and current.live else []
        waiting = [r for o in leaving for r in o.bridge.active_reminders()]
        if not waiting:
            return None
        holding = [o for o in leaving if o.bridge.active_reminders()]
        where = translate("LeaveWarning", "in this conversation")
        if len(holding) > 1:
            where = translate("LeaveWarning", "in %1 conversations").replace(
                "%1", str(len(holding))
            )
        elif holding[0].id != self.current:
            where = translate("LeaveWarning", "in another open conversation")
        due = min(r.scheduled_at for r in waiting)
        when = due_words(due, self.parts.clock(), self.parts.zone_source())
        return _warning(kind, len(waiting), where, when)

    def step_session(self, step: int) -> str | None:
        """The id ``step`` places after the current one in the sidebar's order as shown
        (groups, pins and folders; wrapping)."""
        ids = self.window.sessions.model.session_ids() or [s.id for s in self._sidebar_items()]
        if not ids:
            return None
        position = ids.index(self.current) if self.current in ids else 0
        return ids[(position + step) % len(ids)]

    def redrive_all(self) -> None:
        """App activated or the wall clock jumped: every owner re-reads the clock."""
        for opened in self.open.values():
            opened.redrive()

    def set_provider(
        self,
        factory: Callable[[], ModelProvider],
        chosen: Callable[[SessionModel], ModelProvider | None] | None = None,
    ) -> None:
        """New provider settings apply from the next turn of every open session: the setting's
        provider (``factory``) and, when given, a session's own choice resolved with them."""
        self.parts = EngineParts(
            self.parts.clock,
            self.parts.zone_source,
            self.parts.new_id,
            self.parts.system_prompt,
            factory,
            self.parts.chosen if chosen is None else chosen,
        )
        for opened in self.open.values():
            opened.set_provider(self.parts.provider_for(opened.session.choices().model))

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
        self.write_state(geometry)
        self._writes_state = False
        self._take_over.stop()
        await asyncio.gather(*self._watching, return_exceptions=True)  # closing waits for it too
        await asyncio.gather(*self._closing.values(), return_exceptions=True)
        for opened in list(self.open.values()):
            try:
                await opened.close()
            except (ChimeError, OSError) as error:
                _log.warning("closing %s failed: %s", opened.id, error)
        self.open.clear()

    def _swap_draft(self, previous: str | None, shown: str) -> None:
        """Each conversation keeps its own unsent message: the one left is kept for it, the one
        shown gets its own back. The first one shown keeps what was typed before the engine ran
        (its kept draft comes back only into an empty message box)."""
        if previous == shown:
            return
        kept = self._drafts.pop(shown, "")
        if previous is None:
            if kept and not self.window.draft():
                self.window.replace_draft(kept)
            return
        left = self.window.draft()
        if left.strip():
            self._drafts[previous] = left
        self.window.replace_draft(kept)

    def drafts(self) -> dict[str, str]:
        """The unsent message of each open conversation that has one (state.json keeps them)."""
        found = {sid: text for sid, text in self._drafts.items() if sid in self.open}
        typed = self.window.draft()
        if self.current is not None and typed.strip():
            found[self.current] = typed
        return found

    # -- unread --------------------------------------------------------------------------
    def reveal(self, seq: int) -> None:
        """Show the current session's message ``seq`` (a notification's turn)."""
        self.window.reveal_message(seq)

    def mark_current_read(self) -> None:
        """The window became active (or was brought back): the current session is read."""
        opened = self.open.get(self.current or "")
        if opened is not None and self._is_active():
            self._mark_read(opened)

    def _mark_read(self, opened: OpenSession) -> None:
        if opened.read_upto == opened.last_seq:
            return
        had = opened.unread
        opened.read_upto = opened.last_seq
        if had:
            self.unread_changed.emit()
            self.refresh_sidebar()

    def unread_sessions(self) -> list[tuple[str, str, int]]:
        """(id, title, unread reminder turns) of the open sessions with some, newest first."""
        found = [
            (sid, opened.session.title or self.tr("New session"), opened.unread)
            for sid, opened in self.open.items()
        ]
        return [item for item in reversed(found) if item[2] > 0]

    def start_view(self) -> StartView:
        """What the next start shows with its first paint (``app.start_view``): the sidebar as it
        is now and the current conversation's title, reminders and tail."""
        opened = self.open.get(self.current or "")
        items = tuple(self._sidebar_items())
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

    def reminder_lines(self) -> list[ReminderLine]:
        """Every active reminder of every conversation: the live folds of the open ones, the
        derived summaries of the closed ones (read by ``refresh_sessions``; never opened)."""
        lines = [
            ReminderLine(sid, opened.session.title or self.tr("New session"), view, opened.live)
            for sid, opened in self.open.items()
            for view in opened.bridge.active_reminders()
        ]
        for summary in self._stored:
            if summary.id in self.open or summary.id in self._trashed:
                continue
            title = stored_title(summary)
            lines += [
                ReminderLine(summary.id, title, reminder_view(r), False) for r in summary.reminders
            ]
        return lines

    # -- state and sidebar -----------------------------------------------------------------
    def write_state(self, geometry: str = "") -> None:
        """Record the live sessions. An instance that holds none (a second instance showing
        sessions read-only) leaves state.json to the instance that owns them."""
        live = tuple(sid for sid, o in self.open.items() if not o.session.read_only)
        if not live:
            return
        current = self.current if self.current in live else live[0]
        read = tuple((sid, self.open[sid].read_upto) for sid in live)
        state = AppState(
            live,
            current,
            geometry,
            recent_models=self.recent_models,
            read_upto=read,
            tray_explained=self.tray_explained,
            drafts=tuple(self.drafts().items()),
        )
        try:
            write_state(self.data_dir, state)
        except OSError as error:
            _log.warning("cannot write state.json: %s", error)

    def _state_changed(self) -> None:
        if self._writes_state:
            self.write_state(self.window.saved_geometry())

    async def refresh_sessions(self) -> None:
        """Re-read the stored sessions (in a thread) and redraw the sidebar."""
        try:
            self._stored = await self.store.list()
        except (SessionError, OSError) as error:
            _log.warning("listing sessions failed: %s", error)
        self.refresh_sidebar()

    def refresh_sidebar(self) -> None:
        self.window.set_sessions(self._sidebar_items(), self.current)

    def session_ids(self) -> list[str]:
        """Every session the sidebar lists, in its order (open ones and stored ones)."""
        return [item.id for item in self._sidebar_items()]

    def _sidebar_items(self) -> list[SessionListItem]:
        now = self.parts.clock()
        items = {s.id: _stored_item(s, now) for s in self._stored if s.id not in self._trashed}
        for sid, opened in self.open.items():
            items[sid] = self._open_item(opened)
        return sorted(items.values(), key=lambda s: (s.last_activity, s.id), reverse=True)

    def _open_item(self, opened: OpenSession) -> SessionListItem:
        session = opened.session
        last = read_instant(session.last_activity) or self.parts.clock()
        return SessionListItem(
            opened.id,
            session.title or self.tr("New session"),
            last,
            reminder_count=len(opened.bridge.active_reminders()),
            live=opened.live,
            unread=opened.unread > 0,
            unread_count=opened.unread,
            read_only=session.read_only,
            search_text=_search_text(session.entries),
            fork=session.header.parent_id is not None,
        )

    # -- bridge handlers -----------------------------------------------------------------
    def _on_event(self, session_id: str, entry: Entry) -> None:
        opened = self.open.get(session_id)
        if opened is not None and session_id == self.current and self._is_active():
            opened.read_upto = entry.seq
        elif isinstance(entry.event, UserMessage) and entry.event.is_reminder:
            self.unread_changed.emit()
        effects = touches(entry.event)
        if effects.choice:
            self._on_choice(session_id, entry.event)
        if session_id == self.current:
            self.window.add_entry(entry, self._conversation_after(session_id, effects))
        for observer in self.entry_observers:
            observer(session_id, entry)
        if effects.title and session_id == self.current:
            self.window.set_session_title(self.open[session_id].session.title)
        if effects.listing:
            self.refresh_sidebar()

    def _on_choice(self, session_id: str, event: Event) -> None:
        """The session chose its model (it answers with it from its next turn) or instructions."""
        opened = self.open.get(session_id)
        if opened is not None and isinstance(event, SessionModel):
            opened.set_provider(self.parts.provider_for(event))
        self.choices_changed.emit(session_id)

    def _on_streaming(self, session_id: str, piece: str) -> None:
        if session_id == self.current:
            self.window.show_stream_piece(piece)

    def _on_thinking(self, session_id: str, piece: str) -> None:
        if session_id == self.current:
            self.window.show_thinking_piece(piece)

    def _on_busy(self, session_id: str, busy: bool) -> None:
        if session_id == self.current:
            self.window.set_busy(busy)
            self.window.set_zone(self.parts.zone_source())

    def _on_schedule(self, session_id: str, records: Sequence[ReminderView]) -> None:
        opened = self.open.get(session_id)
        if session_id == self.current and opened is not None:
            delivered = opened.bridge.recent_deliveries()
            self.window.set_reminders(records, self.parts.zone_source(), delivered)
        self.refresh_sidebar()

    def _on_persistence(self, session_id: str, failed: bool) -> None:
        if session_id == self.current:
            self.window.set_persistence_warning(failed)

    def _on_lost(self, session_id: str) -> None:
        """The session's log vanished: say so at once, and offer a copy from memory (the export
        button only when it is on screen: the export acts on the session shown)."""
        folder = self.store.data_dir
        text = self.tr(
            "“{title}” can no longer be saved: its folder in {folder} was deleted or moved. "
            "Chime keeps the conversation open; save a copy elsewhere before quitting."
        ).format(title=self._title_of(session_id), folder=folder)
        current = session_id == self.current
        self.window.notify(text, LOST_NOTICE_MS, "export_jsonl" if current else "")
        if current:
            self.window.set_persistence_warning(True)

    def _on_reminder(self, session_id: str, due: Sequence[DueReminder]) -> None:
        if session_id == self.current:
            prompts = "; ".join(reminder.prompt for reminder in due) or self.tr("(unreadable)")
            self.window.announce(self.tr("Reminder: ") + prompts)
        if not self._is_active():
            request_attention(self.window)
        self.refresh_sidebar()

    def _on_title(self, session_id: str) -> None:
        opened = self.open.get(session_id)
        if opened is not None and session_id == self.current:
            self.window.set_session_title(opened.session.title)
        self.refresh_sidebar()

    def _conversation_after(self, session_id: str, effects: Touches) -> Conversation | None:
        """The session's conversation tree after an event that may change what the transcript
        shows of it (agent.md §7); None otherwise (nothing to re-read)."""
        if not effects.conversation:
            return None
        return self.open[session_id].session.conversation()


_WARNINGS = {
    "delete": (
        QT_TRANSLATE_NOOP("LeaveWarning", "Delete this conversation?"),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "This conversation has 1 reminder. Deleting it stops it (Undo brings the "
            "conversation back with it); it is due %2.",
        ),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "This conversation has %1 reminders. Deleting it stops them (Undo brings the "
            "conversation back with them); the next is due %2.",
        ),
        QT_TRANSLATE_NOOP("LeaveWarning", "Delete"),
    ),
    "quit": (
        QT_TRANSLATE_NOOP("LeaveWarning", "Quit Chime?"),
        QT_TRANSLATE_NOOP(
            "LeaveWarning", "1 reminder %3 will wait until you start Chime again; it is due %2."
        ),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "%1 reminders %3 will wait until you start Chime again; the next is due %2.",
        ),
        QT_TRANSLATE_NOOP("LeaveWarning", "Quit"),
    ),
    "close": (
        QT_TRANSLATE_NOOP("LeaveWarning", "Close this conversation?"),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "1 reminder in this conversation will wait until you open it again; it is due %2.",
        ),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "%1 reminders in this conversation will wait until you open it again; the next is "
            "due %2.",
        ),
        QT_TRANSLATE_NOOP("LeaveWarning", "Close"),
    ),
}
"""Per kind: the question, its sentence for one reminder and for several (%1 how many, %2 when
the next is due, %3 where they are), the button that goes ahead."""


def _warning(kind: str, count: int, where: str, when: str) -> LeaveWarning:
    title, one, several, action = (translate("LeaveWarning", t) for t in _WARNINGS[kind])
    text = (one if count == 1 else several).replace("%1", str(count)).replace("%3", where)
    return LeaveWarning(title, text.replace("%2", when), action)


def due_words(due: datetime, now: datetime, zone_name: str | None) -> str:
    """``at 14:30``, ``tomorrow at 09:00``, ``on Fri 7 Aug at 09:00``; ``now`` when overdue."""
    if due <= now:
        return translate("LeaveWarning", "now (it is overdue)")
    zone = zone_or_utc(zone_name)
    local, today = due.astimezone(zone), now.astimezone(zone).date()
    clock = local.strftime("%H:%M")
    if local.date() == today:
        return translate("LeaveWarning", "at %1").replace("%1", clock)
    if local.date() == today + timedelta(days=1):
        return translate("LeaveWarning", "tomorrow at %1").replace("%1", clock)
    return (
        translate("LeaveWarning", "on %1 %2 %3 at %4")
        .replace("%1", short_day(local))
        .replace("%2", str(local.day))
        .replace("%3", short_month(local))
        .replace("%4", clock)
    )


def _in_words(error: Exception) -> str:
    """A disk error's reason without its errno and path ("Permission denied"), else the message."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


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


def answers_offline(opened: OpenSession) -> bool:
    """The offline assistant answers this live session's next turn."""
    agent = opened.agent
    return agent is not None and agent.provider.info.provider == OFFLINE_PROVIDER


def _has_no_message(opened: OpenSession) -> bool:
    """The session holds no user message (a new one, perhaps renamed): no turn has started and
    no input waits (every message is one or the other)."""
    queue = opened.session.inputs()
    return queue.last_turn == 0 and not queue.pending


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
