"""The conversation tree kept in a linear log (agent.md §7): paths, versions, hidden and failed
exchanges. Pure: no I/O, no clock.

Every input (``user/message``) follows a parent: the one its ``parent`` names, else the previous
input in the log. So the path from any input back to the root is a few *runs* of consecutive
inputs in log order, one per explicit parent on the way: ``path_of`` finds them with a bisection
per run, without reading the log, and ``Path.__contains__`` answers "is this input shown?" in
O(runs). A parent always comes before its child, so a path is in log order and the transcript can
show it by filtering the log, never reordering it.

``ConversationFolder`` is the incremental part of the session folds (``core.session.folds``): the
explicit parents, the version groups, the leaf, hidden exchanges and the latest turn of inputs
that ran more than once. Everything in it grows with edits, hides and retries, not with the log,
so it rides in the checkpoint whole. ``Conversation`` is a snapshot of it for the agent and the
window.

Choices where the spec is silent: a ``path/select`` naming a seq that is not earlier than itself
is ignored, and one naming an earlier seq that is not an input shows the same path as the newest
input before that seq (a run holds every input up to its end); an ``exchange/hide`` of a seq that is not an input is kept (it hides nothing); a version
switch shows the end of that version's branch: the newest input whose path goes through it (the
conversation continues where it was left), else the version itself. That input is always a
*tip*: the input just before one with an explicit parent, or the last input of the log, so the
folder keeps the few tips instead of the tree.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from core.events import (
    ROOT,
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
from core.transcript.queue import Queue, TurnQueue


@dataclass(frozen=True, slots=True)
class Path:
    """The inputs from the root to a leaf, as runs ``(first, last)`` of seqs (newest run first):
    every input whose seq lies in a run is on the path, and no other."""

    runs: tuple[tuple[int, int], ...]

    def __contains__(self, seq: object) -> bool:
        return type(seq) is int and any(first <= seq <= last for first, last in self.runs)

    @property
    def leaf(self) -> int:
        return self.runs[0][1] if self.runs else ROOT

    @property
    def oldest(self) -> int:
        """The lowest seq the path can hold (``ROOT`` when empty)."""
        return self.runs[-1][0] if self.runs else ROOT


def path_of(leaf: int, parents: Mapping[int, int], explicit: list[int]) -> Path:
    """The path ending at ``leaf``: ``parents`` maps an input to its explicit parent, ``explicit``
    is the sorted list of those inputs."""
    runs: list[tuple[int, int]] = []
    last = leaf
    while last > ROOT:
        index = bisect.bisect_right(explicit, last) - 1
        if index < 0:  # no explicit parent at or before it: the run goes back to the first input
            runs.append((0, last))
            break
        first = explicit[index]
        runs.append((first, last))
        parent = parents[first]
        if parent >= first:  # a forward or self parent cannot be honoured: stop the path there
            break
        last = parent
    return Path(tuple(runs))


@dataclass(frozen=True)
class Conversation:
    """A snapshot of the conversation tree (see the module docstring)."""

    leaf: int = ROOT
    parents: Mapping[int, int] = field(default_factory=dict)
    explicit: tuple[int, ...] = ()
    hidden: frozenset[int] = frozenset()
    failed: frozenset[int] = frozenset()
    latest_turn: Mapping[int, int] = field(default_factory=dict)
    groups: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    tips: tuple[int, ...] = ()
    queue: Queue | None = None
    """Which inputs a turn has taken and the newest turn (``core.transcript.queue``); None when
    not known (a tree read from a start view written before it was kept)."""

    @property
    def path(self) -> Path:
        """The shown path."""
        return self.path_of(self.leaf)

    def path_of(self, leaf: int) -> Path:
        return path_of(leaf, self.parents, list(self.explicit))

    def shows_turn(self, input_seq: int, turn_seq: int) -> bool:
        """True when the turn starting at ``turn_seq`` is its input's answer (its latest turn)."""
        return self.latest_turn.get(input_seq, turn_seq) == turn_seq

    def versions(self, input_seq: int) -> tuple[int, ...]:
        """The versions of ``input_seq`` in log order (itself alone when it has none)."""
        return self.groups.get(input_seq, (input_seq,))

    def leaf_for(self, version: int) -> int:
        """The leaf a switch to ``version`` selects: the newest input whose path goes through it
        (itself when none does)."""
        explicit = list(self.explicit)
        for tip in sorted(self.tips, reverse=True):
            if tip >= version and version in path_of(tip, self.parents, explicit):
                return tip
        return version


def parent_of(entries: Sequence[Entry], conversation: Conversation, seq: int) -> int:
    """The input that input ``seq`` follows: its explicit parent, else the previous input in the
    log (found by reading back from it), else ``ROOT``."""
    explicit = conversation.parents.get(seq)
    if explicit is not None:
        return explicit
    for index in range(min(seq, len(entries)) - 1, -1, -1):
        if isinstance(entries[index].event, UserMessage):
            return index
    return ROOT


