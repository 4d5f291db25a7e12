"""The offline assistant's phrase parser: user text to an intent. Pure: no I/O, no clock, never raises.

``parse_intent(text, now, zone)`` reads one user message (case-insensitive, with or without
"please" and trailing punctuation) and returns what the user wants:

- ``Create``: "remind me in 10 minutes to stretch", "in 2 hours remind me to call Ana",
  "remind me at 5pm to leave", "remind me to stretch in 10 minutes", "every 30 minutes remind me
  to drink water", "set a reminder for 5pm to leave" (when phrases: ``offline_when``);
- ``ListReminders``: "what reminders do I have", "list my reminders", "show reminders";
- ``DeleteById``: "cancel reminder schedule-3", "delete schedule-3", "delete reminder 3";
- ``DeleteMatching``: "delete the water reminder", "cancel all reminders" (``every``), "stop
  reminding me to drink water"; the words are matched against the listed prompts later;
- a snooze ("snooze 10 minutes", "remind me again in an hour") right after a reminder was
  delivered: ``parse_snooze`` makes it a ``Create`` with the delivered reminder's text;
- ``Clarify``: a reminder request that cannot be scheduled as given (no time, no text, unknown
  zone, a calendar rule); ``text`` asks or explains;
- ``Help``: anything else (a plain "thanks" gets a short "You're welcome!").

The reminder text is kept exactly as typed (case and inner spacing); only the command words and
trailing punctuation around it are removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.llm.offline_text import quote
from core.llm.offline_when import (
    Delay,
    Interval,
    LocalTime,
    Problem,
    When,
    parse_duration,
    parse_when,
)

_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_POLITE_HEAD = re.compile(
    r"^(?:(?:please|pls|hey|hi|hello|ok|okay|chime|so)\b[\s,!]*)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:please\s+)?",
    re.IGNORECASE,
)
_POLITE_TAIL = re.compile(r"[\s,]*(?:please|pls|thanks|thank\s+you)?[\s.!?…]*$", re.IGNORECASE)
_REMIND = re.compile(
    r"^(?P<pre>.*?)[\s,]*\b(?:remind\s+me|set\s+(?:a|an|me\s+a)\s+reminder|create\s+(?:a\s+)?reminder)\b(?P<post>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_LINK = re.compile(r"\s(to|about|that|of)\s", re.IGNORECASE)
_LEAD_LINK = re.compile(r"(to|about|that|of)\s+", re.IGNORECASE)
_WHEN_START = re.compile(
    r"(?:^|\s)(?=(?:in|at|on|every|tomorrow|today|tonight|next|this|after|daily|hourly|weekly|for)\b)",
    re.IGNORECASE,
)
_LIST = re.compile(
    r"(?:(?:what|which)(?:\s+are)?(?:\s+(?:my|the))?\s+reminders?(?:\s+(?:do\s+i\s+have|are\s+"
    r"(?:there|set|active|scheduled|pending)|have\s+i\s+(?:got|set)))?|(?:list|show|display|view|"
    r"see|get|check)(?:\s+(?:me|all|all\s+of))?(?:\s+(?:my|the|all|active|current|all\s+my))?"
    r"\s+reminders?|(?:my\s+)?reminders|(?:any|are\s+there\s+any)\s+reminders?|do\s+i\s+have\s+"
    r"(?:any\s+)?reminders?(?:\s+set)?)",
    re.IGNORECASE,
)
_DELETE = re.compile(
    r"(?:cancel|delete|remove|clear|drop|forget|stop|unset|turn\s+off)\b(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_ID = re.compile(r"(?<![\w-])(schedule-[0-9]+)(?![\w-])", re.IGNORECASE)
_BARE_NUMBER = re.compile(
    r"(?:(?:the|my)\s+)?(?:reminder\s+)?(?:#|id\s+|number\s+|no\.?\s*)?([0-9]+)", re.IGNORECASE
)
_ALL = re.compile(
    r"(?:all|every|each)(?:\s+(?:of\s+)?(?:my|the|of))?(?:\s+(?:reminders?|of\s+them|them))?"
    r"|everything|them\s+all",
    re.IGNORECASE,
)
_ZONE_REPLY = re.compile(
    r"(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+in\s+|(?:my\s+)?(?:time\s*zone|zone)(?:\s+is|:)\s*|in\s+)?"
    r"(?:the\s+)?(?P<zone>UTC|[A-Za-z][A-Za-z0-9_+.-]*(?:/[A-Za-z0-9_+.-]+)+)(?:\s+(?:time\s*)?zone)?",
    re.IGNORECASE,
)
_SNOOZE = re.compile(
    r"(?:snooze(?:\s+(?:it|that|this))?|remind\s+me\s+(?:again|later)|again)\s+(?P<when>.+)",
    re.IGNORECASE | re.DOTALL,
)
_THANKS = re.compile(
    r"(?:(?:ok(?:ay)?|great|perfect|cool|nice)[\s,!.]*)?(?:thanks?(?:\s+you)?|thx|ty|cheers)"
    r"(?:\s+(?:a\s+lot|so\s+much|very\s+much))?[\s!.]*",
    re.IGNORECASE,
)
_FILLER = frozenset((
    "the", "my", "a", "an", "reminder", "reminders", "to", "about", "for", "that", "of", "me",
    "reminding", "remind", "on", "called", "named", "one", "which", "with", "please",
))  # fmt: skip


ASK_WHAT_AND_WHEN = (
    "What should I remind you about, and when? For example “remind me in 10 minutes to stretch”."
)


@dataclass(frozen=True, slots=True)
class Create:
    """Create one reminder: ``prompt`` (as typed) and the parsed ``when``."""

    prompt: str
    when: Delay | Interval | LocalTime
    about: bool = False
    """The user said "remind me about X" (the confirmation then says "about", not "to")."""

    def arguments(self) -> dict[str, Any]:
        """The ``schedule_create`` arguments (schedule.md §2.5)."""
        args: dict[str, Any] = {"prompt": self.prompt}
        if isinstance(self.when, Delay):
            args["after_seconds"] = self.when.seconds
        elif isinstance(self.when, Interval):
            args["every_seconds"] = self.when.seconds
        else:
            args["at"] = self.when.to_json()
        return args


@dataclass(frozen=True, slots=True)
class ListReminders:
    """Show the active reminders."""


@dataclass(frozen=True, slots=True)
class DeleteById:
    """Delete the reminder with exactly this id."""

    id: str


@dataclass(frozen=True, slots=True)
class DeleteMatching:
    """Delete the reminder whose prompt contains every word of ``words`` (list first).

    ``every``: delete all matches instead of asking when several match.
    """

    words: tuple[str, ...]
    every: bool = False


@dataclass(frozen=True, slots=True)
class Clarify:
    """Answer with ``text`` (a question or an explanation) and call no tool."""

    text: str


@dataclass(frozen=True, slots=True)
class Help:
    """Explain what the offline assistant can do."""


Intent = Create | ListReminders | DeleteById | DeleteMatching | Clarify | Help


def trim(text: str) -> str:
    """Removes the spec's whitespace set (schedule.md §1.3) from both ends."""
    return text.strip(_SPACE)


