"""StreamFrames: the streamed answer's pieces, joined and shown at most once a frame. No I/O.

Pieces of the answer and of its thinking arrive as fast as the model sends them (hundreds a
second); each would re-lay out and repaint the streaming row. They are kept here and handed to
the projection together at most once per ``STREAM_FRAME_MS`` (``flush`` shows them at once),
and the patches it answers go to the model (``apply``). The model's ``stream`` is this part: the
window feeds the answer being streamed here (``ui.window_answers``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from core.transcript.patch import Patch
from core.transcript.projection import TranscriptProjection

STREAM_FRAME_MS = 30
"""The streamed answer's row is updated at most this often (pieces arriving faster are joined)."""


class StreamFrames(QObject):
    """The pieces of one transcript's streamed answer not shown yet."""

    def __init__(
        self,
        projection: TranscriptProjection,
        apply: Callable[[list[Patch]], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._projection = projection
        self._apply = apply
        self._pieces: list[str] = []
        """Streamed pieces not shown yet."""
        self._thoughts: list[str] = []
        """Pieces of the streamed answer's thinking not shown yet."""
        self._thinking_ms: int | None = None
        """How long it has been thinking, not shown yet (None: no news)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(STREAM_FRAME_MS)
        self._timer.timeout.connect(self._flush)

    def add_text(self, piece: str) -> None:
        """More of the answer being streamed."""
        if piece:
            self._pieces.append(piece)
            self._soon()

    def add_thinking(self, piece: str, thinking_ms: int | None) -> None:
        """More of the streamed answer's thinking, and how long it has been thinking (folded at
        the top of the streaming row)."""
        if piece:
            self._thoughts.append(piece)
        self._thinking_ms = thinking_ms
        self._soon()

    def tick(self, thinking_ms: int) -> None:
        """How long the answer has been thinking, while it thinks."""
        if self._projection.stream_thinking or self._thoughts:
            self.add_thinking("", thinking_ms)

    @property
    def streaming(self) -> bool:
        """Some of an answer has arrived and is shown or about to be."""
        return bool(self._pieces) or bool(self._projection.stream_text)

    def flush(self) -> None:
        """Show the pieces received so far at once."""
        self._timer.stop()
        self._flush()

    def drop(self) -> None:
        """Forget the pieces not shown yet (the stream ended or another session opened)."""
        self._timer.stop()
        self._pieces, self._thoughts, self._thinking_ms = [], [], None

    def end(self) -> None:
        """The stream ended without a recorded answer taking its place: its row goes."""
        self.drop()
        self._apply(self._projection.end_stream())

    def _soon(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def _flush(self) -> None:
        projection = self._projection
        if self._thoughts or self._thinking_ms is not None:
            thought = projection.stream_thinking + "".join(self._thoughts)
            took, self._thoughts, self._thinking_ms = self._thinking_ms, [], None
            self._apply(projection.think(thought, took))
        if self._pieces:
            text = projection.stream_text + "".join(self._pieces)
            self._pieces = []
            self._apply(projection.stream(text))
