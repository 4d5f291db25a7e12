"""What the transcript needs to know of the conversation tree (agent.md §7), as a protocol. Pure.

The transcript reads the session's fold of the tree, never the log: the session's
``core.session.conversation.Conversation`` snapshot, which the app hands it, through the
structural ``ShownConversation`` protocol (the widgets, which use this package, may not import
``core.session``, whose folds load the schedule package): which inputs are on the shown path, which exchanges
are hidden, which turn of an input is its answer, and an input's versions. ``EVERYTHING`` stands
for a log without versions (every input on the path, nothing hidden): what the transcript shows
before the app has handed it a conversation.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Set
from typing import Literal, Protocol, assert_never

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTitle,
    SessionTools,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.transcript.queue import Queue

InputState = Literal["shown", "hidden", "off"]
"""How an input appears: its exchange is shown, hidden (a thin "hidden" row stands at its place),
or off the shown path (another version, or after one: nothing is shown)."""


class ShownConversation(Protocol):
    """The parts of ``core.session.conversation.Conversation`` the transcript reads."""

    @property
    def path(self) -> Container[int]:
        """The inputs on the shown path (``seq in path``)."""
        ...

    @property
    def hidden(self) -> Set[int]:
        """Inputs whose exchange is hidden from the view and the model."""
        ...

    @property
    def latest_turn(self) -> Mapping[int, int]:
        """Input -> the seq of its latest turn, for inputs that ran more than once."""
        ...

    @property
    def groups(self) -> Mapping[int, tuple[int, ...]]:
        """Input -> its versions in log order, for inputs that have more than one."""
        ...

    def shows_turn(self, input_seq: int, turn_seq: int) -> bool:
        """True when the turn starting at ``turn_seq`` is its input's answer."""
        ...

    def versions(self, input_seq: int) -> tuple[int, ...]:
        """The versions of an input in log order (itself alone when it has none)."""
        ...

    @property
    def queue(self) -> Queue | None:
        """Which inputs a turn has taken and the newest turn (None: not known, the transcript
        folds the entries it is handed)."""
        ...


class _All:
    """Every seq."""

    def __contains__(self, seq: object) -> bool:
        return type(seq) is int


class _Everything:
    """A conversation without versions, hidden exchanges or re-runs."""

    path: Container[int] = _All()
    hidden: Set[int] = frozenset()
    latest_turn: Mapping[int, int] = {}
    groups: Mapping[int, tuple[int, ...]] = {}
    queue: Queue | None = None

    def shows_turn(self, input_seq: int, turn_seq: int) -> bool:
        return True

    def versions(self, input_seq: int) -> tuple[int, ...]:
        return (input_seq,)


EVERYTHING: ShownConversation = _Everything()


class PathView:
    """One conversation snapshot as the transcript asks it (the path is computed once)."""

    def __init__(self, conversation: ShownConversation) -> None:
        self.conversation = conversation
        self._path = conversation.path

    def input_state(self, seq: int) -> InputState:
        if seq not in self._path:
            return "off"
        return "hidden" if seq in self.conversation.hidden else "shown"

    def shows_turn(self, input_seq: int, turn_seq: int) -> bool:
        """The turn at ``turn_seq`` is its input's answer (whether or not the input is shown)."""
        return self.conversation.shows_turn(input_seq, turn_seq)

    def turn_shown(self, input_seq: int, turn_seq: int) -> bool:
        """The events of this turn are shown: its input is shown and this is its answer."""
        return self.input_state(input_seq) == "shown" and self.shows_turn(input_seq, turn_seq)

    def version(self, seq: int) -> tuple[int, int]:
        """(which version, of how many) for an input with versions; (0, 0) without."""
        versions = self.conversation.versions(seq)
        if len(versions) < 2 or seq not in versions:
            return (0, 0)
        return (versions.index(seq) + 1, len(versions))


def restructures(entry: Entry, conversation: ShownConversation) -> bool:
    """True when ``entry`` (just appended, ``conversation`` the tree after it) changes which of
    the events already in the log are shown: a hidden or shown exchange, another version, a new
    version (the one it revises leaves the path), a turn that re-runs an input (its earlier turn
    is no longer the answer)."""
    match entry.event:
        case ExchangeHidden() | PathSelected():
            return True
        case UserMessage(revises=revises):
            return revises is not None
        case TurnStart(input=input_seq):
            return conversation.latest_turn.get(input_seq) == entry.seq
        case (
            AssistantMessage()
            | ToolResult()
            | TurnEnd()
            | ContextTime()
            | SessionTitle()
            | ScheduleChanged()
            | SessionModel()
            | SessionInstructions()
            | ToolStart()
            | SessionTools()
            | UnknownEvent()
            | MalformedEvent()
        ):
            return False
        case unexpected:
            assert_never(unexpected)


def switched(before: ShownConversation, after: ShownConversation) -> tuple[int, int]:
    """(the version shown before, the one shown after) of the first input whose shown version
    changed between two conversations (a version switch); (-1, -1) when none did."""
    old, new = before.path, after.path
    for group in sorted(set(after.groups.values())):
        was = next((seq for seq in group if seq in old), -1)
        now = next((seq for seq in group if seq in new), -1)
        if was != now and min(was, now) >= 0:
            return was, now
    return -1, -1