def parse_intent(text: str, now: datetime, zone: str | None) -> Intent:
    """What the user wants; ``now`` is the clock, ``zone`` the reading's IANA zone or None."""
    cleaned = _clean(text)
    if _LIST.fullmatch(cleaned):
        return ListReminders()
    remind = _REMIND.fullmatch(cleaned)
    if remind:
        return _parse_create(remind["pre"], remind["post"], now, zone)
    delete = _DELETE.fullmatch(cleaned)
    if delete:
        return _parse_delete(delete["rest"])
    if _THANKS.fullmatch(trim(text)):
        return Clarify("You're welcome!")
    return Help()


def parse_reply(text: str, earlier: str | None, now: datetime, zone: str | None) -> Intent:
    """``parse_intent``, plus answers to the assistant's question about the time zone.

    When ``text`` only names a zone ("Europe/Berlin", "I'm in America/New_York") and ``earlier``
    (the user's previous message) was a request that needed a zone, that request is read again
    in the named zone; the zone goes into the ``at`` object, not into any durable default.
    """
    intent = parse_intent(text, now, zone)
    named = zone_reply(text)
    if earlier is None or named is None or not isinstance(intent, Help):
        return intent
    if not isinstance(parse_intent(earlier, now, zone), Clarify):
        return intent
    resumed = parse_intent(earlier, now, named)
    return resumed if isinstance(resumed, Create) else intent


def parse_snooze(text: str, prompt: str, now: datetime, zone: str | None) -> Intent | None:
    """ "snooze 10 minutes" / "remind me again in an hour" right after the reminder ``prompt``
    was delivered: a new reminder with the same text. None when ``text`` is not a snooze."""
    match = _SNOOZE.fullmatch(_clean(text))
    if match is None:
        return None
    when_text = match["when"]
    seconds = parse_duration(re.sub(r"^(?:for|in)\s+", "", when_text, flags=re.IGNORECASE))
    when = Delay(seconds) if seconds is not None else parse_when(when_text, now, zone)
    return _create(prompt, when, when_text, about=False)


