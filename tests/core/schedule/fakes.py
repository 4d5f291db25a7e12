"""Helpers for the schedule tests: change envelopes and JSON-exact comparison."""

from __future__ import annotations

import json
from typing import Any

from core.events import EventType

CHANGE_TYPE = EventType.SCHEDULE_CHANGE.value

PLACEHOLDER_PREFIX = "<any non-empty"


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
