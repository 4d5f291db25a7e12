"""Connects the window to the controller, the settings flow and quit. Wiring only: no state.

Every coroutine handler starts through the ``app.qtasync.TaskRunner`` it is given, so an escaping
exception reaches ``sys.excepthook`` (logged, a short message) and never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from PySide6.QtCore import QCoreApplication, QTimer, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QWidget

from app.attachment_open import open_with_system
from app.controller import AppController
from app.leave_words import leave_warning
from app.qtasync import TaskRunner
from app.settings_flow import SettingsFlow
from app.tool_images import ToolImages
from app.verbs import wire_verbs
from core.prompts import SavedPrompt
from core.session.live import LiveSession
from ui.dialogs import (
    LeaveAnswer,
    LeaveWarning,
    ask_attachment_paths,
    ask_export_path,
    ask_leave,
    ask_lose_unsaved,
    ask_restart_for_language,
    ask_set_reminder,
    ask_title,
)
from ui.i18n import QT_TRANSLATE_NOOP
from ui.import_progress import ask_import_path
from ui.main_window import MainWindow
from ui.session_settings import SessionSettings, ask_session_settings

Leaving = Literal["close", "quit", "delete"]
Confirm = Callable[[Leaving], bool]
"""Asked before closing, quitting or deleting: True to go ahead."""


@dataclass(frozen=True, slots=True)
class Questions:
    """The modal questions the session actions ask (the real dialogs by default); in-process tests
    hand in scripted answers instead of driving a native file dialog."""

    title: Callable[[QWidget, str], str | None] = ask_title
    export_path: Callable[[QWidget, Path, str], Path | None] = ask_export_path
    open_url: Callable[[str], object] = lambda url: QDesktopServices.openUrl(QUrl(url))
    """Opens a link the user confirmed in the system browser (tests record it instead)."""
    leave: Callable[[QWidget, LeaveWarning], LeaveAnswer | None] = ask_leave
    lose_unsaved: Callable[[QWidget, str], bool] = ask_lose_unsaved
    session_settings: Callable[
        [QWidget, SessionSettings, tuple[SavedPrompt, ...], tuple[str, ...]],
        SessionSettings | None,
    ] = ask_session_settings
    """The session's instructions and temperature, edited (None: cancelled or unchanged); the
    saved prompts and the configured MCP servers are offered in it."""
    attachment_paths: Callable[[QWidget], list[Path]] = ask_attachment_paths
    """The files to attach to the message (empty: cancelled)."""
    restart_for_language: Callable[[QWidget, str], bool] = ask_restart_for_language
    """Whether to start again now to show the language just chosen (named in its own words)."""
    import_path: Callable[[QWidget], Path | None] = ask_import_path
    """The file to import conversations from (None: cancelled)."""
    set_reminder: Callable[[QWidget, str, str], bool] = ask_set_reminder
    """Whether to set the reminder a model answered in words (its text, when it would come)."""
    open_file: Callable[[Path], bool] = open_with_system
    """Hands a temporary copy of an attachment to the system's program for it (tests record it)."""


def wire_controller(
    window: MainWindow,
    controller: AppController,
    tasks: TaskRunner,
    confirm: Confirm = lambda _kind: True,
) -> None:
    """Connect the window's session actions and composer to the controller; ``confirm`` is
    asked before a session is closed or deleted."""
    act = window.window_actions.action
    window.composer.submitted.connect(lambda text: tasks.spawn(controller.submit(text)))
    window.composer.stop_requested.connect(controller.stop)
    window.reminders.delete_requested.connect(
        lambda schedule_id: tasks.spawn(controller.submit(f"Delete reminder {schedule_id}"))
    )
    act("stop").triggered.connect(controller.stop)
    act("retry").triggered.connect(controller.retry)
    act("new_session").triggered.connect(tasks.slot(controller.new_session))
    act("close_session").triggered.connect(
        lambda: confirm("close") and tasks.spawn(controller.actions.close_session())
    )
    act("fork_session").triggered.connect(tasks.slot(controller.actions.fork_current))
    window.fork_requested.connect(tasks.slot(controller.actions.fork_current))
    act("delete_session").triggered.connect(
        lambda: confirm("delete") and tasks.spawn(controller.actions.delete_current())
    )
    act("undo_delete").triggered.connect(tasks.slot(controller.actions.undo_delete))
    act("next_session").triggered.connect(lambda: _step(window, controller, tasks, 1))
    act("previous_session").triggered.connect(lambda: _step(window, controller, tasks, -1))
    window.sessions.session_chosen.connect(lambda sid: tasks.spawn(controller.open_session(sid)))
    wire_verbs(window, controller)  # the conversation verbs and find (agent.md §7)
    transcript = window.transcript
    chips = window.composer.attachments

    def arrived() -> None:
        transcript.pictures_arrived()
        chips.pictures_arrived()

    chips.thumbnails = images = ToolImages(tasks, lambda: _shown(controller), arrived)
    transcript.set_thumbnails(images)


def _shown(controller: AppController) -> LiveSession | None:
    opened = controller.current_session()
    return None if opened is None else opened.session


