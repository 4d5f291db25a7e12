"""ConversationBar: the transcript's scroll bar, standing for the whole conversation. No I/O.

The list view holds only a window of rows (``core.transcript.projection``: about 500), so its own
scroll bar would stand for those alone and its top would be wherever the window starts. This bar
replaces it on screen: its range is the conversation's events (0 to the newest), its handle the
part the screen shows, placed inside the loaded window's events in proportion to the pixels
scrolled. Moving it inside the loaded window scrolls the view; moving it outside rebuilds the
window around that point (``TranscriptModel.history.reload_around``) and shows it, so dragging the bar to
the top shows the first message, to the bottom the newest one (following again). Moves made while
dragging are taken one per turn of the event loop (the latest wins). The wheel, the keys and
lazy loading still move the view's own (hidden) bar, and this one follows it.

``to_start`` / ``to_end`` are Ctrl+Home / Ctrl+End (``key``, from the view's key presses).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QListView, QScrollBar

from core.transcript.patch import Anchor
from ui.follow_output import FollowOutput
from ui.transcript_model import TranscriptModel


class ConversationBar(QObject):
    """The whole-conversation scroll bar of one transcript view (see the module docstring)."""

    def __init__(self, view: QListView, model: TranscriptModel, follow: FollowOutput) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._follow = follow
        self.bar = QScrollBar(Qt.Orientation.Vertical, view)
        self.bar.setObjectName("conversationBar")
        self.bar.setAccessibleName(self.tr("Conversation position"))
        self._syncing = False
        self._wanted = -1
        self._go_timer = QTimer(self)
        self._go_timer.setSingleShot(True)
        self._go_timer.setInterval(0)
        self._go_timer.timeout.connect(self._go_wanted)
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = view.verticalScrollBar()
        inner.valueChanged.connect(self.sync)
        inner.rangeChanged.connect(self.sync)
        model.modelReset.connect(self.sync)
        self.bar.valueChanged.connect(self._on_value_changed)

    def width(self) -> int:
        return self.bar.sizeHint().width()

    def place(self) -> None:
        """Put the bar along the view's right edge, beside the viewport."""
        frame = self._view.frameWidth()
        width = self.width()
        rect = self._view.rect()
        self.bar.setGeometry(
            rect.right() - frame - width + 1, frame, width, rect.height() - 2 * frame
        )

    # -- from the view to the bar ----------------------------------------------------------
    def sync(self) -> None:
        """Show where the screen is in the whole conversation."""
        first, stop, known = self._model.history.span()
        inner = self._view.verticalScrollBar()
        content = inner.maximum() + inner.pageStep()
        span = max(1, stop - first)
        page = max(1, round(span * inner.pageStep() / content)) if content > 0 else span
        value = first + round(span * inner.value() / content) if content > 0 else first
        if inner.value() >= inner.maximum() and not self._model.history.has_newer():
            value = known - page  # the bottom of the newest rows is the end
        self._syncing = True
        try:
            self.bar.setPageStep(page)
            self.bar.setRange(0, max(0, known - page))
            self.bar.setValue(value)
        finally:
            self._syncing = False

    # -- from the bar to the view ----------------------------------------------------------
    def _on_value_changed(self, value: int) -> None:
        if self._syncing:
            return
        self._wanted = value
        if self.bar.isSliderDown():
            self._go_timer.start()  # a drag: the latest position, once per turn of the loop
        else:
            self._go_wanted()

    def _go_wanted(self) -> None:
        wanted, self._wanted = self._wanted, -1
        if wanted >= 0:
            self.go(wanted)

    def go(self, seq: int) -> None:
        """Show the conversation from event ``seq`` (the bar's value) on."""
        if seq >= self.bar.maximum() > 0 or self._model.history.span()[2] == 0:
            self.to_end()
            return
        if seq <= 0:
            self.to_start()
            return
        first, stop, _known = self._model.history.span()
        if not first <= seq <= stop - self.bar.pageStep():
            self._model.history.reload_around(seq, Anchor(-1, seq))
            first, stop, _known = self._model.history.span()
        inner = self._view.verticalScrollBar()
        content = inner.maximum() + inner.pageStep()
        inner.setValue(round((seq - first) * content / max(1, stop - first)))
        self.sync()

    def key(self, event: QKeyEvent) -> bool:
        """Ctrl+Home and Ctrl+End: the first and the newest message (True: the key was one)."""
        if event.modifiers() != Qt.KeyboardModifier.ControlModifier:
            return False
        if event.key() == Qt.Key.Key_Home:
            self.to_start()
            return True
        if event.key() == Qt.Key.Key_End:
            self.to_end()
            return True
        return False

    def to_start(self) -> None:
        """Show the first message (Ctrl+Home): the window is rebuilt at the start if need be."""
        if self._model.history.has_older():
            self._model.history.reload_around(0, Anchor(-1, 0))
        with self._follow.hold():
            self._view.scrollToTop()
        self._follow.settle()
        self.sync()

    def to_end(self) -> None:
        """Show the newest message and follow new output again (Ctrl+End)."""
        self._follow.scroll_to_end()
        self.sync()
