"""Local clock times and tool-call outcomes, as a person reads them. Pure: no I/O.

No clock and no system zone either: the caller names the zone.

A tool call and its result become a ``ToolOutcome`` (which tool, why it was not done, what it
made): values, not words. The transcript's tool cards say it in the window's language
(``ui.wording``); the Markdown export says it in English (``tool_summary``); a test holds the
window's untranslated words equal to these, so the two never disagree.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, assert_never

from core.frozen import frozen
from core.instant import read_instant
from core.jsonread import TOOL_TEXT, parse_json

if TYPE_CHECKING:  # zoneinfo is imported when a zone is first read (not before the first paint)
    from zoneinfo import ZoneInfo


class ToolKind(StrEnum):
    """The tools a card names in words (``OTHER``: any other name, shown as it is)."""

    CREATE = "schedule_create"
    LIST = "schedule_list"
    DELETE = "schedule_delete"
    OTHER = "other"


class ToolRefusal(StrEnum):
    """Why a tool call was not done: each error code of schedule.md §5, ``FAILED`` for a code this
    version does not know, ``REFUSED`` for an error without a code (the argument layer's text)."""

    INVALID_SELECTOR = "invalid_selector"
    INVALID_PROMPT = "invalid_prompt"
    INVALID_RULE = "invalid_rule"
    FREQUENCY_TOO_HIGH = "frequency_too_high"
    INVALID_TIME_ZONE = "invalid_time_zone"
    NOT_FUTURE = "not_future"
    TIME_OUT_OF_RANGE = "time_out_of_range"
    CORRUPT_SCHEDULE_LOG = "corrupt_schedule_log"
    PERSISTENCE_UNCERTAIN = "persistence_uncertain"
    INTERNAL_ERROR = "internal_error"
    SCHEDULE_NOT_FOUND = "schedule_not_found"
    FAILED = "failed"
    REFUSED = "refused"


_REFUSAL_CODES = frozenset(ToolRefusal) - {ToolRefusal.FAILED, ToolRefusal.REFUSED}


@frozen
class ToolOutcome:
    """What a tool card says, as values: which tool (``name``: its own name, for ``OTHER``); why
    it was not done (``refusal``); for a create its prompt and, once done, the clock time
    (``clock``) and id; for a list the number active; for a delete its target and whether it was
    deleted (None: no result yet, or none that says)."""

    tool: ToolKind
    name: str = ""
    refusal: ToolRefusal | None = None
    prompt: str = ""
    clock: str | None = None
    schedule_id: str = ""
    count: int | None = None
    deleted: bool | None = None


def zone_or_utc(zone_name: str | None) -> ZoneInfo:
    """The named zone, or UTC when the name is unknown or missing."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(zone_name) if zone_name else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def format_clock(when: datetime | None, zone_name: str | None) -> str:
    """``10:45`` in the display zone (empty when unknown)."""
    if when is None:
        return ""
    return when.astimezone(zone_or_utc(zone_name)).strftime("%H:%M")


def _json_object(text: str | None) -> Any:
    try:
        return parse_json(text, TOOL_TEXT) if text else None
    except ValueError:  # not JSON, or beyond the bounded decode's limits (a model's text)
        return None


def tool_outcome(
    name: str,
    arguments: str,
    content: str | None,
    zone_name: str | None,
    *,
    is_error: bool = False,
) -> ToolOutcome:
    """A tool call (and its result, once there) as the card's values (schedule.md §13)."""
    tool = ToolKind(name) if name in _TOOL_NAMES else ToolKind.OTHER
    args, result = _json_object(arguments), _json_object(content)
    refused = isinstance(result, dict) and "code" in result and "deleted" not in result
    if is_error or refused:
        return ToolOutcome(tool, name, _refusal(result))
    match tool:
        case ToolKind.CREATE:
            return _created(args, result, zone_name)
        case ToolKind.LIST:
            return ToolOutcome(tool, name, count=len(result) if isinstance(result, list) else None)
        case ToolKind.DELETE:
            target = args.get("id") if isinstance(args, dict) else None
            deleted = bool(result.get("deleted")) if isinstance(result, dict) else None
            return ToolOutcome(tool, name, schedule_id=_text(target), deleted=deleted)
        case ToolKind.OTHER:
            return ToolOutcome(tool, name)
        case unexpected:
            assert_never(unexpected)


_TOOL_NAMES = frozenset(ToolKind) - {ToolKind.OTHER}


def _text(value: Any) -> str:
    return str(value) if value else ""


def _refusal(result: Any) -> ToolRefusal:
    code = result.get("code") if isinstance(result, dict) else None
    if not isinstance(code, str):
        return ToolRefusal.REFUSED
    return ToolRefusal(code) if code in _REFUSAL_CODES else ToolRefusal.FAILED


def _created(args: Any, result: Any, zone_name: str | None) -> ToolOutcome:
    prompt = _text(args.get("prompt") if isinstance(args, dict) else None).strip()
    if not (isinstance(result, dict) and "scheduledAt" in result):
        return ToolOutcome(ToolKind.CREATE, ToolKind.CREATE.value, prompt=prompt)
    clock = format_clock(read_instant(result["scheduledAt"]), zone_name)
    made = str(result.get("id", ""))
    return ToolOutcome(ToolKind.CREATE, ToolKind.CREATE.value, None, prompt, clock, made)


def tool_summary(
    name: str,
    arguments: str,
    content: str | None,
    zone_name: str | None,
    *,
    is_error: bool = False,
) -> str:
    """The card title in English (the Markdown export; the window says ``tool_outcome`` in its
    own language): ``Create reminder — stretch, 10:45 · schedule-3``."""
    return english_summary(tool_outcome(name, arguments, content, zone_name, is_error=is_error))


ENGLISH_REFUSALS = {
    ToolRefusal.INVALID_SELECTOR: "the request was malformed",
    ToolRefusal.INVALID_PROMPT: "the reminder needs some text",
    ToolRefusal.INVALID_RULE: "that time or delay isn't valid",
    ToolRefusal.FREQUENCY_TOO_HIGH: "it can repeat at most every 5 minutes",
    ToolRefusal.INVALID_TIME_ZONE: "that time zone isn't known",
    ToolRefusal.NOT_FUTURE: "that time has already passed",
    ToolRefusal.TIME_OUT_OF_RANGE: "that is past the year 9999",
    ToolRefusal.CORRUPT_SCHEDULE_LOG: "this conversation's reminder log is damaged",
    ToolRefusal.PERSISTENCE_UNCERTAIN: "saving could not be confirmed",
    ToolRefusal.INTERNAL_ERROR: "something went wrong inside the reminder system",
    ToolRefusal.SCHEDULE_NOT_FOUND: "no such active reminder",
    ToolRefusal.FAILED: "it failed",
    ToolRefusal.REFUSED: "it was refused",
}
"""The English reason of each refusal (a test holds it equal to the window's untranslated one)."""
_ENGLISH_TITLES = {
    ToolKind.CREATE: "Create reminder",
    ToolKind.LIST: "List reminders",
    ToolKind.DELETE: "Delete reminder",
}


def english_summary(outcome: ToolOutcome) -> str:
    """``Create reminder — stretch, 10:45 · schedule-3``, ``List reminders — 2 active``."""
    title = _ENGLISH_TITLES.get(outcome.tool, outcome.name or "Tool")
    if outcome.refusal is not None:
        return f"{title} — not done: {ENGLISH_REFUSALS[outcome.refusal]}"
    text = title
    if outcome.prompt:
        text += f" — {outcome.prompt}"
    if outcome.clock is not None:
        text += f", {outcome.clock} · {outcome.schedule_id}"
    if outcome.count is not None:
        text += f" — {outcome.count} active"
    if outcome.schedule_id and outcome.tool is ToolKind.DELETE:
        text += f" — {outcome.schedule_id}"
        if outcome.deleted is not None:
            text += " · deleted" if outcome.deleted else " · not found"
    return text
