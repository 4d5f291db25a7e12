"""German grammar of the offline assistant: a German message rewritten into its canonical phrasing. Pure.

``canonical(text)`` returns the message as the one parser reads every language: command words
("erinnere mich" → "remind me", "lösch" → "delete"), when phrases ("um halb acht" → "at 7:30",
"in anderthalb Stunden" → "in 90 minutes", "übermorgen" → "the day after tomorrow"), link words
("an den Tee" → "about den Tee", "daran, die Pflanzen zu gießen" → "to die Pflanzen gießen") and
the German word orders (the verb last: "Kannst du mich in 20 Minuten an den Kuchen erinnern?").
The task words are kept as typed: only what the rules name is rewritten. The times themselves are
then computed by the same, property-tested time code as in English.

Readings where German is ambiguous (said back by the confirmation, as in English): "halb acht"
is 7:30 and "dreiviertel neun" 8:45; a clock time without "morgens"/"abends" and below 13 ("um 9",
"9 Uhr") is the next such time, like "at 9"; "nächsten Montag" is the coming Monday.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from core.llm.offline.lang.de_words import (
    ADVERB_PARTS,
    CITIES,
    HOURS,
    MONTHS,
    NUMBERS,
    PARTS,
    SEPARABLE,
    UNITS,
    WEEKDAYS,
    alternatives,
    lookup,
    spelled,
)

_I = re.IGNORECASE
_Replacement = str | Callable[[re.Match[str]], str]
Rule = tuple[str, _Replacement]

_CHATTER = re.compile(
    spelled(
        r"^(?:(?:ok(?:ay)?|also|hey|hallo|hi|bitte|ähm|äh|na|so|und|chime|sag mal)\b[\s,!.:]*)+"
    ),
    _I,
)
_TAIL = re.compile(r"(?:[\s,]+(?:bitte|danke))?[\s.!?…]*$", _I)

_WHOLE: tuple[tuple[str, str], ...] = (
    # lists
    (
        r"(?:welche|was\s+für|was\s+fur)\s+(?:erinnerungen|wecker|timer)\s+(?:habe|hab|hast\s+du)"
        r"(?:\s+ich)?(?:\s+(?:noch|gerade|aktuell|für\s+mich))*(?:\s+für\s+mich)?",
        "what reminders do i have",
    ),
    (
        r"(?:zeig|zeige|liste|list)(?:\s+mir)?(?:\s+(?:mal|bitte))?(?:\s+(?:meine|alle|die))*"
        r"(?:\s+(?:erinnerungen|wecker|timer))?(?:\s+(?:an|auf))?",
        "list my reminders",
    ),
    (r"(?:meine\s+|alle\s+)?erinnerungen(?:\s+anzeigen)?", "list my reminders"),
    (
        r"was\s+steht(?:\s+(?:heute|morgen|noch))?\s+an|was\s+kommt\s+(?:als\s+nächstes|noch)",
        "what's next",
    ),
    (r"wann\s+ist\s+meine\s+nächste\s+erinnerung", "what's my next reminder"),
    (
        r"(?:habe|hab)\s+ich(?:\s+noch)?\s+erinnerungen|gibt\s+es(?:\s+noch)?\s+erinnerungen|"
        r"welche\s+erinnerungen\s+sind\s+(?:aktiv|offen|gesetzt)|was\s+hab(?:e)?\s+ich\s+für\s+"
        r"erinnerungen",
        "what reminders do i have",
    ),
    (r"wie\s+viele\s+erinnerungen\s+(?:habe|hab)\s+ich", "how many reminders do i have"),
    (r"was\s+ist\s+meine\s+nächste\s+erinnerung", "what's my next reminder"),
    # the time
    (
        r"(?:wie\s+spät\s+ist\s+es|wie\s*viel\s+uhr\s+ist\s+es|uhrzeit|wie\s+spät)"
        r"(?:\s+(?:in|für)\s+(?P<place>.+))?",
        "what time is it{place}",
    ),
    (
        r"welcher\s+tag\s+ist\s+heute|welches\s+datum\s+haben\s+wir(?:\s+heute)?|"
        r"der\s+wievielte\s+ist\s+heute|welches\s+datum\s+ist\s+heute",
        "what's the date",
    ),
    (
        r"welche\s+zeitzone\s+(?:habe\s+ich|ist\s+das)|in\s+welcher\s+zeitzone\s+bin\s+ich",
        "what time zone am i in",
    ),
    # talk
    (r"hilfe|was\s+kannst\s+du(?:\s+(?:so|alles))?(?:\s+machen)?|wie\s+geht\s+das", "help"),
    (r"wer\s+bist\s+du|was\s+bist\s+du", "who are you"),
    (
        r"(?:guten\s+(?:morgen|tag|abend)|hallo|servus|moin|grüß\s+gott|hey|hi)(?:\s+chime)?",
        "hello",
    ),
    (
        r"(?:ok(?:ay)?\s+)?(?:danke(?:\s+schön|schön)?|vielen\s+dank|merci|dankeschön)(?:\s+dir)?",
        "thanks",
    ),
    (r"tschüss|tschüs|ciao|bis\s+später|bis\s+dann|gute\s+nacht|auf\s+wiedersehen", "bye"),
    (r"wie\s+geht(?:'s|s|\s+es)(?:\s+dir)?", "how are you"),
    # answers
    (
        r"ja(?:,?\s+(?:bitte|alle|gerne?|mach(?:\s+das)?|lösch\s+(?:sie|alle)(?:\s+alle)?))*|jap|jo|klar|genau|sicher|jawohl",
        "yes",
    ),
    (
        r"nein(?:,?\s+(?:danke|behalten|behalte\s+sie))?|nee|nö|lieber\s+nicht|behalte\s+sie|behalten|abbrechen",
        "no",
    ),
    (
        r"(?:nein,?\s+)?doch\s+nicht|rückgängig(?:\s+machen)?|mach\s+das\s+rückgängig|lösch\s+(?:das|es)(?:\s+wieder)?|storniere\s+das|vergiss\s+das",
        "undo",
    ),
    (r"vergiss\s+es|egal|lass\s+(?:es|mal)(?:\s+sein)?|schon\s+gut", "never mind"),
    (r"beide|alle\s+beide|beide\s+löschen", "both"),
    (
        r"(?:die\s+|den\s+|das\s+)?(erste|zweite|dritte|vierte|letzte)(?:\s+(?:erinnerung|davon))?",
        "the {1} one",
    ),
    (r"schlummern|snooze", "snooze"),
    (r"alles\s+klar|gut|super|prima|passt|okay|ok", "ok"),
)
_ORDINALS = {"erste": "first", "zweite": "second", "dritte": "third", "vierte": "fourth", "letzte": "last", "nächste": "next"}  # fmt: skip
_WHOLE_RES = tuple((re.compile(spelled(p), _I), english) for p, english in _WHOLE)

_UNIT = alternatives(UNITS)
_NUMBER = alternatives(NUMBERS)
_HOUR = rf"(?:[0-9]{{1,2}}|{alternatives(HOURS)})"
_DAY = alternatives(WEEKDAYS)


def _number(word: str) -> int:
    value = lookup(NUMBERS, word)
    return int(value) if value is not None else int(word)


def _unit(word: str) -> str:
    value = lookup(UNITS, word.lower())
    return str(value) if value is not None else word


def _clock(hour: int, minute: int) -> str:
    return f"{hour % 12 or 12}:{minute:02d}" if hour <= 12 else f"{hour}:{minute:02d}"


def _before(match: re.Match[str], minutes: int) -> str:
    hour = _number(match["h"])
    return _clock((hour - 1) % 12 or 12, 60 - minutes)


_VERB_LAST: tuple[Rule, ...] = (
    (
        r"^(?:kannst|könntest|würdest|kannste)\s+du\s+mich\s+(?P<rest>.+?)\s+(?:daran\s+)?"
        r"erinnern(?P<tail>\s*,.*)?$",
        r"remind me \g<rest>\g<tail>",
    ),
    (
        r"^(?:können|könnten|würden)\s+sie\s+mich\s+(?P<rest>.+?)\s+(?:daran\s+)?"
        r"erinnern(?P<tail>\s*,.*)?$",
        r"remind me \g<rest>\g<tail>",
    ),
    (
        r"^(?:kannst|könntest)\s+du\s+(?:einen|den|mir\s+einen)\s+(?P<what>timer|wecker)\s+"
        r"(?:auf|für)\s+(?P<rest>.+?)\s+stellen$",
        lambda m: (
            f"set {'a timer' if m['what'].lower() == 'timer' else 'an alarm'} for {m['rest']}"
        ),
    ),
    (r"^(?P<rest>.+?)\s+(?:löschen|entfernen|streichen)$", r"delete \g<rest>"),
    (
        r"^(?:mich\s+)?(?P<rest>(?!.*\bmich\b).+?)\s+erinnern(?P<tail>\s*,.*)?$",
        r"remind me \g<rest>\g<tail>",
    ),
)
_COMMANDS: tuple[Rule, ...] = (
    (r"\berinnere?\s+mich\s+nicht\s+mehr\b", "stop reminding me"),
    (r"\b(?:erinnere|erinner|erinnre|erinnert|erinnern\s+sie)\s+mich\b", "remind me"),
    (r"\bschick(?:e)?\s+mir\s+(?P<rest>.*?)\s*eine\s+erinnerung\b", r"send me a reminder \g<rest>"),
    (r"\bsag(?:e)?\s+mir\s+(?P<rest>.*?)\s*bescheid\b", r"tell me \g<rest>"),
    (r"\bsag(?:e)?\s+mir\b", "tell me"),
    (
        r"\b(?:ich\s+(?:brauche|bräuchte|hätte\s+gern|möchte|will)|gib\s+mir)\s+eine\s+erinnerung\b",
        "i need a reminder",
    ),
    (r"\bgib\s+mir\s+(?P<rest>.*?)\s*bescheid\b", r"let me know \g<rest>"),
    (r"\bping(?:e)?\s+mich\b", "ping me"),
    (r"\bweck(?:e)?\s+mich(?:\s+auf)?\b", "wake me"),
    (
        r"\b(?:stell|stelle|setz|setze|mach)\s+(?:den|einen|mir\s+einen)\s+wecker\s+(?:auf|für|um)\b",
        "set an alarm for",
    ),
    (r"\bwecker\s+(?:auf|für|um)\b", "alarm for"),
    (r"^wecker\b", "alarm"),
    (
        r"\b(?:stell|stelle|setz|setze|mach|starte|start)\s+(?:den|einen|mir\s+einen)\s+timer\s+(?:auf|für)\b",
        "set a timer for",
    ),
    (r"\b(?:stell|stelle|starte|start)\s+(?:den|einen)\s+timer\b", "set a timer"),
    (r"\btimer\s+(?:auf|für)\b", "timer for"),
    (r"\b([0-9]+)-minuten-timer\b", r"\1-minute timer"),
    (r"^(?:neue\s+)?erinnerung\b", "reminder"),
    (
        r"^(?:lösch|lösche|entfern|entferne|streich|streiche|storniere|vergiss|tilg|tilge)\b",
        "delete",
    ),
    (
        r"^(?:verschieb|verschiebe|änder|ändere|verleg|verlege)\s+(?:meine|die|den|das|mein)\b",
        "change my",
    ),
    (r"\b(timer|countdown)\b", lambda m: m[1].lower()),
)
_DURATIONS: tuple[Rule, ...] = (
    (r"\b(?:eine|einer|ne)\s+halbe(?:n)?\s+stunde\b|\bhalbe(?:n)?\s+stunde\b", "30 minutes"),
    (r"\b(?:anderthalb|eineinhalb|einundhalb|einhalb)\s+stunden?\b", "90 minutes"),
    (r"\bzweieinhalb\s+stunden\b", "150 minutes"),
    (r"\b(?:einer|eine)\s+dreiviertel\s*stunde\b|\bdreiviertelstunde\b", "45 minutes"),
    (r"\b(?:einer|eine)\s+viertelstunde\b|\bviertelstunde\b", "15 minutes"),
    (r"\bein\s+paar\s+(?P<u>" + _UNIT + r")(?![\w])", lambda m: f"a few {_unit(m['u'])}"),
    (r"\b([0-9]+),([0-9]+)\s*(?=" + _UNIT + r")", r"\1.\2 "),
    (
        rf"\b(?P<n>{_NUMBER})\s+(?P<u>{_UNIT})(?![\w])",
        lambda m: f"{_number(m['n'])} {_unit(m['u'])}",
    ),
    (
        rf"(?<![\w:.])(?P<n>[0-9]+(?:\.[0-9]+)?)\s*(?P<u>{_UNIT})(?![\w])",
        lambda m: f"{m['n']} {_unit(m['u'])}",
    ),
    (r"\b(seconds?|minutes?|hours?|days?|weeks?)\s+und\s+(?=[0-9])", r"\1 and "),
    (r"\b(seconds?|minutes?|hours?)\s+für\b", r"\1 for"),
    (r"\bvor\s+(?P<d>[0-9.]+\s+(?:seconds?|minutes?|hours?|days?|weeks?))\b", r"\g<d> ago"),
    (
        r"\b(seconds?|minutes?|hours?)\s+(vor|nach)\s+(?=[0-9])",
        lambda m: f"{m[1]} {'before' if m[2].lower() == 'vor' else 'after'} ",
    ),
)
_CLOCKS: tuple[Rule, ...] = (
    # digits with minutes are the 24-hour clock in German: "6:30" is 06:30 ("halb sieben" is not)
    (r"(?<![\w:.])([0-9]):([0-5][0-9])\b(?!\s*(?:am|pm)\b)", r"0\1:\2"),
    (r"\b(?:um\s+)?halb\s+(?P<h>" + _HOUR + r")\b", lambda m: f"at {_before(m, 30)}"),
    (
        r"\b(?:um\s+)?viertel\s+nach\s+(?P<h>" + _HOUR + r")\b",
        lambda m: f"at {_clock(_number(m['h']), 15)}",
    ),
    (
        r"\b(?:um\s+)?(?:viertel\s+vor|dreiviertel)\s+(?P<h>" + _HOUR + r")\b",
        lambda m: f"at {_before(m, 15)}",
    ),
    (
        r"\b(?:um\s+)?(?P<m>[0-9]{1,2}|"
        + _NUMBER
        + r")\s+nach\s+(?P<h>"
        + _HOUR
        + r")\b(?!\s*(?:minutes|hours))",
        lambda m: f"at {_clock(_number(m['h']), _number(m['m']))}",
    ),
    (
        r"\b(?:um\s+)?(?P<m>[0-9]{1,2}|"
        + _NUMBER
        + r")\s+vor\s+(?P<h>"
        + _HOUR
        + r")\b(?!\s*(?:minutes|hours))",
        lambda m: f"at {_before(m, _number(m['m']))}",
    ),
    (r"\b([0-9]{1,2})[.:]([0-9]{2})\s*uhr\b", lambda m: f"{int(m[1]):02d}:{m[2]}"),
    (r"\b([0-9]{1,2})\s*uhr\s+([0-9]{2})\b", r"\1:\2"),
    (r"\b([0-9]{1,2})\s*uhr\b", r"\1:00"),
    (r"\b([0-9]{1,2})h\b", r"\1:00"),
    (r"\b12(?::00)?\s+mittags\b", "12pm"),
    (r"\bmitternacht\b", "midnight"),
    (r"\bum\s+(?=[0-9]|noon\b|midnight\b|" + alternatives(HOURS) + r"\b)", "at "),
    (r"\b(?:gegen|ca\.|circa|etwa)\s+(?=[0-9])", "around "),
    (r"\bbis\s+(?=[0-9])", "by "),
)
_DAYS: tuple[Rule, ...] = (
    (r"\bübermorgen\b", "the day after tomorrow"),
    (r"\bmorgen\s+früh\b", "tomorrow morning"),
    (r"\bheute\s+(?:früh|morgen)\b", "this morning"),
    (r"\bheute\s+nacht\b", "tonight"),
    (
        rf"\b(?:am\s+)?(?P<d>heute|morgen|{_DAY})\s+(?P<p>{alternatives(PARTS)})\b",
        lambda m: _day_part(m["d"], m["p"]),
    ),
    (rf"\b(?:am\s+)?(?:{_DAY}),?\s+(?:den\s+)?(?=[0-9]{{1,2}}\.)", "am "),
    (rf"\bden\s+(?=[0-9]{{1,2}}\.\s*(?:{alternatives(MONTHS)}|[0-9]))", "am "),
    (r"\b(?:jeden|an\s+jedem)\s+werktag\b|\bwerktags\b", "every weekday"),
    (r"\bjeden\s+zweiten\s+tag\b", "every other day"),
    (r"\bjeden\s+tag\b", "every day"),
    (rf"\bjeden\s+(?P<d>{_DAY})\b", lambda m: f"every {lookup(WEEKDAYS, m['d'])}"),
    (
        r"\bjeden\s+(morgen|abend)\b",
        lambda m: f"every {'morning' if m[1].lower() == 'morgen' else 'evening'}",
    ),
    (r"\bjede\s+(?=[0-9]|minute|hour|week|30 minutes)", "every "),
    (r"\bjede\s+(stunde|woche|minute)\b", lambda m: f"every {_unit(m[1])}"),
    (r"\balle\s+(?=(?:[0-9.]+\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?)\b)", "every "),
    (r"\bzweimal\s+(?:am\s+tag|täglich|pro\s+tag)\b", "twice a day"),
    (r"\bdreimal\s+(?:am\s+tag|täglich|pro\s+tag)\b", "three times a day"),
    (r"\btäglich\b", "daily"),
    (r"\bstündlich\b", "hourly"),
    (r"\bwöchentlich\b", "weekly"),
    (r"\bmonatlich\b", "monthly"),
    (
        rf"\b(?:nächsten|nächster|nächste|kommenden)\s+(?P<d>{_DAY})\b",
        lambda m: f"next {lookup(WEEKDAYS, m['d'])}",
    ),
    (rf"\bdiesen\s+(?P<d>{_DAY})\b", lambda m: f"this {lookup(WEEKDAYS, m['d'])}"),
    (rf"\b(?:am\s+)?(?P<d>{_DAY})\b", lambda m: f"on {lookup(WEEKDAYS, m['d'])}"),
    (r"\bnächste\s+woche\b", "next week"),
    (r"\b(?:am|übers)\s+wochenende\b", "at the weekend"),
    (
        rf"\b(?:am\s+)?(?P<n>[0-9]{{1,2}})\.\s*(?P<m>{alternatives(MONTHS)})\b",
        lambda m: f"on {m['n']} {lookup(MONTHS, m['m'])}",
    ),
    (r"\bam\s+(?=[0-9]{1,2}\.[0-9]{1,2}\.)", "on "),
    (r"\bheute\b", "today"),
    (r"\bgestern\b", "yesterday"),
    (r"(?<!guten\s)\bmorgen\b", "tomorrow"),
    (rf"\b(?P<p>{alternatives(ADVERB_PARTS)})\b", lambda m: str(lookup(ADVERB_PARTS, m["p"]))),
    (r"\bspäter\b", "later"),
    (r"\birgendwann\b", "sometime"),
    (r"\bbald\b", "soon"),
)
_ZONES: tuple[Rule, ...] = (
    (
        rf"\b(?P<c>{alternatives(CITIES)})(?:-|\s+)zeit\b",
        lambda m: f"{lookup(CITIES, m['c'])} time",
    ),
    (
        r"\bin\s+(?P<c>tokio|wien|moskau|peking|zürich|rom)\b",
        lambda m: f"in {lookup(CITIES, m['c'])}",
    ),
    (r"\b(?P<c>mesz|mez)\b", lambda m: str(lookup(CITIES, m["c"]))),
)
_LINKS: tuple[Rule, ...] = (
    (r"\bdaran,?\s+dass\b|,\s*dass\b", " that"),
    (
        rf"(?:\bdaran)?,?\s+(?P<task>[^,]+?)\s+(?P<sep>{SEPARABLE})zu(?P<verb>[a-zäöüß]+)\b(?=\s*(?:,|$))",
        lambda m: f" to {m['task']} {m['sep']}{m['verb']}",
    ),
    (
        r"(?:\bdaran)?,?\s+(?P<task>[^,]+?)\s+zu\s+(?P<verb>[a-zäöüß]+)\b(?=\s*(?:,|$))",
        r" to \g<task> \g<verb>",
    ),
    (r"\bwegen\b", "about"),
    # "daran, in 10 Minuten den Herd auszuschalten": the time out of the task
    (
        r"\bto\s+(?P<when>in\s+[0-9.]+\s+(?:seconds?|minutes?|hours?|days?|weeks?)|at\s+[0-9:]+(?:am|pm)?|"
        r"(?:tomorrow|today)(?:\s+(?:morning|evening|afternoon))?(?:\s+at\s+[0-9:]+)?)\s+",
        r"\g<when> to ",
    ),
)
_LINK_AN = re.compile(r"^(?P<head>.*?)\b(?:ans|an)\s+(?!alarm\b|hour\b|extra\b)(?=\S)", _I)
_DELETE_WORDS: tuple[Rule, ...] = (
    (r"-?erinnerung(?:en)?\b", " reminder"),
    (
        r"\b(?:die|der|den|das|meine|meinen|mein)\s+(?=(?:erste|zweite|dritte|letzte|nächste)\b)",
        "the ",
    ),
    (r"\b(erste|zweite|dritte|vierte|letzte|nächste)\b", lambda m: str(lookup(_ORDINALS, m[1]))),
    (r"\balles\b|\balle\b", "all"),
    (r"\bnummer\b", "number"),
    (r"^(delete\s+)(?:die|der|den|das|meine|meinen|mein)\b", r"\1the"),
)


def _day_part(day: str, part: str) -> str:
    said = str(lookup(PARTS, part))
    word = day.lower()
    if word == "heute":
        return {"night": "tonight", "noon": "today at noon"}.get(said, f"this {said}")
    name = "tomorrow" if word == "morgen" else f"on {lookup(WEEKDAYS, day)}"
    return f"{name} at noon" if said == "noon" else f"{name} {said}"


def _filled(english: str, found: re.Match[str]) -> str:
    """A whole-message reading with its parts: the ordinal ("die zweite"), the place ("in Tokio")."""
    groups = found.groupdict()
    place = groups.get("place")
    said = f" in {lookup(CITIES, place) or place}" if place else ""
    ordinal = found.group(1) if "{1}" in english else None
    return english.replace("{place}", said).replace("{1}", str(lookup(_ORDINALS, ordinal or "")))


def _apply(text: str, rules: tuple[Rule, ...], record: list[tuple[str, str]] | None = None) -> str:
    """``text`` with every rule applied in turn; ``record`` collects (new, old) of each change."""
    for pattern, replacement in rules:

        def sub(match: re.Match[str], replacement: _Replacement = replacement) -> str:
            new = replacement(match) if callable(replacement) else match.expand(replacement)
            if record is not None and new.strip() and new != match[0]:
                record.append((new.strip(), match[0].strip()))
            return new

        text = re.sub(spelled(pattern), sub, text, flags=_I)
    return text


def said_back(prompt: str, message: str) -> str:
    """A reminder text taken from the canonical phrasing of ``message``, with the time words it
    kept put back as they were typed ("das Meeting at 15:00" → "das Meeting um 15 Uhr")."""
    record: list[tuple[str, str]] = []
    text = _apply(_TAIL.sub("", message), _VERB_LAST)
    text = _apply(text, _COMMANDS)
    for rules in (_DURATIONS, _CLOCKS, _ZONES, _DAYS):
        text = _apply(text, rules, record)
    for new, old in reversed(record):
        prompt = re.sub(rf"(?<!\w){re.escape(new)}(?!\w)", old.replace("\\", "\\\\"), prompt)
    return prompt


@functools.lru_cache(maxsize=256)
def canonical(text: str) -> str:
    """A German message in the canonical phrasing (see the module docstring); a pure function,
    so each step reads the messages it reads back again from the cache."""
    said = re.sub(r"\s+", " ", text.replace("’", "'")).strip()
    stripped = _CHATTER.sub("", said, count=1)
    said = stripped if stripped.strip(" .!?") else said
    bare = _TAIL.sub("", said)
    for pattern, english in _WHOLE_RES:
        found = pattern.fullmatch(bare)
        if found is not None:
            return _filled(english, found)
    rewritten = _apply(bare, _VERB_LAST)
    rewritten = _apply(rewritten, _COMMANDS)
    rewritten = _apply(rewritten, _DURATIONS)
    rewritten = _apply(rewritten, _CLOCKS)
    rewritten = _apply(rewritten, _ZONES)
    rewritten = _apply(rewritten, _DAYS)
    rewritten = _apply(rewritten, _LINKS)
    if re.match(r"(?:delete|stop reminding me)\b", rewritten, _I):
        rewritten = _apply(rewritten, _DELETE_WORDS)
    rewritten = _LINK_AN.sub(r"\g<head>about ", rewritten, count=1)
    rewritten = re.sub(r"\bund\s+(?=(?:in|at|on|tomorrow|then)\b)", "and ", rewritten, flags=_I)
    rewritten = re.sub(r"^(?:die|der|den|das)\s+(?=\S+$)", "the ", rewritten, flags=_I)
    rewritten = _alarm_morning(rewritten)
    rewritten = _snooze(rewritten)
    return re.sub(r"\s+", " ", re.sub(r"\bbitte\b,?", "", rewritten, flags=_I)).strip(" ,")


def _alarm_morning(text: str) -> str:
    """An alarm at a bare hour ("Wecker auf 7 Uhr", "weck mich um 6:30") is in the morning."""
    if not re.match(r"(?:set an alarm|alarm|wake me)\b", text, _I):
        return text
    if re.search(r"\b(?:am|pm|morning|evening|afternoon|night|tonight|noon|midnight)\b", text, _I):
        return text
    clock = r"\b(at|for)\s+(0?[1-9]|1[0-2])(:[0-5][0-9])?(?![\w:])(?!\s*(?:seconds?|minutes?|hours?|days?))"
    return re.sub(clock, _am, text, count=1)


def _am(match: re.Match[str]) -> str:
    return f"{match[1]} {int(match[2])}{match[3] or ''}am"


def _snooze(text: str) -> str:
    """ "in 10 minutes nochmal", "noch 5 minutes", "snooze 5 minutes": the English snooze words."""
    text = re.sub(r"^noch\s+([0-9]+)\s+(?=minutes?|hours?)", r"\1 more ", text, flags=_I)
    text = re.sub(
        r"^(?:später\s+|later\s+)?(?:nochmal|noch\s+mal|erneut|wieder),?\s+",
        "again ",
        text,
        flags=_I,
    )
    text = re.sub(
        r"^(?P<rest>.+?)\s+(?:nochmal|noch\s+mal|erneut)$", r"again \g<rest>", text, flags=_I
    )
    text = re.sub(r"^again remind me\b", "remind me again", text, flags=_I)
    return re.sub(r"^(?:schlummern|snooze)\b", "snooze", text, flags=_I)
