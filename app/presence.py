"""Chime's life outside its window: the tray icon, closing into the tray, and desktop notifications
that point to a reminder's turn (desktop.md §2.1).

Sessions stay live while the window is hidden, so their owners keep firing on time: hiding the
window changes nothing in the engine. A notification only points at a turn; the turn is the only
record. Qt adapters only: the tray and the notifier are injected (None where the desktop has none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.notifications import DesktopNotifier, Pointer, Shown
from app.qtasync import TaskRunner
from app.settings import Settings
from core.clock import Clock
from core.events import AssistantMessage, Entry, TurnEnd, TurnStart, UserMessage
from ui.main_window import MainWindow
from ui.tray import TrayIcon, UnreadItem
from ui.window_parts import bring_forward

if TYPE_CHECKING:  # app.background builds the presence, then hands it the window it made
    from app.background import AllReminders

LONG_ANSWER = timedelta(seconds=20)
"""A turn that took at least this long is a "long answer" (its end may be notified)."""
FIRST_LINE_LIMIT = 160


def first_line(text: str) -> str:
    """The first non-empty line of an answer, without Markdown's leading marks."""
    for line in text.splitlines():
        stripped = line.strip().lstrip("#>*-` ").strip()
        if stripped:
            return stripped[:FIRST_LINE_LIMIT]
    return ""


@dataclass
class _Watch:
    """A turn of one session that may end in a notification."""

    pointer: Pointer
    reminder: str = ""
    started_at: datetime | None = None
    answered: bool = False


class Presence(QObject):
    """Keeps Chime reachable while its window is closed.

    Signals:
        show_requested(object): show the window at a ``Pointer`` (or None: as it was).
    """

    show_requested = Signal(object)

    def __init__(
        self,
        window: MainWindow,
        settings: Callable[[], Settings],
        clock: Clock,
        tasks: TaskRunner,
        *,
        is_active: Callable[[], bool],
        title_of: Callable[[str], str],
        tray: TrayIcon | None = None,
        notifier: DesktopNotifier | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._settings = settings
        self._clock = clock
        self._tasks = tasks
        self._is_active = is_active
        self._title_of = title_of
        self.tray = tray
        self.notifier = notifier
        self._turns: dict[str, _Watch] = {}
        """By session, the turn whose answer may be notified."""
        self.all_reminders: AllReminders | None = None
        """The all-reminders window's flow (``app.background.AllReminders``), once wired."""
        if tray is not None:
            tray.show_requested.connect(lambda: self.show_requested.emit(None))
            tray.open_requested.connect(lambda sid: self.show_requested.emit(Pointer(sid)))
        if notifier is not None:
            notifier.clicked.connect(self.show_requested.emit)

    def start(self) -> None:
        """Show the tray icon and connect to the notification service in the background (a bus
        that is slow to answer never delays the sessions' opening; none: the tray badge and the
        attention hint are all there is)."""
        if self.tray is not None:
            self.tray.show()
        if self.notifier is not None:
            self._tasks.spawn(self._connect(self.notifier))

    async def _connect(self, notifier: DesktopNotifier) -> None:
        if not await notifier.start() and self.notifier is notifier:
            self.notifier = None

    async def stop(self) -> None:
        """Quit: the tray icon goes, the notification connection closes."""
        if self.tray is not None:
            self.tray.hide()
        if self.notifier is not None:
            await self.notifier.stop()

    def show_window(self) -> None:
        """Bring the window back (from the tray, a notification, a second start)."""
        bring_forward(self._window)

    @property
    def in_background(self) -> bool:
        """Whether closing the window leaves Chime running (a tray exists and the setting)."""
        return self.tray is not None and self._settings().keep_running

    def hide_window(self) -> bool:
        """The window was closed: hide it and keep running when a tray holds Chime (True), else
        False (the caller quits as before)."""
        if not self.in_background:
            return False
        self._window.hide()
        return True

    def say(self, text: str) -> None:
        """Tell the person something from the tray (the first close into it)."""
        if self.tray is not None:
            self.tray.say(text)

    def set_unread(self, items: list[UnreadItem]) -> None:
        if self.tray is not None:
            self.tray.set_unread(items)

    def observe(self, session_id: str, entry: Entry) -> None:
        """Every new entry of every open session: notices a reminder's turn and its answer."""
        event = entry.event
        if isinstance(event, UserMessage):
            due = event.reminders
            text = "; ".join(reminder.prompt for reminder in due) if due is not None else ""
            watch = _Watch(Pointer(session_id, entry.seq), reminder=text)
            self._turns[session_id] = watch
            if due is not None:
                self._notify(watch, "")
        elif isinstance(event, TurnStart):
            started = self._turns.get(session_id)
            if started is not None:
                started.started_at = self._clock()
        elif isinstance(event, AssistantMessage):
            self._on_answer(session_id, event)
        elif isinstance(event, TurnEnd):
            self._turns.pop(session_id, None)

    def _on_answer(self, session_id: str, event: AssistantMessage) -> None:
        watch = self._turns.get(session_id)
        if watch is None or watch.answered or event.tool_calls or not event.text.strip():
            return
        watch.answered = True
        if watch.reminder or (self._long(watch) and self._settings().notify_answers):
            self._notify(watch, first_line(event.text))

    def _long(self, watch: _Watch) -> bool:
        return watch.started_at is not None and self._clock() - watch.started_at >= LONG_ANSWER

    def _notify(self, watch: _Watch, answer: str) -> None:
        if self.notifier is None or not self._settings().notifications or self._is_active():
            return
        title = self._title_of(watch.pointer.session_id)
        lines = [self.tr("Reminder: %1").replace("%1", watch.reminder)] if watch.reminder else []
        if answer:
            lines.append(answer)
        shown = Shown(title, "\n".join(lines) or self.tr("The answer is ready."), watch.pointer)
        self._tasks.spawn(self.notifier.show(shown))
