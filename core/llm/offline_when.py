"""The offline assistant's "when" phrases: delays, intervals and local times. Pure: no I/O, no clock.

``parse_when(phrase, now, zone)`` reads one phrase such as ``in 10 minutes``, ``every day``,
``at 5pm`` or ``tomorrow at 9:30`` and returns a ``Delay``, an ``Interval``, a ``LocalTime``, a
``Problem`` (recognised but unusable, with a sentence for the user) or None (not a when phrase).
Durations and clock times are read by small grammars here; date words (``tomorrow``, ``24 Dec``,
``friday``, ``next month``) are handed to ``dateparser``, imported lazily because it is slow to
import, and anchored on ``now`` in the reading's zone so it never looks at the machine.

Choices where the spec is silent (agent.md §5.1):
- a clock time with no date means its next occurrence: today if still ahead, else tomorrow
  (``LocalTime.rolled`` says so, and the confirmation mentions it);
- a bare ``at 5`` / ``at 9:30`` (no am/pm, no leading zero, hour 1-12) means whichever of the
  morning or evening reading comes next; ``09:30`` or ``17:00`` are 24-hour times;
- a date with no time keeps the current time of day for relative dates (``tomorrow``,
  ``next week``) and means 09:00 for calendar dates (``24 Dec``, ``friday``); ``tonight`` 20:00;
- a calendar date without a year that names today means today, not next year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from fractions import Fraction
from typing import Any

from core.llm.offline_text import load_zone, quote

_UNIT_SECONDS = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
    "w": 604800, "wk": 604800, "wks": 604800, "week": 604800, "weeks": 604800,
}  # fmt: skip
_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60,
    "ninety": 90, "a couple of": 2, "couple of": 2, "a few": 3, "few": 3,
}  # fmt: skip
_NUM = (
    r"[0-9]{1,18}(?:\.[0-9]{1,9})?|(?:half\s+an?|"  # bounded: int() refuses > 4300 digits
    + "|".join(sorted((w.replace(" ", r"\s+") for w in _WORDS), key=len, reverse=True))
    + r")\b"
)
_UNIT = "|".join(sorted(_UNIT_SECONDS, key=len, reverse=True))
_PART = rf"(?<![\w.])(?:{_NUM})\s*(?:{_UNIT})\b(?:\s+and\s+a\s+half)?"
_DURATION = re.compile(rf"{_PART}(?:\s*(?:,|and)?\s*{_PART})*", re.IGNORECASE)
_PART_GROUPS = re.compile(
    rf"(?<![\w.])(?P<num>{_NUM})\s*(?P<unit>{_UNIT})\b(?P<half>\s+and\s+a\s+half)?", re.IGNORECASE
)
_EVERY_WORD = {"hourly": 3600, "daily": 86400, "weekly": 604800}
_CLOCK = r"noon|midday|midnight|[0-9]{1,2}(?:[:.][0-9]{2}){0,2}\s*[ap]\.?m\.?|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?"
_TIME_AT = re.compile(rf"(?<![\w:/.-])at\s+(?P<t>{_CLOCK}|[0-9]{{1,2}})(?![\w:])", re.IGNORECASE)
_TIME_BARE = re.compile(rf"(?<![\w:/.-])(?P<t>{_CLOCK})(?![\w:])", re.IGNORECASE)
_CLOCK_PARTS = re.compile(
    r"(?P<h>[0-9]{1,2})(?:[:.](?P<m>[0-9]{2}))?(?:[:.](?P<s>[0-9]{2}))?\s*(?P<ap>[ap])?\.?m?\.?",
    re.IGNORECASE,
)
_DATEISH = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june"
    r"|july|august|september|october|november|december|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|week|weeks"
    r"|month|months|year|years)\b|[0-9]{1,4}[/.-][0-9]{1,2}|\b(?:[12]?[0-9]|3[01])(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b[0-9]{4}\b")
_RELATIVE_DATE = re.compile(r"\b(?:today|tomorrow|tonight|in|next|week|month|year)s?\b", re.I)


@dataclass(frozen=True, slots=True)
class Delay:
    """A relative delay: ``after_seconds`` (an int, or a float when not whole)."""

    seconds: int | float


@dataclass(frozen=True, slots=True)
class Interval:
    """A fixed-rate repetition: ``every_seconds``."""

    seconds: int | float


@dataclass(frozen=True, slots=True)
class LocalTime:
    """A local wall time in ``zone``: the ``at`` object. ``rolled``: moved to tomorrow."""

    date: date
    time: time
    zone: str
    rolled: bool = False

    def to_json(self) -> dict[str, str]:
        d, t = self.date, self.time
        return {
            "date": f"{d.year:04d}-{d.month:02d}-{d.day:02d}",
            "time": f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}",
            "time_zone": self.zone,
        }


@dataclass(frozen=True, slots=True)
class Problem:
    """A when phrase that was recognised but cannot be scheduled; ``text`` tells the user why."""

    text: str


When = Delay | Interval | LocalTime | Problem


def parse_duration(text: str) -> int | float | None:
    """Seconds in ``10 minutes``, ``an hour and a half``, ``1h 30m``; None if not a duration."""
    text = text.strip()
    if not _DURATION.fullmatch(text):
        return None
    total = Fraction(0)
    for part in _PART_GROUPS.finditer(text):
        total += _part_seconds(part)
    return int(total) if total.denominator == 1 else float(total)


def _part_seconds(part: re.Match[str]) -> Fraction:
    num = re.sub(r"\s+", " ", part["num"].lower())
    if num.startswith("half"):
        value = Fraction(1, 2)
    elif num in _WORDS:
        value = Fraction(_WORDS[num])
    else:
        value = Fraction(num)
    if part["half"]:
        value += Fraction(1, 2)
    return value * _UNIT_SECONDS[part["unit"].lower()]


def parse_interval(text: str) -> int | float | None:
    """Seconds in ``30 minutes``, ``day``, ``other day`` (after ``every``); None otherwise."""
    text = re.sub(r"\s+", " ", text.strip().lower())
    if text.startswith("other "):
        single = parse_interval(text[6:])
        return None if single is None else single * 2
    if text in _UNIT_SECONDS and len(text) > 1:
        return _UNIT_SECONDS[text]
    return parse_duration(text)


def parse_when(phrase: str, now: datetime, zone: str | None) -> When | None:
    """Reads one when phrase (see the module docstring). Never raises."""
    text = re.sub(r"\s+", " ", phrase.strip(" ,")).strip()
    lower = text.lower()
    if lower.startswith("every ") or lower in _EVERY_WORD:
        return _parse_every(lower)
    for pattern in (r"in (.+)", r"after (.+)", r"(.+) from now"):
        match = re.fullmatch(pattern, lower)
        if match and (seconds := parse_duration(match[1])) is not None:
            return Delay(seconds)
    text = re.sub(r"^for ", "", text, flags=re.IGNORECASE)
    return _parse_local(text, now, zone)


def _parse_every(lower: str) -> When | None:
    if lower in _EVERY_WORD:
        return Interval(_EVERY_WORD[lower])
    rest = lower[6:]
    seconds = parse_interval(rest)
    if seconds is not None:
        return Interval(seconds)
    head = re.split(r"\s+(?:at|from|starting)\b", rest, maxsplit=1)[0]
    if parse_interval(head) is not None or _DATEISH.search(rest):
        return Problem(
            "I can only repeat a reminder at a fixed interval counted from when you set it "
            "(for example “every day” means every 24 hours from now), not at a clock time or "
            "on certain weekdays."
        )
    return None


def _parse_local(text: str, now: datetime, zone: str | None) -> When | None:
    text, explicit_zone = _split_zone(text)
    parsed = _read_clock_and_date(text)
    if parsed is None:
        return None
    if explicit_zone is not None:
        zone = explicit_zone
    if zone is None:
        return Problem(
            "I don't know which time zone you are in, so I can't tell when that is. Which time "
            "zone are you in? Tell me its name, for example “remind me at 17:00 Europe/Berlin to "
            "leave”. Delays such as “in 20 minutes” work without one."
        )
    tz = load_zone(zone)
    if tz is None:
        return Problem(
            f"I don't recognise the time zone “{quote(zone)}”. Use a name like Europe/Berlin, "
            "America/New_York or UTC."
        )
    try:
        return _resolve(parsed, now.astimezone(tz), zone)
    except (OverflowError, ValueError):  # a clock at the edge of years 1-9999
        return Problem("That date is outside the range I can work with.")


def _split_zone(text: str) -> tuple[str, str | None]:
    match = re.fullmatch(
        r"(?P<rest>.*?)\s*(?:\b(?:in|at)\s+)?\(?(?P<zone>UTC|[A-Za-z][A-Za-z0-9_+.-]*"
        r"(?:/[A-Za-z0-9_+.-]+)+)\)?",
        text,
        flags=re.IGNORECASE,
    )
    if match is None or not match["rest"]:
        return text, None
    zone = match["zone"]
    return match["rest"], "UTC" if zone.upper() == "UTC" else zone


@dataclass(frozen=True, slots=True)
class _Parts:
    clock: str | None  # the clock-time text, e.g. "5pm"; None when no time was given
    date_text: str  # what remains, e.g. "tomorrow"; "" when no date was given


def _read_clock_and_date(text: str) -> _Parts | None:
    match = _TIME_AT.search(text) or _TIME_BARE.search(text)
    clock = match["t"] if match else None
    rest = text[: match.start()] + " " + text[match.end() :] if match else text
    rest = re.sub(r"\s+", " ", rest).strip(" ,")
    rest = re.sub(r"^(?:on|at)\s+|\s+(?:on|at)$", "", rest, flags=re.IGNORECASE).strip(" ,")
    if clock is None and not rest:
        return None
    if rest and not _DATEISH.search(rest):
        return None
    return _Parts(clock, rest)


def _clock_time(clock: str, *, evening: bool) -> tuple[time, bool] | None:
    """The time of day and whether it is ambiguous between morning and evening."""
    word = clock.lower()
    if word in ("noon", "midday"):
        return time(12), False
    if word == "midnight":
        return time(0), False
    parts = _CLOCK_PARTS.fullmatch(clock)
    if parts is None:
        return None
    hour, minute, second = int(parts["h"]), int(parts["m"] or 0), int(parts["s"] or 0)
    if parts["ap"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if parts["ap"].lower() == "p" else 0)
    elif evening and 1 <= hour <= 11:
        hour += 12
    if hour > 23 or minute > 59 or second > 59:
        return None
    ambiguous = not parts["ap"] and not evening and 1 <= hour <= 11 and not clock.startswith("0")
    return time(hour, minute, second), ambiguous


def _resolve(parts: _Parts, now_local: datetime, zone: str) -> When | None:
    tonight = bool(re.search(r"\btonight\b", parts.date_text, re.IGNORECASE))
    clock = _clock_time(parts.clock, evening=tonight) if parts.clock else None
    if parts.clock and clock is None:
        return Problem(
            f"“{quote(parts.clock)}” isn't a time of day I understand; try 17:00 or 5pm."
        )
    if not parts.date_text:
        assert clock is not None  # _read_clock_and_date returns a clock or a date
        return _next_occurrence(clock[0], clock[1], now_local, zone)
    day = _parse_date(re.sub(r"\btonight\b", "today", parts.date_text, flags=re.I), now_local)
    if day is None:
        return Problem(f"I couldn't work out which day “{quote(parts.date_text)}” is.")
    if clock is not None:
        return LocalTime(day.date(), clock[0], zone)
    if tonight:
        return LocalTime(day.date(), time(20), zone)
    keep = _RELATIVE_DATE.search(parts.date_text) and day.time() != time(0)
    return LocalTime(day.date(), day.time() if keep else time(9), zone)


def _next_occurrence(at: time, ambiguous: bool, now_local: datetime, zone: str) -> LocalTime:
    today = now_local.date()
    wall = now_local.replace(tzinfo=None)
    options = [at]
    if ambiguous:
        options.append(at.replace(hour=at.hour + 12))
    for option in options:
        if datetime.combine(today, option) > wall:
            return LocalTime(today, option, zone)
    return LocalTime(today + timedelta(days=1), options[0], zone, rolled=True)


def _parse_date(text: str, now_local: datetime) -> datetime | None:
    import dateparser  # here, not at module top: slow to import (~0.1 s); only dates need it

    base = now_local.replace(tzinfo=None, second=0, microsecond=0)
    settings: dict[str, Any] = {
        "RELATIVE_BASE": base,
        "PREFER_DATES_FROM": "future",
        "TIMEZONE": "UTC",  # the wall clock of the reading's zone; never the machine's zone
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    try:
        result = dateparser.parse(text, languages=["en"], settings=settings)
    except Exception:  # a third-party parser on arbitrary user text: any failure is "no date"
        return None
    if not isinstance(result, datetime):
        return None
    today = base.date()
    if not _YEAR.search(text) and not _RELATIVE_DATE.search(text):
        try:
            if result.date() == today.replace(year=today.year + 1):
                return result.replace(year=today.year)
        except ValueError:
            pass
    return result
