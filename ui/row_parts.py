"""The parts of a transcript row beside its message: an answer's thinking block and the safety
net's line. No I/O.

- **Thinking** (an answer's ``reasoning``): a header button at the top of the answer, "Thinking…
  12 s" while the model thinks and has not said a word, then "Thought for 12 s" ("Thought" when
  the time is unknown: an answer recorded before it was measured). A click on it, or Enter or
  Space on the row, opens the thinking under it, in the small font and muted, set in from the
  left; it closes the same way. The thinking is a piece of the row (``Piece.aside``): it can be
  selected and copied as text, but the answer's Copy leaves it out (it copies ``row.text``) and
  find does not look in it (desktop.md §1.3).
- **The safety net** (an ``unset`` row, agent.md §3): one quiet line under an answer that did not
  set the reminder it was asked for, "No reminder was set: this model answered in words.", with
  a "Set it" button (also Enter); once a reminder with that text was created after it, "Reminder
  set: “check the oven” · schedule-3", without the button. ``offer_words`` says what "Set it"
  would create, for the question asked before anything is created.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo

from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtGui import QFontMetrics

from core.jsonread import TOOL_TEXT, parse_json
from core.readable import zone_or_utc
from core.transcript.rows import TranscriptRow, unset_prompt
from ui.timefmt import day_time, every_label, relative

THINKING = "thinking"
"""The name of the thinking block's header button (a row button the view handles itself)."""
INDENT = 14
"""How far the open thinking is set in from the answer's left edge."""

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("RowParts", …)


def thinking_label(row: TranscriptRow, *, expanded: bool) -> str:
    """The thinking header: "▸ Thinking… 12 s" while only thinking streams, else "▸ Thought for
    12 s" (▾ when open)."""
    marker = "▾" if expanded else "▸"
    seconds = None if row.reasoning_ms is None else max(0, round(row.reasoning_ms / 1000))
    if row.kind == "streaming" and not row.text:
        words = translate("RowParts", "Thinking…")
        if seconds:
            words += " " + translate("RowParts", "%1 s").replace("%1", str(seconds))
    elif seconds is None:
        words = translate("RowParts", "Thought")
    else:
        words = translate("RowParts", "Thought for %1 s").replace("%1", str(max(1, seconds)))
    return f"{marker}  {words}"


def thinking_tip(*, expanded: bool) -> str:
    if expanded:
        return translate("RowParts", "Hide what the model thought before it answered (Enter)")
    return translate("RowParts", "Show what the model thought before it answered (Enter)")


def header_rect(text: str, metrics: QFontMetrics) -> QRect:
    """The header button's rectangle at the row's top left."""
    return QRect(0, 0, metrics.horizontalAdvance(text) + 22, metrics.height() + 8)


def unset_line(row: TranscriptRow) -> str:
    """The safety net's words: not set yet, or set (with its text and id)."""
    if row.result is None:
        return translate("RowParts", "No reminder was set: this model answered in words.")
    text = translate("RowParts", "Reminder set: “%1”").replace("%1", unset_prompt(row))
    return f"{text} · {row.result}" if row.result else text


def set_it_label() -> str:
    return translate("RowParts", "Set it")


def set_it_tip(row: TranscriptRow) -> str:
    return translate(
        "RowParts", "Set the reminder “%1” as the offline assistant understood it"
    ).replace("%1", unset_prompt(row))


def offer_words(arguments: str, now: datetime, zone_name: str | None) -> tuple[str, str]:
    """(the reminder's text, when it would come) for ``schedule_create`` ``arguments`` as the
    offline assistant understood them: "in 2 min", "every day", "tomorrow 07:00". ("", "") when
    they cannot be read."""
    try:
        value = parse_json(arguments, TOOL_TEXT)
    except ValueError:  # not JSON, or beyond the bounded decode: nothing to offer
        return "", ""
    if not isinstance(value, dict) or not isinstance(value.get("prompt"), str):
        return "", ""
    prompt = value["prompt"]
    after, every, at = value.get("after_seconds"), value.get("every_seconds"), value.get("at")
    if isinstance(after, int):
        return prompt, relative(now + timedelta(seconds=after), now)
    if isinstance(every, int):
        return prompt, every_label(every)
    target = _instant(at)
    return prompt, day_time(target, now, zone_name) if target is not None else ""


def _instant(at: object) -> datetime | None:
    """An ``at`` argument (a string with its offset, or a local date, time and zone) as an aware
    instant (None: unreadable)."""
    try:
        if isinstance(at, str):
            moment = datetime.fromisoformat(at)
            return moment if moment.tzinfo is not None else None
        if isinstance(at, dict):
            day = date.fromisoformat(str(at.get("date")))
            clock = time.fromisoformat(str(at.get("time")))
            zone = at.get("time_zone")
            tz = _zone(zone) if isinstance(zone, str) else zone_or_utc(None)
            return datetime.combine(day, clock, tz)
    except (ValueError, KeyError):  # a value the offline assistant never writes: no time shown
        return None
    return None


def _zone(name: str) -> tzinfo:
    """The zone named ``name`` (``zoneinfo`` is imported here: a start paints no tool row)."""
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)
