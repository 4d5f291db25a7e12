"""Find in conversation (desktop.md §1): which shown messages hold a text, found a slice at a time.
Pure: no I/O, no clock.

A ``FindJob`` walks the entries of the shown path (``core.session.conversation.shown``: other
versions and hidden exchanges are not searched) and collects the user and assistant messages
whose text holds the query, case-insensitively, with how many times. ``advance(budget)`` reads at
most ``budget`` entries and returns whether the walk is done, so the window runs it in slices
between paints and a conversation of 10,000 messages never freezes it; the hits found so far are
usable at once (the count shows "12+" until the walk ends). Entries appended later are searched by
``extend`` without starting over.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import assert_never

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
from core.session.conversation import Conversation, shown


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


class FindJob:
    """One search of one session's shown path (see the module docstring)."""

    def __init__(self, entries: Sequence[Entry], conversation: Conversation, query: str) -> None:
        self.query = query
        self.hits: list[Hit] = []
        self.done = not query.strip()
        self._entries = entries
        self._pattern = re.compile(re.escape(query), re.IGNORECASE)
        self._read = 0
        self._walk: Iterator[Entry] = shown(conversation, self._upto(len(entries)))

    @property
    def total(self) -> int:
        """Occurrences found so far."""
        return sum(hit.count for hit in self.hits)

    def advance(self, budget: int = 2000) -> bool:
        """Search up to ``budget`` more entries; True once every entry has been searched."""
        if self.done:
            return True
        for _ in range(budget):
            entry = next(self._walk, None)
            if entry is None:
                self.done = True
                return True
            text = findable_text(entry.event)
            if text:
                count = len(self._pattern.findall(text))
                if count:
                    self.hits.append(Hit(entry.seq, count))
        return False

    def extend(self, conversation: Conversation) -> None:
        """Go on searching the entries appended since (same path: a new path needs a new job)."""
        if not self.query.strip():
            return
        self._walk = _chain(self._walk, shown(conversation, self._upto(len(self._entries))))
        self.done = False

    def _upto(self, stop: int) -> Iterator[Entry]:
        while self._read < stop:
            index = self._read
            self._read += 1
            try:
                yield self._entries[index]
            except ValueError:  # a corrupt line of a session not verified yet: nothing to find
                continue


def _chain(first: Iterator[Entry], then: Iterator[Entry]) -> Iterator[Entry]:
    yield from first
    yield from then
