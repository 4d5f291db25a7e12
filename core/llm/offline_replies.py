"""The offline assistant's answers composed from tool results. Pure: no I/O, no clock.

Each function takes the tool's JSON value (schedule.md §2.6), the clock sample and the zone to
show times in, and returns the answer text. Nothing is guessed: a time shown is the result's
``scheduledAt`` in the local zone; an error is explained from its ``code`` (schedule.md §5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from core.instant import read_instant
from core.llm.offline_text import (
    clock_text,
    date_label,
    display_zone,
    interval_text,
    load_zone,
    local_time_text,
    quote,
    relative_text,
    render_prompt,
)

HELP = (
    "I'm Chime's built-in offline assistant: a simple helper for reminders, not an AI model. "
    "I can set, list and cancel reminders in this conversation, for example:\n\n"
    "- “remind me in 10 minutes to stretch”\n"
    "- “every 30 minutes remind me to drink water”\n"
    "- “what reminders do I have” or “delete schedule-1”\n\n"
    "Reminders arrive in this conversation while it is open (or when you reopen it). "
    "To chat with a real model, open Settings (Ctrl+,) and connect an OpenAI-compatible "
    "endpoint such as Ollama, LM Studio, llama.cpp, OpenAI or DeepSeek."
)

_CHECK = "ask me to list reminders to check"
_PLAIN_ERRORS = {
    "persistence_uncertain": f"I couldn't confirm it was saved; {_CHECK}.",
    "corrupt_schedule_log": (
        "This conversation's reminder log is damaged, so I can't read or change its reminders. "
        "Other conversations are not affected."
    ),
    "time_out_of_range": (
        "That is too far away: reminders can be set up to the end of the year 9999. Nothing was set."
    ),
    "invalid_prompt": "The reminder needs some text. What should I remind you about?",
    "internal_error": (
        "Something went wrong inside the reminder system, so nothing was changed. Please try again."
    ),
    "invalid_selector": (
        "I sent the reminder tool a malformed request, so nothing was set. Please rephrase it."
    ),
}
UNREADABLE_RESULT = "The reminder tool gave an answer I couldn't read"
SAFE_INTEGER = 2**53 - 1
"""Larger delays are refused by the tool as not whole numbers (schedule.md §4.5): too far away."""


def confirm_create(
    args: Mapping[str, Any], value: object, now: datetime, zone: str | None, *, about: bool
) -> str:
    """The answer to a ``schedule_create`` result: a confirmation or an explanation."""
    if not isinstance(value, Mapping):
        return f"{UNREADABLE_RESULT}, so I can't say whether it was set."
    if "code" in value:
        return explain_create_error(args, value, now, zone)
    due = read_instant(value.get("scheduledAt"))
    if due is None or not isinstance(value.get("id"), str):
        return f"{UNREADABLE_RESULT}, so I can't say whether it was set."
    what = f"{'about' if about else 'to'} {render_prompt(str(value.get('prompt', '')))}"
    when = f"{_when_text(due, now, _at_zone(args), zone)}, {relative_text(due, now)}"
    if value.get("kind") == "every":
        every = interval_text(value.get("everySeconds"))
        return (
            f"I'll remind you {what} {every}, first at {when} — {render_prompt(str(value['id']))}."
        )
    return f"I'll remind you {what} at {when} — {render_prompt(str(value['id']))}."


def _when_text(due: datetime, now: datetime, asked: str | None, reading: str | None) -> str:
    """``10:45 (Europe/Berlin)``; a time asked for in another zone also shows the reading's zone."""
    shown = display_zone(asked or reading)
    text = f"{local_time_text(due, now, shown)} ({shown}"
    local = display_zone(reading)
    if reading is not None and local != shown:
        text += f"; {local_time_text(due, now, local)} in {local}"
    return text + ")"


def rolled_note(args: Mapping[str, Any]) -> str:
    """Says that a clock time which had passed today was set for tomorrow."""
    at = args.get("at")
    time_text = str(at.get("time", ""))[:5] if isinstance(at, Mapping) else "That time"
    return f" {time_text} had already passed today, so I set it for tomorrow."


def _at_zone(args: Mapping[str, Any]) -> str | None:
    at = args.get("at")
    zone = at.get("time_zone") if isinstance(at, Mapping) else None
    return zone if isinstance(zone, str) else None


def explain_create_error(
    args: Mapping[str, Any], value: Mapping[str, Any], now: datetime, zone: str | None
) -> str:
    """A create error code in plain words; nothing was set unless the code says it may have been."""
    code = value.get("code")
    if code == "invalid_rule":
        return _explain_invalid_rule(args)
    if code == "not_future":
        return f"{_requested_time(args)} is already in the past, so nothing was set; pick a time in the future."
    if code == "frequency_too_high":
        every = interval_text(args.get("every_seconds"))
        return f"I can repeat a reminder at most every 5 minutes, so {every} is too often; nothing was set."
    if code == "invalid_time_zone":
        return (
            f"The time zone “{render_prompt(str(_at_zone(args)))}” isn't one I know, so nothing was "
            "set; use a name such as Europe/Berlin, America/New_York or UTC."
        )
    if code == "persistence_uncertain" and isinstance(value.get("id"), str):
        return f"I couldn't confirm the reminder was saved (it would be {render_prompt(str(value['id']))}); {_CHECK}."
    return explain_error(value)


def explain_error(value: Mapping[str, Any]) -> str:
    """Error codes that read the same for every tool; an unknown code is named, not guessed."""
    code = value.get("code")
    known = _PLAIN_ERRORS.get(code) if isinstance(code, str) else None
    if known is not None:
        return known
    return f"The reminder tool reported a problem ({quote(str(code))}), so nothing was changed."