def zone_reply(text: str) -> str | None:
    """The zone named by a message that only names one (``UTC`` or an Area/Location name)."""
    match = _ZONE_REPLY.fullmatch(_clean(text))
    if match is None:
        return None
    return "UTC" if match["zone"].upper() == "UTC" else match["zone"]


def _clean(text: str) -> str:
    text = trim(text)
    text = _POLITE_HEAD.sub("", text, count=1)
    return trim(_POLITE_TAIL.sub("", text, count=1))


def _parse_delete(rest: str) -> Intent:
    rest = trim(rest)
    found = _ID.search(rest)
    if found:
        return DeleteById(found[1].lower())
    number = _BARE_NUMBER.fullmatch(rest)
    if number:
        return DeleteById(f"schedule-{number[1].lstrip('0') or '0'}")
    every = _ALL.fullmatch(rest) is not None
    if every:
        return DeleteMatching((), every=True)
    words = [w for w in re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", rest.lower()) if w not in _FILLER]
    return DeleteMatching(tuple(words))


def _parse_create(pre: str, post: str, now: datetime, zone: str | None) -> Intent:
    pre, post = trim(pre).rstrip(","), trim(trim(post).lstrip(","))
    if not pre and not post:
        return Clarify(ASK_WHAT_AND_WHEN)
    link = _LEAD_LINK.match(post)
    if pre:
        what = post[link.end() :] if link else post
        return _create(what, parse_when(pre, now, zone), pre, about=_is_about(link))
    if link:
        return _prompt_first(post[link.end() :], now, zone, about=_is_about(link))
    return _when_first(post, now, zone)


def _is_about(link: re.Match[str] | None) -> bool:
    return link is not None and link[1].lower() in ("about", "of")


def _when_first(post: str, now: datetime, zone: str | None) -> Intent:
    """``remind me <when> to <what>``: the first link word after which the when phrase parses."""
    padded = " " + post + " "
    splits = [
        (padded[link.end() :], padded[: link.start()], _is_about(link))
        for link in _LINK.finditer(padded)
    ]
    found = _first_usable([*splits, ("", post, False)], now, zone)
    if found is not None:
        return found
    if splits:
        return _create("", None, splits[0][1], about=False)
    return Clarify(
        "I didn't catch when to remind you. Try “remind me in 10 minutes to stretch” or "
        "“remind me tomorrow at 9:30 to water the plants”."
    )


def _prompt_first(body: str, now: datetime, zone: str | None, *, about: bool) -> Intent:
    """``remind me to <what> <when>``: the longest trailing when phrase that parses."""
    splits = [
        (body[: start.start()], body[start.end() :], about) for start in _WHEN_START.finditer(body)
    ]
    found = _first_usable(splits, now, zone)
    if found is not None:
        return found
    what = _strip_tail(body)
    if not what:
        return Clarify(ASK_WHAT_AND_WHEN)
    return Clarify(
        f"When should I remind you {'about' if about else 'to'} {quote(what)}? For example “in 20 "
        "minutes”, “at 17:00” or “tomorrow at 9:30”."
    )


def _first_usable(
    splits: list[tuple[str, str, bool]], now: datetime, zone: str | None
) -> Intent | None:
    """The first (what, when text, about) split whose when phrase parses; a split whose phrase
    is recognised but unusable (a ``Problem``) is answered only when no later split parses."""
    problem: Intent | None = None
    for what, when_text, about in splits:
        when = parse_when(when_text, now, zone)
        if isinstance(when, Problem):
            problem = problem or _create(what, when, when_text, about=about)
        elif when is not None:
            return _create(what, when, when_text, about=about)
    return problem


def _create(what: str, when: When | None, when_text: str, *, about: bool) -> Intent:
    if when is None and not _strip_tail(when_text):
        return Clarify(ASK_WHAT_AND_WHEN)
    if when is None:
        return Clarify(
            f"I didn't understand when “{quote(_strip_tail(when_text))}” is. Try “in 10 minutes”, "
            "“at 17:00” or “tomorrow at 9:30”."
        )
    if isinstance(when, Problem):
        return Clarify(when.text)
    prompt = _strip_tail(what)
    if not prompt:
        return Clarify(f"What should I remind you about {quote(_strip_tail(when_text))}?")
    return Create(prompt, when, about=about)


def _strip_tail(what: str) -> str:
    return trim(re.sub(r"[\s,.!?…]+$", "", trim(what)))
