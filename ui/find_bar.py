"""FindBar: find in conversation (Ctrl+F), a strip above the transcript. No I/O, no searching.

It only says what the user typed and asked for; the app searches the session (a
``core.session.find.FindJob`` run in slices, so a long session never freezes the window) and
hands back the count ("3 of 17", "12+" while still searching) and the current match, which the
transcript highlights and scrolls to. Enter or F3 goes to the next match, Shift+Enter or Shift+F3
to the previous one (both wrap), Esc closes the bar and its highlights.

Signals:
    query_changed(str): the text to find changed ("" when it was cleared).
    next_requested(): go to the next match.
    previous_requested(): go to the previous match.
    closed(): the bar was closed (Esc, ✕).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget


class FindBar(QFrame):
    """The find strip: its line edit (``edit``), the count, previous/next and close buttons."""

    query_changed = Signal(str)
    next_requested = Signal()
    previous_requested = Signal()
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("find-bar")
        self.edit = QLineEdit(self)
        self.edit.setObjectName("find-edit")
        self.edit.setPlaceholderText(self.tr("Find in this conversation"))
        self.edit.setAccessibleName(self.tr("Find in conversation"))
        self.edit.setClearButtonEnabled(True)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("find-count")
        self.count_label.setAccessibleName(self.tr("Matches"))
        self.count_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("888 of 8888+") + 8)
        self.previous_button = self._button(
            "find-previous", "↑", self.tr("Previous match (Shift+Enter)")
        )
        self.next_button = self._button("find-next", "↓", self.tr("Next match (Enter)"))
        self.close_button = self._button("find-close", "✕", self.tr("Close (Esc)"))
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 8, 6)
        row.setSpacing(6)
        row.addWidget(self.edit, 1)
        row.addWidget(self.count_label)
        row.addWidget(self.previous_button)
        row.addWidget(self.next_button)
        row.addWidget(self.close_button)
        self.edit.textChanged.connect(self.query_changed)
        self.edit.installEventFilter(self)
        self.previous_button.clicked.connect(self.previous_requested)
        self.next_button.clicked.connect(self.next_requested)
        self.close_button.clicked.connect(self.close_bar)
        self.hide()

    def _button(self, name: str, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName(name)
        button.setText(text)
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        return button

    def query(self) -> str:
        return self.edit.text()

    def set_query(self, text: str) -> None:
        """Put ``text`` in the bar (``query_changed`` follows when it differs)."""
        self.edit.setText(text)

    def open_bar(self) -> None:
        """Show the bar with its text selected, focused (Ctrl+F again re-selects it)."""
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def close_bar(self) -> None:
        if self.isVisible():
            self.hide()
            self.closed.emit()

    def set_count(self, text: str) -> None:
        """ "3 of 17", "12+" while searching, "No matches"; "" when there is nothing to find."""
        self.count_label.setText(text)
        self.count_label.setAccessibleDescription(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and isinstance(event, QKeyEvent):
            key = event.key()
            if event.type() == QEvent.Type.ShortcutOverride and key == Qt.Key.Key_Escape:
                event.accept()  # Esc closes the bar rather than stopping an answer
                return True
            if event.type() == QEvent.Type.KeyPress:
                return self._key(key, event.modifiers())
        return super().eventFilter(watched, event)

    def _key(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key == Qt.Key.Key_Escape:
            self.close_bar()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if modifiers & Qt.KeyboardModifier.ShiftModifier:
                self.previous_requested.emit()
            else:
                self.next_requested.emit()
            return True
        return False
