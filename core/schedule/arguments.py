"""Model input of the three tools (schedule.md §2.5, §4.1, §4.2 stage A, §4.4 stage A). Pure.

The pydantic models only *describe* the input: they generate the JSON Schemas of
``definitions()`` (declared types only, open root, closed ``at`` object). Checking is done by hand,
because the generic layer has its own exact rules (``bool`` is not a number, ``-0.0``, NaN and
``null`` fail, undeclared root keys pass) that no pydantic mode reproduces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import MISSING, BaseModel, ConfigDict, Field

from core.errors import ToolArgumentError
from core.schedule.messages import InputError, Rule
from core.schedule.records import MIN_EVERY_SECONDS, AfterRecord, AtRecord, EveryRecord, Record
from core.schedule.time_input import check_target, parse_at
from core.schedule.wire import is_padded, safe_int, trim

SELECTORS = ("after_seconds", "at", "every_seconds")
_CREATE_KEYS = frozenset({"prompt", *SELECTORS})
_LOCAL_KEYS = frozenset({"date", "time", "time_zone"})


class LocalAt(BaseModel):
    """A local wall time in an explicit IANA zone."""

    model_config = ConfigDict(extra="forbid", title="LocalAt")
    date: str = Field(description="Local date, YYYY-MM-DD.")
    time: str = Field(description="Local time, HH:mm:ss with an optional .s, .ss or .sss fraction.")
    time_zone: str = Field(description="UTC or an IANA Area/Location name, e.g. Europe/Berlin.")


class CreateArguments(BaseModel):
    """Arguments of schedule_create (the root stays open: undeclared keys get their own code)."""

    model_config = ConfigDict(extra="allow")
    prompt: str = Field(description="What to relay to the user when the reminder is due.")
    after_seconds: float | MISSING = Field(
        default=MISSING, description="Positive whole number of seconds from now."
    )
    at: str | LocalAt | MISSING = Field(
        default=MISSING,
        description=(
            "An absolute time: YYYY-MM-DDTHH:mm:ss[.sss] followed by Z or a numeric offset ±HH:MM, "
            "or an object with local date, time and an explicit IANA time_zone."
        ),
    )
    every_seconds: float | MISSING = Field(
        default=MISSING,
        description="Repeat interval in whole seconds, at least 300 (fixed rate from creation).",
    )


class ListArguments(BaseModel):
    """schedule_list takes no arguments."""

    model_config = ConfigDict(extra="allow")


class DeleteArguments(BaseModel):
    """Arguments of schedule_delete."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(description="The exact id returned by schedule_create or schedule_list.")


def _root(arguments: object) -> Mapping[str, Any]:
    if not isinstance(arguments, dict):
        raise ToolArgumentError("The arguments must be a JSON object.")
    return arguments


def _require_string(arguments: Mapping[str, Any], key: str) -> str:
    if key not in arguments:
        raise ToolArgumentError(f"The argument {key} is required.")
    value = arguments[key]
    if not isinstance(value, str):
        raise ToolArgumentError(f"The argument {key} must be a string.")
    return value


def _is_layer_number(value: object) -> bool:
    """§4.1: an ``int`` (never ``bool``; any size, so no float conversion) or a finite ``float``
    other than ``-0.0``."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if not isinstance(value, float) or not math.isfinite(value):
        return False
    return not (value == 0 and math.copysign(1.0, value) < 0)


def _check_at(value: object) -> None:
    if isinstance(value, str):
        return
    if not isinstance(value, dict) or value.keys() != _LOCAL_KEYS:
        raise ToolArgumentError(
            "The argument at must be a string or an object with exactly date, time and time_zone."
        )
    if not all(isinstance(value[key], str) for key in _LOCAL_KEYS):
        raise ToolArgumentError("The fields date, time and time_zone of at must be strings.")


def check_create_arguments(arguments: object) -> Mapping[str, Any]:
    """§4.1 for schedule_create. Raises ToolArgumentError."""
    root = _root(arguments)
    _require_string(root, "prompt")
    for key in ("after_seconds", "every_seconds"):
        if key in root and not _is_layer_number(root[key]):
            raise ToolArgumentError(f"The argument {key} must be a finite number.")
    if "at" in root:
        _check_at(root["at"])
    return root


def check_list_arguments(arguments: object) -> Mapping[str, Any]:
    """§4.1 for schedule_list: any object. Raises ToolArgumentError."""
    return _root(arguments)


def check_delete_arguments(arguments: object) -> str:
    """§4.1 and stage A of schedule_delete: returns the id. Raises ToolArgumentError/InputError."""
    schedule_id = _require_string(_root(arguments), "id")
    if not schedule_id or is_padded(schedule_id):
        raise InputError(Rule.E15)
    return schedule_id


@dataclass(frozen=True, slots=True)
class CreateRequest:
    """A create that passed stage A: the trimmed prompt and exactly one normalised selector."""

    prompt: str
    after_seconds: int | None = None
    every_seconds: int | None = None
    at: str | Mapping[str, str] | None = None


def _positive_seconds(value: object) -> int:
    seconds = safe_int(value)
    if seconds is None or seconds <= 0:
        raise InputError(Rule.E3)
    return seconds


def _every_seconds(value: object) -> int:
    seconds = safe_int(value)
    if seconds is None:
        raise InputError(Rule.E4)
    if seconds < MIN_EVERY_SECONDS:
        raise InputError(Rule.E5)
    return seconds


def stage_a(root: Mapping[str, Any]) -> CreateRequest:
    """§4.2 stage A (A1–A5, first failing rule wins) on arguments that passed §4.1."""
    if not root.keys() <= _CREATE_KEYS or sum(key in root for key in SELECTORS) != 1:
        raise InputError(Rule.E1)
    prompt = trim(root["prompt"])
    if not prompt:
        raise InputError(Rule.E2)
    if "after_seconds" in root:
        return CreateRequest(prompt, after_seconds=_positive_seconds(root["after_seconds"]))
    if "every_seconds" in root:
        return CreateRequest(prompt, every_seconds=_every_seconds(root["every_seconds"]))
    return CreateRequest(prompt, at=root["at"])


def build_record(request: CreateRequest, schedule_id: str, now_ms: int) -> Record:
    """§4.2 B6: the record for ``request`` at clock sample ``now_ms``. Raises InputError."""
    if request.at is not None:
        target = check_target(parse_at(request.at), now_ms)
        return AtRecord(schedule_id, request.prompt, target)
    if request.after_seconds is not None:
        target = check_target(now_ms + request.after_seconds * 1000, now_ms)
        return AfterRecord(schedule_id, request.prompt, request.after_seconds, target)
    every = request.every_seconds if request.every_seconds is not None else 0
    target = check_target(now_ms + every * 1000, now_ms)
    return EveryRecord(schedule_id, request.prompt, every, target)
