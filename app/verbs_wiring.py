"""Connects the window's per-session choices, attachments, search across sessions, import and saved
prompts to their flows (``app.session_choices``, ``app.attach_flow``, ``app.session_search``,
``app.import_flow``, ``app.prompts_flow``). Wiring only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.attach_flow import AttachFlow
from app.controller import AppController
from app.import_flow import ImportFlow
from app.prompts_flow import PromptsFlow
from app.qtasync import TaskRunner
from app.session_choices import ChoicesFlow
from app.session_search import SessionSearch
from app.settings_flow import SettingsFlow
from ui.main_window import MainWindow

if TYPE_CHECKING:
    from app.actions_wiring import Questions


@dataclass(frozen=True, slots=True)
class VerbFlows:
    """The flows of the everyday verbs this wiring made (tests reach them here)."""

    choices: ChoicesFlow
    attach: AttachFlow
    search: SessionSearch
    imports: ImportFlow
    prompts: PromptsFlow


def wire_verbs(
    window: MainWindow,
    controller: AppController,
    settings: SettingsFlow,
    tasks: TaskRunner,
    questions: Questions,
    *,
    api_key: Callable[[], str],
    data_dir: Path,
) -> VerbFlows:
    """Build the flows for one run of the app and show the current session's choices."""
    prompts = PromptsFlow(window, controller, lambda: settings.settings, settings.save_prompts)
    settings.applied.append(prompts.settings_applied)
    choices = ChoicesFlow(
        window,
        controller,
        tasks,
        settings=lambda: settings.settings,
        api_key=api_key,
        ask=questions.session_settings,
        prompts=prompts.prompts,
    )
    settings.applied.append(choices.settings_applied)
    attach = AttachFlow(window, controller, tasks, questions.attachment_paths)
    search = SessionSearch(window, controller, tasks, data_dir)
    imports = ImportFlow(window, controller, tasks, questions.import_path, data_dir)
    choices.refresh()
    return VerbFlows(choices, attach, search, imports, prompts)
