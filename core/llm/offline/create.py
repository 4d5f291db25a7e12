"""The offline assistant's reminder requests: what to remind about, and when. Pure: no I/O, no clock.

``parse_request(text, reading)`` reads a message that asks for a reminder, a timer or an alarm
and returns a ``Create``, an ``Ask`` (something is missing or ambiguous; its ``Need`` says what
answer completes it), a ``Reply`` (it cannot be done, and why) or None (not such a request).

A request is a verb ("remind me", "set a reminder", "ping me", "nudge me", "tell me to",
"wake me up", "don't let me forget", "note:", "set a timer", "alarm") with the task and the when
phrase around it in any order: "remind me in 15 mins: stand up", "in an hour, call Ana",
"remind me to call mom tomorrow at 5", "tomorrow remind me to call at 5", "note: dentist at 10".
Without a verb, a message that is a task and a when phrase ("in an hour, call Ana", "dentist
tomorrow at 10") is a request too, unless it reads as a question.

``split_body(body, reading)`` finds the when phrase at the start or the end of the text around
the verb (the longest one that parses) and keeps the task exactly as typed, without the link
word ("to", "about", "that") and the punctuation between them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.llm.offline.dates import read_day
from core.llm.offline.duration import parse_duration
from core.llm.offline.text import duration_text, link_for, quote, second_person
from core.llm.offline.values import (
    Ask,
    Create,
    Link,
    NeedBoth,
    NeedDayTime,
    NeedWhat,
    NeedWhen,
    NeedZone,
    NeedZoneChoice,
    Reply,
)
from core.llm.offline.when import (
    AskZone,
    Delay,
    Interval,
    LocalTime,
    NeedTime,
    Problem,
    Reading,
    When,
    parse_when,
    whole_seconds,
)
from core.llm.offline.when import NeedZone as WhenNeedsZone

ONE_AT_A_TIME = (
    "I can set one reminder at a time, at one time (or one fixed interval). Please ask for them "
    "one by one, for example “remind me at 5pm to call mom”, then “remind me at 6pm to cook”."
)
_ANOTHER_WHEN = re.compile(
    r"\b(?:and|then|also)\s+(?:again\s+|also\s+)?(?:to\s+\w+(?:\s+\w+)*\s+)?(?:in|at|on|by)\s+\S*[0-9]|"
    r"\b(?:and|then)\s+(?:again\s+)?(?:tomorrow|tonight|on\s+\w+day|\w+day\s+at)\b|"
    r"\b(?:at|in|on)\s+[0-9]\S*(?:\s+\w+)?\s+(?:and|then)\b",
    re.IGNORECASE,
)
ASK_WHAT_AND_WHEN = (
    "What should I remind you about, and when? For example “remind me in 10 minutes to stretch”."
)
EXAMPLES = "For example “in 20 minutes”, “at 17:00” or “tomorrow at 9:30”."

_Verbs = tuple[tuple[str, Link, str], ...]
_STRONG: _Verbs = (
    (
        r"(?:remind(?:er)?s?|remid|remnd|rmind|remaind|reimnd|remidn|remin|reminf)\s+(?:me|us|em)(?:\s+again)?",
        "to",
        "",
    ),
    (
        r"(?:set|add|create|make|schedule|save|put\s+in|setup|set\s+up)\s+(?:up\s+)?(?:a\s+|an\s+|me\s+a\s+|myself\s+a\s+|one\s+)?(?:new\s+|quick\s+)?reminders?(?:\s+for\s+me)?",
        "to",
        "",
    ),
    (
        r"(?:i\s+(?:need|want|would\s+like|'d\s+like)|can\s+i\s+(?:get|have)|give\s+me|get\s+me|send\s+me|shoot\s+me|drop\s+me)\s+a\s+reminder",
        "to",
        "",
    ),
    (
        r"(?:i\s+(?:need|want|would\s+like|'d\s+like)\s+to\s+)?(?:be|get)\s+reminded",
        "to",
        "",
    ),
    (
        r"(?:new\s+)?reminder(?=\s*[:,-]|\s+(?:to|about|that|for|at|in|on|tomorrow|tonight|every)\b)",
        "to",
        "",
    ),
    (r"(?:don'?t|do\s+not|dont)\s+let\s+me\s+forget(?:\s+to)?", "to", ""),
    (r"make\s+sure\s+i(?:\s+(?:don'?t\s+forget\s+to|remember\s+to))?", "to", ""),
    (
        r"help\s+me\s+remember(?:\s+to)?|i\s+(?:need|have|must|want)\s+to\s+remember(?:\s+to)?|remember\s+to",
        "to",
        "",
    ),
    (r"(?:note(?:\s+to\s+self)?|to-?do|memo)(?=\s*:)", "to", ""),
    (r"wake\s+me(?:\s+up)?", "alarm", "Wake up"),
    (
        r"(?:set|make|create|add|put\s+on)\s+(?:an\s+|a\s+|me\s+an\s+|my\s+)?alarm|alarm",
        "alarm",
        "Alarm",
    ),
)
_WEAK: _Verbs = (
    (r"(?:ping|nudge|poke|buzz|alert|notify|message|text|prompt|call)\s+me", "to", ""),
    (
        r"tell\s+me|let\s+me\s+know|give\s+me\s+a\s+(?:shout|nudge|ping|heads[- ]?up|call|buzz)",
        "to",
        "",
    ),
)
_TIMER = re.compile(r"(?P<before>.*?)\b(?:timer|countdown)\b(?P<after>.*)", re.DOTALL)
_TIMER_LEAD = re.compile(
    r"^(?:set|start|make|create|put\s+on|run|begin|give\s+me)?\s*(?:a|an|me\s+a|one|my)?\s*",
    re.IGNORECASE,
)
_LINK = re.compile(
    r"^(?:(?P<word>to|about|that|of|for|so\s+(?:that\s+)?i|called|named|titled|saying)\b|[:,;—–-])\s*",
    re.IGNORECASE,
)
_LINK_TAIL = re.compile(r"\s*(?:\b(?:to|about|that|of|for)|[:,;—–-])$", re.IGNORECASE)
_WHEN_START = re.compile(
    r"(?:in|at|on|by|every|each|tom+or+ow|tmrw|tmr|2morrow|today|tonight|next|this|after|daily|hourly|weekly|for|"
    r"around|before|the|noon|midday|midnight|mon|tue|wed|thu|fri|sat|sun|[a-z]+day|[0-9]+\S*|half|quarter|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|christmas|new|end|eod|lunch|morning|afternoon|evening|night|bed|"
    r"a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|within|once|twice|soon|later|"
    r"around|roughly|approximately|approx|circa|another|yesterday|last)\b",
    re.IGNORECASE,
)
_PREPOSITIONS = frozenset(
    ("at", "on", "in", "by", "around", "before", "after", "from", "until", "next", "this")
)
_VAGUE = re.compile(
    r"(?:later|soon|soonish|in\s+a\s+(?:bit|while|moment|sec|second)|at\s+some\s+point|sometime|some\s+time|eventually|whenever|later\s+on|later\s+today)",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"^(?:what|when|where|who|whom|why|how|which|is|are|am|was|were|do|does|did|can|could|would|will|should|shall|have|has)\b",
    re.IGNORECASE,
)
_EDGE = re.compile(r"^[\s\"'“”‘’«»]+|[\s\"'“”‘’«».!?…,;:]+$")


@dataclass(frozen=True, slots=True)
class Body:
    """A request's text taken apart: the task ``what``, the when phrase and what it reads as."""

    what: str
    when_text: str
    when: When | None
    link: Link


