"""The byte form of a session log's lines (session-log.md §2). Pure: no I/O, no clock.

Owns the header written once at creation, the envelope ``{"seq","at","type","data"}`` (plus
``"group"`` on a group's first line) with its strict check, the canonical UTC instant used for
``at`` and the time-ordered session id. ``parse_entry`` is where a line read from disk becomes a
typed ``core.events.Entry``. Must not read the clock or touch files: instants and random bytes
are passed in.

Decoding choices where the spec is silent: an envelope may carry keys a newer version added (they
are ignored); ``data`` may be any JSON value (unknown types are kept as they are).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeGuard

from core.errors import SessionFormatError
from core.events import Entry, Event, decode_event
from core.instant import has_instant_shape
from core.jsonread import LOG_HEADER, LOG_LINE, bounded_reader, parse_json
from core.jsonvalue import compact_json

FORMAT_VERSION = 1
"""The only header ``version`` this code reads and writes."""

_read_line = bounded_reader(LOG_LINE)
_ABSENT: Any = object()
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def is_session_id(text: object) -> TypeGuard[str]:
    """True for a file-name-safe id: 1-64 of ``A-Z a-z 0-9 _ -``, not starting with ``-`` or ``_``."""
    return isinstance(text, str) and _SESSION_ID.fullmatch(text) is not None


def session_id(now: datetime, random_bytes: bytes) -> str:
    """A UUIDv7 in text: 48 bits of epoch ms from ``now``, then 74 bits from ``random_bytes``.

    Ids created in later milliseconds sort after earlier ones (as text too: fixed-width hex).
    ``random_bytes`` needs at least 10 bytes (from ``os.urandom`` in production).
    """
    if len(random_bytes) < 10:
        raise ValueError("session_id needs at least 10 random bytes")
    ms = ((now - _EPOCH) // _ONE_MS) & (2**48 - 1)
    rand = int.from_bytes(random_bytes[:10], "big")
    value = (ms << 80) | (0x7 << 76) | ((rand >> 68) & 0xFFF) << 64 | (0b10 << 62)
    value |= rand & (2**62 - 1)
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


@dataclass(frozen=True)
class SessionHeader:
    """Line 1 of a session log; it never changes after the file is created."""

    id: str
    created_at: str
    parent_id: str | None = None
    seed_length: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "session",
            "version": FORMAT_VERSION,
            "id": self.id,
            "createdAt": self.created_at,
            "parentId": self.parent_id,
            "seedLength": self.seed_length,
        }

    def line(self) -> bytes:
        return (compact_json(self.to_json()) + "\n").encode("utf-8")


def parse_header(line: bytes) -> SessionHeader:
    """Decode line 1 (without its ``\\n``). SessionFormatError says what is wrong."""
    try:
        value = parse_json(line, LOG_HEADER)
    except ValueError as error:
        raise SessionFormatError(f"the session header cannot be read: {error}") from None
    if not isinstance(value, dict) or value.get("type") != "session":
        raise SessionFormatError('the first line is not a session header ("type":"session")')
    version = value.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise SessionFormatError(
            f"unknown session format version {version!r}: this Chime reads version {FORMAT_VERSION}"
        )
    return _header_fields(value)


def _header_fields(value: dict[str, Any]) -> SessionHeader:
    sid, created, parent, seed = (
        value.get(key) for key in ("id", "createdAt", "parentId", "seedLength")
    )
    if not is_session_id(sid):
        raise SessionFormatError(f"invalid session id in the header: {sid!r}")
    if not isinstance(created, str) or not has_instant_shape(created):
        raise SessionFormatError(f"invalid createdAt in the header: {created!r}")
    if parent is not None and not is_session_id(parent):
        raise SessionFormatError(f"invalid parentId in the header: {parent!r}")
    if type(seed) is not int or seed < 0:
        raise SessionFormatError(f"invalid seedLength in the header: {seed!r}")
    return SessionHeader(sid, created, parent, seed)


def make_envelope(
    seq: int, at: str, type: str, data: Any, *, group: int | None = None
) -> dict[str, Any]:
    """The envelope in write order; ``group`` (the group's size) only on a group's first line."""
    envelope: dict[str, Any] = {"seq": seq, "at": at, "type": type, "data": data}
    if group is not None:
        envelope["group"] = group
    return envelope


def encode_entry(entry: Entry) -> bytes:
    """The log line of ``entry`` (TypeError/ValueError when its data is not JSON)."""
    return encode_line(entry.to_json())


def encode_line(envelope: Mapping[str, Any]) -> bytes:
    """One log line: compact JSON, raw non-ASCII, ending in ``\\n`` (TypeError/ValueError if not JSON)."""
    return (compact_json(envelope) + "\n").encode("utf-8")


def parse_line(line: bytes, seq: int) -> tuple[str, Event, int | None]:
    """One event line (without its ``\\n``) expected at index ``seq``: its ``at``, its decoded
    event and its group size (None on every line but a group's first). ValueError says what is
    wrong with the envelope; a known event of the wrong shape is a value (``MalformedEvent``).
    The scanner takes the parts: it folds 10^6 of them without keeping one."""
    value = _read_line(line)
    if type(value) is not dict:
        raise ValueError("not a JSON object")
    found, at, kind = value.get("seq"), value.get("at"), value.get("type")
    if type(found) is not int or found != seq:
        raise ValueError(f"seq {found!r} is not its index {seq}")
    if type(at) is not str or not has_instant_shape(at):
        raise ValueError(f"invalid at {at!r}")
    if type(kind) is not str or not kind:
        raise ValueError(f"invalid type {kind!r}")
    data, group = value.get("data", _ABSENT), value.get("group", _ABSENT)
    if data is _ABSENT:
        raise ValueError("no data")
    if group is _ABSENT:  # one lookup per key: this runs for every line of a log being opened
        return at, decode_event(kind, data), None
    if type(group) is not int or group < 1:
        raise ValueError(f"invalid group size {group!r}")
    return at, decode_event(kind, data), group


def parse_entry(line: bytes, seq: int) -> Entry:
    """The entry of a line that a scan has accepted before (an old event read again from the log,
    or one a checkpoint covers, whose digest vouches for the scan that once accepted it): only
    what a misplaced or changed line would get wrong is checked again, its ``seq`` and its
    parts' types. ValueError when the line is not that event's line."""
    value = _read_line(line)
    try:
        found, at, kind, data = value["seq"], value["at"], value["type"], value["data"]
    except (TypeError, KeyError):
        raise ValueError("not an event line") from None
    if found != seq or type(found) is not int or type(at) is not str or type(kind) is not str:
        raise ValueError(f"not the line of event {seq}")
    group = value.get("group")
    return Entry(seq, at, decode_event(kind, data), group if type(group) is int else None)
