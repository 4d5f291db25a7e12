"""How the person organises the conversation list: pins, folders, archive; and the list's groups.

Pure: no I/O, no clock or zone of its own (``arrange`` is given ``now`` and the zone). This is
the person's arrangement of the list, never part of a conversation: it lives in a per-user index
file beside state.json (``app.organise_file``), and the session logs stay the only truth for what
is in each conversation (desktop.md §1.6 says why). Ids of sessions that no longer exist are kept
(a deleted one comes back with Undo) and simply match nothing.

``arrange`` is the list's order: Pinned, then each folder (by name, shown even when empty so a
conversation can be dropped into it), then the rest by day of last activity in the given zone
(Today, Yesterday, Previous 7 days, Older); inside each group newest activity first. Archived
conversations are left out of that view and are the whole of the ``ARCHIVED`` view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, tzinfo
from enum import StrEnum
from typing import Any, assert_never

from core.frozen import frozen

FOLDER_NAME_CHARS = 120
"""A folder's name is cut to this many characters (it is one line of the list)."""


class Group(StrEnum):
    """A heading of the list."""

    PINNED = "pinned"
    FOLDER = "folder"
    TODAY = "today"
    YESTERDAY = "yesterday"
    WEEK = "week"
    """Previous 7 days (before yesterday)."""
    OLDER = "older"


DAY_GROUPS = (Group.TODAY, Group.YESTERDAY, Group.WEEK, Group.OLDER)


class View(StrEnum):
    """What the list shows: the grouped list, or only the archived conversations."""

    LIST = "list"
    ARCHIVED = "archived"


@frozen
class Folder:
    """A named folder; ``id`` never changes when it is renamed."""

    id: str
    name: str


@frozen
class Heading:
    """A group's heading row (``folder`` for ``Group.FOLDER`` only)."""

    group: Group
    folder: Folder | None = None


@frozen
class Listed:
    """A conversation's row."""

    id: str


Row = Heading | Listed


@frozen
class Organisation:
    """Pinned and archived session ids, the folders in the order they were made, and which
    folder each placed session is in (at most one)."""

    pinned: frozenset[str] = frozenset()
    archived: frozenset[str] = frozenset()
    folders: tuple[Folder, ...] = ()
    placed: tuple[tuple[str, str], ...] = ()
    """(session id, folder id), sorted by session id."""

    def folder_of(self, session_id: str) -> str | None:
        return dict(self.placed).get(session_id)

    def folder(self, folder_id: str) -> Folder | None:
        return next((f for f in self.folders if f.id == folder_id), None)

    def pin(self, session_id: str, on: bool) -> Organisation:
        pinned = self.pinned | {session_id} if on else self.pinned - {session_id}
        return Organisation(pinned, self.archived, self.folders, self.placed)

    def archive(self, session_id: str, on: bool) -> Organisation:
        """Archived (hidden from the list, unpinned) or brought back."""
        archived = self.archived | {session_id} if on else self.archived - {session_id}
        pinned = self.pinned - {session_id} if on else self.pinned
        return Organisation(pinned, archived, self.folders, self.placed)

    def move(self, session_id: str, folder_id: str | None) -> Organisation:
        """Into a folder (an unknown folder changes nothing), or out of any (None)."""
        if folder_id is not None and self.folder(folder_id) is None:
            return self
        placed = {sid: fid for sid, fid in self.placed if sid != session_id}
        if folder_id is not None:
            placed[session_id] = folder_id
        return Organisation(self.pinned, self.archived, self.folders, _sorted_pairs(placed))

    def add_folder(self, folder_id: str, name: str) -> Organisation:
        if self.folder(folder_id) is not None:
            return self
        folders = (*self.folders, Folder(folder_id, folder_name(name)))
        return Organisation(self.pinned, self.archived, folders, self.placed)

    def rename_folder(self, folder_id: str, name: str) -> Organisation:
        if not name.strip():
            return self
        folders = tuple(
            Folder(f.id, folder_name(name)) if f.id == folder_id else f for f in self.folders
        )
        return Organisation(self.pinned, self.archived, folders, self.placed)

    def remove_folder(self, folder_id: str) -> Organisation:
        """The folder goes; its conversations go back to the day groups (none is deleted)."""
        folders = tuple(f for f in self.folders if f.id != folder_id)
        placed = tuple((sid, fid) for sid, fid in self.placed if fid != folder_id)
        return Organisation(self.pinned, self.archived, folders, placed)

    def new_folder_id(self) -> str:
        """An id no folder has yet (``f1``, ``f2``, …)."""
        taken = {f.id for f in self.folders}
        return next(f"f{n}" for n in range(1, len(taken) + 2) if f"f{n}" not in taken)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "pinned": sorted(self.pinned),
            "archived": sorted(self.archived),
            "folders": [{"id": f.id, "name": f.name} for f in self.folders],
            "placed": dict(self.placed),
        }