def parse_request(text: str, reading: Reading) -> Create | Ask | Reply | None:
    """A reminder, timer or alarm request (see the module docstring), or None."""
    timer = _TIMER.fullmatch(text)
    if timer is not None and _is_timer(timer):
        return _timer(timer["before"], timer["after"], reading)
    for verbs, strong in ((_STRONG, True), (_WEAK, False)):
        for pattern, link, default in verbs:
            found = re.search(rf"(?:^|(?<=[\s,.;:!]))(?:{pattern})\b", text, re.IGNORECASE)
            if found is None:
                continue
            request = _verb_request(text, found, reading, link, default, strong=strong)
            if request is not None:
                return request
    return _bare_request(text, reading)


def _verb_request(
    text: str,
    found: re.Match[str],
    reading: Reading,
    link: Link,
    default: str,
    *,
    strong: bool,
) -> Create | Ask | Reply | None:
    pre, post = text[: found.start()].strip(" ,"), text[found.end() :]
    body = split_body(post, reading, link=link)
    if pre:
        body = _with_pre(pre, body, reading)
    if not strong and not _usable(body.when):
        bare = not pre and not post.strip(" .!?")  # "ping me" alone asks, like "remind me"
        return Ask(ASK_WHAT_AND_WHEN, NeedBoth()) if bare else None
    return compose(body, text, default=default)


