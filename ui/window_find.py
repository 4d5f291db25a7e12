"""FindInConversation: the window's find in the conversation on screen (Ctrl+F, F3, Shift+F3).
No I/O, no searching: the app searches and hands back what it found (``show``).

The find bar (``ui.find_bar``) is built, above the transcript, the first time it is needed. F3 /
Shift+F3 open it when it is closed, else step through the matches. A session found by its
messages in the sidebar opens with the sidebar's words in the bar (``remember`` before it shows,
``open_remembered`` once it shows).

Signals:
    changed(str): the bar's text (the app searches the session on screen for it).
    next(), previous(): go to the next or previous match.
    closed(): the bar closed (the search ends).
    built(): the bar was built (the window puts it into its tab order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from ui.transcript_view import TranscriptView

if TYPE_CHECKING:  # imported when the bar is first built
    from ui.find_bar import FindBar


class FindInConversation(QObject):
    """The find bar's life and the window's find verbs (see the module docstring)."""

    changed = Signal(str)
    next = Signal()
    previous = Signal()
    closed = Signal()
    built = Signal()

    def __init__(self, column: QVBoxLayout, above: QWidget, transcript: TranscriptView) -> None:
        super().__init__(transcript)
        self._column, self._above, self._transcript = column, above, transcript
        self._bar: FindBar | None = None
        self._remembered = ""
        """Words a session was found by in the sidebar: its bar opens with them once shown."""

    @property
    def bar(self) -> FindBar:
        """The find strip above the transcript (built the first time it is needed)."""
        if self._bar is None:
            from ui.find_bar import FindBar

            bar = self._bar = FindBar(self._column.parentWidget())
            self._column.insertWidget(self._column.indexOf(self._above) + 1, bar)
            bar.closed.connect(self._on_closed)
            bar.closed.connect(self.closed)
            bar.query_changed.connect(self.changed)
            bar.next_requested.connect(self.next)
            bar.previous_requested.connect(self.previous)
            self.built.emit()
        return self._bar

    def tab_widgets(self) -> tuple[QWidget, ...]:
        """The bar's widgets in tab order (none before it is built)."""
        bar = self._bar
        if bar is None:
            return ()
        return (bar.edit, bar.previous_button, bar.next_button, bar.close_button)

    def open(self) -> None:
        """Ctrl+F: show the bar (its text selected); the search runs again for what it holds."""
        reopened = self.bar.isHidden()
        self.bar.open_bar()
        if reopened and self.bar.query():
            self.bar.query_changed.emit(self.bar.query())

    def step_next(self) -> None:
        self._step(self.next)

    def step_previous(self) -> None:
        self._step(self.previous)

    def show(
        self, count: str, query: str, target: tuple[int, int] | None, *, scroll: bool = True
    ) -> None:
        """What the app found: the count ("3 of 17", "12+"), the text to highlight, and the
        current match (the seq of its message, which match in it), scrolled to when
        ``scroll``."""
        if self._bar is not None:
            self._bar.set_count(count)
        self._transcript.show_find(query, target, scroll=scroll)

    def query(self) -> str:
        """What the open bar searches for ("" while it is closed)."""
        bar = self._bar
        return bar.query() if bar is not None and bar.isVisible() else ""

    def first_visible_seq(self) -> int:
        """The seq of the message at the top of the transcript (-1: nothing is shown): a search
        chooses its first match from there."""
        return self._transcript.first_visible_seq()

    def close(self) -> None:
        """Another conversation is about to be shown: an open bar closes, keeping its words for
        the next Ctrl+F."""
        if self._bar is not None and self._bar.isVisible():
            self._bar.close_bar()

    def remember(self, words: str) -> None:
        """The next session shown was found by these words: its bar opens with them."""
        self._remembered = words

    def open_remembered(self) -> None:
        """A session shows: open the bar with the remembered words, if any (the app searches
        them when told the session shows)."""
        if self._remembered:
            self.bar.set_query(self._remembered)
            self.bar.open_bar()
            self._remembered = ""

    def _step(self, step: SignalInstance) -> None:
        if self._bar is None or self._bar.isHidden():
            self.open()
        else:
            step.emit()

    def _on_closed(self) -> None:
        self._transcript.show_find("", None)
        bar, focused = self._bar, QApplication.focusWidget()
        if bar is not None and focused is not None and bar.isAncestorOf(focused):
            self._transcript.setFocus(Qt.FocusReason.OtherFocusReason)  # Esc in the bar
