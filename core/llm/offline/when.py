"""The offline assistant's "when" phrases: delays, intervals and local times. Pure: no I/O, no clock.

``parse_when(phrase, reading)`` reads one whole phrase such as ``in 10 minutes``, ``every day``,
``at 5pm EST``, ``tomorrow morning`` or ``on 24 Dec at 18:00`` against the ``Reading`` (the clock
sample and the zone of the turn, both passed in) and returns:

- ``Delay`` / ``Interval``: whole seconds for ``after_seconds`` / ``every_seconds``;
- ``LocalTime``: a wall date and time in a zone (the ``at`` argument), with ``notes`` saying
  how anything ambiguous was read;
- ``Problem``: recognised but unusable (a time that has passed, a calendar rule), with a
  sentence; ``NeedTime``: a day with no usable time (ask what time); ``NeedZone``: a local time
  while the zone is unknown (ask for it); ``AskZone``: an ambiguous zone (ask which);
- None: not a when phrase.

The pieces are read by ``duration`` (amounts of time), ``clock`` (times and
parts of the day), ``dates`` (days) and ``zones`` (zones). Choices where the
spec is silent (agent.md §5.1; each is said to the user by the confirmation's notes):

- a clock time with no day is its next occurrence: today if still ahead, else tomorrow; a bare
  hour ("at 9") is whichever of 09:00 and 21:00 comes next;
- a bare hour with a day ("tomorrow at 5") is 07:00-11:59 in the morning, 12 noon, 1-6 in the
  afternoon or evening;
- a day with no time means 09:00 that day (today asks what time instead); a part of the day
  without a clock time means its time (``clock``);
- "in 3 days" is an exact delay; "in 3 days at 5pm" is a day and a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction

from core.llm.offline.clock import BadClock, Clock, Part, find_clock, find_part, with_part
from core.llm.offline.dates import Day, PastDay, read_day
from core.llm.offline.duration import parse_duration, parse_interval, parse_number
from core.llm.offline.text import clock_text, quote, relative_text
from core.llm.offline.zones import (
    Offset,
    Said,
    Zone,
    ZoneQuestion,
    read_zone,
    settle,
    tz_of,
)

DEFAULT_TIME = time(9)
_ANY_READING_NOW = datetime(2000, 1, 3, tzinfo=UTC)
_EVERY_WORD = {"hourly": 3600, "daily": 86400, "weekly": 604800, "fortnightly": 1209600}
_TIMES_A = {"once": 1, "twice": 2, "thrice": 3, "three times": 3, "four times": 4}
_NUMERIC_DAY = re.compile(
    r"(?<![\w:./-])(?:[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}|[0-9]{1,2}([/.-])[0-9]{1,2}(?:\1(?:[0-9]{4}|[0-9]{2}))?\.?)(?![\w:/-])"
)
_HEDGE = r"about|around|roughly|approximately|approx\.?|circa|maybe|like|somewhere around"
_DANGLING = frozenset(
    (
        "at",
        "on",
        "by",
        "for",
        "about",
        "of",
        "to",
        "in",
        "around",
        "the",
        "and",
        "from",
        "until",
        "that",
    )
)
_TIMES_A_RE = re.compile(r"(?:once|twice|thrice|\w+ times) (?:a|an|per|every) ")
_REPEAT = re.compile(
    r"\b(?:(?:every|each) (?:other )?\w+|daily|weekly|hourly|fortnightly|weekdays)\b"
)
_IANA_TAIL = re.compile(r"(?:^|\s)\(?([a-z][a-z0-9_+.-]*(?:/[a-z0-9_+.-]+)+)\)?$")
_FILLERS = re.compile(r"(?:^|\s)(?:at|on|by|for|around|about)(?=\s|$)|,")
_CALENDAR_RULE = (
    "I can only repeat a reminder at a fixed interval counted from when you set it (for example "
    "“every day” means every 24 hours from now), not at a clock time or on certain days. Say "
    "“every day” to start the 24 hours now, or set it once, for example “tomorrow at 9am”."
)


@dataclass(frozen=True, slots=True)
class Reading:
    """What a phrase is read against: the clock sample ``now`` (aware), the turn's ``zone``
    (None when unknown), ``override``, a zone the user picked when asked, and ``assumed``."""

    now: datetime
    zone: str | None
    override: Zone | None = None
    assumed: Said | None = None
    """A zone the user named in a follow-up, read as if the phrase had named it."""

    @property
    def month_first(self) -> bool:
        """Numeric dates are month/day in the Americas, day/month elsewhere."""
        return (self.zone or "").lower().startswith("america/")


_ANY_READING = Reading(_ANY_READING_NOW, "UTC")
"""A reading only to tell whether a phrase is a when phrase at all (its day does not matter)."""


@dataclass(frozen=True, slots=True)
class Delay:
    """A relative delay: ``after_seconds``; ``notes`` say how it was read ("in 45" as minutes)."""

    seconds: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Interval:
    """A fixed-rate repetition: ``every_seconds``."""

    seconds: int


@dataclass(frozen=True, slots=True)
class LocalTime:
    """A wall time in ``zone`` (the ``at`` argument); ``notes`` say how it was read."""

    date: date
    time: time
    zone: Zone
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, str] | str:
        """The local ``at`` object, or the ``at`` string with its numeric offset."""
        d, t = self.date, self.time
        day = f"{d.year:04d}-{d.month:02d}-{d.day:02d}"
        clock = f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}"
        if isinstance(self.zone, Offset):
            return f"{day}T{clock}{self.zone.text()}"
        return {"date": day, "time": clock, "time_zone": self.zone}


@dataclass(frozen=True, slots=True)
class Problem:
    """Recognised but cannot be scheduled; ``text`` tells the user why."""

    text: str


@dataclass(frozen=True, slots=True)
class NeedTime:
    """A day was named but no usable time ("today", "tonight" after 20:00): ask what time."""

    day: date
    text: str


@dataclass(frozen=True, slots=True)
class NeedZone:
    """A local time while the zone is unknown: ask which zone the user is in."""

    text: str


@dataclass(frozen=True, slots=True)
class AskZone:
    """The phrase named an ambiguous zone: ask which one."""

    question: ZoneQuestion


When = Delay | Interval | LocalTime | Problem | NeedTime | NeedZone | AskZone


def parse_when(phrase: str, reading: Reading, *, bare_duration: bool = False) -> When | None:
    """Reads one whole when phrase (see the module docstring). Never raises. ``bare_duration``:
    a duration alone ("20 minutes") is a delay (an answer to "when?", a timer)."""
    text = normalise(phrase)
    if not text or text.rsplit(" ", 1)[-1] in _DANGLING:
        return None
    if (
        text.startswith(("every ", "each "))
        or text.split(" ", 1)[0] in _EVERY_WORD
        or _TIMES_A_RE.match(text)
    ):
        return _every(text)
    delay = _delay(text, bare=bare_duration)
    if delay is not None:
        return delay
    try:
        return _relative_to_a_time(text, reading) or _local(text, reading)
    except (OverflowError, ValueError):  # a clock at the edge of years 1-9999
        return Problem("That date is outside the range I can work with.")


def normalise(phrase: str) -> str:
    """Lower case, one space between words, curly apostrophes straight, no edge punctuation, and
    no hedges: "in about 10 minutes" is "in 10 minutes", "around 5" is "at 5", "an hour or so"
    is "an hour"."""
    text = re.sub(r"\s+", " ", phrase.replace("’", "'").replace("‘", "'").lower())
    text = re.sub(rf"\b(in|at|by|after) (?:{_HEDGE}) ", r"\1 ", text)
    text = re.sub(rf"(^| )(?:{_HEDGE}) (?=[0-9]|noon|midnight)", r"\1at ", text)
    text = re.sub(rf"(^| )(?:{_HEDGE}) ", r"\1", text)
    text = re.sub(r" (?:or so|give or take|or thereabouts)\b", "", text)
    return text.strip(" ,.!?;:")


def whole_seconds(seconds: Fraction) -> int:
    """A duration rounded to whole seconds (the tools take whole seconds)."""
    return int(seconds.numerator * 2 + seconds.denominator) // (2 * seconds.denominator)


def _delay(text: str, *, bare: bool) -> Delay | Problem | None:
    if re.fullmatch(r"(?:in |after )?(?:-|minus |negative )\S.*|.+ ago|.+ before now", text):
        amount = re.sub(r"^(?:in |after )?(?:-|minus |negative )|(?: ago| before now)$", "", text)
        if parse_duration(amount) is not None:
            return Problem("That time has already passed; pick a time in the future.")
    hm = re.fullmatch(r"in ([0-9]{1,2}):([0-5][0-9])(?: hours?| hrs?| h)?", text)
    if hm is not None and (int(hm[1]) or int(hm[2])):  # "in 1:30": an hour and a half
        return Delay(int(hm[1]) * 3600 + int(hm[2]) * 60)
    minutes = re.fullmatch(r"in (?:another )?([0-9]{1,3}|[a-z]+(?:[ -][a-z]+)?)", text)
    count = parse_number(minutes[1]) if minutes is not None else None
    if minutes is not None and count is not None and count.denominator == 1 and 0 < count <= 180:
        note = f"I took “in {minutes[1]}” as {count} minutes."  # "in 45": people mean minutes
        return Delay(int(count) * 60, (note,))
    said = _delay_amount(text, bare=bare)
    seconds = parse_duration(said) if said is not None else None
    if seconds is None:
        return None
    if whole_seconds(seconds) < 1:
        return Problem("That's now, not later: give me a time in the future, like “in 5 minutes”.")
    return Delay(whole_seconds(seconds))


def _relative_to_a_time(text: str, reading: Reading) -> When | None:
    """ "10 minutes before 3pm", "half an hour after the meeting at 5": a local time moved by a
    duration (wall-clock arithmetic, so the result keeps the zone's local time)."""
    match = re.fullmatch(r"(?P<d>.+?) (?P<dir>before|after|earlier than|prior to) (?P<t>.+)", text)
    seconds = parse_duration(match["d"]) if match is not None else None
    if match is None or seconds is None:
        return None
    target = _local(match["t"], reading)
    if not isinstance(target, LocalTime):
        return target
    sign = 1 if match["dir"] == "after" else -1
    wall = datetime.combine(target.date, target.time) + sign * timedelta(
        seconds=whole_seconds(seconds)
    )
    note = f"That is {match['d']} {match['dir']} {clock_text(target.time)}, at {clock_text(wall.time())}."
    return _settled(wall.date(), wall.time(), (*target.notes, note), None, target.zone, reading)


def _delay_amount(text: str, *, bare: bool) -> str | None:
    text = re.sub(r"\b(?:more|extra|additional)\s+", "", text)  # "5 more minutes"
    for pattern in (
        r"(?:in|within|after|for) (?:another |the next |a further )?(.+?)(?: time|'s time| from now| later)?",
        r"(?:another |a further )?(.+?) (?:from now|later|hence|from today)",
        r"another (.+)",
    ):
        match = re.fullmatch(pattern, text)
        if match and parse_duration(match[1]) is not None:
            return match[1]
    return text if bare else None


def _every(text: str) -> When | None:
    """ "every 30 minutes", "hourly", "twice a day"; a calendar rule ("every day at 9", "every
    monday", "every morning") is recognised and explained: the tool repeats at fixed intervals."""
    if text in _EVERY_WORD:
        return Interval(_EVERY_WORD[text])
    times = re.fullmatch(
        r"(?P<n>once|twice|thrice|(?:three|four) times|[0-9]{1,2} times) (?:a|an|per|every) (?P<unit>.+)",
        text,
    )
    if times:
        count = _TIMES_A.get(times["n"]) or int(times["n"].split()[0])
        unit = parse_interval(times["unit"])
        return Interval(whole_seconds(unit / count)) if unit and count else None
    rest = re.sub(r"^(?:every|each) (?:single )?", "", text)
    seconds = parse_interval(rest)
    if seconds is not None:
        return Interval(whole_seconds(seconds))
    return Problem(_CALENDAR_RULE) if _is_calendar_rule(text, rest) else None


def _is_calendar_rule(text: str, rest: str) -> bool:
    head, _, tail = rest.partition(" ")
    first = text.split(" ", 1)[0]
    if first in _EVERY_WORD or parse_interval(head) is not None:
        tail = re.sub(r"^(?:starting|from)\s+", "", tail)
        return bool(tail) and parse_when(tail, _ANY_READING) is not None
    day_words = re.sub(r"\b(?:and|or|other|,)\b", " ", rest)
    parts = [word for word in day_words.split() if word]
    days = next((n for n, word in enumerate(parts) if not _DAY_WORD.fullmatch(word)), len(parts))
    if days == len(parts):  # "every monday", "every weekday and saturday"
        return bool(parts)
    # "every weekday at 8": days, then a time of day
    return days > 0 and parse_when(" ".join(parts[days:]), _ANY_READING) is not None


_DAY_WORD = re.compile(
    r"(?:week(?:day|end)s?|mornings?|evenings?|nights?|afternoons?|[a-z]+days?|mon|tue|wed|thu|fri|sat|sun)"
)


@dataclass(frozen=True, slots=True)
class _Pieces:
    """A local-time phrase taken apart: the clock, the part of the day, the day, the zone."""

    clock: Clock | None
    part: Part | None
    day: Day | PastDay | None
    said: Said | None


def _local(text: str, reading: Reading) -> When | None:
    pieces = _take_apart(text, reading)
    if isinstance(pieces, Problem) or pieces is None:
        return pieces
    if pieces.clock is None and pieces.part is None and pieces.day is None:
        return None
    if isinstance(pieces.day, PastDay):
        return Problem(_passed_day(pieces.day.day))
    zone = _zone_for_now(pieces.said, reading)
    if zone is None:
        return NeedZone(
            "I don't know which time zone you are in, so I can't tell when that is. Which time "
            "zone are you in? For example “Europe/Berlin”, “London” or “UTC”. Delays such as "
            "“in 20 minutes” work without one."
        )
    tz = tz_of(zone)
    if tz is None:
        return Problem(f"I don't recognise the time zone “{quote(str(zone))}”.")
    now_local = reading.now.astimezone(tz).replace(tzinfo=None)
    chosen = _day_and_time(pieces, now_local)
    if not isinstance(chosen, tuple):
        return chosen
    day, at, notes = chosen
    return _settled(day, at, notes, pieces.said, zone, reading)


def _take_apart(text: str, reading: Reading) -> _Pieces | Problem | None:
    repeat = _REPEAT.search(text)
    if repeat is not None:  # "at 8:30am every day": a clock time that repeats
        rest = _cut(text, repeat.start(), len(text))
        pieces = _take_apart(rest, reading) if rest else None
        return Problem(_CALENDAR_RULE) if isinstance(pieces, _Pieces) else None
    text, said = _split_zone(text)
    unknown_zone = _IANA_TAIL.search(text) if said is None else None
    if unknown_zone is not None:
        return Problem(
            f"I don't recognise the time zone “{quote(unknown_zone[1])}”. Use a name like "
            "Europe/Berlin, America/New_York or UTC, or a city such as Tokyo."
        )
    text, day = _numeric_day(text, reading)
    if isinstance(day, Problem):
        return day
    text, clock, zone_after = _clock_of(text)
    said = said or zone_after
    part_found = find_part(text)
    part = part_found.value if part_found is not None else None
    if part_found is not None:
        text = _cut(text, part_found.start, part_found.end)
    rest = re.sub(r"\s+", " ", _FILLERS.sub(" ", text)).strip()
    if rest:
        if day is not None:
            return None
        day = read_day(rest, _today_guess(reading), month_first=reading.month_first)
        if day is None:
            return None
    if isinstance(clock, BadClock):
        return Problem(f"“{quote(clock.text)}” isn't a time of day I understand; try 17:00 or 5pm.")
    assert part is None or isinstance(part, Part)  # find_part finds parts only
    return _Pieces(clock, part, day, said or reading.assumed)


def _numeric_day(text: str, reading: Reading) -> tuple[str, Day | PastDay | Problem | None]:
    """A numeric date ("24/12", "24.12.", "2026-12-24") taken out first: "24.12" is no clock.
    One that is written as a date (a slash, a year or a closing dot) but names no day of the
    calendar ("31.02.", "31/02") is a problem, not a time."""
    numeric = _NUMERIC_DAY.search(text)
    if numeric is None:
        return text, None
    read = read_day(numeric[0], reading.now.date(), month_first=reading.month_first)
    if read is None:
        said = numeric[0]
        if said.endswith(".") or "/" in said or said.count(said[-3]) > 1 or "-" in said:
            return text, Problem(
                f"There is no date {said} in the calendar; check the day and the month."
            )
        return text, None
    return _cut(text, numeric.start(), numeric.end()), read


def _clock_of(text: str) -> tuple[str, Clock | BadClock | None, Said | None]:
    """The clock time taken out of ``text``, and a zone named right after it."""
    found = find_clock(text)
    if found is None:
        return text, None, None
    text, zone_after = _zone_after(text, found.end)
    value = found.value if isinstance(found.value, Clock | BadClock) else None
    return _cut(text, found.start, found.end), value, zone_after


def _today_guess(reading: Reading) -> date:
    """Today in the reading's zone (the zone said in the phrase may move it; ``_local`` reads the
    day again in that zone when it differs)."""
    tz = tz_of(reading.zone) if reading.zone is not None else None
    return reading.now.astimezone(tz).date() if tz is not None else reading.now.date()


def _cut(text: str, start: int, end: int) -> str:
    return (text[:start] + " " + text[end:]).strip()


def _split_zone(text: str) -> tuple[str, Said | None]:
    """A zone named at the end ("… EST", "… Tokyo time", "… (Europe/Berlin)", "… in London")."""
    words = text.split(" ")
    for count in range(min(4, len(words) - 1), 0, -1):
        tail = " ".join(words[-count:])
        said = read_zone(tail) if _dressed(tail) else None
        if said is not None:
            return " ".join(words[:-count]), said
    return text, None


def _dressed(tail: str) -> bool:
    """A zone at the end of a phrase must say it is one: "time", "in", a slash, an abbreviation
    or an offset; a bare city name is read only right after a clock time (``_zone_after``)."""
    return bool(
        re.search(r"\btime(?: ?zone)?\)?$|^\(|/|^in |[+-][0-9]", tail)
        or re.fullmatch(r"[a-z]{2,5}", tail)
    )


def _zone_after(text: str, end: int) -> tuple[str, Said | None]:
    """A zone named right after the clock time ("5pm London tomorrow", "17:00 UTC+2")."""
    after = text[end:].split(" ")
    for count in range(min(4, len(after) - 1), 0, -1):
        said = read_zone(" ".join(after[1 : count + 1]))
        if said is not None:
            return text[:end] + " " + " ".join(after[count + 1 :]), said
    return text, None


def _zone_for_now(said: Said | None, reading: Reading) -> Zone | None:
    """The zone "today" and "next 9 o'clock" are counted in."""
    if reading.override is not None:
        return reading.override
    if said is not None:
        return said.zone if said.zone is not None else said.meanings[0].region
    return reading.zone


def _day_and_time(
    pieces: _Pieces, now_local: datetime
) -> tuple[date, time, tuple[str, ...]] | When:
    today = now_local.date()
    clock, part = pieces.clock, pieces.part
    day = pieces.day.day if isinstance(pieces.day, Day) else None
    notes = (pieces.day.note,) if isinstance(pieces.day, Day) and pieces.day.note else ()
    if day is None and part is not None and part.today:
        day = today
    if clock is not None and part is not None:
        clock = with_part(clock, part)
    if clock is not None and day is not None:
        at, note = _on_a_day(clock)
        return day, at, notes + note
    if clock is not None:
        return _next_clock(clock, now_local, notes)
    if part is not None:
        return _part_time(part, day, now_local, notes)
    assert day is not None  # _local returns before this when nothing was found
    if day == today:
        return NeedTime(day, "What time today?")
    return day, DEFAULT_TIME, (*notes, "You didn't say a time, so I picked 09:00.")


def _on_a_day(clock: Clock) -> tuple[time, tuple[str, ...]]:
    """A bare hour on a named day: 07:00-11:59 in the morning, 1-6 in the afternoon or evening."""
    at = time(clock.hour, clock.minute, clock.second)
    if not clock.ambiguous or clock.hour >= 7:
        return at, ()
    at = at.replace(hour=clock.hour + 12)
    return at, (
        f"I took “{quote(clock.text)}” as {clock_text(at)}; say “{_plain(clock)}am” for the morning.",
    )


def _next_clock(
    clock: Clock, now_local: datetime, notes: tuple[str, ...]
) -> tuple[date, time, tuple[str, ...]]:
    today = now_local.date()
    first = time(clock.hour % 24, clock.minute, clock.second)
    options = [first]
    if clock.ambiguous:
        options.append(first.replace(hour=(clock.hour + 12) % 24))
    ahead = [o for o in options if datetime.combine(today, o) > now_local]
    if ahead:
        at = min(ahead, key=lambda option: datetime.combine(today, option))
        day = today
    else:
        at, day = min(options), today + timedelta(days=1)
    if clock.ambiguous:
        notes += (
            f"I took “{quote(clock.text)}” as {clock_text(at)}, the next {_oclock(clock)}; say “{_plain(clock)}am” or “{_plain(clock)}pm” to choose.",
        )
    if day != today:
        notes += (f"{clock_text(at)} had already passed today, so I set it for tomorrow.",)
    return day, at, notes


def _plain(clock: Clock) -> str:
    """A bare clock time as digits for a suggestion: ``9``, ``5:30``."""
    hour = clock.hour % 12 or 12
    return f"{hour}:{clock.minute:02d}" if clock.minute else str(hour)


def _oclock(clock: Clock) -> str:
    return (
        f"{clock.hour % 12 or 12}:{clock.minute:02d}"
        if clock.minute
        else f"{clock.hour % 12 or 12} o'clock"
    )


def _part_time(
    part: Part, day: date | None, now_local: datetime, notes: tuple[str, ...]
) -> tuple[date, time, tuple[str, ...]] | When:
    at = time(part.hour)
    note = f"I took “{part.text}” as {clock_text(at)}."
    today = now_local.date()
    if day is not None:
        if day == today and datetime.combine(day, at) <= now_local:
            return NeedTime(
                day,
                f"It's already past {clock_text(at)}. What time {part.name if part.name == 'tonight' else 'today'}?",
            )
        return day, at, (*notes, note)
    if datetime.combine(today, at) > now_local:
        return today, at, (*notes, note)
    return (
        today + timedelta(days=1),
        at,
        (*notes, f"I took “{part.text}” as {clock_text(at)} tomorrow, since it has passed today."),
    )


def _settled(
    day: date, at: time, notes: tuple[str, ...], said: Said | None, zone: Zone, reading: Reading
) -> When:
    wall = datetime.combine(day, at)
    if reading.override is None and said is not None:
        settled = settle(said, wall)
        if isinstance(settled, ZoneQuestion):
            return AskZone(settled)
        zone = settled
    tz = tz_of(zone)
    assert tz is not None  # zones come from read_zone or the reading, and were loaded
    instant = wall.replace(tzinfo=tz)
    if instant <= reading.now:
        return Problem(
            f"{clock_text(at)} {_day_words(day, reading.now.astimezone(tz).date())} has already passed ({relative_text(instant, reading.now)}); pick a time in the future."
        )
    return LocalTime(day, at, zone, notes)


def _day_words(day: date, today: date) -> str:
    return "today" if day == today else f"on {day.day} {day.strftime('%b')} {day.year}"


def _passed_day(day: date | None) -> str:
    when = f" ({day.day} {day.strftime('%b')} {day.year})" if day is not None else ""
    return f"That day{when} has already passed; pick a time in the future."