def _explain_invalid_rule(args: Mapping[str, Any]) -> str:
    at = args.get("at")
    if isinstance(at, Mapping):
        gap = _gap_text(at)
        if gap is not None:
            return gap
        return "That date or time isn't a real calendar date and time, so nothing was set."
    seconds = args.get("after_seconds", args.get("every_seconds"))
    if isinstance(seconds, int | float) and abs(seconds) > SAFE_INTEGER:
        return explain_error({"code": "time_out_of_range"})
    if "every_seconds" in args:
        return "A repeating reminder needs a whole number of seconds between reminders; nothing was set."
    return "The delay must be a positive whole number of seconds, so nothing was set."


def _gap_text(at: Mapping[str, Any]) -> str | None:
    """When the local time falls in a clock change gap: says so (E11), else None."""
    zone_name = at.get("time_zone")
    tz = load_zone(zone_name) if isinstance(zone_name, str) else None
    try:
        wall = datetime.fromisoformat(f"{at.get('date')}T{at.get('time')}")
    except (TypeError, ValueError):
        return None
    if tz is None or wall.tzinfo is not None:
        return None
    for fold in (0, 1):
        back = wall.replace(tzinfo=tz, fold=fold).astimezone(UTC).astimezone(tz)
        if back.replace(tzinfo=None) == wall:
            return None
    return (
        f"{clock_text(wall)} on {date_label(wall.date())} doesn't "
        f"exist in {zone_name} because the clocks skip it; pick another time."
    )


def _requested_time(args: Mapping[str, Any]) -> str:
    at = args.get("at")
    if isinstance(at, Mapping):
        return f"{str(at.get('time', ''))[:5]} on {at.get('date')} ({at.get('time_zone')})"
    return "That time"


def list_text(views: object, now: datetime, zone: str | None) -> str:
    """The answer to a ``schedule_list`` result."""
    if isinstance(views, Mapping) and "code" in views:
        if views.get("code") == "persistence_uncertain":
            return "I couldn't confirm the saved state of your reminders, so I won't guess; please ask again in a moment."
        return explain_error(views)
    if not isinstance(views, list):
        return f"{UNREADABLE_RESULT}."
    if not views:
        return "You have no reminders in this conversation."
    shown = display_zone(zone)
    count = "1 reminder" if len(views) == 1 else f"{len(views)} reminders"
    lines = [f"You have {count} in this conversation (times in {shown}):", ""]
    lines += [f"- {view_line(view, now, shown)}" for view in views]
    return "\n".join(lines)


def view_line(view: object, now: datetime, zone: str) -> str:
    """``schedule-1: stretch — at 10:45, in 15 minutes`` (every / overdue variants)."""
    if not isinstance(view, Mapping):
        return "(a reminder I couldn't read)"
    due = read_instant(view.get("scheduledAt"))
    head = f"{render_prompt(str(view.get('id')))}: {render_prompt(str(view.get('prompt', '')))}"
    if due is None:
        return head
    when = f"{local_time_text(due, now, zone)}, {relative_text(due, now)}"
    if view.get("kind") == "every":
        return f"{head} — {interval_text(view.get('everySeconds'))}, next at {when}"
    if view.get("state") == "overdue":
        return f"{head} — was due at {when} (it will be delivered shortly)"
    return f"{head} — at {when}"


def matching(views: Sequence[Any], words: Sequence[str]) -> list[Mapping[str, Any]]:
    """The views whose prompt contains every word (case-insensitive); all views when no words."""
    found: list[Mapping[str, Any]] = []
    for view in views:
        if isinstance(view, Mapping) and isinstance(view.get("id"), str):
            prompt = str(view.get("prompt", "")).lower()
            if all(word in prompt for word in words):
                found.append(view)
    return found


def named(view: Mapping[str, Any]) -> str:
    """``schedule-1 (“stretch”)``."""
    return f"{render_prompt(str(view.get('id')))} (“{render_prompt(str(view.get('prompt', '')))}”)"


def no_match_text(views: Sequence[Any], words: Sequence[str]) -> str:
    """No active reminder matches the description."""
    if not views:
        return "You have no reminders in this conversation, so there is nothing to delete."
    what = f"matching “{render_prompt(' '.join(words))}”" if words else "like that"
    names = ", ".join(named(v) for v in views if isinstance(v, Mapping))
    return f"I couldn't find a reminder {what}. Your reminders are: {names}."


def ambiguous_text(found: Sequence[Mapping[str, Any]]) -> str:
    """Several reminders match: ask which one, naming them with their ids."""
    names = ", ".join(named(v) for v in found)
    return (
        f"Several reminders match: {names}. Which one should I delete? "
        f"Say for example “delete {render_prompt(str(found[0].get('id')))}”."
    )


def delete_text(value: object, prompt: str | None) -> str:
    """The answer to one ``schedule_delete`` result (``prompt`` when known from a list)."""
    if not isinstance(value, Mapping):
        return f"{UNREADABLE_RESULT}."
    rid = render_prompt(str(value.get("id")))
    if value.get("deleted") is True:
        return f"Deleted {rid}" + (f" (“{render_prompt(prompt)}”)." if prompt else ".")
    if value.get("deleted") is False:
        return (
            f"There is no active reminder {rid} in this conversation (it may have fired already "
            "or been deleted). Say “list my reminders” to see them."
        )
    if value.get("code") == "persistence_uncertain":
        return f"I couldn't confirm that deleting {rid} was saved; {_CHECK}."
    return explain_error(value)


def tool_failure_text(text: str) -> str:
    """A tool result marked as an error (arguments rejected, unknown tool, outcome unknown)."""
    return (
        "The reminder tool refused my request, so nothing was changed: "
        f"{render_prompt(text.strip()) or 'no reason given'}"
    )
