"""ProbeWait: what Test connection is waiting for, in words, with the seconds counted. No I/O.

A small local model reads Chime's real prompt (its instructions and three tools, about 1,600
tokens) for a minute or more on a laptop CPU before its first word, and Test connection waits as
long as a real turn would; without this line the dialog looks stuck. The app tells it where the
check is (``ProbeStage`` of ``core.llm.openai_compat``: ``chat``, ``reading``, ``answering``);
it words that and counts the seconds since the check began, once a second.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QObject, QTimer, Signal

from ui.i18n import QT_TRANSLATE_NOOP

TICK_MS = 1000
STAGES = {
    "listing": QT_TRANSLATE_NOOP("ProbeWait", "Asking the server for its models…"),
    "chat": QT_TRANSLATE_NOOP("ProbeWait", "Asking the model for one word…"),
    "reading": QT_TRANSLATE_NOOP("ProbeWait", "The server is reading the prompt…"),
    "answering": QT_TRANSLATE_NOOP("ProbeWait", "The model is answering…"),
}


class ProbeWait(QObject):
    """``begin`` when the test starts, ``stage`` as it moves on, ``end`` with its verdict.

    Signals:
        text_changed(str): the waiting line to show now.
    """

    text_changed = Signal(str)

    def __init__(
        self, parent: QObject | None = None, *, elapsed_ms: Callable[[], int] | None = None
    ) -> None:
        """``elapsed_ms`` (ms since ``begin``) stands in for the monotonic clock in tests."""
        super().__init__(parent)
        self._since = QElapsedTimer()
        self.elapsed_ms = elapsed_ms or self._since.elapsed
        self._stage = "listing"
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self.update)

    @property
    def waiting(self) -> bool:
        return self._tick.isActive()

    def begin(self) -> None:
        self._since.start()
        self._stage = "listing"
        self._tick.start()
        self.update()

    def stage(self, stage: str) -> None:
        """The check moved on (an unknown stage keeps the current words)."""
        if stage in STAGES and self.waiting:
            self._stage = stage
            self.update()

    def end(self) -> None:
        self._tick.stop()

    def update(self) -> None:
        """Words the current stage and the whole seconds since ``begin`` (the tick; nothing
        once the test ended)."""
        if not self.waiting:
            return
        text = QCoreApplication.translate("ProbeWait", STAGES[self._stage])
        seconds = self.elapsed_ms() // 1000
        if seconds >= 1:
            text += " " + self.tr("%1 s").replace("%1", str(seconds))
        self.text_changed.emit(text)
