"""``start-view.json``: what the window shows with its first paint, before the engine runs.

A derived, deletable file in the data folder (desktop.md §2.1): the session list as the sidebar
last showed it, the current conversation's title, reminders and the log lines of its tail, and its
conversation tree. Written when Chime quits; read once at start, before asyncio, the engine and the
session store are loaded, so the person sees their day at once instead of an empty window. The
engine's own reading replaces all of it moments later (the same rows: nothing moves). A file that
is missing, damaged or of another version is ignored (the window then says it is opening the
conversations, never that there are none).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from core.events import Entry
from core.frozen import frozen
from core.instant import format_instant, read_instant
from core.jsonread import MIB, JsonLimits, parse_json
from ui.screen import ReminderView
from ui.session_list import SessionListItem

if TYPE_CHECKING:  # the log's lines and the tree are read only when there is a start view
    from core.session.conversation import Conversation

_log = logging.getLogger(__name__)

START_VIEW = "start-view.json"
VERSION = 1
TAIL_ENTRIES = 60
"""How many of the current conversation's last entries are kept (a screen or two of rows)."""


@frozen
class StartView:
    """The first paint's content."""

    sessions: tuple[SessionListItem, ...]
    current: str | None
    title: str | None = None
    reminders: tuple[ReminderView, ...] = ()
    tail: tuple[Entry, ...] = ()
    count: int = 0
    """How many entries the current conversation has (the tail is its last ones)."""
    conversation: Conversation | None = None


class TailEntries(Sequence[Entry]):
    """A conversation's entries of which only the tail is known: an older index raises
    ValueError, as an unreadable line of a lazily read log does."""

    def __init__(self, tail: Sequence[Entry], count: int) -> None:
        self._tail = tuple(tail)
        self._count = max(count, len(self._tail))
        self._first = self._count - len(self._tail)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        if index < self._first:
            raise ValueError("not in the start view: the engine reads it")
        return self._tail[index - self._first]

    def __iter__(self) -> Iterator[Entry]:
        return (self[i] for i in range(self._first, self._count))


def write_start_view(folder: Path, view: StartView) -> None:
    """Replace the file atomically (it is derived: a failure is logged, nothing more)."""
    path = folder / START_VIEW
    temporary = path.with_name(path.name + ".tmp")
    try:
        text = json.dumps(_to_json(view), ensure_ascii=False, separators=(",", ":"))
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        temporary.replace(path)
    except (OSError, TypeError, ValueError) as error:
        _log.info("the start view was not written: %s", error)


def read_start_view(folder: Path) -> StartView | None:
    """The view written at the last quit, or None (missing, damaged, another version)."""
    try:
        with (folder / START_VIEW).open("rb") as handle:
            raw = parse_json(handle.read(_LIMITS.max_size + 1), _LIMITS)
        return _from_json(raw)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        _log.info("the start view is ignored: %s", error)
        return None


_LIMITS = JsonLimits(16 * MIB)
TAIL_BYTES = 4 * MIB
"""At most this much of the tail's log lines are kept (the newest: one long answer is enough)."""


def _to_json(view: StartView) -> dict[str, Any]:
    return {
        "version": VERSION,
        "current": view.current,
        "title": view.title,
        "sessions": [_item_json(item) for item in view.sessions],
        "reminders": [_reminder_json(r) for r in view.reminders],
        "count": view.count,
        "tail": _tail_lines(view.tail),
        "conversation": None if view.conversation is None else _tree_json(view.conversation),
    }


def _tail_lines(tail: Sequence[Entry]) -> list[str]:
    """The newest entries' log lines, within ``TAIL_BYTES``."""
    from core.session.lines import encode_entry as encode_line

    kept: list[str] = []
    size = 0
    for entry in reversed(tail):
        line = encode_line(entry).decode("utf-8")
        size += len(line)
        if size > TAIL_BYTES:
            break
        kept.append(line)
    return kept[::-1]


