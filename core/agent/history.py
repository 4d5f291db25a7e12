"""The model's request history as a fold of the session log (agent.md §2, §7). Pure: no I/O, no
clock.

The history of a turn is the exchanges on its input's path (``core.session.conversation``), oldest
first: each its input and its answer (the latest turn of that input), leaving out hidden exchanges,
exchanges whose answer failed (unless it is the running turn's own input), versions off the path
and inputs that never ran. A failed turn followed by a retry shows its input once, with the
retry's answer.

An answer continues from what the log recorded (agent.md §7): the turns of the same input that
ended ``interrupted`` (a crash, or the app closed mid-turn) or ``failed`` just before its latest
turn lend it their steps first, oldest first: the tool calls they made and the results recorded
for them (a call the crash left without a result has the closers' "outcome unknown" error,
session-log.md §4). So a turn resumed after a crash, or a retry, sees that its reminder was
already created instead of creating it again. Their text-only partial answers (``finish:
"interrupted"``) are left out: cut-off prose holds no fact the model needs, and two assistant
texts in a row are not what endpoints expect.

A Continue (``turn/start`` with ``continues``, agent.md §7) lends its answer every step of the
turn it goes on from, the cut text included: while it runs, that text is the request's last
message (an assistant message the model goes on from); once it recorded its own answer, which
begins with that text, the cut one is left out, so the model reads the answer once.

Given a token budget (``max_tokens``: what the model's context leaves for the history once the
system prompt, tools, reading and answer are counted; ``core.llm.budget``), whole older
exchanges are dropped, oldest first, until the estimate fits. The running turn is never dropped, even when it
alone is over the budget: the endpoint then says so, and the window shows its sentence.

Only a recent window is read so a session of 10^6 events stays cheap and a request stays within
what endpoints accept: turns starting within ``max_events`` events of the end, the last
``max_turns`` exchanges, and older exchanges only while their text fits ``max_chars`` (exchanges are
whole: a turn cut by the event bound is left out; the running exchange is always in, with the
earlier turns it carries on from, however far back: a retry of an input that failed long ago
reads on to that input, so its reminder is not created twice). In
exchanges before the running one, a message longer than ``MAX_OLD_MESSAGE_CHARS`` is shortened to
its head and tail with a note saying how much was left out: one multi-megabyte answer must not
make every later request too large for the endpoint. History reads the whole log, including a
fork's inherited prefix (session-log.md §6).

Mapping, per exchange: its ``user/message`` (a plugin source becomes ``source_kind="plugin"``,
with its ``skipped`` counts), then its answer's ``assistant/message`` steps and ``tool/result``
messages (an answer's reasoning is never sent back: agent.md §2). Input typed while a turn ran
belongs to a later exchange. ``context/time`` readings are
not history: the current reading travels separately (``ModelRequest.time_context``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeAlias, assert_never

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    Event,
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
)
from core.llm.budget import messages_tokens
from core.llm.messages import Message
from core.reasoning import split_think
from core.session.conversation import Conversation, Path

MAX_TURNS = 40
MAX_EVENTS = 4000
MAX_CHARS = 200_000
MAX_OLD_MESSAGE_CHARS = 16_000
_HEAD_CHARS = 12_000

_NO_CONVERSATION = Conversation()

Step: TypeAlias = AssistantMessage | ToolResult
"""An event of a turn's answer that the model reads back: a new kind is mapped by
``_step_message`` and measured by ``_step_size``."""


RESUMED = frozenset({"interrupted", "failed"})
"""The ends of earlier turns whose steps the input's later turn carries on from."""


@dataclass
class _Exchange:
    answer: list[Step] = field(default_factory=list)
    left_out: bool = False
    resuming: bool = True
    """True while the turns met so far (walking back) ended ``RESUMED`` or went on from the one
    before them: an earlier one's steps still belong to the answer."""
    continuing: bool = False
    """The turn met last (walking back) is a Continue: the one before it lends all its steps."""

    def carry(self, status: str | None, steps: Sequence[Step], continues: bool) -> None:
        """An earlier turn of the same input (ended ``status``, itself a Continue when
        ``continues``) with its ``steps`` in log order."""
        if not self.resuming:
            return
        if self.continuing:
            lent = list(steps)
            if (
                lent
                and _cut(lent[-1])
                and any(isinstance(s, AssistantMessage) for s in self.answer)
            ):
                lent.pop()  # the Continue's own answer holds the cut text and goes on from it
        elif status in RESUMED:
            lent = [step for step in steps if not _partial(step)]
        else:
            self.resuming = False
            return
        self.answer[:0] = lent
        self.continuing = continues


