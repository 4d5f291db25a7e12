"""The offline assistant's days: "tomorrow", "friday", "the 24th", "24 Dec", "5/8". Pure: no I/O, no clock.

``read_day(text, today, month_first=...)`` reads a whole lower-case day phrase against ``today``
(the local date of the reading) and returns a ``Day``, ``PastDay`` (a day that has gone, such as
"yesterday") or None (not a day phrase).

The everyday words are read here, because ``dateparser`` reads some of them in ways people do
not mean ("the 3rd" as the 3rd of March, "a week from today" as last week): today, tomorrow (and
its usual misspellings), the day after tomorrow, weekdays, next week/month/year, "in 3 days",
"2 weeks from now", the weekend, the end of the month, a day of the month ("the 24th"), numeric
dates and a few holidays. Calendar dates with a month name ("24 Dec", "December 24th",
"1st of September 2027") are handed to ``dateparser`` (agent.md §5.1: a maintained parser for
date phrases), imported lazily because it is slow to import, and only when every word of the
phrase is a date word, so that it never reads a date into other text.

Choices where the spec is silent:

- a weekday ("friday", "on friday", "this friday", "next friday") is the next such day after
  today; "friday next week" is the one in the next calendar week;
- a numeric date is day/month (``5/8`` = 5 August) unless the zone is in the Americas, where it
  is month/day; a reading that only one order allows (``24/12``) is used whatever the zone, and
  when both orders are real dates the confirmation says which was used;
- a day of the year without a year means its next occurrence (today included).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

_WEEKDAYS = {
    "mon": 0, "monday": 0, "tue": 1, "tues": 1, "tuesday": 1, "wed": 2, "weds": 2,
    "wednesday": 2, "thu": 3, "thur": 3, "thurs": 3, "thursday": 3, "fri": 4, "friday": 4,
    "sat": 5, "saturday": 5, "sun": 6, "sunday": 6,
}  # fmt: skip
_MONTHS = (
    "jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|"
    "september|oct|october|nov|november|dec|december"
)
_WEEKDAY = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_TOMORROW = r"tomorrow|tmrw|tmr|tomorow|tommorow|tommorrow|2morrow|tomorrows"
_HOLIDAYS = {
    "christmas eve": (12, 24), "christmas": (12, 25), "christmas day": (12, 25),
    "xmas": (12, 25), "new year's eve": (12, 31), "new years eve": (12, 31),
    "new year's day": (1, 1), "new years day": (1, 1), "new year": (1, 1),
    "halloween": (10, 31), "valentine's day": (2, 14), "valentines day": (2, 14),
}  # fmt: skip
_DATE_WORDS = re.compile(
    rf"(?:{_MONTHS}|{_WEEKDAY}|of|the|this|next|coming|year|[0-9]{{1,4}}(?:st|nd|rd|th)?|[,./-])",
)
_UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7, "fortnight": 14, "fortnights": 14}
_LONG_UNITS = {"month": 1, "months": 1, "year": 12, "years": 12}
_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNT = r"(?P<n>[0-9]{1,4}|a|an|one|two|three|four|five|six)"


@dataclass(frozen=True, slots=True)
class Day:
    """A day the phrase names; ``note`` says how an ambiguous phrase was read ("" otherwise)."""

    day: date
    note: str = ""


@dataclass(frozen=True, slots=True)
class PastDay:
    """A day that has already gone ("yesterday", "last friday", "1 Jan 2020")."""

    day: date | None


def read_day(text: str, today: date, *, month_first: bool = False) -> Day | PastDay | None:
    """The day ``text`` names (see the module docstring)."""
    text = re.sub(r"\s+", " ", text.strip(" ,")).removeprefix("on ").strip()
    if not text:
        return None
    try:
        for reader in (_relative_day, _weekday, _day_of_month, _nth_weekday, _numeric, _holiday):
            found = reader(text, today, month_first)
            if found is not None:
                return _not_past(found, today)
    except (OverflowError, ValueError):  # a day past the year 9999, or a 31st in a short month
        return None
    return _with_dateparser(text, today)


def _not_past(found: Day | PastDay, today: date) -> Day | PastDay:
    if isinstance(found, Day) and found.day < today:
        return PastDay(found.day)
    return found


def _relative_day(text: str, today: date, _month_first: bool) -> Day | PastDay | None:
    if text in ("today", "tonight", "this day"):
        return Day(today)
    if re.fullmatch(rf"(?:{_TOMORROW})", text):
        return Day(today + timedelta(days=1))
    if re.fullmatch(rf"(?:the )?day after (?:{_TOMORROW})", text):
        return Day(today + timedelta(days=2))
    if text in ("yesterday", "the day before yesterday") or text.startswith("last "):
        return PastDay(None)
    if re.fullmatch(r"(?:this |the |on the |next )?weekend", text):
        return Day(
            today
            + timedelta(days=(5 - today.weekday()) % 7 or (7 if text.startswith("next") else 0))
        )
    if re.fullmatch(r"(?:the )?end of (?:the |this )?month", text):
        return Day(today.replace(day=calendar.monthrange(today.year, today.month)[1]))
    return _counted_day(text, today)


def _counted_day(text: str, today: date) -> Day | PastDay | None:
    """ "next week", "in 3 days", "2 weeks from now", "a month from today", "3 days ago"."""
    nxt = re.fullmatch(r"next (week|month|year)", text)
    if nxt:
        return Day(_shifted(today, 1, nxt[1]))
    counted = re.fullmatch(
        rf"(?:in )?{_COUNT} (?P<unit>days?|weeks?|fortnights?|months?|years?)"
        r"(?P<tail> from (?:now|today|tomorrow)| time| later| ago)?",
        text,
    )
    if counted is None or (not text.startswith("in ") and counted["tail"] is None):
        return None
    count = int(counted["n"]) if counted["n"].isdigit() else _COUNT_WORDS[counted["n"]]
    if counted["tail"] == " ago":
        return PastDay(None)
    start = today + timedelta(days=1) if counted["tail"] == " from tomorrow" else today
    return Day(_shifted(start, count, counted["unit"]))


def _shifted(start: date, count: int, unit: str) -> date:
    if unit in _UNITS:
        return start + timedelta(days=count * _UNITS[unit])
    months = start.month - 1 + count * _LONG_UNITS[unit]
    year, month = start.year + months // 12, months % 12 + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def _weekday(text: str, today: date, _month_first: bool) -> Day | None:
    match = re.fullmatch(
        rf"(?P<pre>this |next |coming |this coming |the )?(?P<day>{_WEEKDAY})(?P<post> next week| this week)?",
        text,
    )
    if match is None:
        match = re.fullmatch(rf"(?P<post>next week )(?:on )?(?P<day>{_WEEKDAY})(?P<pre>)", text)
    if match is None:
        return None
    wanted = _WEEKDAYS[match["day"]]
    if (match["post"] or "").strip() == "next week":
        monday = today + timedelta(days=7 - today.weekday())
        return Day(monday + timedelta(days=wanted))
    ahead = (wanted - today.weekday()) % 7
    if ahead == 0 and match["pre"] != "this ":
        ahead = 7
    found = today + timedelta(days=ahead)
    note = ""
    if match["pre"] == "next ":  # "next thursday" may mean the week after: say which
        name = found.strftime("%A")
        note = f"I took “next {match['day']}” as the coming {name}, {found.day} {found.strftime('%b')}; say “{name.lower()} next week” for the one after."
    return Day(found, note)


def _day_of_month(text: str, today: date, _month_first: bool) -> Day | None:
    match = re.fullmatch(
        r"(?P<lead>(?:next|this) month (?:on )?)?(?:the )?(?P<d>[0-9]{1,2})(?:st|nd|rd|th)"
        r"(?: of (?P<which>this|next|the) month| (?P<after>next|this) month)?",
        text,
    )
    if match is None:
        return None
    day = int(match["d"])
    year, month = today.year, today.month
    which = match["which"] or match["after"] or (match["lead"] or "").split(" ")[0] or None
    if which == "next" or (which is None and day < today.day):
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return Day(date(year, month, day))


def _nth_weekday(text: str, today: date, _month_first: bool) -> Day | None:
    """ "the last friday of the month", "the first monday of next month" (this month's when it
    is still ahead, else next month's)."""
    match = re.fullmatch(
        rf"(?:the )?(?P<n>first|second|third|fourth|last|1st|2nd|3rd|4th) (?P<day>{_WEEKDAY})"
        r" (?:of|in) (?:the |this )?(?P<next>next )?month",
        text,
    )
    if match is None:
        return None
    wanted, n = _WEEKDAYS[match["day"]], _NTH[match["n"]]
    year, month = today.year, today.month
    for step in (0, 1) if match["next"] is None else (1,):
        y, m = (year + (month + step - 1) // 12, (month + step - 1) % 12 + 1)
        days = [
            d
            for d in range(1, calendar.monthrange(y, m)[1] + 1)
            if date(y, m, d).weekday() == wanted
        ]
        found = date(y, m, days[n])
        if found >= today:
            return Day(found)
    return None


_NTH = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "last": -1,
}


def _numeric(text: str, today: date, month_first: bool) -> Day | PastDay | None:
    iso = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", text)
    if iso:
        return Day(date(int(iso[1]), int(iso[2]), int(iso[3])))
    match = re.fullmatch(r"([0-9]{1,2})([/.-])([0-9]{1,2})(?:\2([0-9]{2}|[0-9]{4})?)?\.?", text)
    if match is None:
        return None
    first, second = int(match[1]), int(match[3])
    year = _year(match[4], today)
    orders = [(second, first), (first, second)]  # (month, day): day first, then month first
    if month_first or (match[2] == "/" and month_first):
        orders.reverse()
    valid = [(m, d) for m, d in orders if _is_date(year or today.year, m, d)]
    if not valid:
        return None
    month, day = valid[0]
    chosen = _next_yearly(month, day, today) if year is None else date(year, month, day)
    note = ""
    if len(valid) == 2 and valid[0] != valid[1]:
        note = f"I read {text} as {chosen.day} {calendar.month_name[chosen.month]}."
    return Day(chosen, note)


def _year(text: str | None, today: date) -> int | None:
    if not text:
        return None
    return int(text) if len(text) == 4 else 2000 + int(text)


def _is_date(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]


def _next_yearly(month: int, day: int, today: date) -> date:
    for year in (today.year, today.year + 1, today.year + 4):
        if _is_date(year, month, day) and date(year, month, day) >= today:
            return date(year, month, day)
    raise ValueError("no such day ahead")


def _holiday(text: str, today: date, _month_first: bool) -> Day | None:
    key = re.sub(r"^(?:on |at )?(?:the )?", "", text).replace("’", "'")
    if key not in _HOLIDAYS:
        return None
    return Day(_next_yearly(*_HOLIDAYS[key], today))


def _with_dateparser(text: str, today: date) -> Day | PastDay | None:
    """Calendar dates with a month name, read by ``dateparser`` anchored on ``today``."""
    words = [w for w in re.split(r"(\s+|[,./-])", text) if w.strip()]
    if not words or not all(_DATE_WORDS.fullmatch(w) for w in words):
        return None
    if not re.search(rf"\b(?:{_MONTHS})\b", text):
        return None
    import dateparser  # here, not at module top: slow to import (~0.1 s); only dates need it

    base = datetime.combine(today, datetime.min.time())
    settings: dict[str, Any] = {
        "RELATIVE_BASE": base,
        "PREFER_DATES_FROM": "future",
        "PREFER_DAY_OF_MONTH": "first",
        "TIMEZONE": "UTC",  # the wall clock of the reading's zone; never the machine's zone
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    try:
        result = dateparser.parse(text, languages=["en"], settings=settings)
    except Exception:  # a third-party parser on arbitrary user text: any failure is "no date"
        return None
    if not isinstance(result, datetime):
        return None
    found = result.date()
    if not re.search(r"\b[0-9]{4}\b", text):  # no year said: its next occurrence, today included
        try:
            found = _next_yearly(found.month, found.day, today)
        except ValueError:
            return None
    return PastDay(found) if found < today else Day(found)
