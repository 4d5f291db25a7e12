"""The offline assistant's phrase parser: one user message to an intent. Pure: no I/O, no clock, never raises.

``parse_intent(text, reading)`` reads one message on its own (``dialogue`` reads a
message as the answer to a question the assistant asked). Case, curly quotes, "please", leading
chatter ("ok so,", "hey chime", "um", "message number 1:") and trailing punctuation do not
matter. It returns an intent of ``values``:

- ``Create`` / ``Ask`` from a reminder, timer or alarm request (``create``);
- ``ListReminders``: "what reminders do I have", "show my reminders", "what's next";
- ``DeleteById``: "cancel reminder schedule-3", "delete reminder 3", "remove #3";
- ``DeleteMatching``: "delete the water reminder", "stop reminding me to drink water",
  "cancel all reminders" (``every``), "delete the last one" (``pick``); the words are matched
  against the listed reminders later;
- ``TellTime``: "what time is it", "what's the date", "what time is it in Tokyo";
- ``Help``: "help", "what can you do"; ``Reply``: greetings, thanks, "ok", goodbyes;
- ``Unknown``: anything else.

The reminder text is kept exactly as typed (case and inner spacing); only the command words and
the punctuation around it are removed.
"""

from __future__ import annotations

import re

from core.llm.offline.clock import Clock, find_clock
from core.llm.offline.create import parse_request
from core.llm.offline.values import (
    DeleteById,
    DeleteMatching,
    Help,
    Intent,
    ListReminders,
    Pick,
    Reply,
    TellTime,
    Unknown,
)
from core.llm.offline.when import Reading
from core.llm.offline.zones import read_zone

