"""The model's request history as a fold of the session log (agent.md §2). Pure: no I/O, no clock.

Only a recent window is folded so a session of 10^6 events stays cheap and a request stays within
what endpoints accept: the last ``max_turns`` turns, never more than ``max_events`` events back
from the end, and older turns only while their text fits ``max_chars`` (the window then begins at
a ``turn/start``, so no turn is cut in half; the running turn is always in, whole). In turns before
the running one, a message longer than ``MAX_OLD_MESSAGE_CHARS`` is shortened to its head and tail
with a note saying how much was left out: one multi-megabyte answer must not make every later
request too large for the endpoint.
History reads the whole log, including a fork's inherited prefix (session-log.md §6).

Mapping, per turn in log order: its input ``user/message`` (looked up by seq; a plugin source
becomes ``source_kind="plugin"``), then its ``assistant/message`` steps and ``tool/result``
messages. Input typed while a turn ran belongs to a later turn and appears there, not where it
was appended. ``context/time`` readings are not history: the current reading travels separately
(``ModelRequest.time_context``). A failed turn followed by a retry on the same input shows that
input once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from core.llm.messages import Message, ToolCall
from core.session.vocabulary import ASSISTANT_MESSAGE, TOOL_RESULT, TURN_END, TURN_START

MAX_TURNS = 40
MAX_EVENTS = 4000
MAX_CHARS = 200_000
MAX_OLD_MESSAGE_CHARS = 16_000
_HEAD_CHARS = 12_000


def window_start(
    events: Sequence[Mapping[str, Any]],
    *,
    max_turns: int = MAX_TURNS,
    max_events: int = MAX_EVENTS,
    max_chars: int = MAX_CHARS,
) -> int:
    """Index of the first event of the history window (a ``turn/start``, or ``len`` when none)."""
    floor = max(0, len(events) - max_events)
    start = len(events)
    turns = 0
    chars = 0
    for index in range(len(events) - 1, floor - 1, -1):
        chars += _text_size(events[index])
        if events[index].get("type") == TURN_START:
            if turns and chars > max_chars:
                break
            start = index
            turns += 1
            if turns >= max_turns:
                break
    return start


def fold_history(
    events: Sequence[Mapping[str, Any]],
    *,
    max_turns: int = MAX_TURNS,
    max_events: int = MAX_EVENTS,
    max_chars: int = MAX_CHARS,
) -> tuple[Message, ...]:
    """The messages of the recent window, ready for a ``ModelRequest``."""
    start = window_start(events, max_turns=max_turns, max_events=max_events, max_chars=max_chars)
    messages: list[Message] = []
    in_turn = False
    last_input: int | None = None
    for index in range(start, len(events)):
        event = events[index]
        kind, data = event.get("type"), event.get("data")
        if not isinstance(data, Mapping):
            continue
        if kind == TURN_START:
            in_turn = True
            input_seq = data.get("input")
            if input_seq != last_input:
                messages.extend(_input_message(events, input_seq))
            last_input = input_seq if isinstance(input_seq, int) else None
        elif kind == TURN_END:
            in_turn = False
        elif in_turn and kind == ASSISTANT_MESSAGE:
            messages.append(assistant_message(data))
            last_input = None
        elif in_turn and kind == TOOL_RESULT:
            messages.append(tool_message(data))
    return _clip_older_turns(messages)


def _text_size(event: Mapping[str, Any]) -> int:
    data = event.get("data")
    if not isinstance(data, Mapping):
        return 0
    size = len(str(data.get("text", ""))) + len(str(data.get("content", "")))
    calls = data.get("toolCalls")
    if isinstance(calls, list):
        size += sum(len(str(c.get("arguments", ""))) for c in calls if isinstance(c, Mapping))
    return size


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


def _input_message(events: Sequence[Mapping[str, Any]], seq: object) -> list[Message]:
    if not isinstance(seq, int) or not 0 <= seq < len(events):
        return []
    data = events[seq].get("data")
    if not isinstance(data, Mapping):
        return []
    source = data.get("source")
    plugin = isinstance(source, Mapping) and source.get("kind") == "plugin"
    return [
        Message(
            role="user", text=str(data.get("text", "")), source_kind="plugin" if plugin else "user"
        )
    ]


def assistant_message(data: Mapping[str, Any]) -> Message:
    calls = data.get("toolCalls")
    tool_calls = tuple(
        ToolCall(
            id=str(c.get("id", "")),
            name=str(c.get("name", "")),
            arguments=str(c.get("arguments", "")),
        )
        for c in (calls if isinstance(calls, list) else [])
        if isinstance(c, Mapping)
    )
    return Message(role="assistant", text=str(data.get("text", "")), tool_calls=tool_calls)


def tool_message(data: Mapping[str, Any]) -> Message:
    return Message(
        role="tool",
        text=str(data.get("content", "")),
        tool_call_id=str(data.get("callId", "")),
        name=str(data.get("name", "")),
        is_error=bool(data.get("isError", False)),
    )
