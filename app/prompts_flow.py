"""PromptsFlow: the saved prompts (issue 21) in the window: the ``/`` picker over the message box
(``ui.prompt_picker``), and the default prompt every new conversation starts with.

The default is recorded in the new conversation's own log when New session creates it, as the
instructions dialog records a choice (``session/instructions``, and ``session/model`` when the
prompt names a temperature or a model): the log stays the truth, and changing or removing the
default later changes no conversation already made. A fork, a restored or an imported
conversation is not new and keeps what it had. While the library was never edited the examples
of ``ui.prompt_examples`` are offered (in the window's language); they become the user's own once
the library is saved.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject

from app.controller import AppController
from app.settings import Settings
from core.errors import ChimeError
from core.prompts import SavedPrompt, named
from ui import prompt_library
from ui.main_window import MainWindow
from ui.prompt_examples import library
from ui.prompt_picker import PromptPicker

_log = logging.getLogger(__name__)


class PromptsFlow(QObject):
    """The ``/`` picker and the default for new conversations (see the module docstring)."""

    def __init__(
        self,
        window: MainWindow,
        controller: AppController,
        settings: Callable[[], Settings],
        save: Callable[[tuple[SavedPrompt, ...], str], None],
    ) -> None:
        super().__init__(controller)
        self._window = window
        self._controller = controller
        self._settings = settings
        self._save = save
        self.picker = PromptPicker(window, window.composer.editor)
        controller.session_created.connect(self.start_with_default)
        window.window_actions.action("saved_prompts").triggered.connect(self.edit)
        self.settings_applied(settings())

    def edit(self) -> None:
        """Edit ▸ Saved prompts…: the library on its own, saved at once when confirmed (the
        same dialog as Settings' Manage…, for a screen too small for the whole settings)."""
        settings = self._settings()
        edited = prompt_library.edit_prompts(self._window, self.prompts(), settings.default_prompt)
        if edited is not None:
            self._save(*edited)

    def prompts(self) -> tuple[SavedPrompt, ...]:
        """The saved prompts in effect (the examples while the library was never edited)."""
        return library(self._settings().prompts)

    def settings_applied(self, _settings: Settings) -> None:
        self.picker.set_prompts(self.prompts())

    def start_with_default(self, session_id: str) -> None:
        """Record the default prompt in a conversation New session just made."""
        prompt = named(self.prompts(), self._settings().default_prompt)
        opened = self._controller.open.get(session_id)
        agent = opened.agent if opened is not None else None
        if prompt is None or agent is None:
            return
        try:
            if prompt.text:
                agent.set_instructions(prompt.text)
            if prompt.temperature is not None or prompt.model:
                agent.choose_model(None, prompt.model or None, prompt.temperature)
        except ChimeError as error:  # the new log turned read-only at once (a full disk)
            _log.warning("default prompt refused: %s", error)
