"""ConversationVerbs: the transcript's conversation verbs (agent.md §7) on the session on screen.

The transcript's row actions (``ui.row_actions``), the message box's edit mode and the Edit menu's
verbs arrive here and become one agent call each: ``retry(input)``, ``edit(input, text, zone)``
(the composer's edit mode sends it), ``regenerate(input)``, ``hide(input, hidden)``, and
``select(leaf)`` for a version switch. The window shows the result through the session's events
(the transcript follows the shown path); what could not be done is said in the message bar, and
nothing raises into Qt.

Choices where the spec is silent:
- Hide and Discard say what they did in the message bar with Undo ("Undo hide", which brings the
  newest hidden exchange of this run back); the hidden exchange keeps a thin row with Show.
- Up in an empty message box edits the newest message the user typed on the shown path (not a
  reminder, not a hidden one); Ctrl+Alt+R regenerates the newest answer on the shown path.
- A version switch keeps the switched message where it was on screen and shows the end of that
  version's branch (``Conversation.leaf_for``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject

from app.controller import AppController
from app.engine import OpenSession
from core.agent import Agent
from core.errors import ChimeError
from core.events import Event, TurnStart, UserMessage, UserSource
from core.session.conversation import Conversation
from ui import row_actions
from ui.main_window import MainWindow

_log = logging.getLogger(__name__)

SCAN_BACK = 20_000
"""How far back from the end the newest message or answer of the shown path is looked for."""
SNIPPET_CHARS = 50


class ConversationVerbs(QObject):
    """The verbs of the session on screen (a child of the controller)."""

    def __init__(self, controller: AppController, window: MainWindow) -> None:
        super().__init__(controller)
        self.controller = controller
        self.window = window
        self._hidden: list[tuple[str, int]] = []
        """(session id, input) of the exchanges hidden in this run, newest last (for Undo)."""

    # -- what the window asks for ------------------------------------------------------
    def row_action(self, name: str, seq: int) -> None:
        """A transcript row's action on the exchange of input ``seq``."""
        actions: dict[str, Callable[[int], None]] = {
            row_actions.RETRY: self.retry,
            row_actions.EDIT: self.edit,
            row_actions.DISCARD: lambda s: self.hide(s, discard=True),
            row_actions.SHOW: self.show,
            "hide": self.hide,
            "regenerate": self.regenerate,
            row_actions.PREVIOUS_VERSION: lambda s: self.switch_version(s, -1),
            row_actions.NEXT_VERSION: lambda s: self.switch_version(s, 1),
        }
        action = actions.get(name)
        if action is not None:
            action(seq)

    def retry(self, seq: int) -> None:
        """Run a new turn on the failed input ``seq`` (the error row's Retry)."""
        agent = self._agent()
        if agent is None:
            return
        if not agent.retry(seq):  # it did not fail, or its retry is queued already
            self.window.notify(self.tr("This message has no failed answer to retry."), 5000)
            return
        self.window.scroll_to_end()

    def edit(self, seq: int) -> None:
        """Put input ``seq``'s text into the message box in edit mode."""
        opened = self._writable()
        message = self._message(opened, seq) if opened is not None else None
        if message is not None:
            self.window.begin_edit(seq, message.text)

    def send_edit(self, seq: int, text: str) -> None:
        """The message box sent its edit of input ``seq``: a new version with ``text``."""
        agent = self._agent()
        if agent is None:
            self.window.set_draft(text)
            return
        zone = self.controller.parts.zone_source()
        if self._attempt(self.tr("send the edited message"), lambda: agent.edit(seq, text, zone)):
            self.window.scroll_to_end()
        else:
            self.window.set_draft(text)

    def edit_last(self) -> None:
        """Up in an empty message box: edit the newest typed message of the shown path."""
        opened = self._writable()
        if opened is None:
            return
        seq = newest_typed(opened, opened.session.conversation())
        if seq is not None:
            self.edit(seq)

    def regenerate(self, seq: int) -> None:
        """A new answer to input ``seq`` (a new version with the same text)."""
        agent = self._agent()
        if agent is None:
            return
        if self._attempt(self.tr("regenerate the answer"), lambda: agent.regenerate(seq)):
            self.window.scroll_to_end()

    def regenerate_last(self) -> None:
        """Edit → Regenerate last answer (Ctrl+Alt+R)."""
        opened = self._writable()
        if opened is None:
            return
        seq = newest_answered(opened, opened.session.conversation())
        if seq is None:
            self.window.notify(self.tr("There is no answer to regenerate yet."), 5000)
            return
        self.regenerate(seq)

    def hide(self, seq: int, *, discard: bool = False) -> None:
        """Take the exchange of input ``seq`` out of the view and the model's history."""
        opened = self._writable()
        agent = opened.agent if opened is not None else None
        if opened is None or agent is None:
            return
        message = self._message(opened, seq)
        if not self._attempt(self.tr("hide the message"), lambda: agent.hide(seq)):
            return
        self._hidden.append((opened.id, seq))
        words = _snippet(message.text) if message is not None else ""
        if discard:
            text = self.tr(
                "Discarded “{words}”: left out of the view and of what the model is sent."
            )
        else:
            text = self.tr("“{words}” is hidden from the model (and from this view).")
        self.window.notify(text.format(words=words), 15000, action="undo_hide")

    def undo_hide(self) -> None:
        """Bring back the exchange hidden last (the message bar's Undo)."""
        while self._hidden:
            session_id, seq = self._hidden.pop()
            opened = self.controller.open.get(session_id)
            if opened is None or opened.agent is None:
                continue
            if seq not in opened.session.conversation().hidden:
                continue
            if session_id != self.controller.current:
                self.controller.show_session(session_id)
            if self._unhide(opened.agent, seq):
                text = self.tr("The message is back in the view and the history.")
                self.window.notify(text, 5000)
            return
        self.window.notify(self.tr("There is no hidden message to bring back."), 5000)

    def show(self, seq: int) -> None:
        """A hidden exchange's Show: back into the view and the history."""
        agent = self._agent()
        if agent is not None:
            self._unhide(agent, seq)

    def _unhide(self, agent: Agent, seq: int) -> bool:
        return self._attempt(self.tr("show the message again"), lambda: agent.hide(seq, False))

    def switch_version(self, seq: int, step: int) -> None:
        """Show the version ``step`` away from input ``seq`` (‹ -1, › +1)."""
        opened = self._writable()
        agent = opened.agent if opened is not None else None
        if opened is None or agent is None:
            return
        conversation = opened.session.conversation()
        versions = conversation.versions(seq)
        if seq not in versions:
            return
        target = versions.index(seq) + step
        if not 0 <= target < len(versions):
            return
        chosen = versions[target]
        leaf = conversation.leaf_for(chosen)
        self.window.transcript.keep_in_place(seq, chosen)
        self._attempt(self.tr("switch to that version"), lambda: agent.select(leaf))

    # -- helpers -----------------------------------------------------------------------
    def _writable(self) -> OpenSession | None:
        """The session on screen when it can be written; else None (and the window says why)."""
        opened = self.controller.current_session()
        if opened is None:
            return None
        if opened.agent is None or opened.session.read_only:
            self.window.notify(self.tr("This session is read-only: nothing can be changed."), 5000)
            return None
        return opened

    def _agent(self) -> Agent | None:
        opened = self._writable()
        return opened.agent if opened is not None else None

    def _message(self, opened: OpenSession, seq: int) -> UserMessage | None:
        entries = opened.session.entries
        try:
            event = entries[seq].event if 0 <= seq < len(entries) else None
        except ValueError:  # a line not verified yet that does not decode
            event = None
        return event if isinstance(event, UserMessage) else None

    def _attempt(self, what: str, act: Callable[[], object]) -> bool:
        """Do ``act()``; False when the session refused it (said in the message bar)."""
        try:
            act()
        except (ChimeError, ValueError) as error:
            _log.warning("could not %s: %s", what, error)
            self.window.notify(self.tr("Could not {what}: {why}").format(what=what, why=error))
            return False
        return True


