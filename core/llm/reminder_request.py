"""Whether a person's message asks for a reminder, as the offline assistant understands it. Pure:
no I/O, no clock (``now`` is given).

The safety net for models that answer a reminder request in words (agent.md §3): the turn asks
``reminder_request`` about the person's message and, when the model made no ``schedule_create``
call, records the arguments in ``assistant/message.reminderNotSet`` for the window to offer.

The offline assistant reads any message with a time as a reminder ("a second opinion please" is
"opinion" in 1 s): right for an assistant that only sets reminders, wrong for a net under a model
that answers everything. So the net also wants the person to have asked for one in words
(``CUES``: remind, reminder, alarm, timer, alert/ping/notify/nudge/wake me, let me know, don't
let me forget; German erinnern, Erinnerung, Wecker, weck mich, Bescheid, nicht vergessen).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from core.llm.offline.intent import parse_intent
from core.llm.offline.values import Create
from core.llm.offline.when import Reading

CUES = re.compile(
    r"\b(?:remind\w*|alarms?|timers?|(?:alert|ping|notify|nudge|wake)\s+me|let\s+me\s+know"
    r"|don'?t\s+let\s+me\s+forget|erinner\w*|wecker\w*|weck\w*\s+mich|bescheid|vergess\w*)\b",
    re.IGNORECASE,
)
"""Words by which a person asks for a reminder, in English and German."""


def reminder_request(text: str, now: datetime, zone: str | None) -> dict[str, Any] | None:
    """The ``schedule_create`` arguments ``text`` asks for (read at ``now``, an aware instant, in
    ``zone``), or None when it is no reminder request (no ``CUES`` word, or the offline assistant
    reads none) or leaves the time or the text open."""
    if CUES.search(text) is None:
        return None
    intent = parse_intent(text, Reading(now, zone))
    return intent.arguments() if isinstance(intent, Create) else None
