"""Event data as JSON, built from ``core.events`` values: for tests that write a log through the
api.md ``append(type, data)`` or straight to disk, and read it back as envelopes.

Every builder goes through the typed value and its ``to_data()``, so the JSON a test writes is
exactly what Chime's own writers would write; the names are the wire's type strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.events import (
    SCHEDULE_SOURCE as _SCHEDULE_SOURCE,
)
from core.events import (
    AssistantMessage,
    ContextTime,
    Event,
    EventType,
    FinishReason,
    ModelRef,
    PluginSource,
    SessionTitle,
    Source,
    TokenUsage,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnError,
    TurnStart,
    TurnStatus,
    UserMessage,
    UserSource,
    decode_event,
)

USER_MESSAGE = EventType.USER_MESSAGE.value
TURN_START = EventType.TURN_START.value
CONTEXT_TIME = EventType.CONTEXT_TIME.value
ASSISTANT_MESSAGE = EventType.ASSISTANT_MESSAGE.value
TOOL_RESULT = EventType.TOOL_RESULT.value
TURN_END = EventType.TURN_END.value
SESSION_TITLE = EventType.SESSION_TITLE.value
SCHEDULE_CHANGE = EventType.SCHEDULE_CHANGE.value
EXCHANGE_HIDE = EventType.EXCHANGE_HIDE.value
PATH_SELECT = EventType.PATH_SELECT.value
SESSION_MODEL = EventType.SESSION_MODEL.value
SESSION_INSTRUCTIONS = EventType.SESSION_INSTRUCTIONS.value

SCHEDULE_SOURCE: dict[str, Any] = _SCHEDULE_SOURCE.to_json()


def user_source(time_zone: str | None) -> dict[str, Any]:
    return UserSource(time_zone).to_json()


def _source(source: Mapping[str, Any]) -> Source:
    if source.get("kind") == "plugin":
        return PluginSource(source["plugin"])
    return UserSource(source.get("timeZone"))


def user_message(message_id: str, text: str, source: Mapping[str, Any]) -> dict[str, Any]:
    return UserMessage(message_id, text, _source(source)).to_data()


def turn_start(turn: int, input_seq: int) -> dict[str, Any]:
    return TurnStart(turn, input_seq).to_data()


def context_time(time_zone: str | None, text: str) -> dict[str, Any]:
    return ContextTime(time_zone, text).to_data()


def assistant_message(
    message_id: str,
    text: str,
    tool_calls: Sequence[Mapping[str, str]],
    model: Mapping[str, str],
    finish: FinishReason,
    usage: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    calls = tuple(ToolCall(c["id"], c["name"], c["arguments"]) for c in tool_calls)
    tokens = None
    if usage is not None:
        tokens = TokenUsage(usage["promptTokens"], usage["completionTokens"])
    ref = ModelRef(model["provider"], model["name"])
    return AssistantMessage(message_id, text, calls, ref, finish, tokens).to_data()


def tool_result(call_id: str, name: str, content: str, *, is_error: bool) -> dict[str, Any]:
    return ToolResult(call_id, name, content, is_error).to_data()


def turn_end(
    turn: int, status: TurnStatus, error: Mapping[str, str] | None = None
) -> dict[str, Any]:
    why = None if error is None else TurnError(error["kind"], error["message"])
    return TurnEnd(turn, status, why).to_data()


def session_title(title: str) -> dict[str, Any]:
    return SessionTitle(title).to_data()


def event(type: str, data: Any) -> Event:
    """The typed value of one event given as JSON (for ``append_event``)."""
    return decode_event(type, data)


def group(items: Sequence[tuple[str, Any]]) -> list[Event]:
    """Typed values of events given as (type, JSON data) pairs (for ``append_events``)."""
    return [decode_event(kind, data) for kind, data in items]