def folder_name(name: str) -> str:
    """A folder's name as kept: one line, spaces folded, at most ``FOLDER_NAME_CHARS``."""
    return " ".join(name.split())[:FOLDER_NAME_CHARS]


def _sorted_pairs(pairs: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(pairs.items()))


def _strings(raw: object) -> frozenset[str]:
    return frozenset(s for s in raw if isinstance(s, str)) if isinstance(raw, list) else frozenset()


def organisation_from_json(raw: object) -> Organisation:
    """The well-formed parts of the index file's value (anything else is dropped, never raised:
    the arrangement is a convenience, the conversations are all still listed without it)."""
    if not isinstance(raw, dict):
        return Organisation()
    folders: list[Folder] = []
    for item in raw.get("folders", []) if isinstance(raw.get("folders"), list) else []:
        if not isinstance(item, dict):
            continue
        fid, name = item.get("id"), item.get("name")
        if isinstance(fid, str) and isinstance(name, str) and all(f.id != fid for f in folders):
            folders.append(Folder(fid, folder_name(name)))
    known = {f.id for f in folders}
    placed_raw = raw.get("placed")
    placed = {
        sid: fid
        for sid, fid in (placed_raw.items() if isinstance(placed_raw, dict) else ())
        if isinstance(fid, str) and fid in known
    }
    return Organisation(
        _strings(raw.get("pinned")),
        _strings(raw.get("archived")),
        tuple(folders),
        _sorted_pairs(placed),
    )


def day_group(last: datetime, now: datetime, zone: tzinfo) -> Group:
    """The day group of a last activity at ``last`` seen at ``now``, by calendar days in ``zone``
    (a time after ``now``, a clock set back, counts as today)."""
    return _day_of(now.astimezone(zone).date(), last, zone)


def _day_of(today: date, last: datetime, zone: tzinfo) -> Group:
    days = (today - last.astimezone(zone).date()).days
    if days <= 0:
        return Group.TODAY
    if days == 1:
        return Group.YESTERDAY
    if days <= 7:
        return Group.WEEK
    return Group.OLDER


def arrange(
    sessions: Iterable[tuple[str, datetime]],
    organisation: Organisation,
    now: datetime,
    zone: tzinfo,
    view: View = View.LIST,
) -> tuple[Row, ...]:
    """The list's rows for ``sessions`` ((id, last activity) each), see the module docstring."""
    newest = sorted(sessions, key=lambda s: (s[1], s[0]), reverse=True)
    match view:
        case View.ARCHIVED:
            return tuple(Listed(sid) for sid, _at in newest if sid in organisation.archived)
        case View.LIST:
            shown = [(sid, at) for sid, at in newest if sid not in organisation.archived]
            return _grouped(shown, organisation, now, zone)
        case unexpected:
            assert_never(unexpected)


def _grouped(
    shown: Sequence[tuple[str, datetime]], organisation: Organisation, now: datetime, zone: tzinfo
) -> tuple[Row, ...]:
    """One pass over ``shown`` (newest first) into the groups, then the groups in their order."""
    folders = sorted(organisation.folders, key=lambda f: (f.name.casefold(), f.id))
    inside: dict[str, list[str]] = {f.id: [] for f in folders}
    by_day: dict[Group, list[str]] = {group: [] for group in DAY_GROUPS}
    pinned: list[str] = []
    placed = dict(organisation.placed)
    today = now.astimezone(zone).date()
    for sid, at in shown:
        folder = placed.get(sid)
        if sid in organisation.pinned:
            pinned.append(sid)
        elif folder in inside:
            inside[folder].append(sid)
        else:
            by_day[_day_of(today, at, zone)].append(sid)
    rows: list[Row] = [Heading(Group.PINNED), *map(Listed, pinned)] if pinned else []
    for each in folders:
        rows += [Heading(Group.FOLDER, each), *map(Listed, inside[each.id])]
    for group, ids in by_day.items():
        if ids:
            rows += [Heading(group), *map(Listed, ids)]
    return tuple(rows)