def shown(conversation: Conversation, entries: Iterable[Entry]) -> Iterator[Entry]:
    """The entries a reader of the shown path sees, in log order: inputs on the path that are not
    hidden, and the events of their answers (the latest turn of each); every event that belongs to
    no exchange (a title, a schedule change, ...) too. Start ``entries`` at a ``turn/start`` or
    between turns: events before the first ``turn/start`` are taken as outside any turn."""
    path = conversation.path
    hidden = conversation.hidden
    in_turn = False
    showing = True
    for entry in entries:
        match entry.event:  # the most frequent first: find walks every shown event
            case AssistantMessage() | ToolResult() | ContextTime():
                pass  # shown with the turn they belong to
            case UserMessage():
                if entry.seq in path and entry.seq not in hidden:
                    yield entry
                continue
            case TurnStart(input=input_seq):
                in_turn = True
                showing = (
                    input_seq in path
                    and input_seq not in hidden
                    and conversation.shows_turn(input_seq, entry.seq)
                )
            case TurnEnd():
                if showing or not in_turn:
                    yield entry
                in_turn, showing = False, True
                continue
            case (
                SessionTitle()
                | ScheduleChanged()
                | ExchangeHidden()
                | PathSelected()
                | SessionModel()
                | SessionInstructions()
                | ToolStart()
                | SessionTools()
                | UnknownEvent()
                | MalformedEvent()
            ):
                pass  # shown with the turn appended in, or when outside any turn
            case unexpected:
                assert_never(unexpected)
        if showing or not in_turn:
            yield entry


class ConversationFolder:
    """The incremental conversation state: fed by ``SessionFolds`` in log order."""

    def __init__(self) -> None:
        self.leaf = ROOT
        self.last_input = ROOT
        self.parents: dict[int, int] = {}
        self.explicit: list[int] = []
        self.hidden: set[int] = set()
        self.latest_turn: dict[int, int] = {}
        self.root_of: dict[int, int] = {}  # a version (or a revised input) -> its group's first
        self.groups: dict[int, list[int]] = {}  # a group's first input -> its versions
        self.tips: list[int] = []  # inputs just before one with an explicit parent
        self.queue = TurnQueue()  # which inputs a turn has taken (grows with waiting ones only)

    def default_parent(self) -> int | None:
        """The ``parent`` a new input must carry to follow the leaf (None: the default does)."""
        return None if self.leaf == self.last_input else self.leaf

    def user_message(self, seq: int, parent: int | None, revises: int | None) -> None:
        if parent is not None:
            self.parents[seq] = parent
            self.explicit.append(seq)  # seqs only grow: the list stays sorted
            if self.last_input > ROOT and (not self.tips or self.tips[-1] != self.last_input):
                self.tips.append(self.last_input)
        if revises is not None and 0 <= revises < seq:
            root = self.root_of.setdefault(revises, revises)
            self.groups.setdefault(root, [root]).append(seq)
            self.root_of[seq] = root
        self.last_input = seq
        self.leaf = seq

    def select(self, seq: int, leaf: int) -> None:
        if leaf < seq:
            self.leaf = leaf

    def hide(self, input_seq: int, hidden: bool) -> None:
        if hidden:
            self.hidden.add(input_seq)
        else:
            self.hidden.discard(input_seq)

    def rerun(self, input_seq: int, turn_seq: int) -> None:
        """A turn starts on an input that ran before (a retry, or a re-run after a crash)."""
        self.latest_turn[input_seq] = turn_seq

    def snapshot(self, failed: frozenset[int], count: int = 0) -> Conversation:
        """The tree after ``count`` entries."""
        groups = {seq: tuple(self.groups[root]) for seq, root in self.root_of.items()}
        return Conversation(
            self.leaf,
            dict(self.parents),
            tuple(self.explicit),
            frozenset(self.hidden),
            failed,
            dict(self.latest_turn),
            groups,
            (*self.tips, self.last_input),
            self.queue.snapshot(count),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "leaf": self.leaf,
            "lastInput": self.last_input,
            "parents": [[seq, parent] for seq, parent in self.parents.items()],
            "hidden": sorted(self.hidden),
            "latestTurn": [[seq, turn] for seq, turn in self.latest_turn.items()],
            "groups": [list(group) for group in self.groups.values()],
            "tips": list(self.tips),
            "queue": self.queue.to_json(),
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> ConversationFolder:
        """Inverse of ``to_json``; ValueError (or KeyError, TypeError) on another shape."""
        folder = cls()
        folder.leaf = _seq(state["leaf"])
        folder.last_input = _seq(state["lastInput"])
        folder.parents = {_seq(seq): _seq(parent) for seq, parent in state["parents"]}
        folder.explicit = sorted(folder.parents)
        folder.hidden = {_seq(seq) for seq in state["hidden"]}
        folder.latest_turn = {_seq(seq): _seq(turn) for seq, turn in state["latestTurn"]}
        for group in state["groups"]:
            members = [_seq(seq) for seq in group]
            if len(members) < 2:
                raise ValueError("a version group has at least two versions")
            folder.groups[members[0]] = members
            folder.root_of.update((seq, members[0]) for seq in members)
        folder.tips = [_seq(seq) for seq in state["tips"]]
        folder.queue = TurnQueue.from_json(state["queue"])
        return folder


def _seq(value: object) -> int:
    if type(value) is not int or value < ROOT:
        raise ValueError(f"expected a seq, got {value!r}")
    return value
