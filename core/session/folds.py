"""The session's incremental folds: input queue, open turn, title, last activity, and the schedule.
Pure: no I/O, no clock.

One incremental fold, fed every entry in log order (at open by the scan, then by every append), so
a session of 10^6 events is folded once and then kept up to date; ``to_json``/``from_json`` carry
its state in the checkpoint. It is the only fold of pending input: the agent reads it through the
session (``inputs()``), never re-folds the log.

Input queue (agent.md §1, §7): pending input = ``user/message`` events at index ``>= seedLength``
not consumed by a turn. ``turn/start {input: seq}`` consumes one; the turn's ``turn/end`` status
decides what becomes of it:

- ``completed`` and ``cancelled``: consumed for good (the user saw an answer, or stopped it).
- ``failed``: consumed, and the input is *failed* until a later turn runs on it (Retry): a failing
  endpoint neither loops nor blocks the input typed after it. A failed reminder follow-up also
  waits, and goes back to the queue once a later turn completes (the endpoint answers again), so
  the answer to a reminder stays at-least-once.
- ``interrupted`` (the app closed or crashed mid-turn; session-log.md §4 closers): the input goes
  back to the queue, so it is answered when the session next runs (at-least-once answers).

A ``turn/start`` with ``continues`` (Continue, agent.md §7) runs on an input that was consumed
already: like a retry's turn, it becomes the input's latest turn (its answer).

The conversation tree (``core.session.conversation``: leaf, versions, hidden exchanges, latest
turns) and the session's own model and instructions (``session/model``, ``session/instructions``)
are folded here too.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from typing import Any, TypeAlias, assert_never

from msgspec import Raw

from core.errors import ScheduleLogError
from core.events import (
    TURN_STATUSES,
    AssistantMessage,
    ContextTime,
    Entry,
    Event,
    EventType,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    PluginSource,
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
    UserSource,
    decode_event,
)
from core.schedule.fold import ScheduleFolder
from core.session.conversation import Conversation, ConversationFolder
from core.session.envelopes import (
    read_data,
    read_turn_end,
    read_turn_start,
    read_user_message,
)
from core.session.exchanges import Exchanges, exchange_runs, read_exchanges

_TURN_START, _TURN_END = EventType.TURN_START.value, EventType.TURN_END.value
_USER_MESSAGE = EventType.USER_MESSAGE.value
_TYPED = UserSource(None)
"""A typed message's source where the fold needs only to know it was typed (not its zone)."""
_CALLS = frozenset(
    kind.value
    for kind in (EventType.ASSISTANT_MESSAGE, EventType.TOOL_RESULT, EventType.TOOL_START)
)
_FOLDED = frozenset(kind.value for kind in EventType) - {EventType.CONTEXT_TIME.value}
"""The types whose events may change a fold (``read_block``): all but ``context/time`` and the
unknown ones (``_fold`` passes over them)."""
_NOT_CALLS = _FOLDED - _CALLS

TITLE_FROM_MESSAGE_CHARS = 1000
"""A title taken from the first user message is its whole first line, up to this many characters
(a bound for the checkpoint; the list elides it to its width)."""


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
    last_turn: int = 0
    open_turn: OpenTurn | None = None
    failed: frozenset[int] = frozenset()
    parent: int | None = None

    def next_input(self) -> int | None:
        """The oldest pending input (None when none)."""
        return self.pending[0] if self.pending else None


@dataclass(frozen=True, slots=True)
class SessionChoices:
    """The session's own model (None: the app's setting) and instructions (agent.md §7)."""

    model: SessionModel | None = None
    instructions: str = ""
    tools: tuple[str, ...] | None = None
    """The MCP servers this conversation offers the model (``session/tools``); None: it never
    chose, so the app's default applies (as for ``model``)."""


