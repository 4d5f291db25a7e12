"""The offline assistant's follow-ups: a message read as the answer to what was asked. Pure: no I/O.

The provider keeps no state between steps; what an earlier turn left open is worked out again
from the conversation (``state_before``): each of the last few turns is read as the previous one
left it, and what it asked (its ``Ask.need``), what its tools answered (a reminder just set,
several matches, a delete of many waiting for a yes) becomes the ``State`` the next message is
read in (``interpret``):

- after "What should I remind you about at noon?", "lunch" (or "to call mom") is the task;
- after "When should I remind you to stretch?", "in 20 minutes" (or "20 min", "5pm") is the when;
- after "What time today?", "at 5" is read as "today at 5";
- after "Which time zone are you in?" / "Did you mean New York time, or a fixed UTC-05:00?",
  a zone ("Berlin", "Europe/Berlin", "the first one") reads the request again in it;
- after "Several reminders match: … Which one should I delete?", "the first one", "the drink
  water one", "schedule-2" or "both" picks from exactly the reminders named in the question;
- after "Delete all 18 reminders?", "yes" deletes those 18 (and no others), "no" keeps them;
- after a reminder was set, "cancel that" / "undo" deletes it;
- after a reminder was delivered, "snooze 10 minutes" / "again in an hour" sets it again.

A message that is a complete request of its own ("list my reminders", "ping me in 10 minutes to
stretch") is read as that, and after a refusal ("every weekday at 8 …: When should I remind
you?") so is a request with its own verb and time ("ping me in 10 minutes": it asks what for);
only an answer ("in 10 minutes") completes the refused request. "never
mind" drops the question. A question stays open while its answer cannot be read ("when?" →
"banana" asks again), and at most the last six turns are read back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.events import ToolCall
from core.framing import parse_framing
from core.jsonread import TOOL_TEXT, parse_json
from core.llm.messages import Message
from core.llm.offline.create import EXAMPLES, Body, compose, split_body
from core.llm.offline.intent import NO, YES, clean, parse_intent, pick_of, words_of
from core.llm.offline.matching import AskAll, AskWhich, delete_decision
from core.llm.offline.text import duration_text, link_for, quote
from core.llm.offline.values import (
    Ask,
    Create,
    DeleteById,
    DeleteMatching,
    Help,
    Intent,
    ListReminders,
    Need,
    NeedBoth,
    NeedDayTime,
    NeedWhat,
    NeedWhen,
    NeedZone,
    NeedZoneChoice,
    Reply,
    TellTime,
)
from core.llm.offline.when import Delay, Reading, parse_when
from core.llm.offline.zones import Offset, Said, Zone, read_zone, same_zone

TURNS_READ_BACK = 6


@dataclass(frozen=True, slots=True)
class Which:
    """The assistant asked which of these reminders to delete."""

    ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ConfirmAll:
    """The assistant asked whether to delete all of these reminders."""

    ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Created:
    """A reminder was just set: "cancel that" means it."""

    id: str


@dataclass(frozen=True, slots=True)
class Delivered:
    """A reminder was just delivered (``prompt`` when it was one): "snooze" sets it again.
    ``before`` is the question still open from before it arrived."""

    prompt: str | None
    before: Need | Which | ConfirmAll | None = None


State = Need | Which | ConfirmAll | Created | Delivered


@dataclass(frozen=True, slots=True)
class Exchange:
    """One tool call of a turn and its result message (None while it has none)."""

    call: ToolCall
    result: Message | None

    def arguments(self) -> dict[str, Any]:
        try:
            value = parse_json(self.call.arguments or "{}", TOOL_TEXT)
        except ValueError:  # not JSON, or beyond the bounded decode's limits
            return {}
        return value if isinstance(value, dict) else {}

    def json(self) -> object:
        """The decoded result (None when there is none, it failed, or it is not JSON)."""
        if self.result is None or self.result.is_error:
            return None
        try:
            return parse_json(self.result.text, TOOL_TEXT)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Turn:
    """A user message and the tool exchanges that followed it, in call order."""

    user: Message
    exchanges: tuple[Exchange, ...]


def split_turns(messages: Sequence[Message]) -> list[Turn]:
    """The history cut at each user message (messages before the first one are dropped)."""
    turns: list[Turn] = []
    user: Message | None = None
    calls: list[ToolCall] = []
    results: dict[str, Message] = {}
    for message in [*messages, Message(role="user")]:
        if message.role == "user":
            if user is not None:
                turns.append(Turn(user, tuple(Exchange(c, results.get(c.id)) for c in calls)))
            user, calls, results = message, [], {}
        elif message.role == "assistant":
            calls.extend(message.tool_calls)
        elif message.role == "tool" and message.tool_call_id is not None:
            results.setdefault(message.tool_call_id, message)
    return turns


def state_before(turns: Sequence[Turn], reading: Reading) -> State | None:
    """What the turns before the last one left open (see the module docstring)."""
    state: State | None = None
    for turn in turns[-TURNS_READ_BACK - 1 : -1]:
        state = _after(turn, state, reading)
    return state


def _after(turn: Turn, state: State | None, reading: Reading) -> State | None:
    if turn.user.source_kind == "plugin":
        due = parse_framing(turn.user.text)
        prompt = due[0].prompt if due is not None and len(due) == 1 else None
        return Delivered(prompt, _question(state))
    intent = interpret(turn.user.text, state, reading)
    if isinstance(intent, Ask):
        return intent.need if not turn.exchanges else None
    if isinstance(intent, Create):
        return _created(turn.exchanges)
    if isinstance(intent, DeleteMatching):
        return _delete_question(intent, turn.exchanges, reading.zone)
    return None


def _question(state: State | None) -> Need | Which | ConfirmAll | None:
    return None if isinstance(state, Created | Delivered) else state


def _created(exchanges: Sequence[Exchange]) -> Created | None:
    for exchange in exchanges:
        value = exchange.json()
        if exchange.call.name != "schedule_create" or not isinstance(value, Mapping):
            continue
        if isinstance(value.get("id"), str) and "code" not in value:
            return Created(value["id"])
    return None


def _delete_question(
    intent: DeleteMatching, exchanges: Sequence[Exchange], zone: str | None
) -> State | None:
    if len(exchanges) != 1 or exchanges[0].call.name != "schedule_list":
        return None
    views = exchanges[0].json()
    if not isinstance(views, list):
        return None
    decision = delete_decision(intent, views, zone)
    ids = tuple(str(v["id"]) for v in getattr(decision, "views", ()))
    if isinstance(decision, AskWhich):
        return Which(ids)
    if isinstance(decision, AskAll):
        return ConfirmAll(ids)
    return None


def interpret(text: str, state: State | None, reading: Reading) -> Intent:
    """What ``text`` asks for, read in ``state`` (see the module docstring)."""
    match state:
        case None:
            return parse_intent(text, reading)
        case Delivered(prompt=prompt, before=before):
            snooze = parse_snooze(text, prompt, reading) if prompt is not None else None
            return snooze if snooze is not None else interpret(text, before, reading)
        case Created(id=created):
            return _after_create(text, created, reading)
        case Which(ids=ids):
            return _which(text, ids, reading)
        case ConfirmAll(ids=ids):
            return _confirm(text, ids, reading)
        case _:
            return _answer(text, state, reading)


_UNDO = re.compile(
    r"(?:(?:no|actually|oops|wait|sorry|hmm)[\s,!.]+)*(?:(?:cancel|delete|remove|undo|scrap|scratch|drop|kill|forget|revert)(?:\s+(?:it|that|this|that\s+one|this\s+one|that\s+reminder|this\s+reminder|the\s+reminder|what\s+you\s+just\s+set))?|undo)",
    re.IGNORECASE,
)


def _after_create(text: str, created: str, reading: Reading) -> Intent:
    if _UNDO.fullmatch(clean(text)):
        return DeleteMatching(among=(created,), every=True, confirmed=True)
    return parse_intent(text, reading)


def _is_fresh(intent: Intent) -> bool:
    """A complete request of its own, read as itself even where an answer is expected."""
    return isinstance(intent, Create | ListReminders | DeleteById | TellTime | Help) or (
        isinstance(intent, DeleteMatching) and bool(intent.words or intent.every or intent.clocks)
    )


def _which(text: str, ids: tuple[str, ...], reading: Reading) -> Intent:
    cleaned = re.sub(
        r"^(?:(?:delete|remove|cancel|drop)\s+)?(?:just\s+|only\s+)?", "", clean(text), flags=re.I
    )
    if NO.fullmatch(cleaned):
        return Reply("Okay, I didn't delete anything.")
    if re.fullmatch(
        r"(?:both|all|all\s+of\s+them|both\s+of\s+them|them\s+all|all\s+(?:of\s+)?(?:those|these)|yes|everything)(?:\s+(?:please|ones|reminders))?",
        cleaned,
        re.I,
    ):
        return DeleteMatching(among=ids, every=True, confirmed=True)
    chosen = _chosen(cleaned, ids)
    if chosen is not None:
        return DeleteMatching(among=(chosen,), every=True, confirmed=True)
    intent = parse_intent(text, reading)
    if _is_fresh(intent) and not isinstance(intent, DeleteMatching):
        return intent
    words = words_of(cleaned)
    return DeleteMatching(words, among=ids) if words else intent


def _chosen(cleaned: str, ids: tuple[str, ...]) -> str | None:
    """The id an answer to "which one?" names: an id, a number, or an ordinal."""
    found = re.fullmatch(
        r"(?:the\s+|number\s+|#|no\.?\s*)?(schedule-)?([0-9]+)(?:\s+(?:one|please))?", cleaned, re.I
    )
    if found is not None:
        named = f"schedule-{found[2].lstrip('0') or '0'}"
        if named in ids or found[1]:
            return named
        position = int(found[2]) - 1
        return ids[position] if 0 <= position < len(ids) else None
    ordinal = re.fullmatch(
        r"(?:the\s+)?(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|latest|other)(?:\s+(?:one|reminder))?(?:\s+please)?",
        cleaned,
        re.I,
    )
    if ordinal is None:
        return None
    if ordinal[1].lower() == "other":
        return None
    picked = pick_of(ordinal[1])
    if not isinstance(picked, int):  # only positions are matched above
        return None
    return ids[picked] if -len(ids) <= picked < len(ids) else None


def _confirm(text: str, ids: tuple[str, ...], reading: Reading) -> Intent:
    cleaned = clean(text)
    if YES.fullmatch(cleaned):
        return DeleteMatching(among=ids, every=True, confirmed=True)
    if NO.fullmatch(cleaned):
        return Reply("Okay, I kept them all.")
    intent = parse_intent(text, reading)
    if _is_fresh(intent):
        return intent
    return Reply(
        f"Should I delete all {len(ids)} reminders? Say “yes” to delete them or “no” to keep them."
    )


_DROP = re.compile(
    r"(?:no|nope|never\s*mind|nvm|forget\s+it|cancel|stop|nothing|don'?t|skip(?:\s+it)?|not\s+now)(?:[\s,!.]+(?:thanks|thank\s+you))?",
    re.IGNORECASE,
)
_ANSWER_LEAD = re.compile(
    r"^(?:(?:remind\s+me|it'?s|it\s+is|that'?s|make\s+it|just|maybe|how\s+about|let'?s\s+say|say)\s+)+",
    re.IGNORECASE,
)


def _answer(text: str, need: Need, reading: Reading) -> Intent:
    cleaned = clean(text)
    if _DROP.fullmatch(cleaned):
        return Reply("Okay, I won't set it.")
    fresh = parse_intent(text, reading)
    if _new_request(fresh, cleaned, need):
        return fresh
    merged = _merged(fresh, need, reading)
    if merged is not None:
        return merged
    if _is_fresh(fresh):
        return fresh
    answer = _ANSWER_LEAD.sub("", cleaned).strip()
    match need:
        case NeedWhat(when_text=when_text):
            return _what_answer(answer, when_text, reading)
        case NeedWhen(prompt=prompt, link=link):
            return _when_answer(answer, [answer], prompt, link, need, reading)
        case NeedDayTime(prompt=prompt, link=link, day_text=day):
            tries = [f"{day} at {answer}", f"{day} {answer}", answer]
            return _when_answer(answer, tries, prompt, link, need, reading)
        case NeedBoth():
            return compose(split_body(answer, reading), answer)
        case NeedZone(request=request):
            return _zone_answer(answer, request, need, reading)
        case NeedZoneChoice():
            return _choice_answer(answer, need, reading)
    return fresh  # pragma: no cover - every Need is matched above


def _new_request(fresh: Intent, cleaned: str, need: Need) -> bool:
    """After a refusal ("every weekday at 8" … "When should I remind you?"), a message with its
    own request verb and time ("ping me in 10 minutes") is a new request: it asks what it is
    for instead of being glued to the refused task. A time alone ("in 10 minutes") answers."""
    if not isinstance(need, NeedWhen) or not need.refused or not isinstance(fresh, Ask):
        return False
    return isinstance(fresh.need, NeedWhat) and fresh.need.when_text.lower() != cleaned.lower()


def _merged(fresh: Intent, need: Need, reading: Reading) -> Intent | None:
    """Two halves of one request: "remind me to stretch" asked when, "remind me at 5" answers
    (or a time alone, "90 seconds", answers how long a timer runs)."""
    if not isinstance(fresh, Ask):
        return None
    if isinstance(fresh.need, NeedWhat) and isinstance(need, NeedWhen):
        when_text = fresh.need.when_text
        return _when_answer(when_text, [when_text], need.prompt, need.link, need, reading)
    if isinstance(fresh.need, NeedWhat) and isinstance(need, NeedDayTime):
        when_text = fresh.need.when_text
        tries = [f"{need.day_text} {when_text}", when_text]
        return _when_answer(when_text, tries, need.prompt, need.link, need, reading)
    if isinstance(fresh.need, NeedWhen) and isinstance(need, NeedWhat):
        when = parse_when(need.when_text, reading, bare_duration=True)
        return compose(
            Body(fresh.need.prompt, need.when_text, when, fresh.need.link), need.when_text
        )
    return None


def _what_answer(answer: str, when_text: str, reading: Reading) -> Intent:
    body = split_body(answer, reading)
    if body.when is not None and body.what:
        return compose(body, answer)
    what = body.what if body.when is None else answer
    said_to = re.match(r"(?:to|about|that)\b", answer, re.IGNORECASE) is not None
    link = body.link if said_to else link_for(what)
    return compose(Body(what, when_text, parse_when(when_text, reading), link), when_text)


def _when_answer(
    answer: str,
    tries: list[str],
    prompt: str,
    link: Any,
    need: Need,
    reading: Reading,
) -> Intent:
    for phrase in tries:
        when = parse_when(phrase, reading, bare_duration=True)
        if when is None:
            continue
        if link == "timer" and prompt == "Timer" and isinstance(when, Delay):
            return Create(f"Timer for {duration_text(when.seconds, exact=True)}", when, "timer")
        return compose(Body(prompt, phrase, when, link), f"remind me {phrase} to {prompt}")
    return Ask(f"I didn't understand when “{quote(answer)}” is. {EXAMPLES}", need)


_ZONE_LEAD = re.compile(
    r"^(?:(?:i'?m|i\s+am|we'?re|we\s+are|i\s+live|i'?m\s+based|based|currently)\s+(?:in|at)\s+|"
    r"(?:my\s+)?(?:time\s*zone|zone|tz)(?:\s+is|:)?\s*|it'?s\s+|in\s+)",
    re.IGNORECASE,
)


def _zone_answer(answer: str, request: str, need: Need, reading: Reading) -> Intent:
    said = read_zone(_ZONE_LEAD.sub("", answer))
    if said is None:
        return Ask(
            f"I don't recognise “{quote(answer)}” as a time zone. Tell me a city such as Berlin or "
            "a zone name such as Europe/Berlin or UTC.",
            need,
        )
    return parse_intent(request, Reading(reading.now, reading.zone, assumed=said))


def _choice_answer(answer: str, need: NeedZoneChoice, reading: Reading) -> Intent:
    choice = _zone_choice(answer, need.options)
    if choice is None:
        names = " or ".join(_option_name(o) for o in need.options)
        return Ask(f"Please say which one: {names}.", need)
    return parse_intent(need.request, Reading(reading.now, reading.zone, override=choice))


def _zone_choice(answer: str, options: tuple[Zone, ...]) -> Zone | None:
    text = _ZONE_LEAD.sub("", answer).strip()
    ordinal = re.fullmatch(
        r"(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th|1|2|3|4|last)(?:\s+one)?",
        text,
        re.I,
    )
    if ordinal is not None:
        position = {
            "first": 0,
            "1st": 0,
            "1": 0,
            "second": 1,
            "2nd": 1,
            "2": 1,
            "third": 2,
            "3rd": 2,
            "3": 2,
            "fourth": 3,
            "4th": 3,
            "4": 3,
            "last": -1,
        }[ordinal[1].lower()]
        return options[position] if -len(options) <= position < len(options) else None
    if re.fullmatch(r"(?:the\s+)?(?:fixed|fixed\s+(?:one|offset)|offset)", text, re.I):
        return next((o for o in options if isinstance(o, Offset)), None)
    said = read_zone(re.sub(r"(?:^the\s+)|(?:\s+one$)", "", text))
    return _said_option(said, options) if said is not None else None


def _said_option(said: Said, options: tuple[Zone, ...]) -> Zone | None:
    if said.zone is not None:
        return next((o for o in options if same_zone(o, said.zone)), said.zone)
    offsets = [
        o
        for o in options
        if isinstance(o, Offset) and any(m.offset == o.minutes for m in said.meanings)
    ]
    if offsets:
        return offsets[0]
    regions = [
        o for o in options if isinstance(o, str) and any(m.region == o for m in said.meanings)
    ]
    return regions[0] if regions else None


def _option_name(option: Zone) -> str:
    from core.llm.offline.zones import zone_label

    return f"“{zone_label(option)}”"


_SNOOZE = re.compile(
    r"(?:snooze(?:\s+(?:it|that|this))?(?:\s+(?:for|by))?|remind\s+me\s+(?:again|later)|again|"
    r"(?:give\s+me\s+)?(?:another|more)|do\s+it\s+again|once\s+more)(?:\s+(?P<when>.+))?"
    r"|(?P<more>.+?)\s+more(?:\s+(?:minutes?|mins?))?(?:\s+please)?"
    r"|(?P<bare>in\s+.+)",
    re.IGNORECASE | re.DOTALL,
)


def parse_snooze(text: str, prompt: str, reading: Reading) -> Intent | None:
    """ "snooze 10 minutes", "again in an hour", "10 more minutes", "in 5 minutes" right after
    the reminder ``prompt`` was delivered: a new reminder with the same text ("snooze" alone is
    10 minutes). None when ``text`` is not a snooze."""
    cleaned = clean(text)
    match = _SNOOZE.fullmatch(cleaned)
    if match is None:
        return None
    if match["more"] is not None:
        phrase = f"{match['more']} minutes" if match["more"].strip().isdigit() else match["more"]
    else:
        phrase = (
            match["when"]
            or match["bare"]
            or ("10 minutes" if cleaned.lower().startswith("snooze") else "")
        )
    if not phrase:
        return Ask(
            f"When should I remind you to {quote(prompt)} again? {EXAMPLES}", NeedWhen(prompt)
        )
    phrase = re.sub(r"^(?:for|by)\s+", "", phrase, flags=re.I)
    when = parse_when(phrase, reading, bare_duration=True)
    if when is None:
        return (
            None
            if match["bare"] is not None
            else Ask(f"I didn't understand when “{quote(phrase)}” is. {EXAMPLES}", NeedWhen(prompt))
        )
    return compose(Body(prompt, phrase, when, "to"), phrase)
