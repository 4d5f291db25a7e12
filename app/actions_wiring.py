"""Connects the window's actions, composer and dialogs to the controller. Wiring only.

Every coroutine handler is started through ``app.qtasync.async_slot``'s task runner, so an
escaping exception reaches ``sys.excepthook`` (logged, a short message) and never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from app.appearance import apply_appearance
from app.providers import list_models, preset_choices, provider_factory, test_connection
from app.settings import Settings, save_settings
from ui.dialogs import ask_export_path, ask_title
from ui.settings_dialog import SettingsDialog, SettingsDraft

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.controller import AppController
    from app.main import Application
    from ui.main_window import MainWindow

_log = logging.getLogger(__name__)
_tasks: set[asyncio.Task[None]] = set()


@dataclass(frozen=True, slots=True)
class Questions:
    """The modal questions the session actions ask (the real dialogs by default); in-process tests
    hand in scripted answers instead of driving a native file dialog."""

    title: Callable[[QWidget, str], str | None] = ask_title
    export_path: Callable[[QWidget, Path, str], Path | None] = ask_export_path


def _questions(chime: Application) -> Questions:
    return chime.questions if chime.questions is not None else Questions()


def spawn(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    """Run ``coro`` on the Qt loop; an exception reaches sys.excepthook."""
    task = asyncio.get_event_loop().create_task(coro)
    _tasks.add(task)
    task.add_done_callback(_finished)
    return task


def _finished(task: asyncio.Task[None]) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        error = task.exception()
        assert error is not None
        sys.excepthook(type(error), error, error.__traceback__)


def later(make: Callable[[], Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """A slot that starts ``make()`` as a task (signal arguments are ignored)."""

    def slot(*_: object) -> None:
        spawn(make())

    return slot


def wire_controller(window: MainWindow, controller: AppController) -> None:
    """Connect the window's session actions and composer to the controller."""
    act = window.window_actions.action
    window.composer.submitted.connect(lambda text: spawn(controller.submit(text)))
    window.composer.stop_requested.connect(controller.stop)
    act("stop").triggered.connect(controller.stop)
    act("retry").triggered.connect(controller.retry)
    act("new_session").triggered.connect(later(controller.new_session))
    act("close_session").triggered.connect(later(controller.close_session))
    act("fork_session").triggered.connect(later(controller.fork_current))
    window.fork_requested.connect(later(controller.fork_current))
    act("delete_session").triggered.connect(later(controller.delete_current))
    act("undo_delete").triggered.connect(later(controller.undo_delete))
    act("next_session").triggered.connect(lambda: _step(controller, 1))
    act("previous_session").triggered.connect(lambda: _step(controller, -1))
    window.sessions.session_chosen.connect(lambda sid: spawn(_choose(controller, sid)))


def wire_actions(chime: Application, controller: AppController) -> None:
    """Connect window → controller and the app-level actions for one run of the app."""
    window = chime.window
    act = window.window_actions.action
    wire_controller(window, controller)
    act("rename_session").triggered.connect(lambda: _rename(chime))
    act("export_markdown").triggered.connect(lambda: _export(chime, "markdown"))
    act("export_jsonl").triggered.connect(lambda: _export(chime, "jsonl"))
    act("settings").triggered.connect(lambda: open_settings(chime))
    act("quit").triggered.connect(later(chime.quit))
    window.close_requested.connect(later(chime.quit))


async def _choose(controller: AppController, session_id: str) -> None:
    await controller.open_session(session_id)


def _step(controller: AppController, step: int) -> None:
    target = controller.step_session(step)
    if target is not None and target != controller.current:
        spawn(_choose(controller, target))


def _rename(chime: Application) -> None:
    controller = chime.controller
    opened = controller.current_session() if controller is not None else None
    if controller is None or opened is None or opened.session.read_only:
        return
    title = _questions(chime).title(chime.window, opened.session.title or "")
    if title:
        controller.rename(title)


def _export(chime: Application, kind: str) -> None:
    controller = chime.controller
    opened = controller.current_session() if controller is not None else None
    if controller is None or opened is None:
        return
    suffix = ".md" if kind == "markdown" else ".jsonl"
    name = (opened.session.title or "chime-session")[:40].replace("/", "-") + suffix
    target = _questions(chime).export_path(chime.window, Path.home() / name, kind)
    if target is not None:
        spawn(controller.export_current(kind, target))


def settings_draft(settings: Settings, api_key: str, note: str) -> SettingsDraft:
    return SettingsDraft(
        settings.provider,
        settings.preset,
        settings.base_url,
        settings.model,
        api_key,
        settings.theme,
        settings.text_size,
        note,
    )


def open_settings(chime: Application) -> SettingsDialog:
    """Show the settings dialog on a copy; saving applies from the next turn. Closing it
    cancels a model list or connection test still running (their answer has nowhere to go)."""
    draft = settings_draft(chime.settings, chime.keys.get(), chime.keys.note)
    dialog = SettingsDialog(draft, preset_choices(), chime.window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # each visit makes a new one
    checks: set[asyncio.Task[None]] = set()

    def check(coro: Coroutine[Any, Any, None]) -> None:
        task = spawn(coro)
        checks.add(task)
        task.add_done_callback(checks.discard)

    dialog.models_requested.connect(lambda d: check(_list_into(dialog, d)))
    dialog.test_requested.connect(lambda d: check(_test_into(dialog, d)))
    dialog.finished.connect(lambda _result: [task.cancel() for task in list(checks)])
    dialog.accepted.connect(lambda: apply_settings(chime, dialog.draft()))
    dialog.open()
    return dialog


async def _list_into(dialog: SettingsDialog, draft: SettingsDraft) -> None:
    names, error = await list_models(draft.base_url, draft.api_key)
    dialog.set_models(names, error)


async def _test_into(dialog: SettingsDialog, draft: SettingsDraft) -> None:
    ok, message = await test_connection(draft.base_url, draft.model, draft.api_key)
    dialog.set_test_result(ok, message)


def apply_settings(chime: Application, draft: SettingsDraft) -> None:
    """Save the edited settings (key to the key store) and apply them."""
    settings = Settings.from_json(
        {
            "provider": draft.provider,
            "preset": draft.preset,
            "base_url": draft.base_url,
            "model": draft.model,
            "theme": draft.theme,
            "text_size": min(24, max(8, draft.text_size)),
        }
    )
    try:
        save_settings(chime.folder, settings)
    except OSError as error:  # applied for this run all the same; the status bar says why
        _log.warning("cannot save settings: %s", error)
        chime.window.statusBar().showMessage(
            chime.window.tr("Settings apply until Chime quits; they could not be saved: ")
            + (error.strerror or str(error)),
            15000,
        )
    chime.keys.set(draft.api_key)
    chime.settings = settings
    apply_appearance(chime.app, settings)
    if chime.controller is not None:
        chime.controller.set_provider(provider_factory(settings, draft.api_key, chime.clock))
    chime.window.set_provider(chime.provider_label())