def wire_actions(
    window: MainWindow,
    controller: AppController,
    settings: SettingsFlow,
    tasks: TaskRunner,
    *,
    quit_app: Callable[[], Coroutine[Any, Any, None]],
    questions: Questions,
    hide_window: Callable[[], bool] = lambda: False,
) -> None:
    """Connect window → controller, the settings flow and quit, for one run of the app.
    ``hide_window`` is asked first when the window is closed: True when it hid the window and
    Chime keeps running in the tray (``app.presence``); False quits as Ctrl+Q does."""
    act = window.window_actions.action

    def confirm(kind: Leaving) -> bool:
        return _confirm_leaving(window, controller, settings, questions, kind)

    wire_controller(window, controller, tasks, confirm)
    act("rename_session").triggered.connect(lambda: _rename(window, controller, questions))
    window.sessions.rename_wanted.connect(
        lambda sid, title: tasks.spawn(controller.actions.rename_session(sid, title))
    )
    act("export_markdown").triggered.connect(
        lambda: _export(window, controller, tasks, questions, "markdown")
    )
    act("export_jsonl").triggered.connect(
        lambda: _export(window, controller, tasks, questions, "jsonl")
    )
    act("settings").triggered.connect(lambda: settings.open())

    def asked() -> None:
        if confirm("quit"):
            tasks.spawn(_quit_asking(window, controller, tasks, questions, quit_app))

    act("quit").triggered.connect(asked)

    def closed() -> None:
        if not hide_window():
            asked()

    window.close_requested.connect(closed)
    window.help.open_url_requested.connect(questions.open_url)


def _confirm_leaving(
    window: MainWindow,
    controller: AppController,
    settings: SettingsFlow,
    questions: Questions,
    kind: Leaving,
) -> bool:
    """Say what closing, quitting or deleting does to active reminders, once, unless the user
    asked not to be asked again; True to go ahead."""
    if not settings.settings.warn_waiting_reminders:
        return True
    warning = leave_warning(controller, kind)
    if warning is None:
        return True
    answer = questions.leave(window, warning)
    if answer is None:
        return False
    if answer.dont_ask_again:
        settings.stop_warning_about_waiting_reminders()
    return True


UNSAVED = QT_TRANSLATE_NOOP(
    "QuitQuestion",
    "Some recent messages could not be saved ({count} unsaved changes): the disk may be full or "
    "not writable. If Chime quits now they are lost; while it stays open it keeps trying to save "
    "them.",
)
KEPT_OPEN = QT_TRANSLATE_NOOP(
    "QuitQuestion", "Chime stays open and keeps trying to save; quit again once the disk has room."
)
UNSAVED_LOST = QT_TRANSLATE_NOOP(
    "QuitQuestion",
    "Some recent messages could not be saved ({count} unsaved changes): a conversation's folder "
    "was deleted or moved. If Chime quits now they are lost; export the conversation first "
    "(Session ▸ Export as JSONL) to keep it.",
)
KEPT_OPEN_LOST = QT_TRANSLATE_NOOP(
    "QuitQuestion", "Chime stays open: export the conversation to keep what could not be saved."
)


async def _quit_asking(
    window: MainWindow,
    controller: AppController,
    tasks: TaskRunner,
    questions: Questions,
    quit_app: Callable[[], Coroutine[Any, Any, None]],
) -> None:
    """Ctrl+Q and the window's close button: when some changes cannot be saved (a full disk),
    ask before they are lost. SIGTERM (a logout) quits without asking: no one could answer.

    The question is asked from the Qt event loop, never inside this task: a modal dialog runs a
    nested event loop, and no other task can take a step while one is running (asyncio refuses
    to enter a task inside another), so every task started meanwhile (the writer's retry, the
    take-over probe) would never run, and the quit that awaits them would never end."""
    count = await controller.unsaved()
    if not count:
        await quit_app()
        return
    lost = any(opened.session.lost is not None for opened in controller.open.values())
    asked, kept = (UNSAVED_LOST, KEPT_OPEN_LOST) if lost else (UNSAVED, KEPT_OPEN)
    question = QCoreApplication.translate("QuitQuestion", asked).format(count=count)

    def ask() -> None:
        if questions.lose_unsaved(window, question):
            tasks.spawn(quit_app())
        else:
            window.notify(QCoreApplication.translate("QuitQuestion", kept), 15000)

    QTimer.singleShot(0, window, ask)


def _step(window: MainWindow, controller: AppController, tasks: TaskRunner, step: int) -> None:
    """Show the session ``step`` rows away in the sidebar's order as shown (wrapping)."""
    target = controller.listing.step_session(step, window.sessions.model.session_ids())
    if target is not None and target != controller.current:
        tasks.spawn(controller.open_session(target))


def _rename(window: MainWindow, controller: AppController, questions: Questions) -> None:
    """Rename in place in the list (F2): the row the keyboard is on in the list, else the
    conversation on screen; where its row is not shown (the sidebar folded, filtered out) the
    title is asked in a dialog."""
    opened = controller.current_session()
    if opened is None or window.sessions.edit_current(opened.id) or opened.session.read_only:
        return
    title = questions.title(window, opened.session.title or "")
    if title:
        controller.rename(title)


def _export(
    window: MainWindow,
    controller: AppController,
    tasks: TaskRunner,
    questions: Questions,
    kind: str,
) -> None:
    opened = controller.current_session()
    if opened is None:
        return
    suffix = ".md" if kind == "markdown" else ".jsonl"
    name = (opened.session.title or "chime-session")[:40].replace("/", "-") + suffix
    target = questions.export_path(window, Path.home() / name, kind)
    if target is not None:
        tasks.spawn(controller.actions.export_current(kind, target))
