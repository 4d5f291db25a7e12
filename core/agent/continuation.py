"""Continue (agent.md §7): which cut answer a Continue goes on from, and the text of the answer
it records. Pure: no I/O, no clock.

A Continue is a new turn on the same input (``turn/start`` with ``continues``: the seq of the cut
``assistant/message``). Its request ends with the cut text as an assistant message, which
llama.cpp's server, Ollama and others go on from (a prefill); its ``assistant/message`` holds the
whole answer, the cut text followed by what the model added, so every reader of the log (the
transcript, find, the exports) shows one answer: the Continue's turn is the input's answer, as a
retry's is. A server that does not go on from an assistant message but starts the answer again
is caught where it restates the cut text whole (``Onward``): the restated part is not added twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.events import AssistantMessage, Entry, TurnEnd, TurnStart
from core.transcript.verbs import is_cut

MAX_SCAN = 4000
"""How far back from the end a Continue looks for its input's latest turn."""

CONTINUABLE_ENDS = frozenset({"completed", "cancelled", "failed"})
"""How the turn of a cut answer may have ended (``interrupted`` ones run again on their own)."""


def cut_answer(entries: Sequence[Entry], input_seq: int, *, max_scan: int = MAX_SCAN) -> int | None:
    """The seq of the answer a Continue on ``input_seq`` goes on from: the last
    ``assistant/message`` of the input's latest turn, when that turn ended and the answer is cut
    (``core.transcript.verbs.is_cut``); None otherwise."""
    for index in range(len(entries) - 1, max(0, len(entries) - max_scan) - 1, -1):
        event = entries[index].event
        if isinstance(event, TurnStart) and event.input == input_seq:
            return _cut_in_turn(entries, index)
    return None


def _cut_in_turn(entries: Sequence[Entry], start: int) -> int | None:
    opened = entries[start].event
    assert isinstance(opened, TurnStart)
    answer: int | None = None
    for index in range(start + 1, len(entries)):
        match entries[index].event:
            case AssistantMessage():
                answer = index
            case TurnEnd(turn=turn, status=status) if turn == opened.turn:
                return answer if status in CONTINUABLE_ENDS and _is_cut(entries, answer) else None
            case TurnStart():
                return None
            case _:
                pass
    return None  # the turn still runs


def _is_cut(entries: Sequence[Entry], seq: int | None) -> bool:
    if seq is None:
        return False
    event = entries[seq].event
    assert isinstance(event, AssistantMessage)
    return is_cut(event.finish, event.text, len(event.tool_calls))


@dataclass
class Onward:
    """The first step of a Continue: the cut text it goes on from (``prefix``) and what the
    model streamed so far. ``shown`` lets a delta through once it no longer restates the cut
    text; ``text`` is the answer to record."""

    prefix: str
    _held: list[str] = field(default_factory=list)
    _restating: bool | None = None
    """None while the model's text so far could still be the cut text said again."""

    def shown(self, delta: str) -> str:
        """The part of ``delta`` to show after what was shown (held back while the model's text
        could still be a restatement of the cut text, dropped when it is one)."""
        if self._restating is not None:
            return delta
        self._held.append(delta)
        said = "".join(self._held)
        if len(said) < len(self.prefix) and self.prefix.startswith(said):
            return ""
        self._held = []
        if said.startswith(self.prefix):
            self._restating = True
            return said[len(self.prefix) :]
        self._restating = False
        return said

    def text(self, answer: str) -> str:
        """The whole answer: the cut text and what the model added (``answer``, its text)."""
        return answer if self.prefix and answer.startswith(self.prefix) else self.prefix + answer