def _with_pre(pre: str, body: Body, reading: Reading) -> Body:
    """Text before the verb: a when phrase ("in 2 hours remind me …"), joined with one after
    the task when both are there ("tomorrow remind me to call at 5"), or else the task, with
    its own when phrase when the verb comes last ("call Ana in 40 minutes, remind me")."""
    pre_when = parse_when(pre, reading, bare_duration=True)
    if pre_when is None:
        if body.what or body.when is not None:
            return body if body.what else Body(_clean(pre), body.when_text, body.when, body.link)
        return split_body(pre, reading, link=body.link)
    if body.when is None:
        return Body(body.what, pre, pre_when, body.link)
    joined = parse_when(f"{pre} {body.when_text}", reading)
    if _usable(joined):
        return Body(body.what, f"{pre} {body.when_text}", joined, body.link)
    return body


def split_body(body: str, reading: Reading, *, link: Link = "to") -> Body:
    """The task and the when phrase of the text after a verb (see the module docstring)."""
    body = re.sub(r"\s+", " ", body).strip(" ,:;-—")
    words = body.split(" ") if body else []
    lead = _leading_when(words, reading)
    trail = _trailing_when(words, reading)
    chosen = _better(lead, trail, reading)
    if chosen is None:
        return Body(_clean(body), "", None, _link_of(body, link))
    what, when_text, when = chosen
    if chosen is lead and what:
        what, when_text, when = _joined(what, when_text, when, reading)
    return Body(_clean(what), when_text, when, _link_of(what, link))


def _joined(what: str, when_text: str, when: When, reading: Reading) -> tuple[str, str, When]:
    """One when phrase in two pieces around the task: "tomorrow to call mom at 5", "next month
    on the 5th to renew", "10 minutes before the meeting at 4pm" (a delay before a time)."""
    shifted = re.match(r"(?P<dir>before|after|prior to)\s+(?P<rest>.+)$", what, re.IGNORECASE)
    if isinstance(when, Delay) and shifted is not None:
        inner = _trailing_when(shifted["rest"].split(" "), reading)
        if inner is not None and isinstance(inner[2], LocalTime):
            moved = parse_when(f"{when_text} {shifted['dir']} {inner[1]}", reading)
            if moved is not None and _usable(moved):
                return inner[0], f"{when_text} {shifted['dir']} {inner[1]}", moved
    for found in (
        _trailing_when(what.split(" "), reading),
        _leading_when(what.split(" "), reading),
    ):
        if found is None or not _usable(found[2]):
            continue
        rest, piece = (found[0], found[1])
        joined = parse_when(f"{when_text} {piece}", reading)
        if joined is not None and _usable(joined):
            return rest, f"{when_text} {piece}", joined
    return what, when_text, when


def _leading_when(words: list[str], reading: Reading) -> tuple[str, str, When] | None:
    """The longest when phrase the text starts with (recognised, even if it cannot be used)."""
    for cut in range(len(words), 0, -1):
        head = " ".join(words[:cut]).rstrip(",:;-—")
        if not _WHEN_START.match(head):
            continue
        when = parse_when(head, reading, bare_duration=True)
        if when is not None:
            return " ".join(words[cut:]), head, when
    return None


