"""The input queue as a fold of the session log (agent.md §1). Pure: no I/O, no asyncio, no clock.

Pending input = ``user/message`` events at index ``>= seed_length`` not consumed by a turn. A turn
consumes its input with ``turn/start {input: seq}``; the turn's ``turn/end`` status decides whether
the input stays consumed:

- ``completed`` and ``cancelled``: consumed for good (the user saw an answer, or stopped it).
- ``failed``: the input goes back to the queue but the queue is *held*: no turn starts on its own
  (a failing endpoint must not loop). Retry runs it at once; any later ``user/message`` (typed or a
  reminder) releases the hold, and then the oldest input, the failed one, runs first.
- ``interrupted`` (the app closed or crashed mid-turn; session-log.md §4 closers): the input goes
  back to the queue unheld, so it is answered when the session next runs (at-least-once answers,
  schedule.md §15).

Turn numbers continue across a fork's inherited prefix (history reads everything); pending input
never comes from the prefix (session-log.md §6).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.session.vocabulary import TURN_END, TURN_START, USER_MESSAGE

RELEASING_STATUSES = frozenset({"failed", "interrupted"})


@dataclass(frozen=True, slots=True)
class OpenTurn:
    turn: int
    input_seq: int


class PendingInputs:
    """Incremental fold of pending input. Feed every event in log order with its seq."""

    def __init__(self, seed_length: int = 0) -> None:
        self.seed_length = seed_length
        self._pending: list[int] = []
        self.last_turn = 0
        self.open_turn: OpenTurn | None = None
        self.held = False

    @property
    def pending(self) -> tuple[int, ...]:
        """Seqs of pending inputs, oldest first."""
        return tuple(self._pending)

    def next_input(self, *, include_held: bool = False) -> int | None:
        """The oldest pending input a turn may start on now (None when none, or when held)."""
        if not self._pending or (self.held and not include_held):
            return None
        return self._pending[0]

    def feed(self, seq: int, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        data = event.get("data")
        if not isinstance(data, Mapping):
            return
        if kind == USER_MESSAGE and seq >= self.seed_length:
            self._add(seq)
            self.held = False
        elif kind == TURN_START:
            self._start(data)
        elif kind == TURN_END:
            self._end(data)

    def _add(self, seq: int) -> None:
        index = bisect.bisect_left(self._pending, seq)
        if index == len(self._pending) or self._pending[index] != seq:
            self._pending.insert(index, seq)

    def _start(self, data: Mapping[str, Any]) -> None:
        turn, input_seq = data.get("turn"), data.get("input")
        if not isinstance(turn, int) or not isinstance(input_seq, int):
            return
        self.last_turn = max(self.last_turn, turn)
        if input_seq in self._pending:
            self._pending.remove(input_seq)
        self.open_turn = OpenTurn(turn, input_seq)
        self.held = False

    def _end(self, data: Mapping[str, Any]) -> None:
        opened = self.open_turn
        if opened is None or data.get("turn") != opened.turn:
            return
        self.open_turn = None
        status = data.get("status")
        if status in RELEASING_STATUSES and opened.input_seq >= self.seed_length:
            self._add(opened.input_seq)
            self.held = self.held or status == "failed"


def last_index_of(events: Sequence[Mapping[str, Any]], kind: str) -> int | None:
    """Index of the last event of type ``kind``, scanning backward (cheap on a long log's tail)."""
    for index in range(len(events) - 1, -1, -1):
        if events[index].get("type") == kind:
            return index
    return None


def fold_pending(events: Sequence[Mapping[str, Any]], seed_length: int = 0) -> PendingInputs:
    """The pending-input fold of a whole log, reading only its tail.

    Turns consume the oldest pending input, so when the last ``turn/start`` consumed seq X, no
    pending input is older than X: replaying from X (or the seed, if later) gives the same state
    as replaying everything. Only a log without any turn is read from the seed on.
    """
    folded = PendingInputs(seed_length)
    last_start = last_index_of(events, TURN_START)
    begin = seed_length
    if last_start is not None:
        data = events[last_start].get("data")
        turn = data.get("turn") if isinstance(data, Mapping) else None
        input_seq = data.get("input") if isinstance(data, Mapping) else None
        folded.last_turn = turn if isinstance(turn, int) else 0
        if isinstance(input_seq, int) and 0 <= input_seq <= last_start:
            begin = max(seed_length, input_seq)
        else:
            begin = max(seed_length, last_start)
    for seq in range(begin, len(events)):
        folded.feed(seq, events[seq])
    return folded
