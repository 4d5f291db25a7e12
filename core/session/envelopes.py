"""The envelopes of a block of log lines read without building their data: msgspec's reading
where it is surely ``parse_line``'s, else None. Pure: no I/O, no clock; decodes no event.

A cold open must check that every line is JSON (session-log.md §4), but folds few of the events:
``orjson.loads`` of each line builds every value of every line only to drop most of them. msgspec
reads a line into ``_Envelope``, checking the whole line's JSON syntax while it keeps ``data`` as
the raw bytes it spans and builds nothing for keys it does not know, at about half the cost.

msgspec accepts a few lines the bounded decode (``core.jsonread``) refuses, and refuses a few it
accepts; the block is read by msgspec only when none of the first kind can be in it, checked on
the whole block in C (a refusal of the second kind is a ``None``, and the caller reads the block
the usual way, which gives the usual verdict):

- bytes that are not UTF-8 (msgspec checks the UTF-8 only of the strings it builds);
- a number out of a double's range, or an integer of over 400 digits, which msgspec skips over
  unread: the block holds no digit followed by an exponent's ``e`` and no run of 300 digits, the
  least a number out of range needs (a text holding such a run sends the block the usual way);
- nesting deeper than ``LOG_LINE.max_depth``: a line longer than twice that has at most that many
  opening brackets (as ``core.jsonread`` counts before it looks closer).

What msgspec refuses that the decode accepts (a lone surrogate escaped, ``seq`` written ``0.0``,
an envelope that is not an object, a ``group`` key, which the line scan reads) is a ``None`` too.
Duplicate keys: both keep the last.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, MsgspecError, Raw, Struct, UnsetType
from msgspec.json import Decoder

from core.jsonread import LOG_LINE, bounded_reader


class _Envelope(Struct, gc=False):
    """The keys of a log line the scan reads; ``data`` kept as its bytes, others skipped."""

    seq: int
    at: str
    type: str
    data: Raw
    group: UnsetType = UNSET
    """A line with a ``group`` (even ``null``) is refused here: the line scan reads groups."""


_Whole = Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)]
"""An integer the bounded decode reads as one (beyond 64 bits it reads a float)."""


class TurnStartData(Struct, gc=False):
    """The data of the usual ``turn/start``: its ``TurnStart`` without the value."""

    turn: _Whole
    input: _Whole
    continues: UnsetType = UNSET
    """A Continue's ``turn/start`` (any ``continues``) is refused here: its decoder checks it."""


class TurnEndData(Struct, gc=False):
    """The data of the usual ``turn/end``, one without an error (its status is checked after)."""

    turn: _Whole
    status: str
    error: None = None


class _TypedSource(Struct, gc=False, forbid_unknown_fields=True):
    kind: Literal["user"]
    timeZone: str | None = None  # noqa: N815 -- the log's key


class UserMessageData(Struct, gc=False, forbid_unknown_fields=True):
    """The data of the usual ``user/message``: typed, with exactly an id, a text and a source."""

    id: str
    text: str
    source: _TypedSource


_decode = Decoder(_Envelope).decode
_read_message = Decoder(UserMessageData).decode
_read_start = Decoder(TurnStartData).decode
_read_end = Decoder(TurnEndData).decode
_read_line = bounded_reader(LOG_LINE)
_SHALLOW = 2 * LOG_LINE.max_depth
_NUMBERS = bytes.maketrans(b"0123456789E", b"0000000000e")
"""Every digit a ``0`` and the exponent's ``E`` an ``e``: a number out of range leaves a ``0e``
(an exponent) or a run of 300 zeros (a double ends at 309 digits, the decode's integers at 400)."""
_LONG_RUN = b"0" * 300
_SEQ, _AT, _TYPE, _DATA = map(attrgetter, ("seq", "at", "type", "data"))

Parts = tuple[list[int], list[str], list[str], list[Raw]]
"""Each line's ``seq``, ``at``, ``type`` and the bytes of its ``data``."""


def read_envelopes(block: bytes, lines: list[bytes]) -> Parts | None:
    """The parts of ``lines`` (``block`` split on its newlines, without the last empty piece),
    read by msgspec; None when msgspec refuses one or its reading could differ from the bounded
    decode's (the block is then read line by line with ``parse_line``'s decode)."""
    if not _plain(block, lines):
        return None
    try:
        found = list(map(_decode, lines))
    except MsgspecError:  # not JSON, a lone surrogate, a part of another kind: the usual way
        return None
    return (
        list(map(_SEQ, found)),
        list(map(_AT, found)),
        list(map(_TYPE, found)),
        list(map(_DATA, found)),
    )


def _plain(block: bytes, lines: list[bytes]) -> bool:
    """True when ``block`` is UTF-8 with no number out of range and no line nested too deep."""
    if not block.isascii():
        try:
            block.decode("utf-8")
        except UnicodeDecodeError:
            return False
    numbers = block.translate(_NUMBERS)
    if b"0e" in numbers or _LONG_RUN in numbers:
        return False
    if max(map(len, lines)) <= _SHALLOW:
        return True
    limit = LOG_LINE.max_depth
    return all(
        line.count(b"[") + line.count(b"{") <= limit for line in lines if len(line) > _SHALLOW
    )


def read_data(data: Raw) -> Any:
    """The value of a ``data`` read by ``read_envelopes``: the bounded decode's own (its line
    was within every bound, so its data is)."""
    return _read_line(bytes(data))


def read_turn_start(data: Raw) -> TurnStartData | None:
    """The turn and input of a ``turn/start``'s data of the usual shape (an object whose ``turn``
    and ``input`` the decode reads as integers), else None (decode it)."""
    try:
        return _read_start(data)
    except MsgspecError:
        return None


def read_turn_end(data: Raw) -> TurnEndData | None:
    """The turn and status of a ``turn/end``'s data of the usual shape (an integer ``turn``, a
    string ``status``, no ``error`` or a null one), else None (decode it)."""
    try:
        return _read_end(data)
    except MsgspecError:
        return None


def read_user_message(data: Raw) -> UserMessageData | None:
    """The usual ``user/message``'s data (the shape its decoder makes a typed ``UserMessage`` of
    without looking further), else None (decode it)."""
    try:
        return _read_message(data)
    except MsgspecError:
        return None


def read_exchange_parts(
    messages: list[Raw], starts: list[Raw], ends: list[Raw]
) -> tuple[list[TurnStartData], list[TurnEndData]]:
    """The ``turn/start`` and ``turn/end`` data of a run of exchanges, each of the usual shape
    (``read_turn_start``, ``read_turn_end``), after checking that every message is the usual
    ``user/message`` (``read_user_message``): MsgspecError when one is not."""
    list(map(_read_message, messages))  # only checked: the run's messages change no text fold
    return list(map(_read_start, starts)), list(map(_read_end, ends))
