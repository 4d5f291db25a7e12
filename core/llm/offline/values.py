"""What the offline assistant understood: intents and the questions it may leave open. Pure: frozen values.

An ``Intent`` is what one user message asks for; ``assistant`` turns it into tool calls and an
answer. An ``Ask`` is a question the assistant asks back, and its ``Need`` says what kind of
answer completes the request, so that the next message is read as that answer
(``dialogue``). The needs keep text, not times: an answer given a minute later is read
against the clock of its own turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from core.llm.offline.when import Delay, Interval, LocalTime
from core.llm.offline.zones import Zone

Link = Literal["to", "about", "that", "timer", "alarm"]
"""How the confirmation names the reminder: "remind you to …", "about …", "that …", a timer,
an alarm."""


@dataclass(frozen=True, slots=True)
class Create:
    """Create one reminder: ``prompt`` (as typed), ``when``, and ``notes`` on how it was read."""

    prompt: str
    when: Delay | Interval | LocalTime
    link: Link = "to"
    notes: tuple[str, ...] = ()

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


Pick = int | Literal["next"]
"""Which one of the matches: a position (0 the first, -1 the last) or the next one due."""


@dataclass(frozen=True, slots=True)
class DeleteMatching:
    """Delete by description, after listing: the reminders whose text matches ``words`` (all of
    them when there are no words), limited to the ids ``among`` when given, then ``pick`` one.

    Several matches make the assistant ask which one, or, with ``every``, ask whether to delete
    them all, unless ``confirmed`` (the user already said yes to exactly these). ``clocks``: the
    description named a time of day ("the 3pm one"): its readings as ``HH:MM`` in the turn's zone.
    """

    words: tuple[str, ...] = ()
    every: bool = False
    among: tuple[str, ...] = ()
    pick: Pick | None = None
    confirmed: bool = False
    clocks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NeedWhat:
    """Asked what to remind about, the time being ``when_text``."""

    when_text: str


@dataclass(frozen=True, slots=True)
class NeedWhen:
    """Asked when to remind about ``prompt``; ``refused``: after refusing the when it was asked
    with (then a message with its own request verb is a new request, not the answer)."""

    prompt: str
    link: Link = "to"
    refused: bool = False


@dataclass(frozen=True, slots=True)
class NeedBoth:
    """Asked what to remind about and when."""


@dataclass(frozen=True, slots=True)
class NeedDayTime:
    """Asked what time on ``day_text`` ("today", "tonight") to remind about ``prompt``."""

    prompt: str
    link: Link
    day_text: str


@dataclass(frozen=True, slots=True)
class NeedZone:
    """Asked which zone the user is in, to read ``request`` (the whole message) in it."""

    request: str


@dataclass(frozen=True, slots=True)
class NeedZoneChoice:
    """Asked which of ``options`` an ambiguous zone in ``request`` means."""

    request: str
    options: tuple[Zone, ...]


Need = NeedWhat | NeedWhen | NeedBoth | NeedDayTime | NeedZone | NeedZoneChoice


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask ``text`` and call no tool; ``need`` says what answer completes the request."""

    text: str
    need: Need


@dataclass(frozen=True, slots=True)
class Reply:
    """Answer ``text`` and call no tool (an explanation, a short friendly answer)."""

    text: str


@dataclass(frozen=True, slots=True)
class TellTime:
    """Say the time and date: in ``zone`` when the user named one, else in the turn's zone."""

    zone: Zone | None = None


@dataclass(frozen=True, slots=True)
class Help:
    """Explain what the offline assistant can do (asked for)."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """Nothing the assistant understands (the answer is short once it has introduced itself)."""


Intent = (
    Create | ListReminders | DeleteById | DeleteMatching | Ask | Reply | TellTime | Help | Unknown
)
