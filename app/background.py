"""Wires Chime's background life (``app.presence``) to the running app: the tray's menu, a
notification's click, the unread counts, the first close explained, start at login. Wiring only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QIcon

from app import autostart
from app.controller import AppController
from app.notifications import DesktopNotifier, Pointer
from app.presence import Presence
from app.qtasync import TaskRunner
from app.settings import Settings
from app.settings_flow import SettingsFlow
from core.clock import Clock, ZoneSource
from ui.all_reminders import AllRemindersDialog
from ui.main_window import MainWindow
from ui.tray import TrayIcon, UnreadItem

_log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Background", …)

TrayFactory = Callable[[QIcon], TrayIcon | None]
NotifierFactory = Callable[[], DesktopNotifier | None]


def system_tray(icon: QIcon) -> TrayIcon | None:
    """A tray icon where the desktop shows them, else None."""
    return TrayIcon(icon) if TrayIcon.available() else None


def wire_presence(
    window: MainWindow,
    controller: AppController,
    flow: SettingsFlow,
    tasks: TaskRunner,
    clock: Clock,
    zone_source: ZoneSource,
    *,
    tray: TrayIcon | None,
    notifier: DesktopNotifier | None,
    quit_app: Callable[[], Coroutine[Any, Any, None]],
    is_active: Callable[[], bool],
) -> Presence:
    """A ``Presence`` over the window and the controller, connected both ways."""

    def title_of(session_id: str) -> str:
        opened = controller.open.get(session_id)
        return (opened.session.title if opened is not None else "") or "Chime"

    presence = Presence(
        window,
        lambda: flow.settings,
        clock,
        tasks,
        is_active=is_active,
        title_of=title_of,
        tray=tray,
        notifier=notifier,
    )
    flow.tray_available = tray is not None
    controller.entry_observers.append(presence.observe)

    def unread_changed() -> None:
        items = [
            UnreadItem(sid, title, n) for sid, title, n in controller.listing.unread_sessions()
        ]
        presence.set_unread(items)

    controller.unread_changed.connect(unread_changed)
    presence.show_requested.connect(lambda pointer: _show(presence, controller, tasks, pointer))
    reminders = AllReminders(window, controller, clock, zone_source)
    reminders.open_requested.connect(lambda sid: presence.show_requested.emit(Pointer(sid)))
    window.window_actions.action("all_reminders").triggered.connect(
        lambda: tasks.spawn(reminders.show())
    )
    presence.all_reminders = reminders
    if tray is not None:
        tray.all_reminders_requested.connect(lambda: tasks.spawn(reminders.show()))
        tray.new_requested.connect(lambda: _new(presence, controller, tasks))
        tray.quit_requested.connect(lambda: tasks.spawn(quit_app()))
    flow.applied.append(lambda settings: apply_start_at_login(settings, window))
    return presence


class AllReminders(QObject):
    """The all-reminders window: made when first asked for, refreshed each time it is shown.

    Signals:
        open_requested(str): a reminder's conversation was chosen.
    """

    open_requested = Signal(str)

    def __init__(
        self, window: MainWindow, controller: AppController, clock: Clock, zone: ZoneSource
    ) -> None:
        super().__init__(window)
        self._window = window
        self._controller = controller
        self._clock = clock
        self._zone = zone
        self.dialog: AllRemindersDialog | None = None

    async def show(self) -> AllRemindersDialog:
        """List every reminder, the closed conversations' as their files tell them now."""
        await self._controller.refresh_sessions()
        if self.dialog is None:
            self.dialog = AllRemindersDialog(self._window)
            self.dialog.open_requested.connect(self.open_requested.emit)
        self.dialog.set_lines(
            self._controller.listing.reminder_lines(), self._clock(), self._zone()
        )
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        return self.dialog


def apply_start_at_login(
    settings: Settings, window: MainWindow, entry: autostart.AutostartEntry | None = None
) -> None:
    """Settings were saved: write or remove the autostart entry to match (a failure is said)."""
    target = entry if entry is not None else autostart.this_machine()
    if target.present() == settings.start_at_login:
        return
    try:
        autostart.apply(target, settings.start_at_login)
    except OSError as error:
        _log.warning("cannot change the autostart entry: %s", error)
        said = translate("Background", "Start at login could not be changed: ")
        window.notify(said + (error.strerror or str(error)), 15000)


def explain_once(presence: Presence, controller: AppController, window: MainWindow) -> bool:
    """The window was closed: hide it into the tray (saying so the first time). False when Chime
    should quit instead (no tray, or the setting)."""
    if not presence.hide_window():
        return False
    if not controller.tray_explained:
        controller.tray_explained = True
        controller.write_state(window.saved_geometry())
        presence.say(
            translate(
                "Background",
                "Chime keeps running in the tray so your reminders arrive on time. Quit it from "
                "the tray's menu (or with Ctrl+Q in its window); Settings changes this.",
            )
        )
    return True


def _show(
    presence: Presence, controller: AppController, tasks: TaskRunner, pointer: Pointer | None
) -> None:
    presence.show_window()
    if pointer is not None:
        tasks.spawn(_open_at(controller, pointer))
    else:
        controller.mark_current_read()


async def _open_at(controller: AppController, pointer: Pointer) -> None:
    opened = await controller.open_session(pointer.session_id)
    if opened is not None and pointer.seq is not None:
        controller.reveal(pointer.seq)
    controller.mark_current_read()


def _new(presence: Presence, controller: AppController, tasks: TaskRunner) -> None:
    presence.show_window()
    tasks.spawn(controller.new_session())
