"""ChoicesFlow: the session's own model, temperature and instructions (agent.md §7) in the window.

It fills the model picker for the session on screen (the app's setting, the offline assistant,
the settings' endpoint's models, the recent choices), records a choice as ``session/model``
through the agent, and edits the instructions and temperature in ``ask_session_settings``. The
controller turns each recorded choice into the session's provider (``AppController._on_choice``);
this flow only shows and records.

Choices where the spec is silent:
- The endpoint's models are listed the first time the menu opens (``app.providers.list_models``
  in a task, the key read in a worker thread) and kept until the settings change; a failure is
  said in the menu and not retried on every open (the settings change, or Settings' own list,
  retries it).
- Choosing keeps the session's temperature; the instructions dialog keeps the model choice,
  unless a saved prompt that names a model was used there: that model is recorded with no
  provider (``session/model`` ``{provider: null, model}``), so it asks the settings' own server
  and the offline assistant stays offline.
- The recent choices (newest first, at most ``app.state.RECENT_MODELS``) are kept in state.json.
- The picker's text says what answers this session ("qwen3:8b · Ollama", "Offline assistant"),
  and so does the status bar, in the settings' own words ("qwen3:8b @ http://…").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from PySide6.QtCore import QObject

from app.controller import AppController
from app.engine import OpenSession
from app.providers import chosen_provider, endpoint_name, list_models
from app.qtasync import TaskRunner
from app.settings import Endpoint, Settings, effective_provider
from core.agent import Agent
from core.errors import ChimeError
from core.events import SessionModel
from core.prompts import SavedPrompt
from ui.main_window import MainWindow
from ui.model_picker import ENDPOINT, OFFLINE, ModelMenu, ModelOption, recent_choices
from ui.session_settings import SessionSettings

_log = logging.getLogger(__name__)

AskSettings = Callable[
    [MainWindow, SessionSettings, tuple[SavedPrompt, ...], tuple[str, ...]],
    SessionSettings | None,
]
"""Asks for a session's settings, offering the saved prompts and the configured MCP servers."""


