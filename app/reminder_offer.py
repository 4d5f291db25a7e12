"""ReminderOffer: the safety net's "Set it" (agent.md §3, desktop.md §1.3) on the session on screen.

An answer that did not set the reminder the person asked for carries ``reminderNotSet``: the
``schedule_create`` arguments the offline assistant understood. Its line in the transcript offers
"Set it"; here that becomes a question showing the reminder's text and when it would come, and,
confirmed, one ``schedule_create`` call through the session's own schedule tools
(``SessionHost.tools``, the path the model's calls take), so the log records the
``schedule/change`` as usual, the reminders panel lists it and the line says it is set. Nothing is
created without the question; what could not be done is said in the message bar.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.controller import AppController
from app.engine import OpenSession
from app.qtasync import TaskRunner
from core.errors import ChimeError
from core.events import AssistantMessage, TurnStart
from core.jsonread import TOOL_TEXT, parse_json
from core.transcript.verbs import Verb
from ui.main_window import MainWindow
from ui.row_parts import offer_words

_log = logging.getLogger(__name__)

SCAN = 4000
"""How far after its input the answer carrying the offer is looked for."""

Ask = Callable[[QWidget, str, str], bool]
"""Asks whether to set the reminder (its text, when it would come); True: set it."""


class ReminderOffer(QObject):
    """The "Set it" of the session on screen (a child of the controller)."""

    def __init__(
        self, controller: AppController, window: MainWindow, tasks: TaskRunner, ask: Ask
    ) -> None:
        super().__init__(controller)
        self.controller = controller
        self.window = window
        self._tasks = tasks
        self._ask = ask

    def row_action(self, name: str, seq: int) -> None:
        """A transcript row's action: only the safety net's ``set-reminder`` is this flow's."""
        if name == Verb.SET_REMINDER:
            self.offer(seq)

    def offer(self, seq: int) -> None:
        """Ask, then set the reminder the answer to input ``seq`` did not set."""
        opened = self.controller.current_session()
        if opened is None or opened.host is None or opened.session.read_only:
            self.window.notify(self.tr("This session is read-only: nothing can be changed."), 5000)
            return
        arguments = offered_arguments(opened, seq)
        now = self.controller.parts.clock()
        prompt, when = offer_words(arguments or "", now, self.controller.parts.zone_source())
        if arguments is None or not prompt:
            self.window.notify(self.tr("There is no reminder to set here."), 5000)
            return
        if self._ask(self.window, prompt, when):
            self._tasks.spawn(self.create(opened, arguments))

    async def create(self, opened: OpenSession, arguments: str) -> None:
        """One ``schedule_create`` call with ``arguments``; its outcome in the message bar."""
        host = opened.host
        if host is None:
            return
        try:
            result = await host.tools.call("schedule_create", parse_json(arguments, TOOL_TEXT))
        except (ChimeError, ValueError) as error:  # refused arguments or a failed write
            _log.warning("could not set the offered reminder: %s", error)
            self.window.notify(self.tr("Could not set the reminder: {why}").format(why=error))
            return
        refusal = _refusal(result)
        if refusal:
            self.window.notify(self.tr("Could not set the reminder: {why}").format(why=refusal))


def offered_arguments(opened: OpenSession, seq: int) -> str | None:
    """The ``reminderNotSet`` arguments of the newest answer of input ``seq``'s turns (None:
    none offers one)."""
    entries = opened.session.entries
    turn_input, found = -1, None
    for index in range(seq + 1, min(len(entries), seq + 1 + SCAN)):
        try:
            event = entries[index].event
        except ValueError:  # a line not verified yet that does not decode
            continue
        if isinstance(event, TurnStart):
            turn_input = event.input
        elif isinstance(event, AssistantMessage) and turn_input == seq:
            found = event.reminder_not_set or found
    return found


def _refusal(result: Any) -> str:
    """The words of a refused create (the tool's ``{code, message}`` value, schedule.md §2.6),
    "" when it was created."""
    if isinstance(result, dict) and "code" in result and "id" not in result:
        return str(result.get("message", result["code"]))
    return ""
