"""Fakes for the schedule tests: a scripted SessionLog and JSON-exact comparison helpers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from core.schedule.fold import CHANGE_TYPE

PLACEHOLDER_PREFIX = "<any non-empty"


class ScriptedLog:
    """An in-memory SessionLog. ``outcomes`` are consumed one per flush (True, False or an
    exception to raise); when exhausted ``default_ok`` applies. ``gate``, when set, is awaited
    inside flush (to hold a barrier open). ``append_fails`` makes append raise."""

    def __init__(self, events: Sequence[Mapping[str, Any]] = (), seed_length: int = 0) -> None:
        self.event_list: list[Mapping[str, Any]] = list(events)
        self.seed = seed_length
        self.outcomes: list[bool | BaseException] = []
        self.default_ok = True
        self.append_fails = False
        self.barriers = 0
        self.appended: list[dict[str, Any]] = []
        self.gate: asyncio.Event | None = None

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        return self.event_list

    @property
    def seed_length(self) -> int:
        return self.seed

    def append(self, type: str, data: Mapping[str, Any]) -> None:
        if self.append_fails:
            raise OSError("append refused by the test")
        self.event_list.append({"type": type, "data": data})
        if type == CHANGE_TYPE:
            self.appended.append(dict(data))

    async def flush(self) -> bool:
        self.barriers += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.outcomes:
            outcome = self.outcomes.pop(0)
            if isinstance(outcome, BaseException):
                raise outcome
            return outcome
        return self.default_ok


def change_event(data: Any) -> dict[str, Any]:
    """A schedule/change envelope around ``data``."""
    return {"type": CHANGE_TYPE, "data": data}


def with_placeholders(expected: Any, actual: Any) -> Any:
    """``expected`` with each "<any non-empty ...>" replaced by ``actual``'s value at the same place
    when that value is a non-empty string (so only an exact match of the rest remains)."""
    if isinstance(expected, str) and expected.startswith(PLACEHOLDER_PREFIX):
        return actual if isinstance(actual, str) and actual else expected
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {k: with_placeholders(v, actual.get(k)) for k, v in expected.items()}
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [with_placeholders(e, a) for e, a in zip(expected, actual, strict=True)]
    return expected


def same_json(actual: Any, expected: Any) -> bool:
    """Exact JSON equality: key order, int vs float, bool vs int all count."""
    expected = with_placeholders(expected, actual)
    return json.dumps(actual) == json.dumps(expected)
