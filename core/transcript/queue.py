"""Which inputs a turn has taken, and the newest turn: the part of the session's folds the
transcript places messages by. Pure: no I/O, no Qt.

``TurnQueue`` is an incremental fold, fed every entry in log order. The session's folds
(``core.session.conversation.ConversationFolder``) keep one and carry it in the checkpoint, and
their snapshot hands its ``Queue`` value to the transcript, which continues it with the entries
it is fed; only a caller without the session's folds (a test, a log shown before the engine runs)
has the transcript fold it once over the entries (``TurnQueue.of_entries``).

- ``untaken``: the ``user/message`` seqs no ``turn/start`` has named yet, in log order. A
  message no turn took stands where it is (a crash between the two); one after the newest turn's
  input waits for a turn (the last rows). It grows with waiting and orphaned messages only.
- ``newest``: (input, seq) of the newest ``turn/start`` ((-1, -1): none), and ``open``: no
  ``turn/end`` came after it.
- ``count``: how many entries it has folded (the transcript catches it up with the entries it
  holds before it reads it: ``catch_up``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from typing import Any

from core.events import Entry, Event, TurnEnd, TurnStart, UserMessage
from core.frozen import frozen

NO_TURN = (-1, -1)


@frozen
class Queue:
    """A snapshot of ``TurnQueue``."""

    untaken: tuple[int, ...] = ()
    newest: tuple[int, int] = NO_TURN
    open: bool = False
    count: int = 0


EMPTY = Queue()
"""The queue of an empty log."""


class TurnQueue:
    """The incremental fold (see the module docstring)."""

    def __init__(self, queue: Queue = EMPTY) -> None:
        self.untaken = list(queue.untaken)
        self.newest = queue.newest
        self.open = queue.open
        self.count = queue.count

    def catch_up(self, count: int, read: Callable[[int], Entry]) -> None:
        """Fold the entries up to ``count`` not folded yet (``read(index)``: the entry there)."""
        for index in range(self.count, count):
            self.feed(index, read(index).event)

    def feed(self, seq: int, event: Event) -> None:
        """Fold the event at ``seq`` (feeding one twice changes nothing)."""
        self.count = max(self.count, seq + 1)
        match event:
            case UserMessage():
                self.add(seq)
            case TurnStart(input=input_seq):
                self.take(input_seq, seq)
            case TurnEnd():
                self.open = False
            case _:
                pass

    def add(self, seq: int) -> None:
        """The ``user/message`` at ``seq`` (the newest one, in a log read in order)."""
        untaken = self.untaken
        if not untaken or untaken[-1] < seq:
            untaken.append(seq)
            return
        index = bisect.bisect_left(untaken, seq)
        if untaken[index] != seq:
            untaken.insert(index, seq)

    def take(self, input_seq: int, seq: int) -> None:
        """The ``turn/start`` at ``seq`` runs on ``input_seq`` (mostly the newest message)."""
        untaken = self.untaken
        if untaken and untaken[-1] == input_seq and input_seq < seq:
            untaken.pop()
        else:
            index = bisect.bisect_left(untaken, input_seq)
            if index < len(untaken) and untaken[index] == input_seq and input_seq < seq:
                del untaken[index]
        self.newest, self.open = (input_seq, seq), True

    def snapshot(self, count: int) -> Queue:
        """The queue after ``count`` entries (the session's folds feed it only the events it
        reads, and say how many they folded)."""
        return Queue(tuple(self.untaken), self.newest, self.open, count)

    def is_taken(self, seq: int) -> bool:
        """A turn has started on the message at ``seq``."""
        index = bisect.bisect_left(self.untaken, seq)
        return index == len(self.untaken) or self.untaken[index] != seq

    def waiting(self, after: int, stop: int) -> list[int]:
        """The untaken messages in ``(after, stop)``."""
        low = bisect.bisect_right(self.untaken, after)
        high = bisect.bisect_left(self.untaken, stop)
        return self.untaken[low:high]

    def to_json(self) -> dict[str, Any]:
        return {"untaken": list(self.untaken), "newest": list(self.newest), "open": self.open}

    @classmethod
    def from_json(cls, state: Mapping[str, Any]) -> TurnQueue:
        """Inverse of ``to_json``; ValueError (or KeyError, TypeError) on another shape."""
        untaken = [_seq(seq, 0) for seq in state["untaken"]]
        if untaken != sorted(set(untaken)):
            raise ValueError("untaken inputs are in log order, once each")
        input_seq, seq = (_seq(value, None) for value in state["newest"])  # as written
        opened = state["open"]
        if type(opened) is not bool:
            raise ValueError("open is a boolean")
        return cls(Queue(tuple(untaken), (input_seq, seq), opened))  # count: the folds' own


def _seq(value: object, low: int | None) -> int:
    if type(value) is not int or (low is not None and value < low):
        raise ValueError(f"expected a seq, got {value!r}")
    return value
