"""German formats of the offline assistant's answers: dates, clock times, durations, counts. Pure.

``de_say`` words each sentence; these put its parts into German: "Fr, 4. Dez.", "morgen um
09:30 Uhr", "in 3 Tagen", "alle 30 Minuten", "1.234". A fragment in no shape they know is kept.
"""

from __future__ import annotations

import re

from core.llm.offline.lang.de_words import (
    LONG_MONTHS,
    LONG_WEEKDAYS,
    SHORT_MONTHS,
    SHORT_WEEKDAYS,
    UNIT_NAMES,
)

EN_SHORT_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EN_SHORT_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")  # fmt: skip
EN_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EN_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
_DATIVE = {"Tage": "Tagen"}


def number(count: int | str) -> str:
    """A count in German digits: ``1.234``."""
    return f"{int(count):,}".replace(",", ".")


def duration(text: str, *, dative: bool = False) -> str:
    """ "1 hour 30 minutes" → "1 Stunde 30 Minuten" (``dative``: "in 3 Tagen")."""

    def unit(match: re.Match[str]) -> str:
        count, name = int(match[1]), match[2].rstrip("s")
        one, many = UNIT_NAMES.get(name, (name, name))
        word = one if count == 1 else (_DATIVE.get(many, many) if dative else many)
        return f"{number(count)} {word}"

    return re.sub(r"([0-9]+) (second|minute|hour|day|week)s?\b", unit, text)


def relative(text: str) -> str:
    """ "in 10 minutes" → "in 10 Minuten", "2 hours ago" → "vor 2 Stunden", "now" → "jetzt"."""
    if text == "now":
        return "jetzt"
    ago = re.fullmatch(r"(.+) ago", text)
    if ago is not None:
        return f"vor {duration(ago[1], dative=True)}"
    return duration(text, dative=True)


def day(text: str) -> str:
    """ "Thu 24 Dec" → "Do, 24. Dez." (with a year when one follows)."""
    found = re.fullmatch(r"(\w{3}) ([0-9]{1,2}) (\w{3})(?: ([0-9]{4}))?", text)
    if found is None or found[1] not in EN_SHORT_DAYS or found[3] not in EN_SHORT_MONTHS:
        return text
    weekday = SHORT_WEEKDAYS[EN_SHORT_DAYS.index(found[1])]
    month = SHORT_MONTHS[EN_SHORT_MONTHS.index(found[3])]
    return f"{weekday}, {found[2]}. {month}" + (f" {found[4]}" if found[4] else "")


def long_day(text: str) -> str:
    """ "Wednesday 5 August 2026" → "Mittwoch, 5. August 2026"."""
    found = re.fullmatch(r"(\w+) ([0-9]{1,2}) (\w+) ([0-9]{4})", text)
    if found is None or found[1] not in EN_DAYS or found[3] not in EN_MONTHS:
        return text
    weekday, month = (
        LONG_WEEKDAYS[EN_DAYS.index(found[1])],
        LONG_MONTHS[EN_MONTHS.index(found[3])],
    )
    return f"{weekday}, {found[2]}. {month} {found[4]}"


def zone(text: str) -> str:
    """ "New York time" → "New Yorker Zeit" is not always grammatical: "Zeit New York"."""
    return f"Zeit {text.removesuffix(' time')}" if text.endswith(" time") else text


def when(text: str, *, at: bool = True) -> str:
    """ "09:30 tomorrow" → "morgen um 09:30", "18:00 on Thu 24 Dec" → "am Do, 24. Dez. um 18:00",
    "17:00 New York time (23:00 here)" → "um 17:00 (Zeit New York; hier 23:00)"."""
    here = re.fullmatch(r"(.+?) \((.+) here\)", text)
    if here is not None:
        return f"{when(here[1], at=at)} (hier {when(here[2], at=False)})"
    found = re.fullmatch(
        r"([0-9:]+)( UTC)?(?: (tomorrow|today|on .+?))?(?: ((?!on )[A-Z].* time|UTC[+-][0-9:]+))?",
        text,
    )
    if found is None:
        return text
    clock = f"{'um ' if at else ''}{found[1]}{found[2] or ' Uhr'}"
    named = f" ({zone(found[4])})" if found[4] else ""
    match found[3]:
        case "tomorrow":
            return f"morgen {clock}{named}"
        case "today":
            return f"heute {clock}{named}"
        case None:
            return f"{clock}{named}"
        case other:
            return f"am {day(other.removeprefix('on '))} {clock}{named}"


def every(text: str) -> str:
    """ "every day" → "jeden Tag", "every 30 minutes" → "alle 30 Minuten"."""
    single = {"day": "jeden Tag", "hour": "jede Stunde", "week": "jede Woche", "minute": "jede Minute", "second": "jede Sekunde"}  # fmt: skip
    found = re.fullmatch(r"every (second|minute|hour|day|week)", text)
    if found is not None:
        return single[found[1]]
    if text == "at that interval":
        return "in diesem Abstand"
    return "alle " + duration(text.removeprefix("every "))


def translate_prompt(prompt: str) -> str:
    """A reminder text the assistant names itself, in German ("Timer for 5 minutes")."""
    timer = re.fullmatch(r"Timer for (.+)", prompt)
    if timer is not None:
        return f"Timer für {duration(timer[1])}"
    return {"Wake up": "Aufwachen", "Alarm": "Wecker", "Timer": "Timer"}.get(prompt, prompt)


def weekday(name: str) -> str:
    return LONG_WEEKDAYS[EN_DAYS.index(name)] if name in EN_DAYS else name


def month(name: str) -> str:
    for months in (EN_MONTHS, EN_SHORT_MONTHS):
        if name in months:
            return LONG_MONTHS[months.index(name)]
    return name


def long_date(text: str) -> str:
    found = re.fullmatch(r"([0-9]+) (\w+) ([0-9]{4})", text)
    return f"{found[1]}. {month(found[2])} {found[3]}" if found else text


def names(text: str) -> str:
    return re.sub(r" and ([0-9]+) more$", r" und \1 weitere", text).replace("” and “", "” und “")


def phrase(text: str) -> str:
    """A canonical when phrase said back in German ("in 10 minutes" → "in 10 Minuten")."""
    words = {"at": "um", "on": "am", "tomorrow": "morgen", "today": "heute", "tonight": "heute Abend", "every": "alle", "morning": "früh", "evening": "Abend"}  # fmt: skip
    words |= {month.lower(): german for month, german in zip(EN_MONTHS, LONG_MONTHS, strict=True)}
    said = duration(text, dative=text.startswith("in "))
    return " ".join(words.get(word, word) for word in said.split(" "))