class SessionFolds:
    """Pending inputs, the open turn with its unanswered tool calls, title and last activity."""

    def __init__(self, seed_length: int = 0, schedule: ScheduleState | None = None) -> None:
        self.seed_length = seed_length
        self.schedule: ScheduleState = ScheduleFolder() if schedule is None else schedule
        self.schedule_sources: dict[str, Source] = {}
        self.count = 0
        self.pending: list[int] = []
        self.last_turn = 0
        self.failed: set[int] = set()
        self.reminders: set[int] = set()  # reminder inputs (>= seed) not yet answered
        self.waiting: set[int] = set()  # failed reminder inputs, back once a turn completes
        self.returned: set[int] = set()  # inputs given back by an interrupted turn
        self.conversation = ConversationFolder()
        self.model: SessionModel | None = None
        self.instructions = ""
        self.tools: tuple[str, ...] | None = None
        self.started_calls: set[str] = set()
        """Open calls with a ``tool/start``: an MCP call Chime stopped during, if none answers."""
        self.open_turn: OpenTurn | None = None
        self.open_calls: dict[str, str] = {}
        self.title: str | None = None
        self.title_by_model = False
        """The latest title was the model's (a later model title may replace it; a person's
        title is never replaced by one)."""
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

    def read_block(
        self,
        first_seq: int,
        kinds: list[str],
        ats: Sequence[str],
        datas: Sequence[Any],
        *,
        raw: bool = False,
    ) -> None:
        """``read`` of each event of a block of checked lines (``core.session.block_scan``), from
        its parts (``raw``: each data the bytes ``core.session.envelopes`` kept, else its value):
        only the events that change a fold are decoded. A ``context/time`` or an unknown type
        changes none; a turn's calls and results only from ``_calls_from`` on. Runs of plain
        exchanges (``core.session.exchanges``) are folded at once."""
        value = read_data if raw else _itself
        edge = self._raw_edge if raw else self._turn_edge
        last_start = _calls_from(kinds, datas, value)
        needed = list(  # picked in C: the Python loop sees only the events it folds
            chain(
                compress(range(last_start), map(_NOT_CALLS.__contains__, kinds[:last_start])),
                compress(
                    range(last_start, len(kinds)), map(_FOLDED.__contains__, kinds[last_start:])
                ),
            )
        )
        runs = exchange_runs(list(map(kinds.__getitem__, needed))) if raw else []
        done = 0
        for first, end in [*runs, (len(needed), len(needed))]:
            for index in needed[done:first]:  # the events between two runs, one by one
                kind, data, seq = kinds[index], datas[index], first_seq + index
                self.count = seq
                if not edge(seq, kind, data):
                    self.read(seq, ats[index], decode_event(kind, value(data)))
            done = first
            if first < end and self._exchanges(read_exchanges(first_seq, needed[first:end], datas)):
                done = end  # else its events are folded one by one with the next ones
        self.count = first_seq + len(kinds)
        self.last_at = ats[-1]  # a block has a line at least

    def _exchanges(self, run: Exchanges | None) -> bool:
        """Fold a run of plain exchanges as its events one by one would, and say True; or say
        False (and fold nothing) when the run is None or ``_covers`` says no."""
        if run is None or not self._covers(run.inputs):
            return False
        queue = self.conversation.queue
        self.last_turn = max(self.last_turn, run.top_turn)
        self.open_turn, self.open_calls, self.started_calls = None, {}, set()
        self.conversation.last_input = self.conversation.leaf = run.inputs[-1]
        queue.newest, queue.open = (run.inputs[-1], run.last_start), False
        return True

    def _covers(self, inputs: list[int]) -> bool:
        """False in a state where a run's events do more than leave its last exchange behind:
        no first message yet, a failed reminder waiting for a completion, or an input of the run
        failed or given back (a turn named it before its message). Pending and untaken inputs
        need no look: besides messages read before the run, they hold only inputs given back."""
        return not (
            self.first_message is None
            or self.waiting
            or not self.failed.isdisjoint(inputs)
            or not self.returned.isdisjoint(inputs)
        )

    def _turn_edge(self, seq: int, kind: str, data: Any) -> bool:
        """Fold the usual ``turn/start`` or ``turn/end`` (the shape its decoder makes a
        ``TurnStart`` or an error-free ``TurnEnd`` of) without the value: True when it was one.
        A Continue's ``turn/start`` (``continues``) is decoded, as its decoder checks it."""
        if type(data) is not dict or type(turn := data.get("turn")) is not int:
            return False
        if kind == _TURN_START and type(consumed := data.get("input")) is int:
            if "continues" in data:
                return False
            self.count = seq + 1
            self._turn_start(seq, turn, consumed)
            return True
        status, error = data.get("status"), data.get("error")
        if kind == _TURN_END and type(status) is str and status in TURN_STATUSES and error is None:
            self.count = seq + 1
            self._turn_end(turn, status)
            return True
        return False

    def _raw_edge(self, seq: int, kind: str, data: Raw) -> bool:
        """``_turn_edge`` of a data kept as its bytes, read by msgspec into the usual shape."""
        if kind == _TURN_START:
            if (start := read_turn_start(data)) is None:
                return False
            self.count = seq + 1
            self._turn_start(seq, start.turn, start.input)
            return True
        if kind == _TURN_END:
            if (end := read_turn_end(data)) is None or end.status not in TURN_STATUSES:
                return False
            self.count = seq + 1
            self._turn_end(end.turn, end.status)
            return True
        if kind == _USER_MESSAGE:
            if (message := read_user_message(data)) is None:
                return False
            self.count = seq + 1
            self._message(seq, message.text, _TYPED)
            return True
        return False

    def _fold(self, at: str, event: Event) -> None:
        seq = self.count
        self.count += 1
        self.last_at = at
        match event:  # the most frequent first: a scan folds every event of the log
            case AssistantMessage(tool_calls=calls):
                if self.open_turn is not None:
                    self.open_calls.update((call.id, call.name) for call in calls)
            case ToolResult() | ToolStart():
                self._call(event)
            case UserMessage() as message:
                self._user_message(seq, message)
            case TurnStart(turn=turn, input=consumed, continues=continues):
                self._turn_start(seq, turn, consumed, continued=continues is not None)
            case TurnEnd(turn=turn, status=status):
                self._turn_end(turn, status)
            case SessionTitle(title=title, by_model=by_model):
                if not by_model or self.title is None or self.title_by_model:
                    self.title, self.title_by_model = title, by_model
            case (
                ExchangeHidden()
                | PathSelected()
                | SessionModel()
                | SessionInstructions()
                | SessionTools()
            ):
                self._choice(seq, event)
            case ContextTime() | ScheduleChanged() | UnknownEvent() | MalformedEvent():
                pass
            case unexpected:
                assert_never(unexpected)

    def _call(self, event: ToolResult | ToolStart) -> None:
        """A result answers an open call; a start marks an open MCP call as begun."""
        if isinstance(event, ToolResult):
            self.open_calls.pop(event.call_id, None)
            self.started_calls.discard(event.call_id)
        elif event.call_id in self.open_calls:
            self.started_calls.add(event.call_id)

    def _choice(
        self,
        seq: int,
        event: ExchangeHidden | PathSelected | SessionModel | SessionInstructions | SessionTools,
    ) -> None:
        match event:
            case SessionTools(servers=servers):
                self.tools = servers
            case ExchangeHidden(input=input_seq, hidden=hidden):
                self.conversation.hide(input_seq, hidden)
            case PathSelected(leaf=leaf):
                self.conversation.select(seq, leaf)
            case SessionModel():
                self.model = event
            case SessionInstructions(text=text):
                self.instructions = text

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
        return InputState(
            tuple(self.pending),
            self.last_turn,
            self.open_turn,
            frozenset(self.failed),
            self.conversation.default_parent(),
        )

    def choices(self) -> SessionChoices:
        return SessionChoices(self.model, self.instructions, self.tools)

    def snapshot(self) -> Conversation:
        """The conversation tree as it stands (agent.md §7)."""
        return self.conversation.snapshot(frozenset(self.failed), self.count)

    def _user_message(self, seq: int, message: UserMessage) -> None:
        self._message(seq, message.text, message.source, message.parent, message.revises)

    def _message(
        self,
        seq: int,
        text: str,
        source: UserSource | PluginSource,
        parent: int | None = None,
        revises: int | None = None,
    ) -> None:
        self.conversation.queue.add(seq)
        if seq >= self.seed_length:
            self._give_back(seq)
            if isinstance(source, PluginSource):
                self.reminders.add(seq)
        self.conversation.user_message(seq, parent, revises)
        text = text.strip()
        if self.first_message is None and text and isinstance(source, UserSource):
            self.first_message = text.split("\n", 1)[0][:TITLE_FROM_MESSAGE_CHARS]

    def _turn_start(self, seq: int, turn: int, consumed: int, *, continued: bool = False) -> None:
        self.conversation.queue.take(consumed, seq)
        self.last_turn = max(self.last_turn, turn)
        if consumed in self.pending:
            self.pending.remove(consumed)
        if continued or consumed in self.failed or consumed in self.returned:
            self.failed.discard(consumed)
            self.returned.discard(consumed)
            self.conversation.rerun(consumed, seq)
        self.waiting.discard(consumed)
        self.open_turn = OpenTurn(turn, consumed)
        self.open_calls = {}
        self.started_calls = set()

    def _turn_end(self, turn: int, status: str) -> None:
        self.conversation.queue.open = False  # any turn/end closes the transcript's newest turn
        opened = self.open_turn
        if opened is None or opened.turn != turn:
            return
        self.open_turn = None
        self.open_calls = {}
        self.started_calls = set()
        consumed = opened.input
        if status == "failed":
            self.failed.add(consumed)
            if consumed in self.reminders:
                self.waiting.add(consumed)
        elif status == "interrupted":
            if consumed >= self.seed_length:
                self._give_back(consumed)
            self.returned.add(consumed)
        else:
            self.reminders.discard(consumed)
            if status == "completed":
                for waiting in self.waiting:
                    self._give_back(waiting)
                self.waiting.clear()

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
            "failed": sorted(self.failed),
            "reminders": sorted(self.reminders),
            "waiting": sorted(self.waiting),
            "returned": sorted(self.returned),
            "lastTurn": self.last_turn,
            "openTurn": None if opened is None else [opened.turn, opened.input],
            "openCalls": [[call_id, name] for call_id, name in self.open_calls.items()],
            "title": self.title,
            "titleByModel": self.title_by_model,
            "firstMessage": self.first_message,
            "lastAt": self.last_at,
            "conversation": self.conversation.to_json(),
            "model": None if self.model is None else self.model.to_data(),
            "instructions": self.instructions,
            "tools": None if self.tools is None else list(self.tools),
            "startedCalls": sorted(self.started_calls),
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any], schedule: ScheduleState) -> SessionFolds:
        """Inverse of ``to_json`` (which leaves the schedule to the checkpoint's own fields);
        ValueError on a state of another shape."""
        try:
            folds = cls(_whole(state["seedLength"]), schedule)
            folds.count = _whole(state["count"])
            folds.pending = sorted({_whole(seq) for seq in state["pending"]})
            folds.failed = {_whole(seq) for seq in state["failed"]}
            folds.reminders = {_whole(seq) for seq in state["reminders"]}
            folds.waiting = {_whole(seq) for seq in state["waiting"]}
            folds.returned = {_whole(seq) for seq in state["returned"]}
            folds.last_turn = _whole(state["lastTurn"])
            opened = state["openTurn"]
            folds.open_turn = None if opened is None else OpenTurn(*map(_number, opened))
            folds.open_calls = {_text(cid): _text(name) for cid, name in state["openCalls"]}
            folds.title = _optional_text(state["title"])
            folds.title_by_model = state.get("titleByModel") is True  # absent in older ones
            folds.first_message = _optional_text(state["firstMessage"])
            folds.last_at = _optional_text(state["lastAt"])
            folds.conversation = ConversationFolder.from_json(state["conversation"])
            model = state["model"]
            folds.model = None if model is None else _session_model(model)
            folds.instructions = _text(state["instructions"])
            tools = state.get("tools")  # absent in checkpoints written before MCP tools
            folds.tools = None if tools is None else tuple(map(_text, tools))
            folds.started_calls = set(map(_text, state.get("startedCalls", ())))
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a fold state: {error}") from None
        return folds