def _cut(event: Step) -> bool:
    return isinstance(event, AssistantMessage) and not event.tool_calls


def _partial(event: Step) -> bool:
    return (
        isinstance(event, AssistantMessage)
        and event.finish == "interrupted"
        and not event.tool_calls
    )


class _Walk:
    """The backward walk over a log's events that gathers the exchanges of a history."""

    def __init__(self, conversation: Conversation, input_seq: int | None) -> None:
        self.conversation = conversation
        self.input_seq = input_seq
        self.exchanges: dict[int, _Exchange] = {}
        self.statuses: dict[int, str] = {}
        self.steps: list[Step] = []
        self.path: Path | None = None

    def visit(self, event: Event, *, only_running: bool = False) -> None:
        """The next event, walking back; ``only_running``: turns of other inputs are passed over
        (the walk beyond the window only completes the running answer)."""
        match event:
            case AssistantMessage() | ToolResult():
                self.steps.append(event)
            case TurnEnd(turn=turn, status=ended):
                self.statuses[turn] = ended
                self.steps = []
            case TurnStart(turn=turn, input=seq, continues=continues):
                if not only_running or seq == self.input_seq:
                    self._turn_start(turn, seq, continues is not None)
                self.steps = []
            case UserMessage():
                pass  # an input is read where its turn names it (``_input_message``)
            case (
                ContextTime()  # the current reading travels on its own (module docstring)
                | SessionTitle()
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
                pass  # not history: the tree's and the session's choices are read elsewhere
            case unexpected:
                assert_never(unexpected)

    def _turn_start(self, turn: int, seq: int, onward: bool) -> None:
        if self.input_seq is None:
            self.input_seq = seq
        if self.path is None:
            self.path = self.conversation.path_of(self.input_seq)
        if seq not in self.path or seq in self.conversation.hidden:
            return
        earlier = self.statuses.get(turn)
        steps = self.steps[::-1]
        if seq in self.exchanges:  # an earlier turn of the same input (agent.md §7)
            self.exchanges[seq].carry(earlier, steps, onward)
        else:
            failed = earlier == "failed" and seq != self.input_seq
            self.exchanges[seq] = _Exchange(steps, failed, continuing=onward)


def fold_history(
    entries: Sequence[Entry],
    conversation: Conversation = _NO_CONVERSATION,
    input_seq: int | None = None,
    *,
    max_turns: int = MAX_TURNS,
    max_events: int = MAX_EVENTS,
    max_chars: int = MAX_CHARS,
    max_tokens: int | None = None,
) -> tuple[Message, ...]:
    """The messages of the history of the turn on ``input_seq`` (default: the input of the last
    ``turn/start``, the running turn), ready for a ``ModelRequest``."""
    walk = _Walk(conversation, input_seq)
    floor = max(0, len(entries) - max_events)
    for index in range(len(entries) - 1, floor - 1, -1):
        walk.visit(entries[index].event)
    input_seq, exchanges = walk.input_seq, walk.exchanges
    running = exchanges.get(input_seq) if input_seq is not None else None
    if input_seq is not None and running is not None:
        # The running answer is whole whatever the bounds (module docstring): its earlier turns
        # may lie before the window (a retry of an input failed long ago), read on to its input.
        index = floor - 1
        while index > input_seq and (running.resuming or running.continuing):
            walk.visit(entries[index].event, only_running=True)
            index -= 1
    kept = _within_bounds(entries, exchanges, input_seq, max_turns, max_chars)
    messages: list[Message] = []
    for seq in kept:
        messages.extend(_input_message(entries, seq))
        messages.extend(map(_step_message, exchanges[seq].answer))
    clipped = clip_older_turns(messages)
    return clipped if max_tokens is None else fit_tokens(clipped, max_tokens)


def _within_bounds(
    entries: Sequence[Entry],
    exchanges: dict[int, _Exchange],
    running: int | None,
    max_turns: int,
    max_chars: int,
) -> list[int]:
    """The inputs of the exchanges kept, oldest first: the newest that fit the bounds."""
    kept: list[int] = []
    chars = 0
    for seq in sorted(exchanges, reverse=True):
        exchange = exchanges[seq]
        if exchange.left_out:
            continue
        chars += _input_size(entries[seq].event) + sum(map(_step_size, exchange.answer))
        if kept and (len(kept) >= max_turns or chars > max_chars) and seq != running:
            break
        kept.append(seq)
    return kept[::-1]


def fit_tokens(messages: Sequence[Message], max_tokens: int) -> tuple[Message, ...]:
    """``messages`` without their oldest whole turns (a turn starts at a user message) while
    their estimate exceeds ``max_tokens``; the last turn always stays."""
    starts = [i for i, m in enumerate(messages) if m.role == "user"] or [0]
    if starts[0] != 0:
        starts.insert(0, 0)  # messages before the first input (a fork's tail) are a turn too
    ends = [*starts[1:], len(messages)]
    kept = len(starts) - 1
    total = messages_tokens(messages[starts[kept] :])
    while kept > 0:
        size = messages_tokens(messages[starts[kept - 1] : ends[kept - 1]])
        if total + size > max_tokens:
            break
        total += size
        kept -= 1
    return tuple(messages[starts[kept] :])


def _input_size(event: Event) -> int:
    return len(event.text) if isinstance(event, UserMessage) else 0


def _step_size(step: Step) -> int:
    match step:
        case AssistantMessage(text=text, tool_calls=calls):
            return len(text) + sum(len(call.arguments) for call in calls)
        case ToolResult(content=content):
            return len(content)
        case unexpected:
            assert_never(unexpected)


def clip_older_turns(messages: Sequence[Message]) -> tuple[Message, ...]:
    """Shortens long texts before the last user input (the running turn stays whole)."""
    last_input = max((i for i, m in enumerate(messages) if m.role == "user"), default=len(messages))
    return tuple(
        _clipped(m) if i < last_input and len(m.text) > MAX_OLD_MESSAGE_CHARS else m
        for i, m in enumerate(messages)
    )


def _clipped(message: Message) -> Message:
    text = message.text
    tail = MAX_OLD_MESSAGE_CHARS - _HEAD_CHARS
    left_out = len(text) - _HEAD_CHARS - tail
    note = f"\n[… {left_out} characters of this earlier message left out …]\n"
    return replace(message, text=text[:_HEAD_CHARS] + note + text[-tail:])


def _input_message(entries: Sequence[Entry], seq: int) -> list[Message]:
    event = entries[seq].event if 0 <= seq < len(entries) else None
    if not isinstance(event, UserMessage):
        return []
    if isinstance(event.source, PluginSource):
        return [
            Message(
                role="user",
                text=event.text,
                source_kind="plugin",
                skipped=event.skipped,
                attachments=event.attachments,
            )
        ]
    return [Message(role="user", text=event.text, attachments=event.attachments)]


def _step_message(step: Step) -> Message:
    match step:
        case AssistantMessage():
            return assistant_message(step)
        case ToolResult():
            return tool_message(step)
        case unexpected:
            assert_never(unexpected)


def assistant_message(answer: AssistantMessage) -> Message:
    """The answer as the model is shown it again: its text and tool calls, never its reasoning
    (a separate field since it was recorded apart; a leading ``<think>`` block in a text recorded
    before that is left out too)."""
    text = answer.text if answer.reasoning is not None else split_think(answer.text).answer
    return Message(role="assistant", text=text, tool_calls=answer.tool_calls)


def tool_message(result: ToolResult) -> Message:
    return Message(
        role="tool",
        text=result.content,
        tool_call_id=result.call_id,
        name=result.name,
        is_error=result.is_error,
    )
