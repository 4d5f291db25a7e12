"""Connects the window's per-session choices, attachments (adding and opening), search across sessions, import, saved
prompts and the safety net's "Set it" to their flows (``app.session_choices``,
``app.attach_flow``, ``app.attachment_open``, ``app.session_search``, ``app.import_flow``, ``app.prompts_flow``,
``app.reminder_offer``). Wiring only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.attach_flow import AttachFlow
from app.attachment_open import AttachmentOpener
from app.controller import AppController
from app.import_flow import ImportFlow
from app.prompts_flow import PromptsFlow
from app.qtasync import TaskRunner
from app.reminder_offer import ReminderOffer
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
    opener: AttachmentOpener
    search: SessionSearch
    imports: ImportFlow
    prompts: PromptsFlow
    offer: ReminderOffer


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
    opener = AttachmentOpener(window, controller, tasks, questions.open_file)
    search = SessionSearch(window, controller, tasks, data_dir)
    imports = ImportFlow(window, controller, tasks, questions.import_path, data_dir)
    offer = ReminderOffer(controller, window, tasks, questions.set_reminder)
    window.row_action.connect(offer.row_action)
    choices.refresh()
    return VerbFlows(choices, attach, opener, search, imports, prompts, offer)
