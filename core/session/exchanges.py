"""Runs of plain exchanges in a block of log lines, read at once. Pure: no I/O, no clock.

Most of a long log is exchanges: a typed ``user/message``, the ``turn/start`` that runs on it, the
``turn/end`` that completes it (its calls and results in between change no fold once the turn
ends). Folding them one event at a time is most of a cold open's Python work; a run of them
leaves the folds as its last exchange does (``SessionFolds.read_block`` applies it, and checks
the state it needs first). Here a block's events are searched for such runs and each run is read
with msgspec in one C-level pass per part: any event of another shape makes the run ``None`` and
its events are folded one by one, as the line scan folds them (a differential test holds them
to it, ``tests/core/session/test_block_scan.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, count, repeat
from operator import add, attrgetter
from typing import Any

from msgspec import MsgspecError

from core.events import EventType
from core.session.envelopes import read_exchange_parts

_EXCHANGE = (
    EventType.USER_MESSAGE.value,
    EventType.TURN_START.value,
    EventType.TURN_END.value,
)
_CONSUMED_FOR_GOOD = frozenset({"completed", "cancelled"})
"""The statuses that leave nothing behind once no failed reminder waits (``_turn_end``)."""
_INPUT, _TURN, _STATUS = map(attrgetter, ("input", "turn", "status"))


@dataclass(frozen=True, slots=True)
class Exchanges:
    """A run of plain exchanges: the seq of each input, the greatest turn number, and the seq
    of the last ``turn/start``."""

    inputs: list[int]
    top_turn: int
    last_start: int


def exchange_runs(kinds: list[str]) -> list[tuple[int, int]]:
    """The maximal runs ``(first, end)`` of ``kinds`` (the types of the events a block folds)
    made of ``user/message``, ``turn/start``, ``turn/end`` again and again."""
    starts = compress(
        count(), map(_EXCHANGE.__eq__, zip(kinds, kinds[1:], kinds[2:], strict=False))
    )
    runs: list[tuple[int, int]] = []
    first = end = -1
    for start in starts:  # one step per exchange (not per event): a few dozen a block
        if start != end:
            if end > first:
                runs.append((first, end))
            first = start
        end = start + 3
    if end > first:
        runs.append((first, end))
    return runs


def read_exchanges(first_seq: int, indices: list[int], datas: Sequence[Any]) -> Exchanges | None:
    """The run of exchanges at ``indices`` (each exchange's three events, in order; ``datas``
    the block's data as msgspec kept it), or None when one is not plain: a message that is not
    the usual typed one, a ``turn/start`` that does not run on the message just before it (or is
    a Continue), a ``turn/end`` of another turn, with an error, or neither completed nor
    cancelled."""
    try:
        starts, ends = read_exchange_parts(
            list(map(datas.__getitem__, indices[0::3])),
            list(map(datas.__getitem__, indices[1::3])),
            list(map(datas.__getitem__, indices[2::3])),
        )
    except MsgspecError:
        return None
    inputs = list(map(add, indices[0::3], repeat(first_seq)))
    turns = list(map(_TURN, starts))
    if (
        list(map(_INPUT, starts)) != inputs
        or list(map(_TURN, ends)) != turns
        or not _CONSUMED_FOR_GOOD.issuperset(map(_STATUS, ends))
    ):
        return None
    return Exchanges(inputs, max(turns), first_seq + indices[-2])
