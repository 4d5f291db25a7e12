"""Composer: the message editor with Send and Stop. No I/O: it only emits what the user asked.

Enter sends, Shift+Enter adds a line. While a turn runs, Send becomes "Queue" (the agent appends
the input at once and answers it after the running turn, agent.md §1) and Stop (Esc) is enabled.

Signals:
    submitted(str): the user sent this (non-blank) text.
    stop_requested(): the user asked to stop the running turn.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget


class ComposerEdit(QPlainTextEdit):
    """A plain-text editor where Enter submits and Shift+Enter inserts a newline.

    Signals:
        enter_pressed(): Enter without Shift.
        font_changed(): its font changed (a new text size): the composer keeps three lines.
    """

    enter_pressed = Signal()
    font_changed = Signal()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.font_changed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.enter_pressed.emit()
            return
        if enter:
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)


class Composer(QWidget):
    """Editor plus Send/Stop buttons.

    Signals:
        submitted(str): text to send (already stripped of surrounding blank lines).
        stop_requested(): Stop pressed.
    """

    submitted = Signal(str)
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self._busy = False
        self.editor = ComposerEdit(self)
        self.editor.setObjectName("composer-edit")
        self.editor.setAccessibleName(self.tr("Message"))
        self.editor.setPlaceholderText(self.tr("Message — try: remind me in 10 minutes to stretch"))
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(self._editor_height(3))
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setObjectName("composer-send")
        self.send_button.setAccessibleName(self.tr("Send message"))
        self.send_button.setDefault(False)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setObjectName("composer-stop")
        self.stop_button.setAccessibleName(self.tr("Stop the running answer"))
        self.stop_button.setToolTip(self.tr("Stop the running answer (Esc)"))
        self.stop_button.setEnabled(False)
        self._layout()
        self.editor.enter_pressed.connect(self.send)
        self.editor.font_changed.connect(self.set_text_height)
        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(self.stop_requested)
        self.editor.textChanged.connect(self._update_send)
        self._update_send()

    def _editor_height(self, lines: int) -> int:
        metrics = self.editor.fontMetrics()
        return metrics.lineSpacing() * lines + 16

    def _layout(self) -> None:
        buttons = QVBoxLayout()
        buttons.setSpacing(6)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 8, 12, 12)
        row.setSpacing(8)
        row.addWidget(self.editor, 1)
        row.addLayout(buttons)

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the draft (e.g. "Delete reminder schedule-3" from the reminders panel) and focus it."""
        self.editor.setPlainText(text)
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def send(self) -> None:
        """Submit the draft unless it is blank or the composer is disabled."""
        text = self.text().strip("\n ")
        if not text.strip() or not self.editor.isEnabled():
            return
        self.editor.clear()
        self.submitted.emit(text)

    def set_busy(self, busy: bool) -> None:
        """A turn is running: Send queues and Stop is enabled."""
        self._busy = busy
        self.stop_button.setEnabled(busy)
        self._update_send()

    def set_writable(self, writable: bool, reason: str = "") -> None:
        """Disable input for a read-only session (the reason becomes the placeholder)."""
        self.editor.setEnabled(writable)
        self.editor.setReadOnly(not writable)
        if writable:
            self.editor.setPlaceholderText(
                self.tr("Message — try: remind me in 10 minutes to stretch")
            )
        else:
            self.editor.setPlaceholderText(reason or self.tr("This session is read-only."))
        self._update_send()

    def set_text_height(self) -> None:
        """Three lines of the editor's font fit (after a new text size)."""
        self.editor.setFixedHeight(self._editor_height(3))

    def _update_send(self) -> None:
        self.send_button.setText(self.tr("Queue") if self._busy else self.tr("Send"))
        self.send_button.setEnabled(self.editor.isEnabled() and bool(self.text().strip()))
