"""The engine composed once the window is painted: the task runner, the session store and the
controller over it, the settings flow, the MCP servers, the tray and notifications, and the wiring
that connects the window to them (``compose``).

``app.main.Application.start`` imports this module after the first paint, so the engine's heavy
imports (store, agents, providers) load here and never delay the window. It builds and connects;
it reads no file but the system prompt and owns nothing after it returns (``Started`` holds it).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.actions_wiring import Questions, wire_actions
from app.background import NotifierFactory, TrayFactory, explain_once, system_tray, wire_presence
from app.controller import AppController
from app.engine import EngineParts
from app.mcp.secrets import McpSecrets
from app.mcp.service import McpService
from app.mcp_approval import wire_mcp_window
from app.notifications import DesktopNotifier
from app.paths import resource
from app.presence import Presence
from app.providers import choice_factory, provider_factory
from app.qtasync import TaskRunner
from app.settings import KeyStore, Settings
from app.settings_flow import SettingsFlow
from app.state import AppState
from app.title_flow import wire_titles
from app.verbs_wiring import VerbFlows, wire_verbs
from core.clock import Clock, NewId, ZoneSource
from core.host import load_system_prompt
from core.session.store import SessionStore
from ui.main_window import MainWindow


@dataclass(frozen=True, slots=True)
class Started:
    """What ``Application.start`` composes once the window is painted."""

    tasks: TaskRunner
    controller: AppController
    settings_flow: SettingsFlow
    verbs: VerbFlows | None = None
    presence: Presence | None = None
    mcp: McpService | None = None
    """The MCP servers (``app.mcp.service``): the window's Settings page, approval dialog and
    tool picker reach them here."""


@dataclass(frozen=True, slots=True)
class Composition:
    """What one run of the app hands the composition (``app.main.Application``)."""

    app: QApplication
    """The settings flow applies the look to it."""
    window: MainWindow
    folder: Path
    settings: Settings
    """The settings read at start (the flow holds the ones in effect from now on)."""
    keys: KeyStore
    clock: Clock
    zone_source: ZoneSource
    new_id: NewId
    state: AppState
    quit_app: Callable[[], Coroutine[Any, Any, None]]
    is_active: Callable[[], bool]
    settings_saved: Callable[[Settings, Questions], None]
    """Called after each save of the settings (a changed language offers a restart)."""
    questions: Questions | None = None
    """None: the real modal dialogs."""
    make_tray: TrayFactory | None = None
    """None: the system's tray, where the desktop has one."""
    make_notifier: NotifierFactory | None = None
    """None: the desktop's notification service over D-Bus."""


def compose(given: Composition) -> Started:
    """Build the task runner, the controller over the session store, the settings flow, and
    wire the window to them."""
    window = given.window
    tasks = TaskRunner()
    flows: list[SettingsFlow] = []
    mcp = _mcp(given, flows)
    controller = _controller(given, tasks, mcp)
    flow = SettingsFlow(
        given.settings,
        app=given.app,
        window=window,
        folder=given.folder,
        keys=given.keys,
        clock=given.clock,
        tasks=tasks,
        use_provider=controller.set_provider,
        zone_source=given.zone_source,
    )
    flows.append(flow)
    mcp.problem.connect(lambda sentence: window.notify(sentence, 15000))
    questions = given.questions if given.questions is not None else Questions()
    wire_titles(controller, lambda: flow.settings, tasks)
    flow.applied.append(lambda settings: given.settings_saved(settings, questions))
    presence = _presence(given, controller, flow, tasks)
    wire_actions(
        window,
        controller,
        flow,
        tasks,
        quit_app=given.quit_app,
        questions=questions,
        hide_window=lambda: explain_once(presence, controller, window),
    )
    verbs = wire_verbs(
        window, controller, flow, tasks, questions, api_key=given.keys.get, data_dir=given.folder
    )
    wire_mcp_window(window, controller, mcp, flow, verbs.choices, McpSecrets(given.keys))
    return Started(tasks, controller, flow, verbs, presence, mcp)


def _mcp(given: Composition, flows: list[SettingsFlow]) -> McpService:
    """The MCP servers: settings through the flow once it exists (``flows``), secrets beside
    the API key's. Nothing starts here: a server starts when a conversation first uses it."""
    return McpService(
        lambda: flows[0].settings if flows else given.settings,
        lambda settings: flows[0].store(settings),
        McpSecrets(given.keys),
        given.folder,
        parent=given.window,
    )


def _controller(given: Composition, tasks: TaskRunner, mcp: McpService) -> AppController:
    keys, clock, state = given.keys, given.clock, given.state
    parts = EngineParts(
        clock,
        given.zone_source,
        given.new_id,
        load_system_prompt(resource("prompts", "system.md")),  # as Test connection sends it
        provider_factory(given.settings, keys.get, clock),
        choice_factory(given.settings, keys.get, clock),
        mcp.toolset,
    )
    return AppController(
        given.window,
        SessionStore(given.folder, clock),
        parts,
        given.folder,
        tasks,
        is_active=given.is_active,
        recent_models=state.recent_models,
        read_upto=dict(state.read_upto),
        drafts=dict(state.drafts),
    )


def _presence(
    given: Composition, controller: AppController, flow: SettingsFlow, tasks: TaskRunner
) -> Presence:
    make_tray = given.make_tray or system_tray
    make_notifier = given.make_notifier or DesktopNotifier
    controller.tray_explained = given.state.tray_explained
    return wire_presence(
        given.window,
        controller,
        flow,
        tasks,
        given.clock,
        given.zone_source,
        tray=make_tray(QIcon(str(resource("icons", "chime.svg")))),
        notifier=make_notifier(),
        quit_app=given.quit_app,
        is_active=given.is_active,
    )
