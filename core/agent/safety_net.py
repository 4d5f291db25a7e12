"""The reminder safety net of a turn (agent.md §3): a reminder request the model answered in
words. Pure: no I/O, no clock (the step's ``now`` is given).

When the person's own message (not a reminder follow-up) asks for a reminder as the offline
assistant understands it (``core.llm.reminder_request``), the request offered ``schedule_create``
and no step of the turn called it, the turn's last ``assistant/message`` records the arguments
the offline assistant understood (``reminderNotSet``) so the window can say that no reminder was
set and offer to set that one. Long messages and messages with attachments are not read.
"""

from __future__ import annotations

from datetime import datetime

from core.jsonvalue import compact_json
from core.llm.messages import ModelRequest
from core.llm.reminder_request import reminder_request

CREATE = "schedule_create"
MAX_READ_CHARS = 500
"""A reminder request is a sentence or two; longer messages are not read for one."""


def missed_reminder(request: ModelRequest, now: datetime, zone: str | None) -> str | None:
    """The ``schedule_create`` arguments (JSON text) the person's latest message asks for, when
    the request offered the tool; None otherwise. The caller checks that no call was made."""
    if not any(_tool_name(t) == CREATE for t in request.tools):
        return None
    said = next((m for m in reversed(request.messages) if m.role == "user"), None)
    if said is None or said.source_kind != "user" or said.attachments or said.images:
        return None
    if len(said.text) > MAX_READ_CHARS:
        return None
    arguments = reminder_request(said.text, now, zone)
    return None if arguments is None else compact_json(arguments)


def _tool_name(tool: dict[str, object]) -> object:
    function = tool.get("function", tool)
    return function.get("name") if isinstance(function, dict) else None
