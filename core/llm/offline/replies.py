"""The offline assistant's answers composed from tool results. Pure: no I/O, no clock.

Each function takes the tool's JSON value (schedule.md §2.6), the clock sample and the zone of
the turn, and returns the answer text. Nothing is guessed: a time shown is the result's
``scheduledAt``; an error is explained from its ``code`` (schedule.md §5).

How a time is shown (agent.md §5.1): in the zone of the turn, which is the system zone the
status bar shows, so without a zone name; a time asked for in another zone is shown in that
zone as the user named it ("17:00 New York time (23:00 here)"); seconds only when it is less
than a minute away. Ids come last, in italics: the reminder's own words come first. The task is
said back in the second person ("remind me to take my pills" → "to take your pills").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from core.instant import read_instant
from core.llm.offline.text import (
    clock_text,
    date_label,
    duration_text,
    interval_text,
    local_time_text,
    quote,
    relative_text,
    render_prompt,
    second_person,
)
from core.llm.offline.values import Link
from core.llm.offline.zones import Offset, Zone, load_zone, same_zone, tz_of, zone_label

HELP = (
    "I'm Chime's built-in offline assistant: a simple helper for reminders, not an AI model. "
    "I can set, list and cancel reminders in this conversation, for example:\n\n"
    "- “remind me in 10 minutes to stretch”, “tomorrow at 9 call the bank”\n"
    "- “every 30 minutes remind me to drink water”, “set a timer for 5 minutes”\n"
    "- “what reminders do I have”, “cancel the stretch reminder”\n\n"
    "Reminders arrive in this conversation while it is open (or when you reopen it). "
    "To chat with a real model, open Settings (Ctrl+,) and connect an OpenAI-compatible "
    "endpoint such as Ollama, LM Studio, llama.cpp, OpenAI or DeepSeek."
)
NOT_UNDERSTOOD = (
    "Sorry, I didn't understand that. I only handle reminders: try “remind me in 10 minutes to "
    "stretch”, “what reminders do I have” or “cancel the stretch reminder”, or say “help”."
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
LISTED_AT_MOST = 20
"""A delete of many names this many reminders, then says how many more went."""


def id_note(schedule_id: object) -> str:
    """The id, de-emphasised: `` *(schedule-3)*``."""
    return f" *({render_prompt(str(schedule_id))})*"


def task_words(prompt: str, link: Link) -> str:
    """``to take your pills``, ``about the meeting``, ``that the oven is on``."""
    words = render_prompt(second_person(prompt))
    return f"{link if link in ('about', 'that') else 'to'} {words}"


def confirm_create(
    args: Mapping[str, Any],
    value: object,
    now: datetime,
    zone: str | None,
    *,
    link: Link = "to",
    notes: Sequence[str] = (),
) -> str:
    """The answer to a ``schedule_create`` result: a confirmation or an explanation."""
    if not isinstance(value, Mapping):
        return f"{UNREADABLE_RESULT}, so I can't say whether it was set."
    if "code" in value:
        return explain_create_error(args, value, now, zone)
    due = read_instant(value.get("scheduledAt"))
    if due is None or not isinstance(value.get("id"), str):
        return f"{UNREADABLE_RESULT}, so I can't say whether it was set."
    when = when_text(due, now, asked_zone(args), zone)
    relative = relative_text(due, now)
    prompt = str(value.get("prompt", ""))
    if value.get("kind") == "every":
        every = interval_text(value.get("everySeconds"))
        text = (
            f"I'll remind you {task_words(prompt, link)} {every}, starting at {when} ({relative})."
        )
    elif link == "timer":
        seconds = value.get("afterSeconds")
        if isinstance(seconds, int):
            span = duration_text(seconds, exact=True)
        else:
            span = relative.removeprefix("in ")
        text = f"Timer set for {span}: I'll tell you at {when}."
        if not prompt.startswith("Timer for "):
            text = f"Timer set for {span} for {render_prompt(second_person(prompt))}: I'll tell you at {when}."
    elif link == "alarm":
        text = f"Alarm set for {when}, {relative}: “{render_prompt(second_person(prompt))}”."
    else:
        text = f"I'll remind you {task_words(prompt, link)} at {when}, {relative}."
    text = text[:-1] + id_note(value["id"]) + "."
    return "\n\n".join((text, *notes)) if notes else text


def when_text(due: datetime, now: datetime, asked: Zone | None, reading: str | None) -> str:
    """``10:45``; ``10:45 UTC`` when the turn's zone is unknown; ``17:00 New York time (23:00
    here)`` for a time asked for in another zone."""
    local = reading if reading is not None and load_zone(reading) is not None else None
    if asked is None or same_zone(asked, local) or tz_of(asked) is None:
        shown = local_time_text(due, now, local or "UTC")
        return shown if local is not None else f"{shown} UTC"
    text = f"{local_time_text(due, now, asked)} {zone_label(asked)}"
    if local is not None and _offset_at(due, asked) != _offset_at(due, local):
        text += f" ({local_time_text(due, now, local)} here)"
    return text


def _offset_at(instant: datetime, zone: Zone) -> object:
    tz = tz_of(zone)
    return instant.astimezone(tz).utcoffset() if tz is not None else None


def asked_zone(args: Mapping[str, Any]) -> Zone | None:
    """The zone a ``schedule_create`` call's ``at`` named (an IANA name or a numeric offset)."""
    at = args.get("at")
    if isinstance(at, Mapping):
        zone = at.get("time_zone")
        return zone if isinstance(zone, str) else None
    if isinstance(at, str) and len(at) >= 6 and at[-6] in "+-" and at[-3] == ":":
        sign = -1 if at[-6] == "-" else 1
        try:
            return Offset(sign * (int(at[-5:-3]) * 60 + int(at[-2:])))
        except ValueError:
            return None
    return "UTC" if isinstance(at, str) and at.endswith("Z") else None


