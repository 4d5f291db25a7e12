"""MessageBar: the window's in-place feedback (deleted, restored, exported, could not ...). No I/O.

One message at a time, above the message box: a new one replaces the old (so "moved to the
trash" is gone once Undo says "restored"), it can carry one action button (Undo), a close button,
and it hides itself after a while; screen readers hear it (an Alert). The status bar keeps only
the session's state, the provider, the zone and link targets. The text is plain text, never HTML:
a message quotes what Chime did not write (a ``--session`` argument, a file's name, an error).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from ui.late_qt import alert
from ui.untrusted import plain


class MessageBar(QFrame):
    """A short message with an optional action; ``show_message`` replaces what is shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message-bar")
        self.label = plain(QLabel(self))  # errors and names quote text Chime did not write
        self.label.setObjectName("message-text")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action_button = QPushButton(self)
        self.action_button.setObjectName("message-action")
        self.close_button = QToolButton(self)
        self.close_button.setObjectName("message-close")
        self.close_button.setText("✕")
        self.close_button.setAccessibleName(self.tr("Dismiss the message"))
        self.close_button.setToolTip(self.tr("Dismiss"))
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 8, 6)
        row.setSpacing(8)
        row.addWidget(self.label, 1)
        row.addWidget(self.action_button)
        row.addWidget(self.close_button)
        self._action: QAction | None = None
        self._about_conversation = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self.action_button.clicked.connect(self._on_action_clicked)
        self.close_button.clicked.connect(self.dismiss)
        self.hide()

    def show_message(
        self,
        text: str,
        milliseconds: int = 8000,
        action: QAction | None = None,
        *,
        conversation: bool = False,
    ) -> None:
        """Show ``text`` (replacing any message) for ``milliseconds``; ``action`` adds its button.
        ``conversation``: it is about the conversation on screen, and goes when another is shown
        (``leave_conversation``)."""
        self._action = action
        self._about_conversation = conversation
        self.label.setText(text)
        self.setAccessibleName(text)
        if action is not None:
            self.action_button.setText(action.text().replace("&", "").removesuffix("…"))
        self.action_button.setVisible(action is not None)
        self.show()
        self._timer.start(max(1000, milliseconds))
        alert(self)

    def text(self) -> str:
        """The message shown ("" when dismissed)."""
        return "" if self.isHidden() else self.label.text()

    def leave_conversation(self) -> None:
        """Another conversation is shown: a message about the one left goes."""
        if self._about_conversation:
            self.dismiss()

    def dismiss(self) -> None:
        self._about_conversation = False
        self._timer.stop()
        self._action = None
        self.hide()

    def _on_action_clicked(self) -> None:
        action = self._action
        self.dismiss()
        if action is not None:
            action.trigger()