def _calls_from(kinds: list[str], datas: Sequence[Any], value: Callable[[Any], Any]) -> int:
    """Where the block's calls start to matter: at its last ``turn/start`` (one that decodes),
    which forgets the open calls before it; nowhere (the block's end) when a ``turn/end`` of that
    turn follows it, which forgets them all; else at the block's start."""
    for index in range(len(kinds) - 1, -1, -1):  # a turn is a few events: a short walk back
        if kinds[index] != _TURN_START:
            continue
        start = decode_event(_TURN_START, value(datas[index]))
        if type(start) is TurnStart:
            ends = (
                end
                for later in range(index + 1, len(kinds))
                if kinds[later] == _TURN_END
                and type(end := decode_event(_TURN_END, value(datas[later]))) is TurnEnd
            )
            return len(kinds) if any(end.turn == start.turn for end in ends) else index
    return 0


def _itself(data: Any) -> Any:
    return data


def _whole(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


def _number(value: object) -> int:
    """A turn's number or input as its ``turn/start`` wrote it (any whole number decodes)."""
    if type(value) is not int:
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _session_model(data: object) -> SessionModel:
    model = decode_event(EventType.SESSION_MODEL, data)
    if not isinstance(model, SessionModel):
        raise ValueError("not a session model")
    return model


def _text(value: object) -> str:
    if type(value) is not str:
        raise ValueError(f"expected a string, got {type(value).__name__}")
    return value


def _optional_text(value: object) -> str | None:
    return None if value is None else _text(value)