def _from_json(raw: Any) -> StartView:
    from core.session.lines import parse_entry

    if raw["version"] != VERSION:
        raise ValueError(f"version {raw['version']!r}")
    count = int(raw["count"])
    lines = [line.encode("utf-8") for line in raw["tail"]]
    first = count - len(lines)
    tail = tuple(parse_entry(line, first + n) for n, line in enumerate(lines))
    tree = raw["conversation"]
    return StartView(
        tuple(_item(item) for item in raw["sessions"]),
        _optional_str(raw["current"]),
        _optional_str(raw["title"]),
        tuple(_reminder(r) for r in raw["reminders"]),
        tail,
        count,
        None if tree is None else _tree(tree, count),
    )


def _item_json(item: SessionListItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "title": item.title,
        "lastActivity": format_instant(item.last_activity),
        "reminders": item.reminder_count,
        "unread": item.unread_count,
        "overdue": item.overdue,
        "fork": item.fork,
    }


def _item(raw: dict[str, Any]) -> SessionListItem:
    return SessionListItem(
        str(raw["id"]),
        str(raw["title"]),
        _instant(raw["lastActivity"]),
        reminder_count=int(raw["reminders"]),
        unread=int(raw["unread"]) > 0,
        unread_count=int(raw["unread"]),
        overdue=bool(raw["overdue"]),
        fork=raw.get("fork") is True,  # absent in a view an older version wrote
    )


def _reminder_json(reminder: ReminderView) -> dict[str, Any]:
    return {
        "id": reminder.id,
        "kind": reminder.kind,
        "prompt": reminder.prompt,
        "at": format_instant(reminder.scheduled_at),
        "every": reminder.every_seconds,
    }


def _reminder(raw: dict[str, Any]) -> ReminderView:
    kind = raw["kind"]
    if kind not in ("after", "at", "every"):
        raise ValueError(f"kind {kind!r}")
    every = raw["every"]
    return ReminderView(
        str(raw["id"]),
        kind,
        str(raw["prompt"]),
        _instant(raw["at"]),
        None if every is None else int(every),
    )


def _tree_json(tree: Conversation) -> dict[str, Any]:
    from core.transcript.queue import TurnQueue

    return {
        "leaf": tree.leaf,
        "parents": [[k, v] for k, v in tree.parents.items()],
        "explicit": list(tree.explicit),
        "hidden": sorted(tree.hidden),
        "failed": sorted(tree.failed),
        "latestTurn": [[k, v] for k, v in tree.latest_turn.items()],
        "groups": [[k, list(v)] for k, v in tree.groups.items()],
        "tips": list(tree.tips),
        "queue": None if tree.queue is None else TurnQueue(tree.queue).to_json(),
    }


def _tree(raw: dict[str, Any], count: int) -> Conversation:
    from core.session.conversation import Conversation
    from core.transcript.queue import TurnQueue

    return Conversation(
        int(raw["leaf"]),
        {int(k): int(v) for k, v in raw["parents"]},
        tuple(int(s) for s in raw["explicit"]),
        frozenset(int(s) for s in raw["hidden"]),
        frozenset(int(s) for s in raw["failed"]),
        {int(k): int(v) for k, v in raw["latestTurn"]},
        {int(k): tuple(int(s) for s in v) for k, v in raw["groups"]},
        tuple(int(s) for s in raw["tips"]),
        None if raw.get("queue") is None else TurnQueue.from_json(raw["queue"]).snapshot(count),
    )


def _instant(raw: object) -> datetime:
    moment = read_instant(raw) if isinstance(raw, str) else None
    if moment is None:
        raise ValueError(f"not an instant: {raw!r}")
    return moment


def _optional_str(raw: object) -> str | None:
    if raw is None or isinstance(raw, str):
        return raw
    raise ValueError(f"not text: {raw!r}")
