"""AnswerWait: "Waiting for the answer… 12 s" under the transcript while a model is asked and has
not sent a word yet, and "Thinking… 12 s" while it thinks. No I/O.

A local model can read a long conversation for many seconds before its first token; without this
line the window looks stuck. It appears ``DELAY_MS`` after the wait begins (so the offline
assistant, which answers at once, never flashes it), counts the seconds, and goes away with the
first piece of the answer or when the turn ends. A turn that calls a tool asks the model again:
the wait begins again with each step (``ui.main_window`` tells it when).

A model that thinks before it answers (its reasoning streams apart from the answer) turns the line
into "Thinking… 12 s" at its first piece of thinking, shown at once, counting from that piece, so
the wait for the model to start and the time it thinks are told apart; each tick also says how
long it has been thinking (``thinking_ticked``), which the thinking block of the streaming row
shows.

Signals:
    thinking_ticked(int): the model has been thinking this many milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QElapsedTimer, QTimer, Signal
from PySide6.QtWidgets import QLabel, QWidget

DELAY_MS = 400
TICK_MS = 1000


class AnswerWait(QLabel):
    """The waiting line; ``begin`` when a model is asked, ``think`` at its first piece of
    thinking, ``end`` at its first word or idle."""

    thinking_ticked = Signal(int)

    def __init__(
        self, parent: QWidget | None = None, *, elapsed_ms: Callable[[], int] | None = None
    ) -> None:
        """``elapsed_ms`` (ms since ``begin``) stands in for the monotonic clock in tests."""
        super().__init__(parent)
        self.setObjectName("answer-wait")
        self._since = QElapsedTimer()
        self.elapsed_ms: Callable[[], int] = elapsed_ms or self._since.elapsed
        """Milliseconds since ``begin`` (tests replace it to stand in for the monotonic clock)."""
        self._appear = QTimer(self)
        self._appear.setSingleShot(True)
        self._appear.setInterval(DELAY_MS)
        self._appear.timeout.connect(self._on_appear)
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._update_text)
        self._thinking_from: int | None = None
        """When the thinking began (ms after ``begin``; None: not thinking)."""
        self.hide()

    @property
    def delay_ms(self) -> int:
        """How long after ``begin`` the line appears (tests set 0)."""
        return self._appear.interval()

    @delay_ms.setter
    def delay_ms(self, milliseconds: int) -> None:
        self._appear.setInterval(milliseconds)

    @property
    def waiting(self) -> bool:
        """A wait has begun and has not ended (shown or about to be)."""
        return self._appear.isActive() or not self.isHidden()

    def begin(self) -> None:
        """The model is asked: show the line soon, unless a wait is already under way."""
        if self.waiting:
            return
        self._since.start()
        self._appear.start()

    def think(self) -> None:
        """A piece of the model's thinking arrived: the line says "Thinking…" from now on."""
        if self._thinking_from is not None:
            return
        if not self.waiting:
            self._since.start()
        self._appear.stop()
        self._thinking_from = self.elapsed_ms()
        self._on_appear()

    def thinking_ms(self) -> int | None:
        """How long the model has been thinking (None: it is not thinking)."""
        if self._thinking_from is None:
            return None
        return max(0, self.elapsed_ms() - self._thinking_from)

    def end(self) -> None:
        """The answer began to arrive, or the turn is over."""
        self._appear.stop()
        self._tick.stop()
        self._thinking_from = None
        self.hide()

    def _on_appear(self) -> None:
        self._update_text()
        self.show()
        self._tick.start()

    def _update_text(self) -> None:
        thought = self.thinking_ms()
        if thought is not None:
            self.thinking_ticked.emit(thought)
        seconds = (self.elapsed_ms() if thought is None else thought) // 1000
        text = self.tr("Waiting for the answer…") if thought is None else self.tr("Thinking…")
        if seconds >= 1:
            text += " " + self.tr("%1 s").replace("%1", str(seconds))
        self.setText(text)
        self.setAccessibleName(text)
