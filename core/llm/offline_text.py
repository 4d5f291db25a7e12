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
from datetime import UTC, date, datetime, time
from typing import Literal

from core.llm.offline_zones import Zone, tz_of

_MARKDOWN = re.compile(r"([\\`*_\[\]<>!|~#&{}()])")
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


_FIRST_PERSON = {
    "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
    "i'm": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd", "im": "you're",
    "our": "your", "ours": "yours", "us": "you", "ourselves": "yourselves",
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")


def second_person(task: str) -> str:
    """A task as the assistant says it back: "take my pills" → "take your pills", "I am" → "you
    are". Only the first person turns; everything else is kept as typed."""
    out: list[str] = []
    last = 0
    previous = ""
    for word in _WORD.finditer(task):
        lower = word[0].lower().replace("’", "'")
        turned = _FIRST_PERSON.get(lower)
        if lower == "am" and previous == "i":
            turned = "are"
        if lower == "us" and word[0] == "US":
            turned = None
        out.append(task[last : word.start()])
        if turned is None:
            out.append(word[0])
        else:
            capital = word[0][0].isupper() and lower not in (
                "i",
                "i'm",
                "i've",
                "i'll",
                "i'd",
                "im",
            )
            out.append(turned.capitalize() if capital else turned)
        last, previous = word.end(), lower
    return "".join(out) + task[last:]


_VERBS = frozenset((
    "add", "apply", "ask", "back", "bake", "be", "book", "bring", "brush", "buy", "call", "cancel",
    "change", "charge", "check", "clean", "clear", "close", "come", "cook", "do", "drink", "drive",
    "eat", "email", "feed", "file", "fill", "finish", "fix", "follow", "get", "give", "go", "grab",
    "hang", "have", "head", "help", "invite", "join", "leave", "let", "listen", "load", "look",
    "make", "meditate", "meet", "message", "move", "open", "order", "pack", "pay", "phone", "pick",
    "plan", "play", "post", "prepare", "print", "put", "read", "rest", "return", "review", "ring",
    "run", "say", "schedule", "see", "sell", "send", "set", "share", "shop", "sign", "sleep",
    "speak", "start", "stop", "stretch", "study", "submit", "switch", "take", "talk", "tell",
    "text", "thank", "throw", "tidy", "turn", "update", "upload", "visit", "wake", "walk", "wash",
    "watch", "water", "wear", "write", "breathe", "blink", "stand", "sit", "log", "renew", "lock",
    "unlock", "unplug", "plug", "empty", "fetch", "collect", "drop", "jog", "swim", "train",
    "practice", "practise", "pray", "relax", "hydrate", "floss", "shave", "shower", "dress", "top",
    "transfer", "vote", "confirm", "remember", "pickup"
))  # fmt: skip
_NOUN_START = frozenset(
    ("the", "a", "an", "my", "your", "his", "her", "our", "their", "this", "that", "these", "those")
)


def link_for(task: str) -> Literal["to", "about"]:
    """ "to" for a task that starts with a verb ("call mom"), "about" for one that names a thing
    ("lunch", "the meeting", "dentist appointment"); a guess used only for wording."""
    first = task.strip().split(" ", 1)[0].lower() if task.strip() else ""
    return "about" if first in _NOUN_START or first not in _VERBS else "to"


def quote(text: str, *, limit: int = 60) -> str:
    """User text echoed in an answer: shortened to ``limit`` characters, then ``render_prompt``."""
    return render_prompt(text if len(text) <= limit else text[: limit - 1] + "…")


def _local(instant: datetime, zone: Zone) -> datetime | None:
    tz = tz_of(zone)
    try:
        return instant.astimezone(tz if tz is not None else UTC)
    except (OverflowError, ValueError):
        return None


def clock_text(moment: datetime | time, *, seconds: bool = True) -> str:
    """``HH:MM``, or ``HH:MM:SS`` when the seconds are not zero and ``seconds`` is asked for."""
    text = f"{moment.hour:02d}:{moment.minute:02d}"
    return text + f":{moment.second:02d}" if moment.second and seconds else text


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


def local_time_text(instant: datetime, now: datetime, zone: Zone) -> str:
    """``10:45``, ``09:30 tomorrow`` or ``18:00 on Thu 24 Dec`` in ``zone``; seconds only when
    the instant is less than a minute from ``now`` (``10:45:30``)."""
    local, local_now = _local(instant, zone), _local(now, zone)
    if local is None or local_now is None:
        return f"{instant.isoformat()} UTC"
    near = abs((instant - now).total_seconds()) < 60
    clock = clock_text(local, seconds=near)
    day = day_text(local.date(), local_now.date())
    return clock if day == "today" else f"{clock} {day}"


def duration_text(seconds: float, *, exact: bool = False) -> str:
    """``45 seconds``, ``15 minutes``, ``2 hours 30 minutes``, ``3 days 4 hours`` (rounded), or
    with ``exact`` every part down to the second (``1 minute 30 seconds``)."""
    total = round(seconds)
    if exact:
        days, rest = divmod(total, 86400)
        hours, rest = divmod(rest, 3600)
        minutes, secs = divmod(rest, 60)
        units = ((days, "day"), (hours, "hour"), (minutes, "minute"), (secs, "second"))
        return " ".join(_plural(n, unit) for n, unit in units if n) or "0 seconds"
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
