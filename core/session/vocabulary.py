"""Event type names and ``data`` builders of the session log (agent.md §2). Pure: no I/O.

Every event a Chime writer appends is built here, so its keys and their order are in one place.
Unknown types found in a log are kept and ignored by every fold (session-log.md §2).

| type               | data                                                                   |
|--------------------|------------------------------------------------------------------------|
| user/message       | id, text, source ({kind:user,timeZone} or {kind:plugin,plugin})        |
| turn/start         | turn (1, 2, ...), input (seq of the consumed user/message)             |
| context/time       | timeZone (name or null), text (the reading sent to the model)          |
| assistant/message  | id, text, toolCalls [{id,name,arguments}], model {provider,name},      |
|                    | finish (stop|tool_calls|length|interrupted), usage (optional)          |
| tool/result        | callId, name, content, isError                                         |
| turn/end           | turn, status (completed|failed|cancelled|interrupted), error {kind,message} |
| session/title      | title                                                                  |
| schedule/change    | schedule.md §2.3                                                       |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

USER_MESSAGE = "user/message"
TURN_START = "turn/start"
CONTEXT_TIME = "context/time"
ASSISTANT_MESSAGE = "assistant/message"
TOOL_RESULT = "tool/result"
TURN_END = "turn/end"
SESSION_TITLE = "session/title"
SCHEDULE_CHANGE = "schedule/change"

TurnStatus = Literal["completed", "failed", "cancelled", "interrupted"]

SCHEDULE_SOURCE: dict[str, Any] = {"kind": "plugin", "plugin": "schedule"}


def user_source(time_zone: str | None) -> dict[str, Any]:
    return {"kind": "user", "timeZone": time_zone}


def user_message(message_id: str, text: str, source: dict[str, Any]) -> dict[str, Any]:
    return {"id": message_id, "text": text, "source": dict(source)}


def turn_start(turn: int, input_seq: int) -> dict[str, Any]:
    return {"turn": turn, "input": input_seq}


def context_time(time_zone: str | None, text: str) -> dict[str, Any]:
    return {"timeZone": time_zone, "text": text}


def assistant_message(
    message_id: str,
    text: str,
    tool_calls: Sequence[dict[str, str]],
    model: dict[str, str],
    finish: str,
    usage: dict[str, int] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": message_id,
        "text": text,
        "toolCalls": [dict(c) for c in tool_calls],
        "model": dict(model),
        "finish": finish,
    }
    if usage is not None:
        data["usage"] = dict(usage)
    return data


def tool_result(call_id: str, name: str, content: str, *, is_error: bool) -> dict[str, Any]:
    return {"callId": call_id, "name": name, "content": content, "isError": is_error}


def turn_end(turn: int, status: TurnStatus, error: dict[str, str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"turn": turn, "status": status}
    if error is not None:
        data["error"] = dict(error)
    return data


def session_title(title: str) -> dict[str, Any]:
    return {"title": title}
