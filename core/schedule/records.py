"""Durable records, change payloads and views (schedule.md §2.2–§2.4). Pure: no I/O, no logging.

Records are frozen values holding their target as integer ms; ``to_json()`` gives the exact
camelCase key set in write order, numbers already normalised to ``int``. ``decode_record`` is the
strict §8.2 decoder of one record mapping (raising ScheduleLogError); change payloads are decoded
by ``core.schedule.fold.decode_change``. Importing this module pulls in no asyncio, so widgets may
use it directly.

Design choice: plain frozen dataclasses and a hand-written decoder instead of pydantic wire models
(the first design sketch). Every §8.2 rule (``bool`` is never a number, integral floats normalised,
exact key sets per kind, canonical instants) is then one visible line, and a fold over a long log
pays for no model validation machinery. pydantic still generates the tools' JSON Schemas.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar, Literal, TypeAlias

from core.errors import ScheduleLogError
from core.frozen import frozen
from core.instant import format_instant_ms, ms_to_datetime, parse_instant_ms, parse_instant_text
from core.schedule.wire import SAFE, TRIM_CHARS, safe_int

VERSION = 1
MIN_EVERY_SECONDS = 300
MAX_EVERY_SECONDS = 9_007_199_254_740
"""The largest everySeconds whose product with 1000 is still a safe integer."""
DELIVERY_MODE = "session-local"


class _Targeted:
    """The target of a record in its two outside forms; every record keeps it as integer ms."""

    __slots__ = ()
    scheduled_ms: int

    @property
    def scheduled_at(self) -> str:
        """The canonical UTC instant (§2.1)."""
        return format_instant_ms(self.scheduled_ms)

    @property
    def scheduled_datetime(self) -> datetime:
        """The target as an aware UTC datetime."""
        return ms_to_datetime(self.scheduled_ms)


@frozen
class AfterRecord(_Targeted):
    """A one-shot reminder set ``after_seconds`` from its creation sample."""

    id: str
    prompt: str
    after_seconds: int
    scheduled_ms: int
    kind: ClassVar[Literal["after"]] = "after"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": "after",
            "prompt": self.prompt,
            "afterSeconds": self.after_seconds,
            "scheduledAt": self.scheduled_at,
        }


@frozen
class AtRecord(_Targeted):
    """A one-shot reminder at an absolute instant; no trace of the submitted zone is kept."""

    id: str
    prompt: str
    scheduled_ms: int
    kind: ClassVar[Literal["at"]] = "at"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": "at",
            "prompt": self.prompt,
            "scheduledAt": self.scheduled_at,
        }


@frozen
class EveryRecord(_Targeted):
    """A fixed-rate reminder; ``scheduled_ms`` is its earliest undispatched aligned occurrence."""

    id: str
    prompt: str
    every_seconds: int
    scheduled_ms: int
    kind: ClassVar[Literal["every"]] = "every"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": "every",
            "prompt": self.prompt,
            "everySeconds": self.every_seconds,
            "scheduledAt": self.scheduled_at,
        }


Record: TypeAlias = AfterRecord | AtRecord | EveryRecord


def view(record: Record, now_ms: int) -> dict[str, Any]:
    """The §2.4 view: the record's keys, then ``state`` (equal is overdue) and ``deliveryMode``."""
    value = record.to_json()
    value["state"] = "scheduled" if now_ms < record.scheduled_ms else "overdue"
    value["deliveryMode"] = DELIVERY_MODE
    return value


@frozen
class CreateChange:
    record: Record

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "operation": "create", "schedule": self.record.to_json()}


@frozen
class DeleteChange:
    id: str

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "operation": "delete", "id": self.id}


@frozen
class DispatchChange:
    """A dispatch: the one-shot form when ``accepted_ms`` is None, else the every form."""

    id: str
    accepted_ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {"version": VERSION, "operation": "dispatch", "id": self.id}
        if self.accepted_ms is not None:
            value["acceptedAt"] = format_instant_ms(self.accepted_ms)
        return value


Change: TypeAlias = CreateChange | DeleteChange | DispatchChange

_KEY_COUNTS = {"after": 5, "at": 4, "every": 5}
"""The size of each kind's exact key set (§2.2): id, kind, prompt, scheduledAt and its seconds."""
_SECONDS_KEY = {"after": "afterSeconds", "every": "everySeconds"}


def decode_id(value: object) -> str:
    """An id: a non-empty, unpadded string. Raises ScheduleLogError."""
    # strip() hands back the string itself when nothing is trimmed: the != is an identity test.
    if not isinstance(value, str) or not value or value.strip(TRIM_CHARS) != value:
        raise ScheduleLogError("an id must be a non-empty string without surrounding whitespace")
    return value


def decode_instant(value: object, key: str) -> int:
    """A canonical instant in ms. Raises ScheduleLogError."""
    try:
        return parse_instant_text(value) if type(value) is str else parse_instant_ms(value)
    except ValueError:
        raise ScheduleLogError(f"{key} is not a canonical UTC instant") from None


def _decode_prompt(value: object) -> str:
    if not isinstance(value, str) or not value or value.strip(TRIM_CHARS) != value:
        raise ScheduleLogError("a prompt must be a non-empty string without surrounding whitespace")
    return value


def _decode_seconds(value: object, key: str, low: int, high: int) -> int:
    number = value if type(value) is int else safe_int(value)  # bool and floats: safe_int
    if number is None or not low <= number <= high:
        raise ScheduleLogError(f"{key} must be a whole number of seconds in {low}..{high}")
    return number


def decode_record(value: object) -> Record:
    """Strictly decode one record mapping (§2.2, §8.2). Raises ScheduleLogError."""
    if type(value) is not dict and not isinstance(value, Mapping):  # dict first: ABCs are slow
        raise ScheduleLogError("schedule must be an object")
    kind = value.get("kind")
    if not isinstance(kind, str) or (count := _KEY_COUNTS.get(kind)) is None:
        raise ScheduleLogError("unknown schedule kind")
    # The exact key set, by count: "kind" is present, so a mapping of the kind's size that holds
    # the kind's other keys has exactly its set (cheaper than comparing keys() with a set).
    try:
        if len(value) != count:
            raise KeyError(kind)
        sid, prompt, target = value["id"], value["prompt"], value["scheduledAt"]
        seconds = value[_SECONDS_KEY[kind]] if count == 5 else None
    except KeyError:
        raise ScheduleLogError(f"a {kind} record does not have exactly its §2.2 keys") from None
    # Inline fast paths for what writers emit (str values, an int count of seconds, a cached
    # instant): a function call costs about as much as each check. The helpers judge the rest.
    if type(sid) is not str or not sid or sid.strip(TRIM_CHARS) != sid:
        sid = decode_id(sid)
    if type(prompt) is not str or not prompt or prompt.strip(TRIM_CHARS) != prompt:
        prompt = _decode_prompt(prompt)
    ms = decode_instant(target, "scheduledAt")
    if kind == "after":
        if type(seconds) is not int or not 1 <= seconds <= SAFE:
            seconds = _decode_seconds(seconds, "afterSeconds", 1, SAFE)
        return AfterRecord(sid, prompt, seconds, ms)
    if kind == "at":
        return AtRecord(sid, prompt, ms)
    if type(seconds) is not int or not MIN_EVERY_SECONDS <= seconds <= MAX_EVERY_SECONDS:
        seconds = _decode_seconds(seconds, "everySeconds", MIN_EVERY_SECONDS, MAX_EVERY_SECONDS)
    return EveryRecord(sid, prompt, seconds, ms)
