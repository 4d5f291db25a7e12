"""The offline assistant's amounts of time: "10 minutes", "1h30m", "an hour and a half". Pure: no I/O.

``parse_duration(text)`` reads a whole phrase as an exact number of seconds (a ``Fraction``), or
None when the phrase is anything else. It accepts what people type:

- digits, decimals and fractions (``10``, ``1.5``, ``1 1/2``, ``½``) and number words (``ten``,
  ``twenty-five``, ``a``, ``an``, ``a couple of``, ``a few`` = 3, ``half an``, ``a quarter of an``);
- units long, short and compact (``seconds``/``secs``/``s``, ``minutes``/``mins``/``m``,
  ``hours``/``hrs``/``h``, ``days``/``d``, ``weeks``/``wks``/``w``, ``fortnight``), with or
  without a space, and a few common misspellings (``minuts``, ``mintues``);
- several parts joined by spaces, commas or "and" (``1 hour and 30 minutes``, ``1h 30m``,
  ``1h30m``, ``2h15``), and "and a half" / "and a quarter" after a part.

``parse_number(text)`` reads one amount on its own (``5``, ``twenty``, ``a couple``).
Numbers are bounded to 18 digits: Python's ``int()`` refuses longer strings of digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

UNIT_SECONDS = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "minuts": 60, "mintues": 60,
    "minuets": 60, "mn": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "hours'": 3600,
    "d": 86400, "day": 86400, "days": 86400,
    "w": 604800, "wk": 604800, "wks": 604800, "week": 604800, "weeks": 604800,
    "fortnight": 1209600, "fortnights": 1209600,
}  # fmt: skip
_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_FEW = {
    "a": Fraction(1), "an": Fraction(1), "a couple of": Fraction(2), "couple of": Fraction(2),
    "a couple": Fraction(2), "couple": Fraction(2), "a few": Fraction(3), "few": Fraction(3),
    "half a": Fraction(1, 2), "half an": Fraction(1, 2), "half": Fraction(1, 2),
    "a half": Fraction(1, 2), "a quarter of an": Fraction(1, 4), "a quarter of a": Fraction(1, 4),
    "quarter of an": Fraction(1, 4), "a quarter": Fraction(1, 4), "quarter": Fraction(1, 4),
    "three quarters of an": Fraction(3, 4), "three quarters of a": Fraction(3, 4),
}  # fmt: skip


def _alternatives(words: Iterable[str]) -> str:
    names = sorted(words, key=len, reverse=True)
    return "|".join(re.escape(name).replace(r"\ ", r"\s+") for name in names)


_WORD_NUMBER = (
    rf"(?:(?:{_alternatives(_TENS)})(?:[\s-]+(?:{_alternatives(_ONES)}))?|{_alternatives(_ONES)})"
)
_DIGITS = (
    r"[0-9]{1,18}(?:[.,][0-9]{1,9})?(?:\s+[0-9]{1,3}/[0-9]{1,3}|\s*½)?|[0-9]{1,3}/[0-9]{1,3}|½"
)
NUMBER = rf"(?:{_DIGITS}|{_WORD_NUMBER}|{_alternatives(_FEW)})"
UNIT = _alternatives(UNIT_SECONDS)


def _part(named: bool) -> str:
    """One "<number> <unit>" part; ``named``: with the groups ``num``, ``unit``, ``extra``, ``after``."""
    num, unit, extra, after = (
        ("?P<num>", "?P<unit>", "?P<extra>", "?P<after>") if named else ("?:",) * 4
    )
    half = r"(?:\s+and\s+(?:a\s+)?({}half|quarter))?"
    return rf"(?<![0-9.,])({num}{NUMBER}){half.format(extra)}(?:(?<=[0-9½])[\s-]*|[\s-]+)({unit}{UNIT})(?![A-Za-z']){half.format(after)}"


_PART_RE = re.compile(_part(named=True), re.IGNORECASE)
_JOIN = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*|\s*)"
_DURATION_RE = re.compile(rf"{_part(named=False)}(?:{_JOIN}{_part(named=False)})*", re.IGNORECASE)
_TRAILING_MINUTES = re.compile(
    r"(?P<head>.*?[0-9]\s*h(?:ours?|rs?)?)\s*(?P<minutes>[0-9]{1,2})", re.IGNORECASE
)


def parse_number(text: str) -> Fraction | None:
    """One amount: ``5``, ``1.5``, ``1 1/2``, ``twenty-five``, ``a``, ``a couple``; else None."""
    words = re.sub(r"\s+", " ", text.strip().lower())
    if words in _FEW:
        return _FEW[words]
    if words.replace(" ", "").replace("-", "") and re.fullmatch(_WORD_NUMBER, words):
        return _word_value(words)
    if re.fullmatch(_DIGITS, words):
        return _digits_value(words)
    return None


def _word_value(words: str) -> Fraction:
    total = 0
    for word in re.split(r"[\s-]+", words):
        total += _TENS.get(word, 0) + _ONES.get(word, 0)
    return Fraction(total)


def _digits_value(text: str) -> Fraction:
    text = text.replace(",", ".")
    value = Fraction(0)
    if "½" in text:
        value += Fraction(1, 2)
        text = text.replace("½", "").strip()
    if "/" in text:
        head, _, fraction = text.rpartition(" ")
        top, bottom = (fraction if head else text).split("/")
        value += Fraction(int(top), int(bottom)) if int(bottom) else Fraction(0)
        text = head
    return value + (Fraction(text) if text else Fraction(0))


def parse_duration(text: str) -> Fraction | None:
    """Exact seconds in a whole duration phrase (see the module docstring); None otherwise."""
    text = re.sub(r"\s+", " ", text.strip())
    trailing = _TRAILING_MINUTES.fullmatch(text)
    if trailing and _DURATION_RE.fullmatch(trailing["head"]):  # "1h30": minutes without a unit
        text = f"{trailing['head']} {trailing['minutes']}m"
    if not text or not _DURATION_RE.fullmatch(text):
        return None
    total = Fraction(0)
    for part in _PART_RE.finditer(text):
        if len(part["unit"]) == 1 and not part["num"][-1:].isdigit():
            return None  # "an d", "a m": a one-letter unit follows digits only ("5m", "2 h")
        total += _part_seconds(part)
    return total


def _part_seconds(part: re.Match[str]) -> Fraction:
    value = parse_number(part["num"])
    assert value is not None  # the grammar lets only numbers through
    for extra in (part["extra"], part["after"]):
        if extra:
            value += Fraction(1, 2) if extra.lower() == "half" else Fraction(1, 4)
    return value * UNIT_SECONDS[part["unit"].lower()]


def parse_interval(text: str) -> Fraction | None:
    """Seconds between repetitions after "every": ``30 minutes``, ``day``, ``other day``,
    ``half hour``; None otherwise."""
    text = re.sub(r"\s+", " ", text.strip().lower())
    if text.startswith("other "):
        single = parse_interval(text[6:])
        return None if single is None else single * 2
    if text in UNIT_SECONDS and len(text) > 1:
        return Fraction(UNIT_SECONDS[text])
    if text in ("half hour", "half an hour", "quarter hour", "quarter of an hour"):
        return Fraction(1800 if text.startswith("half") else 900)
    return parse_duration(text)