def explain_create_error(
    args: Mapping[str, Any], value: Mapping[str, Any], now: datetime, zone: str | None
) -> str:
    """A create error code in plain words; nothing was set unless the code says it may have been."""
    code = value.get("code")
    if code == "invalid_rule":
        return _explain_invalid_rule(args)
    if code == "not_future":
        return f"{_requested_time(args)} has already passed, so nothing was set; pick a time in the future."
    if code == "frequency_too_high":
        every = interval_text(args.get("every_seconds"))
        return f"I can repeat a reminder at most every 5 minutes, so {every} is too often; nothing was set."
    if code == "invalid_time_zone":
        return (
            f"The time zone “{render_prompt(str(asked_zone(args)))}” isn't one I know, so nothing was "
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
    if isinstance(at, str):
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
        f"{clock_text(wall)} on {date_label(wall.date())} doesn't exist in "
        f"{zone_label(zone_name)} because the clocks skip it; pick another time."
    )


def _requested_time(args: Mapping[str, Any]) -> str:
    at = args.get("at")
    if isinstance(at, Mapping):
        return f"{str(at.get('time', ''))[:5]} on {at.get('date')} ({zone_label(asked_zone(args))})"
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
    shown = zone if zone is not None and load_zone(zone) is not None else "UTC"
    count = "1 reminder" if len(views) == 1 else f"{len(views)} reminders"
    where = "" if shown != "UTC" or zone == "UTC" else " (times in UTC)"
    lines = [f"You have {count} in this conversation{where}:", ""]
    lines += [f"- {view_line(view, now, shown)}" for view in views]
    return "\n".join(lines)


def view_line(view: object, now: datetime, zone: str) -> str:
    """``stretch — 10:45, in 15 minutes *(schedule-1)*`` (every / overdue variants)."""
    if not isinstance(view, Mapping):
        return "(a reminder I couldn't read)"
    due = read_instant(view.get("scheduledAt"))
    head = render_prompt(str(view.get("prompt", "")))
    tail = id_note(view.get("id"))
    if due is None:
        return head + tail
    when = f"{local_time_text(due, now, zone)}, {relative_text(due, now)}"
    if view.get("kind") == "every":
        return f"{head} — {interval_text(view.get('everySeconds'))}, next at {when}{tail}"
    if view.get("state") == "overdue":
        return f"{head} — was due at {when}; it will arrive shortly{tail}"
    return f"{head} — {when}{tail}"


def named(view: Mapping[str, Any]) -> str:
    """``“stretch” *(schedule-1)*``."""
    return f"“{render_prompt(str(view.get('prompt', '')))}”{id_note(view.get('id'))}"