_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_CHATTER = re.compile(
    r"^(?:(?:please|pls|plz|kindly|hey|hi|hello|hiya|yo|ok|okay|k|so|um+|uh+|erm|hmm+|well|"
    r"alright|all\s+right|right|oh|and|also|actually|btw|by\s+the\s+way|quick\s+one|"
    r"quick\s+question|one\s+more\s+thing|one\s+more|chime|assistant|bot|now|then|good\s+"
    r"(?:morning|afternoon|evening)|hey\s+there|hi\s+there|just|great|cool|thanks|thank\s+you)"
    r"\b[\s,!.:;—–-]*)+",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^(?:(?:can|could|would|will|wud)\s+(?:you|u)(?:\s+please)?(?:\s+(?:kindly|just|maybe))?|"
    r"would\s+you\s+mind|i\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to|"
    r"go\s+ahead\s+and|(?:i\s+)?(?:wonder\s+if\s+you\s+could))\s+",
    re.IGNORECASE,
)
_LABEL = re.compile(
    r"^(?:(?:message|msg|request|question|test|query|task|command)(?:\s+(?:number|no\.?|#))?\s*[0-9]*|[0-9]{1,3}[.)]|#[0-9]{1,3})\s*[:.)—–-]\s*",
    re.IGNORECASE,
)
_POLITE_TAIL = re.compile(
    r"(?:[\s,]+(?:please|pls|plz|thanks|thank\s+you|thx|ty|for\s+me|ok\??|okay\??|if\s+you\s+can|"
    r"will\s+you|would\s+you)[\s,.!?…]*)*[\s.!?…]*$",
    re.IGNORECASE,
)
_LIST = (
    r"(?:what|which)(?:'s|\s+is|\s+are)?(?:\s+all)?(?:\s+(?:my|the|of\s+my))?(?:\s+(?:active|current|upcoming|pending|scheduled|open|existing|saved))?\s+reminders?(?:\s+(?:do\s+i\s+have|have\s+i\s+(?:got|set)|are\s+(?:there|set|active|scheduled|pending|coming\s+up|left)|i\s+have|i've\s+(?:got|set)|did\s+i\s+set|for\s+today|today|left|set|coming\s+up|so\s+far|now|again|currently|still))*",
    r"(?:list|show|display|view|see|get|check|read|give|tell|print|bring\s+up|pull\s+up)(?:\s+me)?(?:\s+(?:all|all\s+of|a\s+list\s+of|the\s+list\s+of|my|the|active|current|upcoming|pending|scheduled|existing|every))*\s+(?:reminders?|alarms?|timers?|schedule)(?:\s+(?:i\s+have|set|active|scheduled|again|now))*",
    r"(?:my\s+|all\s+|all\s+my\s+|active\s+|upcoming\s+|current\s+)*reminders",
    r"(?:do\s+i\s+have|have\s+i\s+got|are\s+there|is\s+there|got|any)(?:\s+any)?(?:\s+(?:active|upcoming|pending))?\s+reminders?(?:\s+(?:set|left|today|scheduled|coming\s+up|active|yet))*",
    r"what(?:'s|\s+is)\s+(?:next|coming\s+up|scheduled|on\s+my\s+list|planned|pending)",
    r"(?:when|what)(?:'s|\s+is)\s+my\s+next\s+reminder|next\s+reminder",
    r"what\s+(?:have|did)\s+i\s+(?:set|schedule|ask\s+you\s+to\s+remind\s+me(?:\s+about|\s+of)?)",
    r"what\s+(?:are|were)\s+you\s+(?:going\s+to|gonna)\s+remind\s+me(?:\s+about|\s+of)?",
    r"(?:list|show)(?:\s+(?:all|everything|them))?",
    r"when(?:'s|\s+is|\s+are)\s+(?:my|the)\s+.{1,40}?\s+reminders?",
    r"what\s+(?:do\s+i\s+have|have\s+i\s+got|is|'s)\s+(?:coming\s+up|scheduled|planned|on)(?:\s+(?:today|tomorrow|later|next))?",
    r"how\s+many\s+reminders(?:\s+(?:do\s+i\s+have|are\s+(?:there|set|left|active)|have\s+i\s+(?:got|set)))?",
)
_LIST_RE = re.compile("|".join(f"(?:{p})" for p in _LIST), re.IGNORECASE)
_HELP_RE = re.compile(
    r"help(?:\s+me)?|\?+|what\s+(?:can|do)\s+you\s+do|what\s+can\s+i\s+(?:do|say|ask)|how\s+does\s+"
    r"(?:this|it)\s+work|how\s+do\s+(?:i|you)\s+use\s+(?:this|you|it)|commands|what\s+are\s+(?:the|"
    r"your)\s+commands|options|instructions|how\s+to\s+use(?:\s+this)?|usage|what\s+are\s+you|who\s+"
    r"are\s+you|what\s+is\s+this|tell\s+me\s+about\s+yourself|are\s+you\s+an?\s+(?:ai|bot|llm|robot)",
    re.IGNORECASE,
)
_TIME_RE = re.compile(
    r"(?:what(?:'s|\s+is)\s+the\s+(?:time|current\s+time)(?:\s+now)?|what\s+time\s+is\s+it(?:\s+now|\s+right\s+now)?|"
    r"(?:the\s+|current\s+)?time(?:\s+now)?|tell\s+me\s+the\s+time|do\s+you\s+(?:know|have)\s+the\s+time|"
    r"what(?:'s|\s+is)\s+(?:the\s+|today's\s+)?date(?:\s+today)?|what\s+day\s+is\s+(?:it|today)(?:\s+today)?|"
    r"what(?:'s|\s+is)\s+today|which\s+day\s+is\s+it|what\s+time\s+zone\s+(?:am\s+i\s+in|is\s+this))"
    r"(?:\s+(?:in|for|over\s+in)\s+(?P<place>.+))?",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"(?:hi|hello|hey|hiya|howdy|yo|greetings|sup|what'?s\s+up|good\s+(?:morning|afternoon|evening|day)|hey\s+there|hi\s+there|hello\s+there|morning|evening)(?:\s+(?:chime|there|you|friend|buddy|assistant))?",
    re.IGNORECASE,
)
_HOW_ARE_YOU = re.compile(
    r"how\s+are\s+(?:you|u)(?:\s+doing)?(?:\s+today)?|how'?s\s+it\s+going|how\s+do\s+you\s+do",
    re.IGNORECASE,
)
_THANKS = re.compile(
    r"(?:(?:ok(?:ay)?|great|perfect|cool|nice|awesome|brilliant|lovely)[\s,!.]*)?(?:thanks?(?:\s+you)?|thx|ty|cheers|much\s+appreciated|appreciate\s+it)"
    r"(?:\s+(?:a\s+lot|so\s+much|very\s+much|again|chime|mate))?[\s!.]*",
    re.IGNORECASE,
)
_ACK = re.compile(
    r"(?:ok(?:ay)?|k+|cool|great|nice|perfect|awesome|got\s+it|alright|all\s+right|sounds\s+good|good|fine|noted|👍|ok\s+great|ok\s+cool|understood|done|wow|lol|haha)",
    re.IGNORECASE,
)
_BYE = re.compile(
    r"(?:bye|goodbye|good\s+bye|see\s+(?:you|ya)(?:\s+later)?|later|cya|good\s*night|night|gn|ttyl)",
    re.IGNORECASE,
)
YES = re.compile(
    r"(?:yes|yeah|yea|yep|yup|ya|sure|ok(?:ay)?|do\s+it|go\s+ahead|please\s+do|confirm(?:ed)?|y|affirmative|absolutely|of\s+course|correct|right|yes\s+please|yes\s+all|delete\s+(?:them|them\s+all|all)|all\s+of\s+them|all)(?:[\s,!.]+(?:please|thanks|do\s+it|delete\s+them(?:\s+all)?))*",
    re.IGNORECASE,
)
NO = re.compile(
    r"(?:no|nope|nah|n|don'?t|do\s+not|cancel|stop|never\s*mind|nvm|forget\s+it|keep\s+(?:them|it|them\s+all)|no\s+thanks|not\s+now|neither|none|nothing|leave\s+(?:it|them)|skip(?:\s+it)?|abort)(?:[\s,!.]+(?:thanks|thank\s+you|keep\s+them|don'?t))*",
    re.IGNORECASE,
)
_DELETE = re.compile(
    r"(?:cancel|delete|remove|clear|drop|forget(?:\s+about)?|stop|unset|turn\s+off|get\s+rid\s+of|scrap|kill|nix|erase|dismiss|disable|wipe|ditch|undo|trash|scratch|del|rm)\b(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_DONT_REMIND = re.compile(
    r"(?:(?:don'?t|do\s+not|no\s+need\s+to|you\s+(?:don'?t\s+need|can\s+stop)\s+to|stop)\s+remind(?:ing)?\s+me|i\s+(?:don'?t|no\s+longer)\s+need\s+(?:the|my|a|that)?\s*(?:reminder)?|never\s*mind\s+(?:the|my))\b(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_ID = re.compile(r"(?<![\w-])(schedule-[0-9]+)(?![\w-])", re.IGNORECASE)
_BARE_NUMBER = re.compile(
    r"(?:(?:the|my)\s+)?(?:reminder\s+|one\s+)?(?:#|id\s+|number\s+|no\.?\s*|nr\.?\s*)?([0-9]+)(?:\s+reminder)?",
    re.IGNORECASE,
)
_ALL = re.compile(
    r"(?:all|every|each|the\s+lot)(?:\s+(?:of\s+)?(?:my|the|of|them))?(?:\s+(?:reminders?|of\s+them|them|ones|alarms?|timers?))?|everything|them\s+all|all\s+of\s+them",
    re.IGNORECASE,
)
_ALL_WITH = re.compile(
    r"(?:all|every|each)(?:\s+(?:of\s+)?(?:my|the))?\s+(?P<words>.+?)\s*(?:reminders?|ones)|all\s+(?:my\s+|the\s+)?reminders?\s+(?:about|for|to|with|that\s+say)\s+(?P<words2>.+)",
    re.IGNORECASE,
)
_ORDINALS: dict[str, Pick] = {
    "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
    "fifth": 4, "5th": 4, "last": -1, "latest": -1, "newest": -1, "most recent": -1,
    "oldest": 0, "earliest": 0, "next": "next", "soonest": "next", "upcoming": "next",
}  # fmt: skip
_PICK = re.compile(
    rf"(?:the|my)?\s*(?P<which>{'|'.join(sorted(_ORDINALS, key=len, reverse=True))})(?:\s+(?:one|reminder|alarm|timer|set|i\s+(?:set|made)))*",
    re.IGNORECASE,
)
IT = re.compile(
    r"(?:it|that|this|that\s+one|this\s+one|that\s+reminder|this\s+reminder|the\s+reminder\s+you\s+just\s+set|what\s+you\s+just\s+set|the\s+last\s+thing)",
    re.IGNORECASE,
)
_FILLER = frozenset((
    "the", "my", "a", "an", "reminder", "reminders", "to", "about", "for", "that", "of", "me",
    "reminding", "remind", "on", "called", "named", "one", "ones", "which", "with", "please",
    "thing", "alarm", "timer", "saying", "says", "say", "set", "i", "it", "is", "this", "again",
    "anymore", "any", "more", "now", "thanks", "too", "and",
))  # fmt: skip

_EDIT = re.compile(
    r"(?:change|move|reschedule|postpone|push(?:\s+back)?|update|edit|modify|shift|delay|bring\s+forward)"
    r"\s+(?:my|the|that|this|it|reminder)\b.*",
    re.IGNORECASE | re.DOTALL,
)
CANNOT_EDIT = (
    "I can't change a reminder once it is set. Delete it and set a new one instead, for example "
    "“delete the stretch reminder”, then “remind me at 6pm to stretch”."
)
NO_TOOLS = (
    "I don't use tools from MCP servers: I'm Chime's built-in offline assistant and only handle "
    "reminders. A model connected in Settings (Ctrl+,) can use the MCP servers you add there, in "
    "the conversations where you turn them on."
)
_TOOLS = re.compile(
    r"(?:what|which)\s+(?:other\s+)?tools\s+(?:do|can)\s+you\s+(?:have|use|call)|(?:do|can)\s+you\s+"
    r"(?:have|use|call)\s+(?:any\s+|other\s+)?(?:tools|mcp(?:\s+(?:servers?|tools))?)|(?:use|call|run)"
    r"\s+(?:the\s+|an?\s+|my\s+)?(?:mcp|tool)\b.*|.*\bmcp\b.*|(?:list|show)\s+(?:your\s+|the\s+)?tools",
    re.IGNORECASE | re.DOTALL,
)
WHICH_TO_DELETE = (
    "Which reminder should I delete? Say for example “delete the stretch reminder”, or “list my "
    "reminders” to see them."
)
INTRO = "I'm Chime's built-in offline assistant, a simple helper for reminders (not an AI model)."


def trim(text: str) -> str:
    """Removes the spec's whitespace set (schedule.md §1.3) from both ends."""
    return text.strip(_SPACE)


def clean(text: str) -> str:
    """The message without leading chatter, a leading label, politeness and edge punctuation."""
    text = trim(text).replace("’", "'").replace("‘", "'")
    for _ in range(4):
        before = text
        text = _LABEL.sub("", _ASKING.sub("", _CHATTER.sub("", text, count=1), count=1), count=1)
        if text == before:
            break
    return trim(_POLITE_TAIL.sub("", text, count=1))


def parse_intent(text: str, reading: Reading) -> Intent:
    """What one message asks for, on its own (see the module docstring)."""
    said = _small_talk(trim(text).strip(" .!?…,"))
    if said is not None:  # "ok thanks a lot" is thanks, not the command "thanks a lot"
        return said
    cleaned = clean(text)
    if not cleaned:
        return Help() if re.fullmatch(r"\?+", trim(text)) else _chatter(trim(text))
    intent = _classify(cleaned, reading)
    if isinstance(intent, Unknown) and ":" in cleaned:  # "test 3: list my reminders"
        head, _, rest = cleaned.partition(":")
        if len(head.split()) <= 5 and rest.strip():
            again = _classify(clean(rest), reading)
            if not isinstance(again, Unknown):
                return again
    return intent


def _classify(cleaned: str, reading: Reading) -> Intent:
    if _TIME_RE.fullmatch(cleaned):
        return _tell_time(cleaned)
    if _LIST_RE.fullmatch(cleaned):
        return ListReminders()
    if _HELP_RE.fullmatch(cleaned):
        return Help()
    if _TOOLS.fullmatch(cleaned):
        return Reply(NO_TOOLS)
    if _EDIT.fullmatch(cleaned):
        return Reply(CANNOT_EDIT)
    delete = parse_delete(cleaned)
    if delete is not None:
        return delete
    request = parse_request(cleaned, reading)
    if request is not None:
        return request
    return _chatter(cleaned)


def _tell_time(cleaned: str) -> TellTime | Reply:
    match = _TIME_RE.fullmatch(cleaned)
    place = match["place"] if match is not None else None
    if not place:
        return TellTime()
    said = read_zone(place)
    if said is None or said.zone is None:
        name = said.text if said is not None else place
        return Reply(
            f"I don't know which time zone “{name}” is; try a city such as Tokyo or a zone name such as Asia/Tokyo."
        )
    return TellTime(said.zone)


def _small_talk(text: str) -> Reply | None:
    """Thanks, greetings, "how are you", goodbyes: a short friendly answer."""
    if _THANKS.fullmatch(text):
        return Reply("You're welcome!")
    if _GREETING.fullmatch(text):
        return Reply(
            f"Hi! {INTRO} Try “remind me in 10 minutes to stretch” or “what reminders do I have”."
        )
    if _HOW_ARE_YOU.fullmatch(text):
        return Reply(
            "I'm fine, thanks, and ready to set reminders. What should I remind you about?"
        )
    if _BYE.fullmatch(text):
        return Reply("Bye! Your reminders arrive in this conversation while it is open.")
    return None


def _chatter(text: str) -> Intent:
    text = trim(text).strip(" .!?…,")
    if not text:
        return Unknown()
    said = _small_talk(text)
    if said is not None:
        return said
    if _ACK.fullmatch(text) or YES.fullmatch(text):
        return Reply("Okay.")
    if NO.fullmatch(text):
        return Reply("Okay, nothing to do then.")
    return Unknown()


def parse_delete(cleaned: str) -> DeleteById | DeleteMatching | Reply | None:
    """A request to delete reminders, by id or by description; None when it is not one. "Cancel"
    or "delete that" alone names no reminder: the answer asks which (``dialogue`` reads
    them after a question or a new reminder)."""
    dont = _DONT_REMIND.fullmatch(cleaned)
    delete = dont or _DELETE.fullmatch(cleaned)
    if delete is None:
        return None
    rest = trim(delete["rest"]).strip(" .!?")
    if not rest or IT.fullmatch(rest):
        return Reply(WHICH_TO_DELETE)
    return _delete_target(rest)


def _delete_target(rest: str) -> DeleteById | DeleteMatching:
    rest = trim(rest).strip(" .!?")
    found = _ID.search(rest)
    if found:
        return DeleteById(found[1].lower())
    number = _BARE_NUMBER.fullmatch(rest)
    if number:
        return DeleteById(f"schedule-{number[1].lstrip('0') or '0'}")
    if _ALL.fullmatch(rest):
        return DeleteMatching((), every=True)
    pick = _PICK.fullmatch(rest)
    if pick is not None:
        return DeleteMatching((), pick=pick_of(pick["which"]))
    grouped = _ALL_WITH.fullmatch(rest)
    if grouped is not None:
        return DeleteMatching(words_of(grouped["words"] or grouped["words2"]), every=True)
    rest, clocks = _clock_words(rest)
    return DeleteMatching(words_of(rest), clocks=clocks)


def _clock_words(rest: str) -> tuple[str, tuple[str, ...]]:
    """A time of day in a delete description ("my 3pm reminder"): taken out of the words, kept
    as its readings (``15:00``; both ``05:00`` and ``17:00`` for a bare "5")."""
    found = find_clock(rest.lower())
    if found is None or not isinstance(found.value, Clock):
        return rest, ()
    clock = found.value
    hours = (clock.hour, clock.hour + 12) if clock.ambiguous else (clock.hour,)
    readings = tuple(f"{hour:02d}:{clock.minute:02d}" for hour in hours)
    return rest[: found.start] + " " + rest[found.end :], readings


def pick_of(word: str) -> Pick:
    """The position an ordinal word names ("first" 0, "last" -1, "next": the next one due)."""
    return _ORDINALS[re.sub(r"\s+", " ", word.lower())]


def words_of(text: str) -> tuple[str, ...]:
    """The words of a description that say which reminder ("the drink water one")."""
    words = re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text.lower())
    return tuple(w for w in words if w not in _FILLER)
