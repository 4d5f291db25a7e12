"""SettingsFlow: the settings in effect and the Settings dialog's round trip. Builds no engine.

It applies them to the look, the status bar and the sessions' provider, and never reaches into
the window's children.

The dialog edits a copy (``SettingsDraft``); listing the endpoint's models and "Test connection"
run as background tasks that closing the dialog cancels (their answer has nowhere to go); the
test tells the dialog where it is (its waiting line), and the dialog's Cancel cancels it (which
closes its request). OK
saves settings.json (the API key goes to the key store) and applies: the appearance at once, the
provider from the next turn of every open session (a session's own model choice is resolved with
the new settings too). A system colour-scheme change re-applies the ``system`` theme.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication

from app.appearance import apply_appearance
from app.mcp_settings_flow import McpSettingsLink, mcp_draft
from app.providers import (
    ChoiceFactory,
    ProviderFactory,
    choice_factory,
    list_models,
    preset_choices,
    provider_factory,
    test_connection,
)
from app.qtasync import TaskRunner
from app.settings import (
    MAX_CONTEXT_TOKENS,
    Endpoint,
    KeyStore,
    Settings,
    effective_provider,
    save_settings,
)
from core.clock import Clock, ZoneSource
from core.mcp.config import to_settings
from core.prompts import SavedPrompt
from core.time_context import time_reading
from ui.main_window import MainWindow
from ui.mcp_settings import McpDraft
from ui.settings_dialog import SettingsDialog, SettingsDraft

_log = logging.getLogger(__name__)


class SettingsFlow:
    """The settings in effect (``settings``) and the one way they change: the Settings dialog.

    ``use_provider`` receives the provider factories of newly applied settings (the
    controller's ``set_provider``): the setting's, and a session's own choice's.
    ``applied`` holds what else is told of newly applied settings (the model picker).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        app: QApplication,
        window: MainWindow,
        folder: Path,
        keys: KeyStore,
        clock: Clock,
        tasks: TaskRunner,
        use_provider: Callable[[ProviderFactory, ChoiceFactory], None],
        zone_source: ZoneSource = lambda: None,
    ) -> None:
        self.settings = settings
        self._app = app
        self._window = window
        self._folder = folder
        self._keys = keys
        self._clock = clock
        self._tasks = tasks
        self._use_provider = use_provider
        self._zone_source = zone_source
        self.applied: list[Callable[[Settings], None]] = []
        self._original_mcp = McpDraft()
        self.tray_available = False
        """Whether the desktop has a tray (the dialog says when it has none)."""
        self.mcp: McpSettingsLink | None = None
        """The MCP pool and secrets behind the "Tools (MCP)" page (None: the page edits the
        list only: no tools are listed)."""

    def open(self) -> SettingsDialog:
        """Show the settings dialog on a copy; saving applies from the next turn. Closing it
        cancels a model list or connection test still running (their answer has nowhere to go)."""
        draft = replace(
            settings_draft(self.settings, self._keys.get(), self._keys.note),
            tray_available=self.tray_available,
        )
        if self.mcp is not None:
            draft = replace(draft, mcp=mcp_draft(self.mcp.service, self.settings.mcp_always_allow))
        self._original_mcp = draft.mcp
        dialog = SettingsDialog(draft, preset_choices(), self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # each visit makes a new one
        checks: set[asyncio.Task[object]] = set()

        def check(coro: Coroutine[Any, Any, None]) -> asyncio.Task[object]:
            task = self._tasks.spawn(coro)
            checks.add(task)
            task.add_done_callback(checks.discard)
            return task

        if self.mcp is not None:
            self.mcp.connect(dialog.mcp_page, check)
        tests: list[asyncio.Task[object]] = []
        dialog.models_requested.connect(lambda d: check(_list_into(dialog, d)))

        def test(draft: SettingsDraft) -> None:
            now = time_reading(self._clock(), [self._zone_source()]).text
            tests.append(check(_test_into(dialog, draft, now)))

        dialog.test_requested.connect(test)
        dialog.test_cancelled.connect(lambda: [tests.pop().cancel() for _ in list(tests)])
        dialog.finished.connect(lambda _result: [task.cancel() for task in list(checks)])
        dialog.accepted.connect(lambda: self.apply(dialog.draft()))
        dialog.open()
        return dialog

    def apply(self, draft: SettingsDraft) -> None:
        """Save the edited settings (the key to the key store) and apply them."""
        kept = self.settings  # not in the dialog: kept as they are
        edited = self.mcp is not None and draft.mcp != self._original_mcp
        settings = replace(
            settings_from_draft(draft),
            warn_waiting_reminders=kept.warn_waiting_reminders,
            mcp_servers=to_settings(draft.mcp.servers) if edited else kept.mcp_servers,
            mcp_always_allow=draft.mcp.always_allowed if edited else kept.mcp_always_allow,
        )
        if self.mcp is not None and edited:  # the secrets first: a started server finds them
            self.mcp.save(draft.mcp, self._original_mcp.servers)
        self._save(settings)
        self._keys.set(draft.api_key)
        self.settings = settings
        apply_appearance(self._app, settings)
        self._use_provider(
            provider_factory(settings, draft.api_key, self._clock),
            choice_factory(settings, draft.api_key, self._clock),
        )
        self._window.status.set_provider(effective_provider(settings).label())
        for tell in self.applied:
            tell(settings)

    def store(self, settings: Settings) -> None:
        """Save and keep ``settings`` changed elsewhere (the MCP servers: ``app.mcp.service``)."""
        self._save(settings)
        self.settings = settings

    def save_prompts(self, prompts: tuple[SavedPrompt, ...], default: str) -> None:
        """Edit ▸ Saved prompts… was confirmed: save the library and its default, the rest of
        the settings as they are."""
        settings = replace(self.settings, prompts=prompts, default_prompt=default)
        self._save(settings)
        self.settings = settings
        for tell in self.applied:
            tell(settings)

    def stop_warning_about_waiting_reminders(self) -> None:
        """The user ticked "Don't ask again" in the close/quit/delete warning: save that."""
        settings = replace(self.settings, warn_waiting_reminders=False)
        self._save(settings)
        self.settings = settings

    def follow_system_scheme(self, _scheme: Qt.ColorScheme) -> None:
        """The system's colour scheme changed: the ``system`` theme follows it."""
        if self.settings.theme == "system":
            apply_appearance(self._app, self.settings)

    def _save(self, settings: Settings) -> None:
        """Write settings.json; when that fails they apply for this run all the same, and the
        window says why (its message bar)."""
        try:
            save_settings(self._folder, settings)
        except OSError as error:
            _log.warning("cannot save settings: %s", error)
            self._window.notify(
                QCoreApplication.translate(
                    "SettingsFlow", "Settings apply until Chime quits; they could not be saved: "
                )
                + (error.strerror or str(error)),
                15000,
            )


def settings_draft(settings: Settings, api_key: str, note: str) -> SettingsDraft:
    """What the dialog starts from: the settings, the stored key and where it is kept."""
    return SettingsDraft(
        settings.provider,
        settings.preset,
        settings.base_url,
        settings.model,
        api_key,
        settings.theme,
        settings.text_size,
        note,
        settings.context_tokens,
        settings.language,
        keep_running=settings.keep_running,
        start_at_login=settings.start_at_login,
        notifications=settings.notifications,
        notify_answers=settings.notify_answers,
        model_titles=settings.model_titles,
        prompts=settings.prompts,
        default_prompt=settings.default_prompt,
    )


def settings_from_draft(draft: SettingsDraft) -> Settings:
    """The settings a confirmed dialog asks for (the text size kept within 8 to 24)."""
    return Settings.from_json(
        {
            "provider": draft.provider,
            "preset": draft.preset,
            "base_url": draft.base_url,
            "model": draft.model,
            "theme": draft.theme,
            "text_size": min(24, max(8, draft.text_size)),
            "context_tokens": min(MAX_CONTEXT_TOKENS, max(0, draft.context_tokens)),
            "language": draft.language,
            "keep_running": draft.keep_running,
            "start_at_login": draft.start_at_login,
            "notifications": draft.notifications,
            "notify_answers": draft.notify_answers,
            "model_titles": draft.model_titles,
            "prompts": draft.prompts,
            "default_prompt": draft.default_prompt,
        }
    )


async def _list_into(dialog: SettingsDialog, draft: SettingsDraft) -> None:
    names, error = await list_models(draft.base_url, draft.api_key)
    dialog.set_models(names, error)


async def _test_into(dialog: SettingsDialog, draft: SettingsDraft, time_context: str) -> None:
    endpoint = Endpoint(draft.base_url, draft.model, draft.preset, draft.context_tokens)
    ok, message = await test_connection(
        endpoint, draft.api_key, dialog.set_test_stage, time_context=time_context
    )
    dialog.set_test_result(ok, message)
