"""ConversationVerbs: the transcript's conversation verbs (agent.md §7) on the session on screen.

The transcript's row actions (``ui.row_actions``), the message box's edit mode and the Edit menu's
verbs arrive here and become one agent call each: ``retry(input)``, ``edit(input, text, zone)``
(the composer's edit mode sends it), ``regenerate(input)``, ``continue_answer(input)`` (Continue
of a cut answer), ``hide(input, hidden)``, and
``select(leaf)`` for a version switch. The window shows the result through the session's events
(the transcript follows the shown path); what could not be done is said in the message bar, and
nothing raises into Qt.

Choices where the spec is silent:
- Hide and Discard say what they did in the message bar with Undo ("Undo hide", which brings the
  newest hidden exchange of this run back); the hidden exchange keeps a thin row with Show.
- Up in an empty message box edits the newest message the user typed on the shown path (not a
  reminder, not a hidden one); Ctrl+Alt+R regenerates the newest answer on the shown path and
  Ctrl+Alt+C continues it when it was cut off.
- A failed reminder turn's Edit says that a reminder cannot be edited (its text is the reminder
  the schedule framed, not words anyone typed); Retry and Discard work as for a typed message.
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
from core.transcript.verbs import Verb
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
            Verb.RETRY: self.retry,
            Verb.EDIT: self.edit,
            Verb.DISCARD: lambda s: self.hide(s, discard=True),
            Verb.SHOW: self.show,
            Verb.HIDE: self.hide,
            Verb.REGENERATE: self.regenerate,
            Verb.CONTINUE: self.continue_answer,
            Verb.PREVIOUS_VERSION: lambda s: self.switch_version(s, -1),
            Verb.NEXT_VERSION: lambda s: self.switch_version(s, 1),
        }
        action = actions.get(name)
        if action is not None:
            action(seq)

    def retry(self, seq: int) -> None:
        """Run a new turn on the failed input ``seq`` (the error row's Retry)."""
        live = self._live()
        if live is not None:  # refused: it did not fail, or its retry is queued already
            self._queued(live[1].retry(seq), self.tr("This message has no failed answer to retry."))

    def edit(self, seq: int) -> None:
        """Put input ``seq``'s text into the message box in edit mode."""
        live = self._live()
        message = _message(live[0], seq) if live is not None else None
        if message is None:
            return
        if isinstance(message.source, UserSource):
            self.window.composer.begin_edit(seq, message.text)
        else:  # a reminder's turn: its text is the reminder, not words anyone typed
            text = self.tr("A reminder cannot be edited: retry it, or discard it.")
            self.window.notify(text, 5000, conversation=True)

    def send_edit(self, seq: int, text: str) -> None:
        """The message box sent its edit of input ``seq``: a new version with ``text`` (given
        back to the message box when the session refuses it)."""
        live = self._live()
        zone = self.controller.parts.zone_source()
        if live is not None and self._attempt(
            self.tr("send the edited message"), lambda: live[1].edit(seq, text, zone)
        ):
            self.window.scroll_to_end()
        else:
            self.window.set_draft(text)

    def edit_last(self) -> None:
        """Up in an empty message box: edit the newest typed message of the shown path."""
        live = self._live()
        seq = newest_typed(live[0]) if live is not None else None
        if seq is not None:
            self.edit(seq)

    def regenerate(self, seq: int) -> None:
        """A new answer to input ``seq`` (a new version with the same text)."""
        live = self._live()
        if live is not None and self._attempt(
            self.tr("regenerate the answer"), lambda: live[1].regenerate(seq)
        ):
            self.window.scroll_to_end()

    def continue_answer(self, seq: int) -> None:
        """Go on from the cut answer of input ``seq`` (a new turn that continues it)."""
        live = self._live()
        if live is not None:  # refused: its answer is whole, or its Continue is queued already
            self._queued(
                live[1].continue_answer(seq),
                self.tr("This answer was not cut off: there is nothing to continue."),
            )

    def _queued(self, queued: bool, refused: str) -> None:
        """After asking for a new turn: show the end of the conversation, where it will run, or
        say ``refused`` in the message bar."""
        if queued:
            self.window.scroll_to_end()
        else:
            self.window.notify(refused, 5000, conversation=True)

    def regenerate_last(self) -> None:
        """Edit → Regenerate last answer (Ctrl+Alt+R)."""
        self._on_newest_answer(self.regenerate, self.tr("There is no answer to regenerate yet."))

    def continue_last(self) -> None:
        """Edit → Continue last answer (Ctrl+Alt+C): go on from the newest answer on the shown
        path when it was cut off (``continue_answer`` says when it was not)."""
        self._on_newest_answer(self.continue_answer, self.tr("There is no answer to continue yet."))

    def _on_newest_answer(self, verb: Callable[[int], None], none_yet: str) -> None:
        """``verb`` on the input of the newest answer on the shown path; ``none_yet`` in the
        message bar when there is none."""
        live = self._live()
        if live is None:
            return
        seq = newest_answered(live[0])
        if seq is None:
            self.window.notify(none_yet, 5000, conversation=True)
        else:
            verb(seq)

    def hide(self, seq: int, *, discard: bool = False) -> None:
        """Take the exchange of input ``seq`` out of the view and the model's history."""
        live = self._live()
        if live is None or not self._attempt(
            self.tr("hide the message"), lambda: live[1].hide(seq)
        ):
            return
        opened = live[0]
        self._hidden.append((opened.id, seq))
        message = _message(opened, seq)
        words = _snippet(message.text if message is not None else "")
        if discard:
            text = self.tr(
                "Discarded “{words}”: left out of the view and of what the model is sent."
            )
        else:
            text = self.tr("“{words}” is hidden from the model (and from this view).")
        # not about the conversation on screen only: Undo finds its session from anywhere
        self.window.notify(text.format(words=words), 15000, action="undo_hide")

    def undo_hide(self) -> None:
        """Bring back the exchange hidden last (the message bar's Undo)."""
        while self._hidden:
            session_id, seq = self._hidden.pop()
            opened = self.controller.open.get(session_id)
            agent = opened.agent if opened is not None else None
            if opened is None or agent is None or seq not in opened.session.conversation().hidden:
                continue  # closed since, read-only now, or shown again already
            if session_id != self.controller.current:
                self.controller.show_session(session_id)
            if self._unhide(agent, seq):
                if seq in opened.session.conversation().path:
                    text = self.tr("The message is back in the view and the history.")
                else:  # it belongs to a version not shown now
                    text = self.tr(
                        "The message is back, in a version of this conversation not shown now "
                        "(switch versions with ‹ ›)."
                    )
                self.window.notify(text, 5000, conversation=True)
            return
        self.window.notify(
            self.tr("There is no hidden message to bring back."), 5000, conversation=True
        )

    def show(self, seq: int) -> None:
        """A hidden exchange's Show: back into the view and the history."""
        live = self._live()
        if live is not None:
            self._unhide(live[1], seq)

    def _unhide(self, agent: Agent, seq: int) -> bool:
        return self._attempt(self.tr("show the message again"), lambda: agent.hide(seq, False))

    def switch_version(self, seq: int, step: int) -> None:
        """Show the version ``step`` away from input ``seq`` (‹ -1, › +1; nothing past the
        first or the last)."""
        live = self._live()
        if live is None:
            return
        opened, agent = live
        conversation = opened.session.conversation()
        versions = conversation.versions(seq)
        target = versions.index(seq) + step if seq in versions else -1
        if not 0 <= target < len(versions):
            return
        chosen = versions[target]
        leaf = conversation.leaf_for(chosen)
        self._attempt(self.tr("switch to that version"), lambda: agent.select(leaf))

    # -- helpers -----------------------------------------------------------------------
    def _live(self) -> tuple[OpenSession, Agent] | None:
        """The session on screen and its agent when it can be written; else None (and the
        window says why)."""
        opened = self.controller.current_session()
        if opened is None:
            return None
        agent = opened.agent
        if agent is None or opened.session.read_only:
            self.window.notify(
                self.tr("This session is read-only: nothing can be changed."),
                5000,
                conversation=True,
            )
            return None
        return opened, agent

    def _attempt(self, what: str, act: Callable[[], object]) -> bool:
        """Do ``act()``; False when the session refused it (said in the message bar)."""
        try:
            act()
        except (ChimeError, ValueError) as error:
            _log.warning("could not %s: %s", what, error)
            self.window.notify(
                self.tr("Could not {what}: {why}").format(what=what, why=error), conversation=True
            )
            return False
        return True


def _message(opened: OpenSession, seq: int) -> UserMessage | None:
    event = _event_at(opened, seq)
    return event if isinstance(event, UserMessage) else None


def _event_at(opened: OpenSession, seq: int) -> Event | None:
    """The event at ``seq`` (None past the end, or for a line not verified yet that does not
    decode)."""
    entries = opened.session.entries
    try:
        return entries[seq].event if 0 <= seq < len(entries) else None
    except ValueError:
        return None


def newest_typed(opened: OpenSession) -> int | None:
    """The newest message the user typed that the transcript shows (on the path, not hidden)."""
    conversation = opened.session.conversation()
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


def newest_answered(opened: OpenSession) -> int | None:
    """The input of the newest answer the transcript shows (its turn on the path, not hidden)."""
    conversation = opened.session.conversation()
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
    not decode yet is left out)."""
    count = len(opened.session.entries)
    for seq in range(count - 1, max(-1, count - 1 - SCAN_BACK), -1):
        event = _event_at(opened, seq)
        if event is not None:
            yield seq, event


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
    window.row_action.connect(verbs.row_action)
    window.edit_submitted.connect(verbs.send_edit)
    window.edit_last_requested.connect(verbs.edit_last)
    act("regenerate").triggered.connect(verbs.regenerate_last)
    act("continue_last").triggered.connect(verbs.continue_last)
    act("undo_hide").triggered.connect(verbs.undo_hide)
    find = FindFlow(controller, window)
    controller.entry_observers.append(find.entry_appended)
    return verbs
