"""AnswerProgress: a turn's progress in the window: the entries it adds, its streamed answer and
thinking, and the line that says an answer is awaited. No I/O.

The waiting line (``ui.answer_wait``) shows from a turn's start until the answer's first word,
again while a turn that called tools asks the model once more, and counts the thinking time while
the answer thinks.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from core.events import AssistantMessage, Entry
from ui.answer_wait import AnswerWait
from ui.composer import Composer
from ui.screen import SessionScreen
from ui.shown_path import ShownConversation
from ui.transcript_model import TranscriptModel
from ui.transcript_view import TranscriptView


class AnswerProgress(QObject):
    """Feeds a turn's progress to the transcript, the waiting line and the composer."""

    def __init__(
        self,
        transcript: TranscriptView,
        model: TranscriptModel,
        wait: AnswerWait,
        composer: Composer,
    ) -> None:
        super().__init__(transcript)
        self._transcript, self._model = transcript, model
        self._wait, self._composer = wait, composer
        wait.thinking_ticked.connect(self._model.stream.tick)

    def add_entry(self, entry: Entry, conversation: ShownConversation | None = None) -> None:
        """A new entry of the session on screen (a finished answer takes the streamed row's
        place); ``conversation``: the session's conversation tree after it, when it may have
        changed (an input, a turn, a hidden exchange, another version). An answer that calls
        tools is followed by another request to the model: the wait for it begins."""
        self._transcript.apply_entry(entry, conversation)
        event = entry.event
        if self._composer.busy and isinstance(event, AssistantMessage) and event.tool_calls:
            self._wait.begin()

    def append_stream(self, piece: str) -> None:
        """More of the answer being streamed: it grows in its own row of the transcript."""
        if piece:
            self._wait.end()
        self._model.stream.add_text(piece)

    def show_thinking_piece(self, piece: str) -> None:
        """A piece of the streamed answer's thinking: the waiting line says "Thinking… 12 s" and
        the thinking grows, folded, at the top of the answer's row."""
        self._wait.think()
        self._model.stream.add_thinking(piece, self._wait.thinking_ms())

    def end_stream(self) -> None:
        """The stream ended (without an answer, or before it was recorded). A turn still busy
        goes on asking the model (a step it retries): the wait for its answer begins again."""
        self._model.stream.end()
        if self._composer.busy:
            self._wait.begin()

    def show_stream_piece(self, piece: str) -> None:
        """A piece of the streamed answer, or "" when the stream ended without an answer."""
        if piece:
            self.append_stream(piece)
        else:
            self.end_stream()

    def set_busy(self, busy: bool) -> None:
        """A turn runs (or not): the composer offers Stop and Queue, and until the answer's
        first word the line under the transcript says it is awaited."""
        self._composer.set_busy(busy)
        if busy and not self._model.stream.streaming:
            self._wait.begin()
        else:
            self._wait.end()

    def show_screen(self, screen: SessionScreen) -> None:
        """A whole session's rows, with what its running turn has streamed so far (thinking and
        answer), following its end."""
        model = self._model
        model.reset(screen.entries, screen.zone_name, conversation=screen.conversation)
        if screen.thinking:
            model.stream.add_thinking(screen.thinking, None)
        if screen.streaming:
            model.stream.add_text(screen.streaming)
        if screen.thinking or screen.streaming:
            model.stream.flush()
        self._transcript.scroll_to_end()

    def show_screen_busy(self, screen: SessionScreen) -> None:
        """Whether the session's turn runs, and its thinking counted from now (when it began
        was in another session)."""
        self.set_busy(screen.busy)
        if screen.busy and screen.thinking and not screen.streaming:
            self._wait.think()
