"""What an appended event changes in the window besides its own transcript row: one exhaustive
table (``match`` ending in ``assert_never``), so a new event type is placed here, by mypy's
word, before the app shows it. Pure: no Qt, no I/O.

The controller reads it for every event of an open session (``AppController._on_event``); the
bridge's own signals (the reminders panel, a reminder's arrival, the title) are decided in
``app/session_bridge.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from core.events import (
    AssistantMessage,
    ContextTime,
    Event,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTitle,
    SessionTools,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)


@dataclass(frozen=True, slots=True)
class Touches:
    """What one appended event may change."""

    conversation: bool = False
    """The conversation tree (a new input, a re-run, a hide, another version): the transcript
    is handed the tree again."""
    title: bool = False
    """The window's title (a session without a title is named by its first message)."""
    listing: bool = False
    """The sidebar's item: its title, last activity or filter text."""
    choice: bool = False
    """The session's own model or instructions."""


NOTHING = Touches()


def touches(event: Event) -> Touches:
    """What ``event``, just appended, may change (see ``Touches``)."""
    match event:
        case UserMessage():
            return Touches(conversation=True, title=True, listing=True)
        case TurnStart() | ExchangeHidden() | PathSelected():
            return Touches(conversation=True)
        case AssistantMessage() | SessionTitle():
            return Touches(listing=True)
        case SessionModel() | SessionInstructions() | SessionTools():
            return Touches(choice=True)
        case (
            ContextTime()
            | ToolResult()
            | ToolStart()
            | TurnEnd()
            | ScheduleChanged()  # the bridge's schedule_changed redraws the reminders
            | UnknownEvent()
            | MalformedEvent()
        ):
            return NOTHING
        case unexpected:
            assert_never(unexpected)