class ChoicesFlow(QObject):
    """The model picker and the instructions dialog of the session on screen."""

    def __init__(
        self,
        window: MainWindow,
        controller: AppController,
        tasks: TaskRunner,
        *,
        settings: Callable[[], Settings],
        api_key: Callable[[], str],
        ask: AskSettings,
        prompts: Callable[[], tuple[SavedPrompt, ...]] = tuple,
        mcp_servers: Callable[[], tuple[str, ...]] = tuple,
        mcp_defaults: Callable[[], tuple[str, ...]] = tuple,
    ) -> None:
        super().__init__(controller)
        self.mcp_servers = mcp_servers
        """The configured MCP servers' names (offered in the session's settings)."""
        self.mcp_defaults = mcp_defaults
        """The servers a conversation that never chose offers (checked until it chooses)."""
        self._window = window
        self._controller = controller
        self._tasks = tasks
        self._settings = settings
        self._api_key = api_key
        self._ask = ask
        self._prompts = prompts
        self._models: tuple[str, ...] | None = None
        self._models_error = ""
        self._listing: asyncio.Task[object] | None = None
        picker = window.composer.tools.picker
        picker.chosen.connect(self.choose)
        picker.models_wanted.connect(self.list_models)
        picker.settings_wanted.connect(window.window_actions.action("settings").trigger)
        window.window_actions.action("session_instructions").triggered.connect(
            self.edit_instructions
        )
        controller.session_shown.connect(lambda _sid: self.refresh())
        controller.choices_changed.connect(self._on_choices_changed)

    # -- showing -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the session on screen's model, instructions and what answers it."""
        opened = self._controller.current_session()
        choices = opened.session.choices() if opened is not None else None
        choice = choices.model if choices is not None else None
        self._window.composer.tools.set_model_menu(self.menu(choice))
        temperature = choice.temperature if choice is not None else None
        self._window.composer.tools.set_instructions(
            choices.instructions if choices else "", temperature
        )
        settings = self._settings()
        answerer = chosen_provider(choice, settings) or effective_provider(settings)
        self._window.status.set_provider(answerer.label())

    def menu(self, choice: SessionModel | None) -> ModelMenu:
        """What the picker shows for a session with this choice."""
        settings = self._settings()
        return ModelMenu(
            self._option(choice, settings),
            self._setting_label(settings),
            endpoint=endpoint_name(settings),
            models=self._models,
            error=self._models_error,
            recent=tuple(ModelOption(p, m) for p, m in self._controller.recent_models),
        )

    def _setting_label(self, settings: Settings) -> str:
        setting = effective_provider(settings)
        if not isinstance(setting, Endpoint):
            return self.tr("Offline assistant")
        model = setting.model or self.tr("default model")
        return f"{model} · {endpoint_name(settings)}"

    @staticmethod
    def _option(choice: SessionModel | None, settings: Settings) -> ModelOption | None:
        """The picker's entry for a choice (None: the app's setting)."""
        chosen = chosen_provider(choice, settings)
        if choice is None or chosen is None:
            return None
        if not isinstance(chosen, Endpoint):
            return ModelOption(OFFLINE)
        return ModelOption(ENDPOINT, choice.model)

    def settings_applied(self, _settings: Settings) -> None:
        """New settings: the endpoint's models are listed again when the menu next opens."""
        if self._listing is not None:
            self._listing.cancel()
        self._listing, self._models, self._models_error = None, None, ""
        self.refresh()

    def _on_choices_changed(self, session_id: str) -> None:
        if session_id == self._controller.current:
            self.refresh()

    # -- choosing ------------------------------------------------------------------------
    def choose(self, option: ModelOption | None) -> None:
        """Record the session's model (None: back to the app's setting), keeping its
        temperature; it answers from its next turn."""
        live = self._live_current()
        if live is None:
            return
        opened, agent = live
        current = opened.session.choices().model
        temperature = current.temperature if current is not None else None
        if option is None:
            self._record(agent, None, None, temperature)
            return
        self._record(agent, option.provider, option.model, temperature)
        recent = recent_choices(
            [ModelOption(p, m) for p, m in self._controller.recent_models], option
        )
        self._controller.recent_models = tuple((o.provider, o.model) for o in recent)
        self._controller.write_state(self._window.saved_geometry())

    def _record(
        self, agent: Agent, provider: str | None, model: str | None, temperature: float | None
    ) -> None:
        try:
            agent.choose_model(provider, model, temperature)
        except ChimeError as error:  # the log refused it (it just turned read-only)
            _log.warning("session/model refused: %s", error)
            self._window.notify(
                self.tr("The choice could not be recorded: ") + str(error), conversation=True
            )

    def list_models(self) -> None:
        """List the endpoint's models once (the picker's menu is opening)."""
        if self._listing is None and self._models is None:
            self._listing = self._tasks.spawn(self._list())

    async def _list(self) -> None:
        settings = self._settings()
        me = asyncio.current_task()
        try:
            key = await asyncio.to_thread(self._api_key)
            names, error = await list_models(settings.base_url, key)
        finally:
            if self._listing is me:
                self._listing = None
        self._models, self._models_error = tuple(sorted(names)), error
        self.refresh()

    # -- instructions and temperature ----------------------------------------------------
    def edit_instructions(self) -> None:
        """Ask for the session's instructions and temperature; record what changed."""
        live = self._live_current()
        if live is None:
            return
        opened, agent = live
        choices = opened.session.choices()
        model = choices.model
        current = SessionSettings(
            choices.instructions.strip(),
            model.temperature if model is not None else None,
            servers=tuple(sorted(self.mcp_defaults() if choices.tools is None else choices.tools)),
        )
        edited = self._ask(self._window, current, self._prompts(), self.mcp_servers())
        if edited is None:
            return
        try:  # a session that turned read-only while the dialog was open refuses them all
            if edited.instructions != current.instructions:
                agent.set_instructions(edited.instructions)
            if edited.temperature != current.temperature or edited.model:
                provider, name = (model.provider, model.model) if model else (None, None)
                if edited.model:  # a saved prompt's model, on the settings' own server
                    provider, name = None, edited.model
                agent.choose_model(provider, name, edited.temperature)
            if edited.servers != current.servers:
                agent.choose_tools(edited.servers)
        except ChimeError as error:
            _log.warning("session settings refused: %s", error)
            self._window.notify(
                self.tr("The instructions could not be recorded: ") + str(error), conversation=True
            )
            return
        self._window.notify(
            self.tr("This session's instructions apply from its next answer."), conversation=True
        )

    def _live_current(self) -> tuple[OpenSession, Agent] | None:
        """The session on screen and its agent, when it is live."""
        opened = self._controller.current_session()
        agent = opened.agent if opened is not None else None
        return None if opened is None or agent is None else (opened, agent)