def newest_typed(opened: OpenSession, conversation: Conversation) -> int | None:
    """The newest message the user typed that the transcript shows (on the path, not hidden)."""
    path = conversation.path
    for seq, event in _backwards(opened):
        if (
            isinstance(event, UserMessage)
            and isinstance(event.source, UserSource)
            and seq in path
            and seq not in conversation.hidden
        ):
            return seq
    return None


def newest_answered(opened: OpenSession, conversation: Conversation) -> int | None:
    """The input of the newest answer the transcript shows (its turn on the path, not hidden)."""
    path = conversation.path
    for seq, event in _backwards(opened):
        if not isinstance(event, TurnStart):
            continue
        input_seq = event.input
        shown = input_seq in path and input_seq not in conversation.hidden
        if shown and conversation.shows_turn(input_seq, seq):
            return input_seq
    return None


def _backwards(opened: OpenSession) -> Iterator[tuple[int, Event]]:
    """(seq, event) from the newest entry back, at most ``SCAN_BACK`` of them (a line that does
    not decode yet is skipped)."""
    entries = opened.session.entries
    for seq in range(len(entries) - 1, max(-1, len(entries) - 1 - SCAN_BACK), -1):
        try:
            yield seq, entries[seq].event
        except ValueError:
            continue


def _snippet(text: str) -> str:
    words = " ".join(text.split())
    return words if len(words) <= SNIPPET_CHARS else words[: SNIPPET_CHARS - 1].rstrip() + "…"


def wire_verbs(window: MainWindow, controller: AppController) -> ConversationVerbs:
    """Connect the transcript's row actions, the message box's edit mode, the Edit menu's verbs
    and the find bar to the session on screen; returns the verbs (both live as children of the
    controller)."""
    from app.find_flow import FindFlow

    act = window.window_actions.action
    verbs = ConversationVerbs(controller, window)
    window.transcript.row_action.connect(verbs.row_action)
    window.composer.edit_submitted.connect(verbs.send_edit)
    window.composer.edit_last_requested.connect(verbs.edit_last)
    act("regenerate").triggered.connect(verbs.regenerate_last)
    act("undo_hide").triggered.connect(verbs.undo_hide)
    find = FindFlow(controller, window)
    controller.entry_observers.append(find.entry_appended)
    return verbs
