"""Local clock times and one-line tool-call summaries, as a person reads them. Pure: no I/O.

No clock and no system zone either: the caller names the zone.

The transcript's tool cards (``ui.transcript_rows``) and the Markdown export
(``core.session.export``) both say a tool call in these words, so the two never disagree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.instant import read_instant
from core.jsonread import TOOL_TEXT, parse_json

PLAIN_FAILURES = {
    "invalid_selector": "the request was malformed",
    "invalid_prompt": "the reminder needs some text",
    "invalid_rule": "that time or delay isn't valid",
    "frequency_too_high": "it can repeat at most every 5 minutes",
    "invalid_time_zone": "that time zone isn't known",
    "not_future": "that time has already passed",
    "time_out_of_range": "that is past the year 9999",
    "corrupt_schedule_log": "this conversation's reminder log is damaged",
    "persistence_uncertain": "saving could not be confirmed",
    "internal_error": "something went wrong inside the reminder system",
    "schedule_not_found": "no such active reminder",
}
"""The tool row's sentence for each error code of schedule.md §5."""
TOOL_TITLES = {
    "schedule_create": "Create reminder",
    "schedule_list": "List reminders",
    "schedule_delete": "Delete reminder",
}


def zone_or_utc(zone_name: str | None) -> ZoneInfo:
    """The named zone, or UTC when the name is unknown or missing."""
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


def tool_summary(
    name: str,
    arguments: str,
    content: str | None,
    zone_name: str | None,
    *,
    is_error: bool = False,
) -> str:
    """A compact card title: ``Create reminder — stretch, 10:45 · schedule-3`` (schedule.md §13)."""
    title = TOOL_TITLES.get(name, name or "Tool")
    args = _json_object(arguments)
    result = _json_object(content)
    if is_error or (isinstance(result, dict) and "code" in result and "deleted" not in result):
        code = result.get("code") if isinstance(result, dict) else None
        reason = (
            PLAIN_FAILURES.get(code, "it failed") if isinstance(code, str) else "it was refused"
        )
        return f"{title} — not done: {reason}"
    if name == "schedule_create":
        return _create_summary(title, args, result, zone_name)
    if name == "schedule_list":
        count = f" — {len(result)} active" if isinstance(result, list) else ""
        return f"{title}{count}"
    if name == "schedule_delete":
        target = args.get("id") if isinstance(args, dict) else None
        outcome = ""
        if isinstance(result, dict):
            outcome = " · deleted" if result.get("deleted") else " · not found"
        return f"{title} — {target}{outcome}" if target else title
    return title


def _create_summary(title: str, args: Any, result: Any, zone_name: str | None) -> str:
    prompt = args.get("prompt") if isinstance(args, dict) else None
    text = f"{title} — {str(prompt).strip()}" if prompt else title
    if isinstance(result, dict) and "scheduledAt" in result:
        text += f", {format_clock(read_instant(result['scheduledAt']), zone_name)}"
        text += f" · {result.get('id', '')}"
    return text
