"""German vocabulary of the offline assistant: numbers, units, days, months, zones. Pure: data only.

Read by ``de_read`` (German phrasing into the assistant's canonical phrasing) and ``de_say``
(answers in German). Spelling variants people type are data too: ``ü``/``ue``, ``ß``/``ss``.
"""

from __future__ import annotations

import re

NUMBERS = {
    "ein": 1, "eine": 1, "einer": 1, "einem": 1, "einen": 1, "eins": 1, "zwei": 2, "drei": 3,
    "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11,
    "zwölf": 12, "fünfzehn": 15, "zwanzig": 20, "fünfundzwanzig": 25, "dreißig": 30,
    "vierzig": 40, "fünfundvierzig": 45, "fünfzig": 50, "sechzig": 60, "neunzig": 90,
}  # fmt: skip
HOURS = {word: value for word, value in NUMBERS.items() if value <= 12 and word != "einen"}
UNITS = {
    "sekunde": "second", "sekunden": "seconds", "sek": "seconds", "sek.": "seconds",
    "minute": "minute", "minuten": "minutes", "min": "minutes", "min.": "minutes",
    "stunde": "hour", "stunden": "hours", "std": "hours", "std.": "hours",
    "tag": "day", "tage": "days", "tagen": "days", "woche": "week", "wochen": "weeks",
    "monat": "month", "monate": "months", "monaten": "months", "jahr": "year", "jahre": "years",
    "jahren": "years",
}  # fmt: skip
WEEKDAYS = {
    "montag": "monday", "dienstag": "tuesday", "mittwoch": "wednesday", "donnerstag": "thursday",
    "freitag": "friday", "samstag": "saturday", "sonnabend": "saturday", "sonntag": "sunday",
}  # fmt: skip
MONTHS = {
    "januar": "january", "jänner": "january", "februar": "february", "märz": "march",
    "april": "april", "mai": "may", "juni": "june", "juli": "july", "august": "august",
    "september": "september", "oktober": "october", "november": "november",
    "dezember": "december",
}  # fmt: skip
PARTS = {
    "früh": "morning", "morgen": "morning", "vormittag": "morning", "mittag": "noon",
    "nachmittag": "afternoon", "abend": "evening", "nacht": "night",
}  # fmt: skip
ADVERB_PARTS = {
    "morgens": "in the morning", "früh": "in the morning", "vormittags": "in the morning",
    "mittags": "at noon", "nachmittags": "in the afternoon", "abends": "in the evening",
    "nachts": "at night",
}  # fmt: skip
CITIES = {
    "berliner": "Berlin", "deutscher": "Berlin", "new yorker": "New York", "londoner": "London",
    "tokioter": "Tokyo", "tokio": "Tokyo", "wiener": "Vienna", "wien": "Vienna",
    "pariser": "Paris", "züricher": "Zurich", "zürcher": "Zurich", "zürich": "Zurich",
    "moskauer": "Moscow", "moskau": "Moscow", "münchner": "Berlin", "pekinger": "Beijing",
    "peking": "Beijing", "kalifornischer": "Los Angeles", "rom": "Rome", "römischer": "Rome",
    "mez": "CET", "mesz": "CEST", "utc": "UTC", "gmt": "GMT",
}  # fmt: skip
SHORT_WEEKDAYS = ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So")
LONG_WEEKDAYS = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
SHORT_MONTHS = (
    "Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez.",
)  # fmt: skip
LONG_MONTHS = (
    "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
    "November", "Dezember",
)  # fmt: skip
UNIT_NAMES = {
    "second": ("Sekunde", "Sekunden"), "minute": ("Minute", "Minuten"),
    "hour": ("Stunde", "Stunden"), "day": ("Tag", "Tage"), "week": ("Woche", "Wochen"),
}  # fmt: skip
SEPARABLE = (
    "ab|an|auf|aus|bei|ein|fest|her|hin|heim|los|mit|nach|raus|rein|rüber|um|vor|weg|weiter|"
    "zurück|zusammen|fertig|durch|auseinander|hoch|runter|zu"
)

_SPELLINGS = {"ä": "(?:ä|ae)", "ö": "(?:ö|oe)", "ü": "(?:ü|ue)", "ß": "(?:ß|ss)"}


def spelled(pattern: str) -> str:
    """A pattern that also matches the spellings without umlauts or ß ("loesch", "frueh")."""
    return "".join(_SPELLINGS.get(char, char) for char in pattern)


def alternatives(words: object) -> str:
    """A regex alternation of ``words`` (longest first), each with its umlaut-free spellings."""
    assert isinstance(words, dict | tuple | list | set | frozenset)  # a collection of words
    ordered = sorted((str(w) for w in words), key=len, reverse=True)
    return "|".join(spelled(re.escape(w)) for w in ordered)


def plain(word: str) -> str:
    """A word with its umlauts and ß written out (the key a spelling variant is looked up by)."""
    for char, written in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        word = word.replace(char, written)
    return word.lower()


def lookup(table: dict[str, str] | dict[str, int], word: str) -> str | int | None:
    """``word`` in ``table``, whichever way its umlauts are spelled."""
    wanted = plain(word.strip())
    return next((value for key, value in table.items() if plain(key) == wanted), None)
