"""Incremental folds of a session's events other than the schedule. Pure: no I/O, no clock.

Owns the pending-input fold (agent.md §1: ``user/message`` events at index ``>= seedLength`` not yet
consumed by a turn; as in ``core.agent.pending``, a turn that ends ``failed`` or ``interrupted``
gives its input back, the agent's retry "hold" aside), the open-turn fold that recovery closes
(session-log.md §4.4), the title (the latest ``session/title``, else the first user message) and
the last activity time. Each is fed one envelope at a time, so a session of 10^6 events is folded
once and then kept up to date; ``to_json``/``from_json`` carry the state in a checkpoint.

Only the schedule fold is strict (schedule.md §8). These folds are lenient: a field of the wrong
shape in a known event type is ignored rather than failing the session (the transcript still shows
it), and unknown types are ignored.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from typing import Any

from core.session import vocabulary as v

RETURNING_STATUSES = frozenset({"failed", "interrupted"})
"""A turn ending so gives its input back to the pending queue (core.agent.pending agrees)."""

TITLE_FROM_MESSAGE_CHARS = 80
"""A title taken from the first user message is its first line, cut to this many characters."""


class SessionFolds:
    """Pending inputs, the open turn with its unanswered tool calls, title and last activity."""

    def __init__(self, seed_length: int = 0) -> None:
        self.seed_length = seed_length
        self.count = 0
        self.pending: list[int] = []
        self.open_turn: int | None = None
        self.open_input: int | None = None
        self.open_calls: dict[str, str] = {}
        self.title: str | None = None
        self.first_message: str | None = None
        self.last_at: str | None = None

    def feed(self, envelope: Mapping[str, Any]) -> None:
        """Fold the next event (its ``seq`` must be ``count``)."""
        seq = self.count
        self.count += 1
        at = envelope.get("at")
        self.last_at = at if isinstance(at, str) else self.last_at
        kind = envelope.get("type")
        data = envelope.get("data")
        if not isinstance(data, Mapping):
            return
        if kind == v.USER_MESSAGE:
            self._user_message(seq, data)
        elif kind == v.TURN_START:
            self._turn_start(data)
        elif kind == v.ASSISTANT_MESSAGE and self.open_turn is not None:
            self._tool_calls(data.get("toolCalls"))
        elif kind == v.TOOL_RESULT:
            self.open_calls.pop(str(data.get("callId")), None)
        elif kind == v.TURN_END:
            self._turn_end(data)
        elif kind == v.SESSION_TITLE and isinstance(data.get("title"), str):
            self.title = data["title"]

    def _user_message(self, seq: int, data: Mapping[str, Any]) -> None:
        if seq >= self.seed_length:
            self.pending.append(seq)
        text = data.get("text")
        if self.first_message is None and isinstance(text, str) and text.strip():
            self.first_message = text.strip().split("\n", 1)[0][:TITLE_FROM_MESSAGE_CHARS]

    def _turn_start(self, data: Mapping[str, Any]) -> None:
        turn = data.get("turn")
        self.open_turn = turn if type(turn) is int else 0
        self.open_calls = {}
        consumed = data.get("input")
        self.open_input = consumed if type(consumed) is int else None
        if self.open_input is not None and self.open_input in self.pending:
            self.pending.remove(self.open_input)

    def _turn_end(self, data: Mapping[str, Any]) -> None:
        returned = self.open_input if data.get("status") in RETURNING_STATUSES else None
        if returned is not None and returned >= self.seed_length and returned not in self.pending:
            bisect.insort(self.pending, returned)
        self.open_turn = self.open_input = None
        self.open_calls = {}

    def _tool_calls(self, calls: object) -> None:
        if not isinstance(calls, list):
            return
        for call in calls:
            if isinstance(call, Mapping) and isinstance(call.get("id"), str):
                self.open_calls[call["id"]] = str(call.get("name", ""))

    @property
    def display_title(self) -> str | None:
        """The latest ``session/title``, else the first user message's first line, else None."""
        return self.title if self.title is not None else self.first_message

    def to_json(self) -> dict[str, Any]:
        return {
            "seedLength": self.seed_length,
            "count": self.count,
            "pending": list(self.pending),
            "openTurn": self.open_turn,
            "openInput": self.open_input,
            "openCalls": [[call_id, name] for call_id, name in self.open_calls.items()],
            "title": self.title,
            "firstMessage": self.first_message,
            "lastAt": self.last_at,
        }

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> SessionFolds:
        """Inverse of ``to_json``; KeyError/TypeError/ValueError on a state of the wrong shape."""
        folds = cls(int(state["seedLength"]))
        folds.count = int(state["count"])
        folds.pending = [int(seq) for seq in state["pending"]]
        folds.open_turn = None if state["openTurn"] is None else int(state["openTurn"])
        folds.open_input = None if state["openInput"] is None else int(state["openInput"])
        folds.open_calls = {str(cid): str(name) for cid, name in state["openCalls"]}
        folds.title = _optional_str(state["title"])
        folds.first_message = _optional_str(state["firstMessage"])
        folds.last_at = _optional_str(state["lastAt"])
        return folds


def _optional_str(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"expected a string or null, got {type(value).__name__}")


def pending_inputs(events: Iterable[Mapping[str, Any]], seed_length: int = 0) -> list[int]:
    """The seqs of pending ``user/message`` events, oldest first (agent.md §1)."""
    folds = SessionFolds(seed_length)
    for envelope in events:
        folds.feed(envelope)
    return list(folds.pending)
