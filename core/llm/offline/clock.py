"""The offline assistant's times of day: "5pm", "17:30", "half past 5", "this evening". Pure: no I/O.

``find_clock(text)`` finds one clock time in a lower-case when phrase and says where it is, so the
caller can read the rest as a date; ``find_part(text)`` does the same for a part of the day.

Choices where the spec is silent (agent.md §5.1), said to the user by the confirmation:

- ``5pm``, ``5:30 p.m.``, ``17:00``, ``17h30``, ``at 1730``, ``noon``, ``midnight``,
  ``half past 5``, ``quarter to 6``, ``10 past 5``, ``five thirty``, ``5 o'clock``, ``9ish``;
- a bare hour from 1 to 12 with no am/pm and no leading zero (``at 9``, ``9:30``, ``5 o'clock``)
  is *ambiguous*: the caller picks the morning or the evening reading and says which;
- parts of the day and their times: morning 09:00, noon/lunchtime 12:00, afternoon 15:00,
  end of the day 17:00, evening 18:00, dinner 19:00, tonight/night 20:00, bedtime 22:00,
  breakfast 08:00; with an hour they pick am or pm ("9 in the morning", "7 tonight").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_MINUTE_WORDS = {
    "oh five": 5, "o five": 5, "ten": 10, "fifteen": 15, "twenty": 20, "twenty five": 25,
    "twenty-five": 25, "thirty": 30, "forty": 40, "forty five": 45, "forty-five": 45, "fifty": 50,
}  # fmt: skip
_HOUR_WORD = "|".join(sorted(_HOUR_WORDS, key=len, reverse=True))
_MINUTE_WORD = "|".join(sorted(_MINUTE_WORDS, key=len, reverse=True)).replace(" ", r"\s+")
_AP = r"(?P<ap>a\.?\s?m\.?|p\.?\s?m\.?|a|p)(?![a-z])"
_H = rf"(?P<h>[0-9]{{1,2}}|{_HOUR_WORD})"
_ISH = r"(?:\s*-?ish)?"
_CLOCKS = (
    # 5pm, 5:30 p.m., 5.30pm, 12am
    rf"(?P<hd>[0-9]{{1,2}})(?:[:.](?P<m>[0-9]{{2}}))?(?:[:.](?P<s>[0-9]{{2}}))?\s*{_AP}{_ISH}",
    # 17:00, 9:30, 17.30, 12:15:30, 17:00h
    r"(?P<hd>[0-9]{1,2})[:.](?P<m>[0-9]{2})(?:[:.](?P<s>[0-9]{2}))?(?:\s*h\b)?" + _ISH,
    # at 17h, at 17h30, at 1730, at 0930
    r"(?<=at\s)(?P<hd>[0-9]{1,2})h(?P<m>[0-9]{2})?\b",
    r"(?<=at\s)(?P<mil>[0-9]{3,4})\b(?!\s*(?:s|m|h|min|mins|minutes?|hours?|secs?|seconds?)\b)",
    # half past 5, quarter to six, 10 past 5, twenty to seven
    rf"(?P<rel>half|(?:a\s+)?quarter|[0-9]{{1,2}}|{_MINUTE_WORD})(?:\s+minutes?)?\s+(?P<dir>past|after|to|till|before)\s+{_H}(?:\s*{_AP})?",
    # five thirty, seven pm, five o'clock, 5 o'clock
    rf"(?P<hw>{_HOUR_WORD})(?:\s+(?P<mw>{_MINUTE_WORD}))?(?:\s*{_AP}|\s+o'?\s?clock)",
    r"(?P<hd>[0-9]{1,2})\s*o'?\s?clock" + _ISH,
    r"(?P<named>(?:12\s+)?noon|midday|midnight)",
    # 9 in the morning, 7 tonight, 3 this afternoon, 11 at night
    rf"(?P<h>1[0-2]|0?[1-9]|{_HOUR_WORD})(?::(?P<m>[0-9]{{2}}))?(?=\s+(?:in\s+the|this|at\s+night|tonight)\b)",
    # at 5, by 9, at five thirty, at 9ish
    rf"(?<=\b(?:at|by)\s)(?:(?P<hd>[0-9]{{1,2}})|(?P<hw>{_HOUR_WORD})(?:\s+(?P<mw>{_MINUTE_WORD}))?){_ISH}(?![0-9:./])",
)
_CLOCK_RES = tuple(re.compile(rf"(?<![\w:./-]){pattern}(?![\w:])") for pattern in _CLOCKS)
_PARTS = {
    "morning": 9, "afternoon": 15, "evening": 18, "night": 20, "tonight": 20, "lunchtime": 12,
    "lunch time": 12, "lunch": 12, "dinnertime": 19, "dinner time": 19, "dinner": 19,
    "supper": 19, "breakfast": 8, "bedtime": 22, "bed": 22, "end of the day": 17, "end of day": 17,
    "eod": 17, "close of business": 17, "cob": 17, "end of business": 17, "after work": 18,
    "after school": 16,
}  # fmt: skip
_PART_WORD = "|".join(sorted(_PARTS, key=len, reverse=True)).replace(" ", r"\s+")
_PART_RE = re.compile(
    rf"(?<![\w])(?P<pre>(?:in|at|during|around|by|before|for)\s+(?:the\s+)?|this\s+|the\s+)?"
    rf"(?P<part>{_PART_WORD})(?![\w])"
)
PM_PARTS = frozenset(
    ("afternoon", "evening", "night", "tonight", "dinner", "supper", "bedtime", "bed", "after work")
)


@dataclass(frozen=True, slots=True)
class Clock:
    """A clock time as said: ``meridiem`` when am/pm (or a part of the day) decided it;
    ``ambiguous`` for a bare hour 1-12 that could be morning or evening."""

    hour: int
    minute: int
    second: int
    text: str
    meridiem: Literal["am", "pm"] | None = None
    ambiguous: bool = False


@dataclass(frozen=True, slots=True)
class BadClock:
    """Something shaped like a clock time that is not one (``25:00``, ``13pm``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Found:
    """Where a clock time or a part of the day was found in the phrase."""

    start: int
    end: int
    value: Clock | BadClock | Part


@dataclass(frozen=True, slots=True)
class Part:
    """A part of the day: ``name`` (normalised), its ``hour``, and ``today`` when the phrase
    named today ("this evening", "tonight")."""

    name: str
    hour: int
    today: bool
    text: str


def find_clock(text: str) -> Found | None:
    """The leftmost clock time in ``text`` (lower case), the longest where several start there."""
    best: re.Match[str] | None = None
    for pattern in _CLOCK_RES:
        match = pattern.search(text)
        if match and (best is None or (match.start(), -match.end()) < (best.start(), -best.end())):
            best = match
    if best is None:
        return None
    return Found(best.start(), best.end(), _clock_value(best))


def _clock_value(match: re.Match[str]) -> Clock | BadClock:
    groups = {k: v for k, v in match.groupdict().items() if v is not None}
    text = match[0]
    if "named" in groups:
        return Clock(0 if groups["named"] == "midnight" else 12, 0, 0, text, None)
    if "mil" in groups:
        digits = groups["mil"]
        return _checked(int(digits[:-2]), int(digits[-2:]), 0, None, text, bare=len(digits) == 3)
    if "rel" in groups:
        return _relative(groups, text)
    raw = groups.get("hd") or groups.get("h") or groups["hw"]
    hour = int(raw) if raw.isdigit() else _HOUR_WORDS[raw]
    minute = int(groups["m"]) if "m" in groups else _MINUTE_WORDS.get(_words(groups, "mw"), 0)
    second = int(groups.get("s", 0))
    bare = not raw.startswith("0")
    return _checked(hour, minute, second, _meridiem(groups), text, bare=bare)


def _words(groups: dict[str, str], key: str) -> str:
    return re.sub(r"\s+", " ", groups.get(key, ""))


def _meridiem(groups: dict[str, str]) -> Literal["am", "pm"] | None:
    ap = groups.get("ap")
    if not ap:
        return None
    return "am" if ap.startswith("a") else "pm"


def _relative(groups: dict[str, str], text: str) -> Clock | BadClock:
    rel = re.sub(r"\s+", " ", groups["rel"])
    minutes = 30 if rel == "half" else 15 if rel.endswith("quarter") else None
    if minutes is None:
        minutes = int(rel) if rel.isdigit() else _MINUTE_WORDS.get(rel, 0)
    raw = groups["h"]
    hour = int(raw) if raw.isdigit() else _HOUR_WORDS[raw]
    if groups["dir"] in ("to", "till", "before"):
        if not 0 < minutes < 60:
            return BadClock(text)
        hour, minutes = (hour - 1) % 24, 60 - minutes
        hour = 12 if hour == 0 and raw not in ("0", "00") else hour
    return _checked(hour, minutes, 0, _meridiem(groups), text, bare=True)


def _checked(
    hour: int,
    minute: int,
    second: int,
    meridiem: Literal["am", "pm"] | None,
    text: str,
    *,
    bare: bool,
) -> Clock | BadClock:
    if meridiem is not None:
        if not 1 <= hour <= 12 or minute > 59 or second > 59:
            return BadClock(text)
        return Clock(hour % 12 + (12 if meridiem == "pm" else 0), minute, second, text, meridiem)
    if hour > 23 or minute > 59 or second > 59:
        return BadClock(text)
    return Clock(hour, minute, second, text, None, ambiguous=bare and 1 <= hour <= 11)


def find_part(text: str) -> Found | None:
    """The first part of the day in ``text`` (lower case)."""
    match = _PART_RE.search(text)
    if match is None:
        return None
    name = re.sub(r"\s+", " ", match["part"])
    today = name == "tonight" or (match["pre"] or "").startswith("this")
    said = re.sub(r"^(?:at|around|by|for|during) (?:the )?", "", re.sub(r"\s+", " ", match[0]))
    return Found(match.start(), match.end(), Part(name, _PARTS[name], today, said))


def with_part(clock: Clock, part: Part) -> Clock:
    """A bare hour read in a part of the day: "9 in the morning", "7 tonight", "3 in the afternoon"."""
    if not clock.ambiguous:
        return clock
    evening = part.name in PM_PARTS or (part.name in ("lunch", "lunchtime") and clock.hour < 6)
    hour = clock.hour % 12 + (12 if evening else 0)
    return Clock(hour, clock.minute, clock.second, clock.text, "pm" if evening else "am")