def _trailing_when(words: list[str], reading: Reading) -> tuple[str, str, When] | None:
    """The longest when phrase the text ends with."""
    for cut in range(1, len(words)):
        tail = " ".join(words[cut:])
        if not _WHEN_START.match(tail):
            continue
        when = parse_when(_LINK_TAIL.sub("", tail), reading)
        if when is not None:
            return _LINK_TAIL.sub("", " ".join(words[:cut])), tail, when
    return None


def _better(
    lead: tuple[str, str, When] | None, trail: tuple[str, str, When] | None, reading: Reading
) -> tuple[str, str, When] | None:
    """A usable when phrase over one that is recognised but unusable; with both usable, the one
    that leaves a task (not a piece of the when phrase: "wake me tomorrow at 7" has no task),
    the leading one first."""
    options = [option for option in (lead, trail) if option is not None]
    for option in options:
        rest = _clean(option[0])
        if _usable(option[2]) and rest and not _a_day(rest, reading):
            return option
    for option in options:
        if _usable(option[2]):
            return option
    for option in options:
        if _clean(option[0]):
            return option
    return options[0] if options else None


def _a_day(text: str, reading: Reading) -> bool:
    """ "tomorrow", "on friday": a day phrase, the rest of a when phrase rather than a task."""
    return read_day(text.lower(), reading.now.date(), month_first=reading.month_first) is not None


def _usable(when: When | None) -> bool:
    return isinstance(when, Delay | Interval | LocalTime)


def _link_of(what: str, default: Link) -> Link:
    """The link word the task starts with; without one, "to" or "about" by the task's shape."""
    match = _LINK.match(what.strip())
    word = (match["word"] or "").lower() if match else ""
    if word in ("about", "of"):
        return "about"
    if word == "that":
        return "that"
    if word == "to" and default in ("to", "about"):
        return "to"
    if default == "to" and not word and _clean(what):
        return link_for(_clean(what))
    return default


def _clean(what: str) -> str:
    """The task as typed, without the link word, quotes and edge punctuation."""
    text = what.strip()
    for _ in range(3):
        stripped = _EDGE.sub("", _LINK.sub("", text, count=1))
        if stripped == text:
            break
        text = stripped
    words = text.lower().split()
    return "" if words and all(word in _PREPOSITIONS for word in words) else text


def compose(body: Body, request: str, *, default: str = "") -> Create | Ask | Reply:
    """The intent of a taken-apart request: a reminder, or the question for what is missing."""
    what = body.what or default
    when = body.when
    if when is None:
        return _without_when(body, what)
    if isinstance(when, Problem):
        if what:
            return Ask(
                f"{when.text} When should I remind you?", NeedWhen(what, body.link, refused=True)
            )
        return Reply(when.text)
    if isinstance(when, NeedTime):
        return (
            Ask(when.text, NeedDayTime(what, body.link, body.when_text))
            if what
            else Ask(when.text, NeedWhat(body.when_text))
        )
    if isinstance(when, WhenNeedsZone):
        return Ask(when.text, NeedZone(request))
    if isinstance(when, AskZone):
        return Ask(when.question.text, NeedZoneChoice(request, when.question.options))
    if not what:
        return Ask(
            f"What should I remind you about {quote(body.when_text)}?", NeedWhat(body.when_text)
        )
    if _second_when(what):
        return Reply(ONE_AT_A_TIME)
    if re.match(r"(?:after|before|until|till|from|between|since)\b", what, re.IGNORECASE):
        return Reply(
            f"I couldn't tell the task from the time in “{quote(what)}”. Please say one time and "
            "the task, for example “remind me at 5pm to drink water”."
        )
    notes = when.notes if isinstance(when, LocalTime | Delay) else ()
    return Create(what, when, body.link, notes)


def _second_when(what: str) -> bool:
    """The task still holds a time of its own ("call mom at 5 and to cook at 6", "in 10 minutes
    and again in 20"): two reminders, or a repeating one, asked for in one message."""
    return bool(
        _ANOTHER_WHEN.search(what)
        or re.search(
            r"\b(?:every|each) (?:other )?(?:day|week|month|year|morning|evening|night|[a-z]+day)s?\b",
            what,
            re.IGNORECASE,
        )
    )


