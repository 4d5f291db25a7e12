"""AnswerWait: "Waiting for the answer… 12 s" under the transcript while a model is asked and has
not sent a word yet. No I/O.

A local model can read a long conversation for many seconds before its first token; without this
line the window looks stuck. It appears ``DELAY_MS`` after the wait begins (so the offline
assistant, which answers at once, never flashes it), counts the seconds, and goes away with the
first piece of the answer or when the turn ends. A turn that calls a tool asks the model again:
the wait begins again with each step (``ui.main_window`` tells it when).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QLabel, QWidget

DELAY_MS = 400
TICK_MS = 1000


class AnswerWait(QLabel):
    """The waiting line; ``begin`` when a model is asked, ``end`` at its first word or idle."""

    def __init__(
        self, parent: QWidget | None = None, *, elapsed_ms: Callable[[], int] | None = None
    ) -> None:
        """``elapsed_ms`` (ms since ``begin``) stands in for the monotonic clock in tests."""
        super().__init__(parent)
        self.setObjectName("answer-wait")
        self._since = QElapsedTimer()
        self._elapsed = elapsed_ms or self._since.elapsed
        self._appear = QTimer(self)
        self._appear.setSingleShot(True)
        self._appear.setInterval(DELAY_MS)
        self._appear.timeout.connect(self._on_appear)
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._update_text)
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

    def end(self) -> None:
        """The answer began to arrive, or the turn is over."""
        self._appear.stop()
        self._tick.stop()
        self.hide()

    def _on_appear(self) -> None:
        self._update_text()
        self.show()
        self._tick.start()

    def _update_text(self) -> None:
        seconds = self._elapsed() // 1000
        text = self.tr("Waiting for the answer…")
        if seconds >= 1:
            text += " " + self.tr("%1 s").replace("%1", str(seconds))
        self.setText(text)
        self.setAccessibleName(text)
