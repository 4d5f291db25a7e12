"""The sentence said before closing or deleting a live session with active reminders, or quitting
while open sessions have some: how many, where, and when the next is due (``leave_warning``).

Pure words over the open sessions' folds; the wiring asks it (``app.actions_wiring``, with
"Don't ask again") and decides nothing here.

Choices where the spec is silent:
- Closed, the reminders wait until the session is opened again; deleted, they stop (Undo brings
  the session back with them); quitting, they wait until Chime starts again.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from app.open_sessions import OpenSessions, translate
from core.readable import zone_or_utc
from ui.dialogs import LeaveWarning
from ui.i18n import QT_TRANSLATE_NOOP
from ui.timefmt import short_day, short_month

_WARNINGS = {
    "delete": (
        QT_TRANSLATE_NOOP("LeaveWarning", "Delete this conversation?"),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "This conversation has 1 reminder. Deleting it stops it (Undo brings the "
            "conversation back with it); it is due %2.",
        ),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "This conversation has %1 reminders. Deleting it stops them (Undo brings the "
            "conversation back with them); the next is due %2.",
        ),
        QT_TRANSLATE_NOOP("LeaveWarning", "Delete"),
    ),
    "quit": (
        QT_TRANSLATE_NOOP("LeaveWarning", "Quit Chime?"),
        QT_TRANSLATE_NOOP(
            "LeaveWarning", "1 reminder %3 will wait until you start Chime again; it is due %2."
        ),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "%1 reminders %3 will wait until you start Chime again; the next is due %2.",
        ),
        QT_TRANSLATE_NOOP("LeaveWarning", "Quit"),
    ),
    "close": (
        QT_TRANSLATE_NOOP("LeaveWarning", "Close this conversation?"),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "1 reminder in this conversation will wait until you open it again; it is due %2.",
        ),
        QT_TRANSLATE_NOOP(
            "LeaveWarning",
            "%1 reminders in this conversation will wait until you open it again; the next is "
            "due %2.",
        ),
        QT_TRANSLATE_NOOP("LeaveWarning", "Close"),
    ),
}
"""Per kind: the question, its sentence for one reminder and for several (%1 how many, %2 when
the next is due, %3 where they are), the button that goes ahead."""


def leave_warning(
    sessions: OpenSessions, kind: Literal["close", "quit", "delete"]
) -> LeaveWarning | None:
    """What closing or deleting the current session, or quitting, would do to its active
    reminders, in one sentence; None when no live session on the way out has any."""
    if kind == "quit":
        leaving = [o for o in sessions.open.values() if o.live]
    else:
        current = sessions.current_session()
        leaving = [current] if current is not None and current.live else []
    waiting = [r for o in leaving for r in o.bridge.active_reminders()]
    if not waiting:
        return None
    holding = [o for o in leaving if o.bridge.active_reminders()]
    where = translate("LeaveWarning", "in this conversation")
    if len(holding) > 1:
        where = translate("LeaveWarning", "in %1 conversations").replace("%1", str(len(holding)))
    elif holding[0].id != sessions.current:
        where = translate("LeaveWarning", "in another open conversation")
    due = min(r.scheduled_at for r in waiting)
    when = due_words(due, sessions.parts.clock(), sessions.parts.zone_source())
    return _warning(kind, len(waiting), where, when)


def _warning(kind: str, count: int, where: str, when: str) -> LeaveWarning:
    title, one, several, action = (translate("LeaveWarning", t) for t in _WARNINGS[kind])
    text = (one if count == 1 else several).replace("%1", str(count)).replace("%3", where)
    return LeaveWarning(title, text.replace("%2", when), action)


def due_words(due: datetime, now: datetime, zone_name: str | None) -> str:
    """``at 14:30``, ``tomorrow at 09:00``, ``on Fri 7 Aug at 09:00``; ``now`` when overdue."""
    if due <= now:
        return translate("LeaveWarning", "now (it is overdue)")
    zone = zone_or_utc(zone_name)
    local, today = due.astimezone(zone), now.astimezone(zone).date()
    clock = local.strftime("%H:%M")
    if local.date() == today:
        return translate("LeaveWarning", "at %1").replace("%1", clock)
    if local.date() == today + timedelta(days=1):
        return translate("LeaveWarning", "tomorrow at %1").replace("%1", clock)
    return (
        translate("LeaveWarning", "on %1 %2 %3 at %4")
        .replace("%1", short_day(local))
        .replace("%2", str(local.day))
        .replace("%3", short_month(local))
        .replace("%4", clock)
    )
