"""FollowOutput: the transcript sticks to the newest output unless the reader scrolled up. No I/O.

While following, new rows, a growing streamed answer, a wider or narrower window and a longer
scroll range all keep the view at its bottom. Scrolling up (or to rows before the loaded tail)
stops following; scrolling back to the bottom of the newest rows, or ``scroll_to_end``, starts it
again. Moves the view makes itself (loading rows, keeping the reader's place) are made under
``hold()`` and change nothing here.

Signals:
    following_changed(bool): the view started or stopped following.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QListView

from ui.transcript_model import TranscriptModel

SLACK = 4
"""Pixels from the bottom that still count as at the bottom."""


class FollowOutput(QObject):
    """Following the newest output in one transcript view (see the module docstring)."""

    following_changed = Signal(bool)

    def __init__(self, view: QListView, model: TranscriptModel) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._following = True
        self._held = False
        bar = view.verticalScrollBar()
        bar.valueChanged.connect(self._on_value_changed)
        bar.rangeChanged.connect(self._on_range_changed)
        model.rowsInserted.connect(self._on_rows_inserted)

    def is_following(self) -> bool:
        return self._following

    def held(self) -> bool:
        """The view is moving itself (loading, keeping a place): scroll changes are not the
        reader's."""
        return self._held

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Moves made inside are the view's own: they neither stop nor start following."""
        held, self._held = self._held, True
        try:
            yield
        finally:
            self._held = held

    def pause(self) -> None:
        """Hold from now until ``resume`` (a model reset that keeps the reader's place spans two
        of the model's signals)."""
        self._held = True

    def resume(self) -> None:
        self._held = False

    def settle(self) -> None:
        """Follow when the view shows the bottom of the newest rows (after a move of its own)."""
        bar = self._view.verticalScrollBar()
        self._set(bar.value() >= bar.maximum() - SLACK and not self._model.history.has_newer())

    def scroll_to_end(self) -> None:
        """Jump to the newest row and follow again (reloading the tail when the newest rows
        were unloaded)."""
        if self._model.history.has_newer():
            self._model.history.reload_tail()
        self._set(True)
        self._view.scrollToBottom()

    def restart(self) -> None:
        """New rows replaced the old ones (another session): follow from their end."""
        self._set(True)
        self._view.scrollToBottom()

    def keep_at_end(self) -> None:
        """The rows or their sizes changed: stay at the bottom while following."""
        if self._following:
            self._view.scrollToBottom()

    def _set(self, following: bool) -> None:
        if following != self._following:
            self._following = following
            self.following_changed.emit(following)

    def _on_value_changed(self, _value: int) -> None:
        if not self._held:
            self.settle()

    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._following and not self._held:
            self._view.verticalScrollBar().setValue(maximum)

    def _on_rows_inserted(self, *_args: object) -> None:
        if self._following and not self._held:
            self._view.scrollToBottom()