def no_match_text(views: Sequence[Mapping[str, Any]], words: Sequence[str]) -> str:
    """No active reminder matches the description."""
    if not views:
        return "You have no reminders in this conversation, so there is nothing to delete."
    what = f"matching “{render_prompt(' '.join(words))}”" if words else "like that"
    names = ", ".join(named(v) for v in views)
    return f"I couldn't find a reminder {what}. Your reminders are: {names}."


GONE = (
    "That reminder is no longer active (it may have fired or been deleted), so I deleted nothing."
)


def ambiguous_text(found: Sequence[Mapping[str, Any]]) -> str:
    """Several reminders match: ask which one, numbering them."""
    lines = [f"{n}. {named(v)}" for n, v in enumerate(found, start=1)]
    both = "“both”" if len(found) == 2 else "“all of them”"
    return (
        "Several reminders match:\n\n" + "\n".join(lines) + "\n\nWhich one should I delete? Say "
        f"“the first one”, describe it, or say {both}."
    )


def confirm_all_text(found: Sequence[Mapping[str, Any]]) -> str:
    """Deleting several at once: ask first, naming what would go."""
    names = _names(found)
    return (
        f"Delete all {len(found)} reminders? That is {names}. Say “yes” to delete them, or “no” "
        "to keep them."
    )


def _names(views: Sequence[Mapping[str, Any]]) -> str:
    shown = [f"“{render_prompt(str(v.get('prompt', '')))}”" for v in views[:LISTED_AT_MOST]]
    more = len(views) - len(shown)
    if more:
        return ", ".join(shown) + f" and {more} more"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"


def delete_text(value: object, prompt: str | None) -> str:
    """The answer to one ``schedule_delete`` result (``prompt`` when known from a list)."""
    if not isinstance(value, Mapping):
        return f"{UNREADABLE_RESULT}."
    rid = render_prompt(str(value.get("id")))
    if value.get("deleted") is True:
        if prompt:
            return f"Deleted “{render_prompt(prompt)}”{id_note(value.get('id'))}."
        return f"Deleted reminder {rid}."
    if value.get("deleted") is False:
        return (
            f"There is no active reminder {rid} in this conversation (it may have fired already "
            "or been deleted). Say “list my reminders” to see them."
        )
    if value.get("code") == "persistence_uncertain":
        return f"I couldn't confirm that deleting {rid} was saved; {_CHECK}."
    return explain_error(value)


def deleted_many_text(deleted: Sequence[Mapping[str, Any]], failures: Sequence[str]) -> str:
    """After deleting several: how many went and which, then anything that failed."""
    parts: list[str] = []
    if deleted:
        count = "the reminder" if len(deleted) == 1 else f"all {len(deleted)} reminders"
        if failures:
            count = f"{len(deleted)} reminders" if len(deleted) > 1 else "1 reminder"
        parts.append(f"Deleted {count}: {_names(deleted)}.")
    parts.extend(failures)
    return "\n\n".join(parts)


def tool_failure_text(text: str) -> str:
    """A tool result marked as an error (arguments rejected, unknown tool, outcome unknown)."""
    return (
        "The reminder tool refused my request, so nothing was changed: "
        f"{render_prompt(text.strip()) or 'no reason given'}"
    )


_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def time_text(now: datetime, zone: str | None, asked: Zone | None = None) -> str:
    """ "It's 14:05 on Wednesday 5 August 2026 (Europe/Berlin)." — the time, with its zone."""
    shown: Zone | None = asked if asked is not None else zone
    tz = tz_of(shown) if shown is not None else None
    local = now.astimezone(tz if tz is not None else UTC)
    day = f"{_WEEKDAY_NAMES[local.weekday()]} {local.day} {_MONTH_NAMES[local.month - 1]} {local.year}"
    clock = clock_text(local, seconds=False)
    if asked is not None and tz is not None:
        return f"In {zone_label(asked).removesuffix(' time')} it's {clock} on {day} ({_zone_name(asked)})."
    if tz is None:
        return f"It's {clock} UTC on {day}. I don't know your time zone (the status bar says so)."
    return f"It's {clock} on {day} ({_zone_name(shown)})."


def _zone_name(zone: Zone | None) -> str:
    return zone_label(zone) if isinstance(zone, Offset) or zone is None else zone