def _without_when(body: Body, what: str) -> Ask:
    if not what or re.fullmatch(_VAGUE.pattern, what, re.IGNORECASE):
        return Ask(ASK_WHAT_AND_WHEN, NeedBoth())
    vague = re.match(
        rf"^(?:{_VAGUE.pattern})[\s,]+(?P<rest>.+)$|^(?P<rest2>.+?)\s+(?:{_VAGUE.pattern})$",
        what,
        re.IGNORECASE,
    )
    if vague is not None:
        rest = vague["rest"] or vague["rest2"]
        task, link = _clean(rest), _link_of(rest, body.link)
        return Ask(
            f"When exactly should I remind you {_said(task, link)}? {EXAMPLES}",
            NeedWhen(task, link),
        )
    unknown = re.match(r"^(?P<when>.+?)\s+(?P<rest>(?:to|about|that)\s+.+)$", what, re.IGNORECASE)
    if unknown is not None and not re.match(r"^(?:go|get|run|walk|drive)\b", unknown["when"], re.I):
        task, link = _clean(unknown["rest"]), _link_of(unknown["rest"], body.link)
        return Ask(
            f"I didn't understand when “{quote(unknown['when'])}” is. {EXAMPLES}",
            NeedWhen(task, link),
        )
    return Ask(
        f"When should I remind you {_said(what, body.link)}? {EXAMPLES}", NeedWhen(what, body.link)
    )


def _said(task: str, link: Link) -> str:
    """The task in a question, said back: "to take your pills", "about the dentist"."""
    return f"{_verb(link)} {quote(second_person(task))}"


def _verb(link: Link) -> str:
    return link if link in ("to", "about", "that") else "about"


def _is_timer(match: re.Match[str]) -> bool:
    before = _TIMER_LEAD.sub("", match["before"].strip()).strip(" -")
    return (
        not before or parse_duration(before) is not None or before.lower() in ("kitchen", "cooking")
    )


def _timer(before: str, after: str, reading: Reading) -> Create | Ask | Reply:
    """ "set a timer for 10 minutes", "timer 10 min", "a 5-minute timer for the pasta"."""
    amount = _TIMER_LEAD.sub("", before.strip()).strip(" -")
    after = re.sub(r"^\s*(?:for|of|on|at)?\s*", "", after).strip()
    said = parse_duration(amount) if amount else None
    seconds = whole_seconds(said) if said is not None else None
    task = after
    if seconds is None:
        body = split_body(after, reading, link="timer")
        when, task = body.when, body.what
        if isinstance(when, Delay):
            seconds = when.seconds
        elif when is not None:
            return compose(Body(task, body.when_text, when, "timer"), after, default="Timer")
    if seconds is None:
        return Ask(f"How long should the timer run? {EXAMPLES}", NeedWhen("Timer", "timer"))
    if seconds < 1:
        return Reply("A timer needs at least a second.")
    prompt = _clean(re.sub(r"^(?:for|to|called|named)\s+", "", task, flags=re.IGNORECASE))
    return Create(
        prompt or f"Timer for {duration_text(seconds, exact=True)}", Delay(seconds), "timer"
    )


def _bare_request(text: str, reading: Reading) -> Create | Ask | None:
    """A task and a when phrase without a verb ("in an hour, call Ana"), unless a question; a
    when phrase alone asks what it is for."""
    if _QUESTION.match(text) or text.rstrip().endswith("?"):
        return None
    body = split_body(text, reading)
    if _usable(body.when) and not body.what and body.when_text == text:
        alone = compose(body, text)  # a time alone ("in 5 minutes"): ask what it is for
        return alone if isinstance(alone, Ask) else None
    if not _usable(body.when) or not body.what or len(body.what.split()) > 12:
        return None
    if not re.search(r"[^\W\d_]", body.what):
        return None
    link = link_for(body.what) if body.link == "to" else body.link
    result = compose(Body(body.what, body.when_text, body.when, link), text)
    return result if isinstance(result, Create | Ask) else None
