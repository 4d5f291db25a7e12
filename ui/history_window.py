"""HistoryWindow: which stretch of a long conversation the transcript model has loaded, and the
requests that move it (older, newer, the tail again, around an event). No I/O.

The projection (``core.transcript.projection.TranscriptProjection``) decides the rows of each
stretch; this part asks it and hands the patches to the model (``apply``). It also keeps the gate
on Qt's ``fetchMore``: Qt's views call it whenever the *last* row is visible (always true in a
chat that follows the bottom), so an older batch loads only after ``want_older()`` (the user
reached the top, ``ui.lazy_rows``), and a rebuild of the rows drops that wish.
"""

from __future__ import annotations

from collections.abc import Callable

from core.transcript.patch import Anchor, Patch
from core.transcript.projection import TranscriptProjection


class HistoryWindow:
    """The loaded stretch of one transcript model's conversation."""

    def __init__(
        self, projection: TranscriptProjection, apply: Callable[[list[Patch]], None]
    ) -> None:
        self._projection = projection
        self._apply = apply
        self._older_wanted = False

    def has_older(self) -> bool:
        """True while history older than the first row has not been loaded."""
        return self._projection.has_older()

    def has_newer(self) -> bool:
        """True while events newer than the last row are not loaded (the user scrolled far up)."""
        return self._projection.has_newer()

    def span(self) -> tuple[int, int, int]:
        """(the first event loaded, the event after the last one loaded, the events known): where
        the loaded rows stand in the whole conversation (``ui.conversation_bar``)."""
        projection = self._projection
        return projection.loaded_from, projection.loaded_to, projection.reading.known_end

    def want_older(self) -> None:
        """The user reached the top: let the next ``fetchMore`` load an older batch."""
        self._older_wanted = self._projection.has_older()

    def may_fetch_older(self) -> bool:
        """Qt's ``canFetchMore``: the user asked for older rows and there are some."""
        return self._older_wanted and self._projection.has_older()

    def fetch_older(self) -> None:
        """Qt's ``fetchMore``: load an older batch above the first row."""
        self._older_wanted = False
        self._apply(self._projection.older())

    def fetch_newer(self) -> None:
        """Load the next turns below the last row (and unload the oldest rows past the cap)."""
        self._apply(self._projection.newer())

    def reload_tail(self) -> None:
        """Rebuild the rows of the tail: the newest turns again after the user had scrolled far
        up, or the shown path changed at its end (a new version)."""
        self.rebuild(self._projection.rebuild_tail())

    def reload_around(self, seq: int, anchor: Anchor | None = None) -> None:
        """Rebuild the rows of the events around ``seq`` (the shown path changed there: a hidden
        exchange, another version); the tail is included when it is near."""
        self.rebuild(self._projection.rebuild_around(seq, anchor))

    def rebuild(self, patches: list[Patch]) -> None:
        """Apply a rebuild of the loaded rows: a wish for older rows made before it is dropped."""
        self._older_wanted = False
        self._apply(patches)
