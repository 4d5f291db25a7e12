"""Whether a person's message asks for a reminder, as the offline assistant understands it. Pure:
no I/O, no clock (``now`` is given).

The safety net for models that answer a reminder request in words (agent.md §3): the turn asks
``reminder_request`` about the person's message and, when the model made no ``schedule_create``
call, records the arguments in ``assistant/message.reminderNotSet`` for the window to offer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.llm.offline.intent import parse_intent
from core.llm.offline.values import Create
from core.llm.offline.when import Reading


def reminder_request(text: str, now: datetime, zone: str | None) -> dict[str, Any] | None:
    """The ``schedule_create`` arguments ``text`` asks for (read at ``now``, an aware instant, in
    ``zone``), or None when it is no reminder request or leaves the time or the text open."""
    intent = parse_intent(text, Reading(now, zone))
    return intent.arguments() if isinstance(intent, Create) else None
