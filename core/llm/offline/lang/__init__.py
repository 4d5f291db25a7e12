"""The offline assistant's languages: which one a message is in, how it is read, how answers are worded. Pure.

The assistant has one pipeline: the parser, the dialogue and the time code read the *canonical*
phrasing (English), and compose answers in it. A ``Language`` adds two pieces of data around
that pipeline: ``read`` rewrites a message of the language into the canonical phrasing (command
words, when phrases, links and word order; the task words stay as typed), and ``say`` words a
canonical answer in the language (sentence by sentence, with its formats for dates, numbers and
durations). A third language is a ``Language`` value, its two modules and its corpus in
``tests/offline_judge/``.

Which language answers (agent.md §5.1 is silent; the choice): the language of the message, told
by its marker words; a message that tells no language ("Berlin", "17:00", "Tee kochen") is in the
language of the conversation so far (the last user message that told one); a conversation that
has told none is English. A reminder turn is presented in the conversation's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.llm.offline.lang import de_format, de_read, de_say
from core.llm.offline.lang.de_words import plain


def _same(text: str) -> str:
    return text


def _as_said(prompt: str, _said: Sequence[str]) -> str:
    return prompt


def _german_prompt(prompt: str, said: Sequence[str]) -> str:
    named = de_format.translate_prompt(prompt)
    if named != prompt:  # a name the assistant gave ("Timer for 30 minutes"), not typed words
        return named
    for message in said:
        prompt = de_read.said_back(prompt, message)
    return prompt


@dataclass(frozen=True, slots=True)
class Language:
    """One language of the assistant (see the module docstring)."""

    code: str
    markers: frozenset[str]
    read: Callable[[str], str] = _same
    say: Callable[[str], str] = _same
    prompt: Callable[[str, Sequence[str]], str] = _as_said
    """A reminder's text in the language, given the user's messages as typed: time words put
    back as typed, a name the assistant gave ("Timer for 5 minutes", "Wake up") translated."""


_ENGLISH_MARKERS = (
    "remind me my the to at what delete remove cancel please thanks thank hello yes no "
    "tomorrow today tonight reminders reminder list show every set alarm wake snooze again "
    "both first second last one it is time of and on for about i you can do have morning "
    "evening next hi hey undo that this minutes minute hours hour seconds days week ping "
    "when which clear never mind stop what's whats"
)
_GERMAN_MARKERS = (
    "erinnere erinner erinnre erinnern erinnert mich mir minuten stunde stunden sekunden "
    "uhr morgen übermorgen heute abend früh lösch lösche entferne entfern welche "
    "erinnerungen erinnerung bitte danke hallo ja nein nee wie spät ist es und der die "
    "das den dem ans an um halb viertel dreiviertel nach vor jeden jede alle täglich "
    "stündlich wöchentlich wecker weck schlummern nochmal noch beide erste zweite letzte "
    "rückgängig doch nicht vergiss kannst du sie zeig zeige gibt habe hab ich was wann "
    "einer eine halben anderthalb eineinhalb tag tage tagen woche wochen montag dienstag "
    "mittwoch donnerstag freitag samstag sonntag am im zum zur daran dass zu mez mesz "
    "zeit tschüss servus moin guten hilfe wer bist liste storniere streich später gestern "
    "sag gib bescheid nächsten viel uhrzeit datum meine mein stell stelle starte "
    "berliner yorker londoner tokioter mittags abends morgens nachts werktag für auf countdown "
    "verschieb verschiebe ändern ändere vielen dank dankeschön schön"
)


def _markers(text: str) -> frozenset[str]:
    return frozenset(plain(word) for word in re.findall(r"\S+", text))


ENGLISH = Language("en", _markers(_ENGLISH_MARKERS))
GERMAN = Language(
    "de",
    _markers(_GERMAN_MARKERS),
    read=de_read.canonical,
    say=de_say.translate,
    prompt=_german_prompt,
)
LANGUAGES = (ENGLISH, GERMAN)


def told(text: str) -> Language | None:
    """The language ``text`` is in, by its marker words; None when it tells none (or a tie)."""
    words = [plain(w) for w in re.findall(r"[^\W\d_]+", text)]
    scores = sorted(
        ((sum(word in language.markers for word in words), language) for language in LANGUAGES),
        key=lambda pair: pair[0],
        reverse=True,
    )
    best, runner_up = scores[0], scores[1]
    return best[1] if best[0] > runner_up[0] else None


def spoken(texts: Sequence[str | None]) -> list[Language]:
    """The language of each message in order: its own, else the conversation's so far (None
    entries are messages that tell nothing, such as a reminder turn)."""
    current = ENGLISH
    languages: list[Language] = []
    for text in texts:
        found = told(text) if text is not None else None
        current = found or current
        languages.append(current)
    return languages
