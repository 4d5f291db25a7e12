"""Find in conversation (desktop.md §1): which shown messages hold a text, found a slice at a time.
Pure: no I/O, no clock.

A ``FindJob`` collects the user and assistant messages of the shown path (other versions and
hidden exchanges are not searched: ``core.session.conversation.shown`` decides, and
``tests/core/session/test_find.py`` holds the job to it) whose text holds the query,
case-insensitively, with how many times. ``advance(budget)`` does at most about ``budget``
entries' worth of work and returns whether the search is done, so the window runs it in slices
between paints; the hits found so far are usable at once (the count shows "12+" until the search
ends). Entries appended later are searched by ``extend`` without starting over.

A session's durable entries (``RawLines``: the lazy ``EventList``) are not decoded one by one: their
lines are read in blocks of ``BLOCK_BYTES`` and only the lines that may hold the query or be a
turn's edge are decoded (``core.session.find_lines``), so a conversation of 10^6 events is
searched in about the time of reading its bytes. The job follows the turns like ``shown`` does
(an answer is shown with its turn), so skipping the other lines changes nothing; a block with
nothing to find only has its last turn edge decoded.
"""

from __future__ import annotations

import re
from array import array
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never, overload

from core.events import (
    AssistantMessage,
    ContextTime,
    Entry,
    Event,
    ExchangeHidden,
    MalformedEvent,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTitle,
    SessionTools,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnStart,
    UnknownEvent,
    UserMessage,
)
from core.session.conversation import Conversation
from core.session.find_lines import LinePicker, RawLines


def findable_text(event: Event) -> str | None:
    """The words a user can look for in ``event``: a message's text, the user's or the model's
    (None for every other event). Find in conversation, the search across sessions and the
    sidebar's filter all read this; a new event type with words of its own is decided here."""
    match event:
        case UserMessage(text=text) | AssistantMessage(text=text):
            return text
        case (
            ContextTime()  # the time reading the model was given, never shown as a message
            | ToolResult()
            | TurnStart()
            | TurnEnd()
            | SessionTitle()
            | ScheduleChanged()
            | ExchangeHidden()
            | PathSelected()
            | SessionModel()
            | SessionInstructions()
            | ToolStart()
            | SessionTools()
            | UnknownEvent()
            | MalformedEvent()
        ):
            return None
        case unexpected:
            assert_never(unexpected)


@dataclass(frozen=True, slots=True)
class Hit:
    """A message holding the query: its seq and how many times it holds it."""

    seq: int
    count: int


class Hits(Sequence[Hit]):
    """The hits of a search, kept as two arrays of numbers (a ``Hit`` is made when one is read):
    a word in every answer of 10^6 events has 10^5 hits, and as objects the garbage collector
    walked them all, stalling the window for tens of milliseconds now and then."""

    def __init__(self) -> None:
        self._seqs: array[int] = array("q")
        self._counts: array[int] = array("q")

    def add(self, seq: int, count: int) -> None:
        self._seqs.append(seq)
        self._counts.append(count)

    def __len__(self) -> int:
        return len(self._seqs)

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> list[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | list[Hit]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return Hit(self._seqs[index], self._counts[index])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so not hashable like them

    def counted_before(self, index: int) -> int:
        """The occurrences in the hits before ``index``."""
        return sum(self._counts[:index])


BLOCK_BYTES = 64 << 10
"""Log bytes one step of a search reads at once (then decodes only the lines it picks)."""
BLOCK_COST = 64
"""What reading one block counts against ``advance``'s budget (in entries decoded)."""


@dataclass(frozen=True, slots=True)
class _Read:
    """Decode entry ``index``: follow it if it starts or ends a turn, judge it if ``judged``."""

    index: int
    judged: bool


@dataclass(frozen=True, slots=True)
class _LastEdge:
    """A block with nothing to find: only its last turn edge matters, among ``indices`` (the
    lines that may be one, newest first)."""

    indices: tuple[int, ...]


class FindJob:
    """One search of one session's shown path (see the module docstring)."""

    def __init__(self, entries: Sequence[Entry], conversation: Conversation, query: str) -> None:
        self.query = query
        self.hits = Hits()
        self.total = 0
        """Occurrences found so far (kept as hits are found: the window shows it every slice)."""
        self.done = not query.strip()
        self._entries = entries
        self._raw = entries if isinstance(entries, RawLines) else None
        self._picker = LinePicker(query)
        self._pattern = re.compile(re.escape(query), re.IGNORECASE)
        self._read = 0
        self._steps: deque[_Read | _LastEdge] = deque()
        self._conversation = conversation
        self._path = conversation.path
        self._showing = True
        """An answer read now is shown (``shown``'s state: in no turn, or in a shown one)."""

    def advance(self, budget: int = 2000) -> bool:
        """Search about ``budget`` more entries' worth; True once every entry has been searched."""
        while not self.done and budget > 0:
            if self._steps:
                budget -= self._step(self._steps.popleft())
            elif self._read >= len(self._entries):
                self.done = True
            elif self._raw is not None and self._read < self._raw.durable_count:
                self._plan(self._raw)
                budget -= BLOCK_COST
            else:
                self._steps.append(_Read(self._read, judged=True))
                self._read += 1
        return self.done

    def extend(self, conversation: Conversation) -> None:
        """Go on searching the entries appended since (same path: a new path needs a new job)."""
        if not self.query.strip():
            return
        self._conversation, self._path = conversation, conversation.path
        self.done = False

    def _plan(self, raw: RawLines) -> None:
        """Read the next block of lines and queue what to decode of it."""
        first = self._read
        self._read, block = raw.lines(first, BLOCK_BYTES)
        matching, edges = self._picker.pick(block)
        if not matching:
            if edges:
                self._steps.append(_LastEdge(tuple(first + line for line in reversed(edges))))
            return
        judged = set(matching)
        for line in sorted(judged.union(edges)):
            self._steps.append(_Read(first + line, line in judged))

    def _step(self, step: _Read | _LastEdge) -> int:
        """Do one queued step; returns how many entries it decoded."""
        match step:
            case _Read(index=index, judged=judged):
                entry = self._at(index)
                if entry is not None and not self._follow(entry) and judged:
                    self._judge(entry)
                return 1
            case _LastEdge(indices=indices):
                for read, index in enumerate(indices, start=1):
                    entry = self._at(index)
                    if entry is not None and self._follow(entry):
                        return read
                return len(indices)
            case unexpected:
                assert_never(unexpected)

    def _follow(self, entry: Entry) -> bool:
        """Follow a turn's start or end (True when ``entry`` is one), as ``shown`` does."""
        match entry.event:
            case TurnStart(input=input_seq):
                self._showing = (
                    input_seq in self._path
                    and input_seq not in self._conversation.hidden
                    and self._conversation.shows_turn(input_seq, entry.seq)
                )
                return True
            case TurnEnd():
                self._showing = True
                return True
            case _:
                return False

    def _judge(self, entry: Entry) -> None:
        event = entry.event
        text = findable_text(event)
        if not text:
            return
        if isinstance(event, UserMessage):
            shown = entry.seq in self._path and entry.seq not in self._conversation.hidden
        else:
            shown = self._showing
        count = len(self._pattern.findall(text)) if shown else 0
        if count:
            self.hits.add(entry.seq, count)
            self.total += count

    def _at(self, index: int) -> Entry | None:
        try:
            return self._entries[index]
        except ValueError:  # a corrupt line of a session not verified yet: nothing to find
            return None
