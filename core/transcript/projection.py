"""TranscriptProjection: a session's transcript as rows, fed entry by entry, answering with
patches. Pure: no I/O, no Qt, no clock.

The public face of the transcript's fold, in three parts, each owning one thing:
``core.transcript.loading`` the loaded range (a session of 10,000 messages opens with its tail
built, ``older``/``newer`` add batches, at most about ``max_rows`` rows are kept) and the
streamed answer's row; ``core.transcript.appending`` the new entries (``append``); and this
module opening a session and rebuilding when the shown path changes.

Every change is returned as patches (``core.transcript.patch``) in the order they apply; a view
mirrors the rows by applying them. The waiting messages are marked ``queued`` while a turn runs
and unmarked when it ends (a choice where the spec is silent: "sent when the answer above is
done" is true only then).

The shown path (agent.md §7): the rows are those of the conversation the app hands in
(``core.transcript.path``): inputs off the path make no row, a hidden exchange is one ``hidden``
row at its input's place. The conversation also hands the queue fold (``core.transcript.queue``:
which inputs a turn took, the newest turn), which the projection continues with the entries it
is fed; without one (no session folds: a test, a log shown before the engine runs) it folds the
entries once. An entry that changes which events are shown (``restructures``) rebuilds the
loaded range instead (``rebuild_tail`` / ``rebuild_around``, whose ``Rebuild`` patch carries the
reader's anchor).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.events import Entry, ExchangeHidden, PathSelected
from core.transcript.appending import AppendedRows
from core.transcript.loading import FETCH_EVENTS, INITIAL_EVENTS, MAX_ROWS, MIN_ROWS
from core.transcript.patch import Anchor, Patch
from core.transcript.path import EVERYTHING, PathView, ShownConversation, switched
from core.transcript.queue import TurnQueue

__all__ = [
    "FETCH_EVENTS",
    "INITIAL_EVENTS",
    "MAX_ROWS",
    "MIN_ROWS",
    "TranscriptProjection",
]


class TranscriptProjection(AppendedRows):
    """The loaded rows of one session's transcript (see the module docstring)."""

    # -- opening and rebuilding --------------------------------------------------------------
    def open(
        self,
        events: Sequence[Entry],
        zone_name: str | None,
        *,
        conversation: ShownConversation | None = None,
        keep_stream: bool = False,
    ) -> list[Patch]:
        """Show a session: rows for the tail of ``events``, of the shown path of
        ``conversation`` (None: the one shown so far, or for a new session every event).
        ``keep_stream``: the same session again, whose answer may still be streaming."""
        reading = self.reading
        if conversation is not None:
            reading.path = PathView(conversation)
        elif not keep_stream:
            reading.path = PathView(EVERYTHING)
        if not keep_stream:
            self._stream = ""
        reading.events, reading.zone_name = events, zone_name
        queue = None if conversation is None else conversation.queue
        if queue is not None:
            reading.queue = TurnQueue(queue)
        elif not keep_stream:  # no session folds handed: the entries are folded once
            reading.queue = TurnQueue()
        return self._rebuild_tail()

    def rebuild_tail(self) -> list[Patch]:
        """Rebuild the rows of the tail (the shown path changed at its end: a new version)."""
        return self._rebuild_tail()

    def rebuild_around(self, seq: int, anchor: Anchor | None = None) -> list[Patch]:
        """Rebuild the rows of the events around ``seq`` (the shown path changed there, or the
        reader goes there); the tail is included when it is near. ``anchor`` rides in the
        patch: where the reader's eye stays."""
        return self._rebuild_around(seq, anchor)

    def restructure(
        self, entry: Entry, conversation: ShownConversation, *, reader: int, following: bool
    ) -> list[Patch]:
        """``entry`` changed which events are shown (``restructures``): the loaded rows are
        rebuilt, and the patch says where the reader's eye stays. A hidden or shown exchange
        keeps its own row in place, a version switch puts the new version where the old one was
        (``switched``); otherwise the reader at the end follows the new version or answer there,
        and one reading older history (``reader``: the seq at the top of their screen) stays
        where they are."""
        before = self.reading.path.conversation
        self.set_conversation(conversation)
        match entry.event:
            case ExchangeHidden(input=input_seq):
                return self.rebuild_around(input_seq, Anchor(input_seq, input_seq))
            case PathSelected():
                shown, then = switched(before, conversation)
                return self.rebuild_around(then if then >= 0 else reader, Anchor(shown, then))
            case _ if following:
                return self.rebuild_tail()
            case _:
                return self.rebuild_around(reader, Anchor(-1))

    def set_conversation(self, conversation: ShownConversation) -> None:
        """The conversation changed without changing the rows shown so far (a new input, a new
        turn): later rows follow it."""
        self.reading.path = PathView(conversation)

    def set_show_context(self, show: bool) -> list[Patch]:
        """Include the time-context readings as rows (rebuilds the loaded rows)."""
        if show == self.reading.show_context:
            return []
        self.reading.show_context = show
        self._begin()
        self._fill(self.reading.build(self.loaded_from, self.loaded_to), None)
        return self._end()
