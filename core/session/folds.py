"""The session's incremental folds: input queue, open turn, title, last activity, and the schedule.
Pure: no I/O, no clock.

One incremental fold, fed every entry in log order (at open by the scan, then by every append), so
a session of 10^6 events is folded once and then kept up to date; ``to_json``/``from_json`` carry
its state in the checkpoint. It is the only fold of pending input: the agent reads it through the
session (``inputs()``), never re-folds the log.

Input queue (agent.md §1): pending input = ``user/message`` events at index ``>= seedLength`` not
consumed by a turn. ``turn/start {input: seq}`` consumes one; the turn's ``turn/end`` status
decides whether it stays consumed:

- ``completed`` and ``cancelled``: consumed for good (the user saw an answer, or stopped it).
- ``failed``: the input goes back to the queue, and the queue is *held*: no turn starts on its own
  (a failing endpoint must not loop). Retry runs it at once; any later ``user/message`` (typed or a
  reminder) releases the hold, and then the oldest input, the failed one, runs first.
- ``interrupted`` (the app closed or crashed mid-turn; session-log.md §4 closers): the input goes
  back unheld, so it is answered when the session next runs (at-least-once answers).

The schedule fold rides along (``schedule``: the incremental ``ScheduleFolder``, or
``ScheduleFailed`` once a change in scope fails the strict fold, schedule.md §8); it is fed by
``feed_schedule``, separately, because an append trial-feeds its changes before it commits them.
Beside it, ``schedule_sources`` says where each active record's state is written in the log: the
seq of its ``create`` and, for an ``every`` record that was dispatched, of its latest ``dispatch``
(the checkpoint carries them, so a warm open can check what it claims against those lines).

A ``turn/end`` closes the open turn only when it names that turn. Turn numbers continue across a
fork's inherited prefix; pending input never comes from it (session-log.md §6). Malformed and
unknown events are ignored (core.events); so is a reminder follow-up as a title.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias, assert_never

from core.errors import ScheduleLogError
from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    Event,
    MalformedEvent,
    ScheduleChanged,
    SessionTitle,
    ToolResult,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
    UserSource,
)
from core.schedule.fold import ScheduleFolder

RETURNING_STATUSES = frozenset({"failed", "interrupted"})
"""A turn ending so gives its input back to the pending queue."""

TITLE_FROM_MESSAGE_CHARS = 80
"""A title taken from the first user message is its first line, cut to this many characters."""


@dataclass(frozen=True)
class ScheduleFailed:
    """The strict schedule fold fails in scope (schedule.md §8): the tools answer
    ``corrupt_schedule_log`` and the owner faults; ``reason`` says where and why."""

    reason: str


ScheduleState: TypeAlias = ScheduleFolder | ScheduleFailed
Source: TypeAlias = tuple[int, int | None]
"""Where an active record is written: the seq of its create, and of its latest dispatch."""


@dataclass(frozen=True, slots=True)
class OpenTurn:
    """The turn that has started and not ended: its number and the seq of its input."""

    turn: int
    input: int


@dataclass(frozen=True, slots=True)
class InputState:
    """A snapshot of the input queue: what the agent decides its next turn from."""

    pending: tuple[int, ...] = ()
    held: bool = False
    last_turn: int = 0
    open_turn: OpenTurn | None = None

    def next_input(self, *, include_held: bool = False) -> int | None:
        """The oldest pending input a turn may start on now (None when none, or when held)."""
        if not self.pending or (self.held and not include_held):
            return None
        return self.pending[0]


class SessionFolds:
    """Pending inputs, the open turn with its unanswered tool calls, title and last activity."""

    def __init__(self, seed_length: int = 0, schedule: ScheduleState | None = None) -> None:
        self.seed_length = seed_length
        self.schedule: ScheduleState = ScheduleFolder() if schedule is None else schedule
        self.schedule_sources: dict[str, Source] = {}
        self.count = 0
        self.pending: list[int] = []
        self.held = False
        self.last_turn = 0
        self.open_turn: OpenTurn | None = None
        self.open_calls: dict[str, str] = {}
        self.title: str | None = None
        self.first_message: str | None = None
        self.last_at: str | None = None

    def feed(self, entry: Entry) -> None:
        """Fold the next entry (its ``seq`` must be ``count``), the schedule left out."""
        self._fold(entry.at, entry.event)

    def note_schedule(self, entry: Entry) -> None:
        """Note where ``entry``'s change is written, once the schedule folder holds it (an append
        trial-fed it): the ``schedule_sources`` of the records it touched."""
        event = entry.event
        if type(event) is ScheduleChanged and entry.seq >= self.seed_length:
            self._note_source(entry.seq, event.data)

    def read(self, seq: int, at: str, event: Event) -> None:
        """Fold the next event read from a log (a scan's sink): the schedule included."""
        self._fold(at, event)
        if type(event) is ScheduleChanged:
            self._fold_schedule(seq, event)

    def _fold(self, at: str, event: Event) -> None:
        seq = self.count
        self.count += 1
        self.last_at = at
        match event:  # the most frequent first: a scan folds every event of the log
            case AssistantMessage(tool_calls=calls):
                if self.open_turn is not None:
                    self.open_calls.update((call.id, call.name) for call in calls)
            case ToolResult(call_id=call_id):
                self.open_calls.pop(call_id, None)
            case UserMessage() as message:
                self._user_message(seq, message)
            case TurnStart(turn=turn, input=consumed):
                self._turn_start(turn, consumed)
            case TurnEnd(turn=turn, status=status):
                self._turn_end(turn, status)
            case SessionTitle(title=title):
                self.title = title
            case ContextTime() | ScheduleChanged() | UnknownEvent() | MalformedEvent():
                pass
            case unexpected:
                assert_never(unexpected)

    def feed_schedule(self, entry: Entry) -> None:
        """Fold ``entry`` into the schedule when it is a change in scope; a change the strict fold
        refuses fails the schedule for good (the log is what it is)."""
        self._fold_schedule(entry.seq, entry.event)

    def _fold_schedule(self, seq: int, event: Event) -> None:
        if not isinstance(event, ScheduleChanged) or seq < self.seed_length:
            return
        if isinstance(self.schedule, ScheduleFolder):
            try:
                self.schedule.feed(event.data)
            except ScheduleLogError as error:
                self.schedule = ScheduleFailed(f"event {seq}: {error}")
                return
            self._note_source(seq, event.data)

    def _note_source(self, seq: int, data: Any) -> None:
        """Note the line of a change the schedule folder holds (its shape is checked)."""
        schedule = self.schedule
        if not isinstance(schedule, ScheduleFolder):
            return
        sources = self.schedule_sources
        if data["operation"] == "create":
            sources[data["schedule"]["id"]] = (seq, None)
            return
        schedule_id = data["id"]
        if data["operation"] == "dispatch" and schedule.is_active(schedule_id):
            sources[schedule_id] = (sources[schedule_id][0], seq)  # an every record moved on
        else:
            sources.pop(schedule_id, None)

    def fail_schedule(self, reason: str) -> None:
        """The schedule can no longer be trusted (corruption, a seed beyond the log)."""
        if isinstance(self.schedule, ScheduleFolder):
            self.schedule = ScheduleFailed(reason)

    def inputs(self) -> InputState:
        return InputState(tuple(self.pending), self.held, self.last_turn, self.open_turn)

    def _user_message(self, seq: int, message: UserMessage) -> None:
        if seq >= self.seed_length:
            self._give_back(seq)
            self.held = False
        text = message.text.strip()
        if self.first_message is None and text and isinstance(message.source, UserSource):
            self.first_message = text.split("\n", 1)[0][:TITLE_FROM_MESSAGE_CHARS]

    def _turn_start(self, turn: int, consumed: int) -> None:
        self.last_turn = max(self.last_turn, turn)
        if consumed in self.pending:
            self.pending.remove(consumed)
        self.open_turn = OpenTurn(turn, consumed)
        self.open_calls = {}
        self.held = False

    def _turn_end(self, turn: int, status: str) -> None:
        opened = self.open_turn
        if opened is None or opened.turn != turn:
            return
        self.open_turn = None
        self.open_calls = {}
        if status in RETURNING_STATUSES and opened.input >= self.seed_length:
            self._give_back(opened.input)
            self.held = self.held or status == "failed"

    def _give_back(self, seq: int) -> None:
        index = bisect.bisect_left(self.pending, seq)
        if index == len(self.pending) or self.pending[index] != seq:
            self.pending.insert(index, seq)

    @property
    def display_title(self) -> str | None:
        """The latest ``session/title``, else the first user message's first line, else None."""
        return self.title if self.title is not None else self.first_message

    def to_json(self) -> dict[str, Any]:
        opened = self.open_turn
        return {
            "seedLength": self.seed_length,
            "count": self.count,
            "pending": list(self.pending),
            "held": self.held,
            "lastTurn": self.last_turn,
            "openTurn": None if opened is None else [opened.turn, opened.input],
            "openCalls": [[call_id, name] for call_id, name in self.open_calls.items()],
            "title": self.title,
            "firstMessage": self.first_message,
            "lastAt": self.last_at,
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any], schedule: ScheduleState) -> SessionFolds:
        """Inverse of ``to_json`` (which leaves the schedule to the checkpoint's own fields);
        ValueError on a state of another shape."""
        try:
            folds = cls(_whole(state["seedLength"]), schedule)
            folds.count = _whole(state["count"])
            folds.pending = sorted({_whole(seq) for seq in state["pending"]})
            folds.held = _flag(state["held"])
            folds.last_turn = _whole(state["lastTurn"])
            opened = state["openTurn"]
            folds.open_turn = None if opened is None else OpenTurn(*map(_whole, opened))
            folds.open_calls = {_text(cid): _text(name) for cid, name in state["openCalls"]}
            folds.title = _optional_text(state["title"])
            folds.first_message = _optional_text(state["firstMessage"])
            folds.last_at = _optional_text(state["lastAt"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a fold state: {error}") from None
        return folds


def _whole(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


def _flag(value: object) -> bool:
    if type(value) is not bool:
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _text(value: object) -> str:
    if type(value) is not str:
        raise ValueError(f"expected a string, got {type(value).__name__}")
    return value


def _optional_text(value: object) -> str | None:
    return None if value is None else _text(value)
