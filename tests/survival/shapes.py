"""Closed-set checks of what `ScheduleTools.call` may return (schedule.md §2.4, §2.6): every value
is one of the listed shapes, keys in the listed order, codes from the closed set."""

from __future__ import annotations

import re
from typing import Any

from tests.survival.time_oracle import CODES

CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
VIEW_KEYS = {
    "after": ["id", "kind", "prompt", "afterSeconds", "scheduledAt", "state", "deliveryMode"],
    "at": ["id", "kind", "prompt", "scheduledAt", "state", "deliveryMode"],
    "every": ["id", "kind", "prompt", "everySeconds", "scheduledAt", "state", "deliveryMode"],
}


def is_view(value: object) -> bool:
    if not isinstance(value, dict) or value.get("kind") not in VIEW_KEYS:
        return False
    if list(value) != VIEW_KEYS[value["kind"]]:
        return False
    texts = all(isinstance(value[k], str) and value[k] for k in ("id", "prompt"))
    seconds = [value[k] for k in ("afterSeconds", "everySeconds") if k in value]
    whole = all(type(n) is int and n > 0 for n in seconds)
    return (
        texts
        and whole
        and isinstance(value["scheduledAt"], str)
        and CANONICAL.fullmatch(value["scheduledAt"]) is not None
        and value["state"] in ("scheduled", "overdue")
        and value["deliveryMode"] == "session-local"
    )


def is_error(value: object, operation: str) -> bool:
    """A basic error, or a persistence error for `operation` (create/list/delete)."""
    if not isinstance(value, dict) or value.get("code") not in CODES:
        return False
    if not isinstance(value.get("message"), str) or not value["message"]:
        return False
    if value["code"] != "persistence_uncertain":
        return list(value) == ["code", "message"]
    keys = list(value)
    if keys[:3] != ["code", "message", "operation"] or value["operation"] != operation:
        return False
    return keys[3:] in ([], ["id"])


def is_delete_result(value: object) -> bool:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return False
    if list(value) == ["id", "deleted"]:
        return value["deleted"] is True
    return (
        list(value) == ["id", "deleted", "code"]
        and value["deleted"] is False
        and (value["code"] == "schedule_not_found")
    )


def is_result_of(name: str, value: Any) -> bool:
    """True when `value` is a §2.6 result `name` may return."""
    if name == "schedule_create":
        return is_view(value) or is_error(value, "create")
    if name == "schedule_list":
        ok_list = isinstance(value, list) and all(is_view(v) for v in value)
        return ok_list or is_error(value, "list")
    if name == "schedule_delete":
        return is_delete_result(value) or is_error(value, "delete")
    return any(is_error(value, op) for op in ("create", "list", "delete"))
