"""The model's request history as a fold of the session log (agent.md §2). Pure: no I/O, no clock.

Only a recent window is folded so a session of 10^6 events stays cheap and a request stays within
what endpoints accept: the last ``max_turns`` turns, never more than ``max_events`` events back
from the end, and older turns only while their text fits ``max_chars`` (the window then begins at
a ``turn/start``, so no turn is cut in half; the running turn is always in, whole). In turns before
the running one, a message longer than ``MAX_OLD_MESSAGE_CHARS`` is shortened to its head and tail
with a note saying how much was left out: one multi-megabyte answer must not make every later
request too large for the endpoint.

Given a token budget (``max_tokens``: what the model's context leaves for the history once the
system prompt, tools, reading and answer are counted; ``core.llm.budget``), whole older turns are
dropped, oldest first, until the estimate fits. The running turn is never dropped, even when it
alone is over the budget: the endpoint then says so, and the window shows its sentence.
History reads the whole log, including a fork's inherited prefix (session-log.md §6).

Mapping, per turn in log order: its input ``user/message`` (looked up by seq; a plugin source
becomes ``source_kind="plugin"``, with its ``skipped`` counts), then its ``assistant/message`` steps and ``tool/result``
messages. Input typed while a turn ran belongs to a later turn and appears there, not where it
was appended. ``context/time`` readings are not history: the current reading travels separately
(``ModelRequest.time_context``). A failed turn followed by a retry on the same input shows that
input once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    Event,
    PluginSource,
    ToolResult,
    TurnEnd,
    TurnStart,
    UserMessage,
)
from core.llm.budget import messages_tokens
from core.llm.messages import Message

MAX_TURNS = 40
MAX_EVENTS = 4000
MAX_CHARS = 200_000
MAX_OLD_MESSAGE_CHARS = 16_000
_HEAD_CHARS = 12_000


def window_start(
    entries: Sequence[Entry],
    *,
    max_turns: int = MAX_TURNS,
    max_events: int = MAX_EVENTS,
    max_chars: int = MAX_CHARS,
) -> int:
    """Index of the first entry of the history window (a ``turn/start``, or ``len`` when none)."""
    floor = max(0, len(entries) - max_events)
    start = len(entries)
    turns = 0
    chars = 0
    for index in range(len(entries) - 1, floor - 1, -1):
        event = entries[index].event
        chars += _text_size(event)
        if isinstance(event, TurnStart):
            if turns and chars > max_chars:
                break
            start = index
            turns += 1
            if turns >= max_turns:
                break
    return start


def fold_history(
    entries: Sequence[Entry],
    *,
    max_turns: int = MAX_TURNS,
    max_events: int = MAX_EVENTS,
    max_chars: int = MAX_CHARS,
    max_tokens: int | None = None,
) -> tuple[Message, ...]:
    """The messages of the recent window, ready for a ``ModelRequest`` (within ``max_tokens``
    estimated tokens, whole turns dropped oldest first, when given)."""
    start = window_start(entries, max_turns=max_turns, max_events=max_events, max_chars=max_chars)
    messages: list[Message] = []
    in_turn = False
    last_input: int | None = None
    for index in range(start, len(entries)):
        match entries[index].event:
            case TurnStart(input=input_seq):
                in_turn = True
                if input_seq != last_input:
                    messages.extend(_input_message(entries, input_seq))
                last_input = input_seq
            case TurnEnd():
                in_turn = False
            case AssistantMessage() as answer if in_turn:
                messages.append(assistant_message(answer))
                last_input = None
            case ToolResult() as result if in_turn:
                messages.append(tool_message(result))
            case _:
                pass  # input is taken at its turn/start; the rest is not history
    clipped = _clip_older_turns(messages)
    return clipped if max_tokens is None else fit_tokens(clipped, max_tokens)


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


def _text_size(event: Event) -> int:
    if isinstance(event, UserMessage | ContextTime):
        return len(event.text)
    if isinstance(event, AssistantMessage):
        return len(event.text) + sum(len(call.arguments) for call in event.tool_calls)
    if isinstance(event, ToolResult):
        return len(event.content)
    return 0


def _clip_older_turns(messages: list[Message]) -> tuple[Message, ...]:
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
    if not 0 <= seq < len(entries):
        return []
    event = entries[seq].event
    if not isinstance(event, UserMessage):
        return []
    if isinstance(event.source, PluginSource):
        return [Message(role="user", text=event.text, source_kind="plugin", skipped=event.skipped)]
    return [Message(role="user", text=event.text)]


def assistant_message(answer: AssistantMessage) -> Message:
    return Message(role="assistant", text=answer.text, tool_calls=answer.tool_calls)


def tool_message(result: ToolResult) -> Message:
    return Message(
        role="tool",
        text=result.content,
        tool_call_id=result.call_id,
        name=result.name,
        is_error=result.is_error,
    )
