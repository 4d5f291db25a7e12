"""FindFlow: find in conversation (Ctrl+F) for the session on screen, a slice at a time.

The find bar (``ui.find_bar``) says what to find; this runs a ``core.session.find.FindJob`` over
the session's shown path in slices of at most ``SLICE_MS`` of the GUI thread, one per turn of the
event loop (a zero-interval ``QTimer``), so typing, scrolling and streaming go on while a long
session is searched. After each slice the window gets the count ("12+" while searching, "3 of
17" once a current match is chosen) and the text to highlight.

Choices where the spec is silent:
- Matches are counted in the messages as written (case-insensitive), every occurrence; the
  numbering is in reading order (1 is the oldest).
- The first current match is the first one at or below the top of what the reader sees when the
  search starts, else (nothing below) the newest one: from the end of a conversation, where a
  reader usually is, that is the newest match.
- Next and previous step through every occurrence and wrap around once the search is done.
- A new event of the session extends the search; one that changes the shown path (a hidden
  exchange, another version, a new version) searches again. Showing another session closes the
  bar (``MainWindow.leave_conversation``): Ctrl+F there opens it with the same words.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer

from app.controller import AppController
from core.events import Entry
from core.session.find import FindJob
from ui.main_window import MainWindow
from ui.shown_path import restructures

SLICE_MS = 8.0
"""GUI-thread time one slice of a search may take (a frame at 60 Hz is 16 ms)."""
STEP = 250
"""Entries read between two looks at the clock."""


class FindFlow(QObject):
    """The search behind the window's find bar (a child of the controller)."""

    def __init__(self, controller: AppController, window: MainWindow) -> None:
        super().__init__(controller)
        self.controller = controller
        self.window = window
        self.job: FindJob | None = None
        self._session_id: str | None = None
        self._current: tuple[int, int] | None = None
        """(index into the job's hits, which occurrence in that message)."""
        self._from_seq = -1
        self.slices: list[float] = []
        """How long each slice of the current search took, in seconds (the bench reads it)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        window.finder.changed.connect(self.search)
        window.finder.next.connect(lambda: self.step(1))
        window.finder.previous.connect(lambda: self.step(-1))
        window.finder.closed.connect(self.stop)
        window.session_shown.connect(self._on_session_shown)

    # -- searching -----------------------------------------------------------------------
    def search(self, query: str) -> None:
        """Find ``query`` in the session on screen (from the start; "" clears)."""
        self._timer.stop()
        self._current = None
        self.slices = []
        opened = self.controller.current_session()
        if opened is None or not query.strip():
            self.job = None
            self.window.finder.show("", query, None)
            return
        self._session_id = opened.id
        self.job = FindJob(opened.session.entries, opened.session.conversation(), query)
        self._from_seq = self.window.finder.first_visible_seq()
        self._slice()

    def stop(self) -> None:
        """The bar closed: the search ends (the window clears the highlights)."""
        self._timer.stop()
        self.job = None
        self._current = None

    def entry_appended(self, session_id: str, entry: Entry) -> None:
        """A new event of a session: the search of the session on screen takes it in."""
        job = self.job
        searched = job is not None and session_id == self._session_id
        opened = self.controller.open.get(session_id) if searched else None
        if job is None or opened is None:
            return
        conversation = opened.session.conversation()
        if restructures(entry, conversation):
            self.search(job.query)
            return
        job.extend(conversation)
        self._timer.start()  # (again: a zero-interval single shot, so at most one slice waits)

    def _slice(self) -> None:
        job = self.job
        assert job is not None, "the timer runs only while a search does"
        started = time.perf_counter()
        deadline = started + SLICE_MS / 1000
        done = job.advance(STEP)
        while not done and time.perf_counter() < deadline:
            done = job.advance(STEP)
        self.slices.append(time.perf_counter() - started)
        chosen = self._current is None and self._choose_first(job)
        self._show(job, scroll=chosen)
        if not done:
            self._timer.start()

    def _choose_first(self, job: FindJob) -> bool:
        """Choose the first current match: the first one at or below the top of the view, else
        (once the search is done) the newest. True when one was chosen."""
        for index, hit in enumerate(job.hits):
            if hit.seq >= self._from_seq:
                self._current = (index, 0)
                return True
        if job.done and job.hits:
            self._current = (len(job.hits) - 1, job.hits[-1].count - 1)
            return True
        return False

    # -- stepping ------------------------------------------------------------------------
    def step(self, direction: int) -> None:
        """Go to the next (+1) or previous (-1) match, wrapping once the search is done."""
        job = self.job
        if job is None or not job.hits:
            return
        found = job.total
        if self._current is None:
            position = 1 if direction > 0 else found
        else:
            position = _position(job, self._current) + direction
            if not 1 <= position <= found:
                if not job.done:
                    return  # the next one may not have been found yet
                position = 1 if position > found else found
        self._current = _match_at(job, position)
        self._show(job, scroll=True)

    def _show(self, job: FindJob, *, scroll: bool) -> None:
        total = f"{job.total:,}" if job.done else f"{job.total:,}+"
        current = self._current
        if job.done and not job.hits:
            count = self.tr("No matches")
        elif current is None:
            count = total
        else:
            position = f"{_position(job, current):,}"
            count = self.tr("{position} of {total}").format(position=position, total=total)
        target = (job.hits[current[0]].seq, current[1]) if current is not None else None
        self.window.finder.show(count, job.query, target, scroll=scroll)

    def current_match(self) -> tuple[int, int] | None:
        """(the seq of the message holding the current match, which match in it)."""
        job, current = self.job, self._current
        if job is None or current is None:
            return None
        return job.hits[current[0]].seq, current[1]

    def _on_session_shown(self) -> None:
        query = self.window.finder.query()
        if query:
            self.search(query)
        else:
            self.stop()


def _position(job: FindJob, current: tuple[int, int]) -> int:
    """The number (from 1, in reading order) of the match ``current`` among those found."""
    index, number = current
    return job.hits.counted_before(index) + number + 1


def _match_at(job: FindJob, position: int) -> tuple[int, int]:
    """(hit index, occurrence) of the match numbered ``position`` (1 <= position <= total)."""
    index = 0
    while position > job.hits[index].count:
        position -= job.hits[index].count
        index += 1
    return index, position - 1
