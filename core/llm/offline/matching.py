"""Which listed reminders a delete request means. Pure: no I/O, no clock.

``delete_decision(intent, views)`` takes a ``DeleteMatching`` and the ``schedule_list`` views and
decides: delete these now, ask which one, ask before deleting several, or say nothing matches.

Matching is by the words of the description against each reminder's text, case-insensitive, in
three ranks, and only the best rank counts (a time of day in the description, "the 3pm one",
first keeps only the reminders due at that time): the whole text is exactly the words ("eat" is the
"eat" reminder, not "eat lunch"); every word is a whole word of the text; every word is part of
the text ("pill" in "pills"). A description with no words matches every reminder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from core.instant import read_instant
from core.llm.offline.values import DeleteMatching
from core.llm.offline.zones import load_zone

View = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class DeleteNow:
    """Delete these reminders (in list order)."""

    views: tuple[View, ...]


@dataclass(frozen=True, slots=True)
class AskWhich:
    """Several reminders match and the user asked for one: ask which."""

    views: tuple[View, ...]


@dataclass(frozen=True, slots=True)
class AskAll:
    """The user asked to delete all of several: ask before deleting them."""

    views: tuple[View, ...]


@dataclass(frozen=True, slots=True)
class NoMatch:
    """Nothing matches; ``views`` are the active reminders (to name them)."""

    views: tuple[View, ...]


@dataclass(frozen=True, slots=True)
class Gone:
    """The reminders the user chose are no longer active."""


Decision = DeleteNow | AskWhich | AskAll | NoMatch | Gone


def delete_decision(
    intent: DeleteMatching, views: Sequence[object], zone: str | None = None
) -> Decision:
    """What a delete by description does with the listed ``views`` (see the module docstring);
    a time of day in the description is matched in ``zone``."""
    active = tuple(v for v in views if isinstance(v, Mapping) and isinstance(v.get("id"), str))
    pool = active
    if intent.among:
        pool = tuple(v for v in active if v["id"] in intent.among)
        if not pool:
            return Gone()
    if intent.clocks:
        pool = tuple(v for v in pool if _clock_of(v, zone) in intent.clocks)
    found = matching(pool, intent.words)
    if intent.pick is not None:
        found = _picked(found, intent.pick)
    if not found:
        return NoMatch(active)
    if len(found) == 1 or (intent.every and intent.confirmed):
        return DeleteNow(tuple(found))
    return AskAll(tuple(found)) if intent.every else AskWhich(tuple(found))


def _clock_of(view: View, zone: str | None) -> str | None:
    due = read_instant(view.get("scheduledAt"))
    tz = load_zone(zone) if zone is not None else None
    if due is None:
        return None
    local = due.astimezone(tz if tz is not None else UTC)
    return f"{local.hour:02d}:{local.minute:02d}"


def _picked(found: list[View], pick: int | str) -> list[View]:
    if pick == "next":
        return [min(found, key=lambda v: str(v.get("scheduledAt", "")))] if found else []
    assert isinstance(pick, int)  # Pick is a position or "next"
    return [found[pick]] if -len(found) <= pick < len(found) else []


def matching(views: Sequence[View], words: Sequence[str]) -> list[View]:
    """The views of the best rank for ``words`` (all views when there are no words)."""
    if not words:
        return list(views)
    ranked = [(rank(str(v.get("prompt", "")), words), v) for v in views]
    best = max((r for r, _ in ranked), default=0)
    return [v for r, v in ranked if r == best and best > 0]


def rank(prompt: str, words: Sequence[str]) -> int:
    """3: the text is exactly the words; 2: each is a whole word of it; 1: each is in it; 0."""
    text = prompt.lower()
    tokens = re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text)
    if tokens == [w.lower() for w in words]:
        return 3
    if all(_whole(word, tokens) for word in words):
        return 2
    return 1 if all(word in text or word.rstrip("s") in text for word in words) else 0


def _whole(word: str, tokens: list[str]) -> bool:
    return word in tokens or word.rstrip("s") in tokens or f"{word}s" in tokens
