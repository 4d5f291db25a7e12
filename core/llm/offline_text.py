"""The offline assistant's wording: times, durations, reminder text. Pure: no I/O, no clock.

Every time shown is computed from values given here (a tool result's ``scheduledAt``, the clock
sample the caller took), never guessed. Reminder text is data: ``render_prompt`` shows it as
one line of plain text (line breaks and control characters as visible escapes, Markdown
punctuation backslash-escaped, since the window renders answers as Markdown), so a prompt can
neither format the answer nor forge lines in it.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

_MARKDOWN = re.compile(r"([\\`*_\[\]<>!|~#&{}()])")
_DAY = timedelta(days=1)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def render_prompt(prompt: str) -> str:
    """Reminder text as one inert line of Markdown-safe plain text."""
    out: list[str] = []
    for char in prompt:
        if char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") or char == "\ufeff":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return _MARKDOWN.sub(r"\\\1", "".join(out))


def load_zone(name: str) -> ZoneInfo | None:
    """The zone named ``name`` (also lower-case spellings of a name), or None if unknown."""
    candidates = (name, "/".join(part[:1].upper() + part[1:] for part in name.split("/")))
    for candidate in candidates:
        try:
            return ZoneInfo(candidate)
        except (ValueError, OSError, KeyError):
            continue
    return None


def quote(text: str, *, limit: int = 60) -> str:
    """User text echoed in an answer: shortened to ``limit`` characters, then ``render_prompt``."""
    return render_prompt(text if len(text) <= limit else text[: limit - 1] + "…")


def display_zone(zone: str | None) -> str:
    """The zone name shown to the user: the given one when it loads, else UTC."""
    return zone if zone is not None and load_zone(zone) is not None else "UTC"


def _local(instant: datetime, zone: str) -> datetime | None:
    tz = load_zone(zone)
    try:
        return instant.astimezone(tz if tz is not None else UTC)
    except (OverflowError, ValueError):
        return None


def clock_text(moment: datetime) -> str:
    """``HH:MM``, or ``HH:MM:SS`` when the seconds are not zero."""
    text = f"{moment.hour:02d}:{moment.minute:02d}"
    return text + f":{moment.second:02d}" if moment.second else text


def day_text(day: date, today: date) -> str:
    """``today``, ``tomorrow``, or ``on Thu 24 Dec`` (with the year when it differs)."""
    if day == today:
        return "today"
    if day.toordinal() == today.toordinal() + 1:
        return "tomorrow"
    text = f"on {_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}"
    return text if day.year == today.year else f"{text} {day.year}"


def date_label(day: date) -> str:
    """``Sun 8 Mar 2026``."""
    return f"{_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]} {day.year}"


def local_time_text(instant: datetime, now: datetime, zone: str) -> str:
    """``10:45``, ``09:30 tomorrow`` or ``18:00 on Thu 24 Dec`` in ``zone``."""
    local, local_now = _local(instant, zone), _local(now, zone)
    if local is None or local_now is None:
        return f"{instant.isoformat()} UTC"
    day = day_text(local.date(), local_now.date())
    return clock_text(local) if day == "today" else f"{clock_text(local)} {day}"


def duration_text(seconds: float) -> str:
    """``45 seconds``, ``15 minutes``, ``2 hours 30 minutes``, ``3 days 4 hours`` (rounded)."""
    total = round(seconds)
    if total < 60:
        return _plural(total, "second")
    minutes = round(total / 60)
    if minutes < 60:
        return _plural(minutes, "minute")
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return _join(_plural(hours, "hour"), minutes and _plural(minutes, "minute"))
    days, hours = divmod(round(total / 3600), 24)
    return _join(_plural(days, "day"), hours and _plural(hours, "hour"))


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def _join(first: str, second: str | int) -> str:
    return f"{first} {second}" if second else first


def relative_text(instant: datetime, now: datetime) -> str:
    """``in 15 minutes``, ``2 hours ago`` or ``now``."""
    seconds = (instant - now).total_seconds()
    if abs(seconds) < 1:
        return "now"
    return f"in {duration_text(seconds)}" if seconds > 0 else f"{duration_text(-seconds)} ago"


def interval_text(seconds: object) -> str:
    """``every day``, ``every 30 minutes``, ``every 90 seconds``."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return "at that interval"
    if seconds != int(seconds) or seconds <= 0:
        return f"every {seconds:g} seconds"
    count = int(seconds)
    for size, unit in ((604800, "week"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if count % size == 0:
            return (
                "every " + ("" if count == size else f"{count // size} ") + _unit(count, size, unit)
            )
    return f"every {count} seconds" if count != 1 else "every second"


def _unit(count: int, size: int, unit: str) -> str:
    return unit if count == size else unit + "s"
