"""Time zones as people say them: "EST", "Tokyo time", "UTC+2", "Europe/Berlin". Pure: no I/O, no clock.

``read_zone(text)`` reads a whole phrase naming a zone and returns what it names (``Said``) or
None. ``settle(said, wall)`` decides, for the wall time it is used with, which zone that is, or
that the phrase is ambiguous and the user must be asked (``ZoneQuestion``). A zone is an IANA
name (``Area/Location`` or ``UTC``, what ``schedule_create``'s local ``at`` accepts) or a fixed
``Offset`` (the ``at`` string form with a numeric offset).

What counts as unambiguous (agent.md §5.1):

- an IANA name, ``UTC``/``GMT+0``-style offsets (``UTC+2``, ``GMT-05:00``, ``+05:30``), and
  region names (``Eastern``, ``Pacific time``, ``ET``, ``PT``) that name one zone;
- a city or country that is in the tz database or in the short list below and has one zone
  ("Tokyo time", "in London", "Berlin"); a country with several zones ("US time") is asked;
- an abbreviation with one meaning whose region keeps that offset on the day in question ("5pm
  EST" in January is New York time). The same abbreviation on a day its region is on the other
  offset ("5pm EST" in August, when New York is on EDT) is asked, as is an abbreviation with
  several meanings ("CST": US Central or China; "IST": India, Israel or Ireland).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo


@dataclass(frozen=True, slots=True)
class Offset:
    """A fixed UTC offset in minutes (east positive), e.g. ``Offset(120)`` for UTC+02:00."""

    minutes: int

    def text(self) -> str:
        """``+02:00`` (the ``at`` string's offset; ``+00:00`` for zero)."""
        sign = "-" if self.minutes < 0 else "+"
        hours, minutes = divmod(abs(self.minutes), 60)
        return f"{sign}{hours:02d}:{minutes:02d}"


Zone = str | Offset
"""An IANA zone name (as the user spelled it, when ``zoneinfo`` loads it) or a fixed offset."""


@dataclass(frozen=True, slots=True)
class Meaning:
    """One reading of an abbreviation: its own ``offset`` and the ``region`` that uses it."""

    name: str
    offset: int
    region: str


@dataclass(frozen=True, slots=True)
class Said:
    """What a zone phrase names: one ``zone`` for sure, or the ``meanings`` of ``text``."""

    text: str
    zone: Zone | None = None
    meanings: tuple[Meaning, ...] = ()


@dataclass(frozen=True, slots=True)
class ZoneQuestion:
    """The phrase is ambiguous here: ``text`` asks which of ``options`` the user means."""

    text: str
    options: tuple[Zone, ...]


def _m(name: str, hours: float, region: str) -> Meaning:
    return Meaning(name, round(hours * 60), region)


_NY, _CHI, _DEN, _LA = (
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
)
_ABBREVIATIONS: dict[str, tuple[Meaning, ...]] = {
    "gmt": (_m("GMT", 0, "Europe/London"),),
    "est": (_m("EST", -5, _NY),), "edt": (_m("EDT", -4, _NY),),
    "cst": (_m("US Central time", -6, _CHI), _m("China time", 8, "Asia/Shanghai")),
    "cdt": (_m("CDT", -5, _CHI),),
    "mst": (_m("MST", -7, _DEN),), "mdt": (_m("MDT", -6, _DEN),),
    "pst": (_m("PST", -8, _LA),), "pdt": (_m("PDT", -7, _LA),),
    "akst": (_m("AKST", -9, "America/Anchorage"),), "akdt": (_m("AKDT", -8, "America/Anchorage"),),
    "hst": (_m("HST", -10, "Pacific/Honolulu"),),
    "ast": (_m("Atlantic time", -4, "America/Halifax"), _m("Arabia time", 3, "Asia/Riyadh")),
    "adt": (_m("ADT", -3, "America/Halifax"),),
    "nst": (_m("NST", -3.5, "America/St_Johns"),), "ndt": (_m("NDT", -2.5, "America/St_Johns"),),
    "bst": (_m("British Summer Time", 1, "Europe/London"), _m("Bangladesh time", 6, "Asia/Dhaka")),
    "ist": (
        _m("India time", 5.5, "Asia/Kolkata"),
        _m("Israel time", 2, "Asia/Jerusalem"),
        _m("Irish time", 1, "Europe/Dublin"),
    ),
    "wet": (_m("WET", 0, "Europe/Lisbon"),),
    "cet": (_m("CET", 1, "Europe/Berlin"),), "cest": (_m("CEST", 2, "Europe/Berlin"),),
    "eet": (_m("EET", 2, "Europe/Athens"),), "eest": (_m("EEST", 3, "Europe/Athens"),),
    "msk": (_m("MSK", 3, "Europe/Moscow"),),
    "jst": (_m("JST", 9, "Asia/Tokyo"),), "kst": (_m("KST", 9, "Asia/Seoul"),),
    "hkt": (_m("HKT", 8, "Asia/Hong_Kong"),), "sgt": (_m("SGT", 8, "Asia/Singapore"),),
    "pht": (_m("PHT", 8, "Asia/Manila"),), "wib": (_m("WIB", 7, "Asia/Jakarta"),),
    "pkt": (_m("PKT", 5, "Asia/Karachi"),),
    "aest": (_m("AEST", 10, "Australia/Sydney"),), "aedt": (_m("AEDT", 11, "Australia/Sydney"),),
    "acst": (_m("ACST", 9.5, "Australia/Adelaide"),), "acdt": (_m("ACDT", 10.5, "Australia/Adelaide"),),
    "awst": (_m("AWST", 8, "Australia/Perth"),),
    "nzst": (_m("NZST", 12, "Pacific/Auckland"),), "nzdt": (_m("NZDT", 13, "Pacific/Auckland"),),
    "sast": (_m("SAST", 2, "Africa/Johannesburg"),),
    "brt": (_m("BRT", -3, "America/Sao_Paulo"),),
    "us": (
        _m("Eastern time", -5, _NY), _m("Central time", -6, _CHI),
        _m("Mountain time", -7, _DEN), _m("Pacific time", -8, _LA),
    ),
}  # fmt: skip
_PLACES = {
    "eastern": _NY, "et": _NY, "central": _CHI, "ct": _CHI, "mountain": _DEN, "mt": _DEN,
    "pacific": _LA, "pt": _LA, "nyc": _NY, "ny": _NY, "la": _LA, "sf": _LA,
    "san francisco": _LA, "seattle": _LA, "portland": _LA, "san diego": _LA, "las vegas": _LA,
    "boston": _NY, "washington": _NY, "dc": _NY, "atlanta": _NY, "miami": _NY,
    "philadelphia": _NY, "dallas": _CHI, "houston": _CHI, "austin": _CHI, "san antonio": _CHI,
    "montreal": "America/Toronto", "ottawa": "America/Toronto", "beijing": "Asia/Shanghai",
    "shenzhen": "Asia/Shanghai", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata",
    "new delhi": "Asia/Kolkata", "bangalore": "Asia/Kolkata", "bengaluru": "Asia/Kolkata",
    "munich": "Europe/Berlin", "frankfurt": "Europe/Berlin", "hamburg": "Europe/Berlin",
    "cologne": "Europe/Berlin", "milan": "Europe/Rome", "barcelona": "Europe/Madrid",
    "geneva": "Europe/Zurich", "osaka": "Asia/Tokyo", "kyoto": "Asia/Tokyo",
    "japan": "Asia/Tokyo", "germany": "Europe/Berlin", "france": "Europe/Paris",
    "uk": "Europe/London", "england": "Europe/London", "britain": "Europe/London",
    "india": "Asia/Kolkata", "china": "Asia/Shanghai", "italy": "Europe/Rome",
    "spain": "Europe/Madrid", "netherlands": "Europe/Amsterdam", "korea": "Asia/Seoul",
    "south korea": "Asia/Seoul", "poland": "Europe/Warsaw", "sweden": "Europe/Stockholm",
    "switzerland": "Europe/Zurich", "austria": "Europe/Vienna", "ireland": "Europe/Dublin",
    "greece": "Europe/Athens", "turkey": "Europe/Istanbul", "israel": "Asia/Jerusalem",
    "singapore": "Asia/Singapore", "hong kong": "Asia/Hong_Kong", "taiwan": "Asia/Taipei",
    "thailand": "Asia/Bangkok", "vietnam": "Asia/Ho_Chi_Minh", "philippines": "Asia/Manila",
    "new zealand": "Pacific/Auckland", "nz": "Pacific/Auckland", "hawaii": "Pacific/Honolulu",
    "egypt": "Africa/Cairo", "kenya": "Africa/Nairobi", "nigeria": "Africa/Lagos",
    "south africa": "Africa/Johannesburg", "portugal": "Europe/Lisbon", "ukraine": "Europe/Kyiv",
    "utc": "UTC", "gmt+0": "UTC", "z": "UTC", "zulu": "UTC", "universal": "UTC",
}  # fmt: skip
_AREAS = (
    "Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian",
    "Antarctica", "America/Argentina", "America/Indiana", "America/Kentucky",
)  # fmt: skip
_IANA = re.compile(r"[A-Za-z][A-Za-z0-9_+.-]*(?:/[A-Za-z0-9_+.-]+)+")
_OFFSET = re.compile(
    r"(?:utc|gmt)?\s*(?P<sign>[+−-])\s*(?P<h>[0-9]{1,2})(?::?(?P<m>[0-9]{2}))?", re.IGNORECASE
)
_DRESS = re.compile(
    r"^(?:in\s+|at\s+)?(?:the\s+)?(?P<name>.+?)(?:'s)?(?:\s+(?:standard\s+|daylight\s+)?time(?:\s*zone)?|\s+zone)?$",
    re.IGNORECASE,
)


def load_zone(name: str) -> ZoneInfo | None:
    """The zone named ``name``, also in other letter cases (``america/new_york``), or None."""
    titled = re.sub(r"[A-Za-z]+", lambda word: word[0].capitalize(), name)
    for candidate in dict.fromkeys((name, titled, name.upper())):
        try:
            return ZoneInfo(candidate)
        except (ValueError, OSError, KeyError):
            continue
    return None


def tz_of(zone: Zone) -> tzinfo | None:
    """The ``tzinfo`` of ``zone`` (None when its name does not load)."""
    if isinstance(zone, Offset):
        return timezone(timedelta(minutes=zone.minutes))
    return load_zone(zone)


def read_zone(text: str) -> Said | None:
    """What a phrase naming a zone names (see the module docstring); None when it names none."""
    raw = re.sub(r"\s+", " ", text.strip().strip("()").strip())
    dressed = _DRESS.fullmatch(raw)
    if not raw or dressed is None:
        return None
    name = dressed["name"].strip().strip("()")
    lower = name.lower()
    if lower in _ABBREVIATIONS and (lower != "us" or raw != name):  # bare "us" is a word
        return Said(name, meanings=_ABBREVIATIONS[lower])
    offset = _OFFSET.fullmatch(name)
    if offset is not None and (lower[:3] in ("utc", "gmt") or name[:1] in "+−-"):
        return _offset_said(name, offset)
    zone = _place(lower) or _iana(name)
    return Said(name, zone=zone) if zone is not None else None


def _offset_said(name: str, match: re.Match[str]) -> Said | None:
    hours, minutes = int(match["h"]), int(match["m"] or 0)
    if hours > 23 or minutes > 59:
        return None
    total = (hours * 60 + minutes) * (-1 if match["sign"] in "−-" else 1)
    return Said(name, zone="UTC" if total == 0 else Offset(total))


def _place(lower: str) -> str | None:
    if lower in _PLACES:
        return _PLACES[lower]
    if not re.fullmatch(r"[a-z][a-z .'-]*", lower):
        return None
    city = "_".join(word.capitalize() for word in lower.split())
    found = [f"{area}/{city}" for area in _AREAS if load_zone(f"{area}/{city}") is not None]
    return found[0] if len(found) == 1 else None


def _iana(name: str) -> str | None:
    loaded = load_zone(name) if _IANA.fullmatch(name) else None
    return loaded.key if loaded is not None else None


def settle(said: Said, wall: datetime) -> Zone | ZoneQuestion:
    """The zone ``said`` means for the naive local time ``wall``, or the question to ask."""
    if said.zone is not None:
        return said.zone
    if len(said.meanings) > 1:
        return _which_of(said)
    meaning = said.meanings[0]
    region = load_zone(meaning.region)
    actual = _offset_minutes(wall, region) if region is not None else None
    if actual == meaning.offset:
        return meaning.region
    place = place_name(meaning.region)
    fixed = "UTC" + Offset(meaning.offset).text()
    actual_text = "UTC" + Offset(actual).text() if actual is not None else "another offset"
    return ZoneQuestion(
        f"On that day {place} is at {actual_text}, not {said.text.upper()} ({fixed}). Did you "
        f"mean {place} time, or a fixed {fixed}?",
        (meaning.region, Offset(meaning.offset)),
    )


def _which_of(said: Said) -> ZoneQuestion:
    names = [f"{m.name} ({place_name(m.region)})" for m in said.meanings]
    listed = ", ".join(names[:-1]) + f" or {names[-1]}"
    return ZoneQuestion(
        f"“{said.text.upper()}” can mean {listed}. Which one did you mean?",
        tuple(m.region for m in said.meanings),
    )


def _offset_minutes(wall: datetime, tz: tzinfo) -> int | None:
    try:
        offset = wall.replace(tzinfo=tz).utcoffset()
    except (OverflowError, ValueError):
        return None
    return None if offset is None else round(offset.total_seconds() / 60)


def zone_label(zone: Zone | None) -> str:
    """The zone as a person says it: ``Berlin time``, ``New York time``, ``UTC``, ``UTC+02:00``."""
    if zone is None:
        return "UTC"
    if isinstance(zone, Offset):
        return "UTC" + zone.text() if zone.minutes else "UTC"
    upper = zone.upper()
    if upper in ("UTC", "ETC/UTC", "ETC/GMT", "ETC/UCT", "ETC/ZULU", "ETC/UNIVERSAL"):
        return "UTC"
    gmt = re.fullmatch(r"ETC/GMT([+-])([0-9]{1,2})", upper)
    if gmt:  # the tz database's inverted sign: Etc/GMT+5 is UTC-05:00
        return "UTC" + Offset(int(gmt[2]) * 60 * (1 if gmt[1] == "-" else -1)).text()
    return f"{place_name(zone)} time"


def place_name(zone: str) -> str:
    """The place a zone name names: ``New York`` for ``America/New_York``."""
    return zone.rsplit("/", 1)[-1].replace("_", " ")


def same_zone(first: Zone | None, second: Zone | None) -> bool:
    """Whether two zones are the same name (case-insensitive) or the same offset."""
    if isinstance(first, str) and isinstance(second, str):
        return first.lower() == second.lower()
    return first == second
