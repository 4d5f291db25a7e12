"""EditBar: the strip above the message box while a sent message is being edited. No I/O.

"Editing a message — Esc to cancel" with a Cancel button; the composer shows it while it is in edit
mode (``Composer.begin_edit``) and hides it when the edit is sent or cancelled.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


class EditBar(QFrame):
    """The edit mode's strip: its text and Cancel (``cancel_button``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("edit-bar")
        self.label = QLabel(self.tr("Editing a message — Esc to cancel"), self)
        self.label.setObjectName("edit-bar-text")
        self.label.setWordWrap(True)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("edit-bar-cancel")
        self.cancel_button.setAccessibleName(self.tr("Cancel the edit"))
        self.setAccessibleName(self.label.text())
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 12, 0)
        row.setSpacing(8)
        row.addWidget(self.label, 1)
        row.addWidget(self.cancel_button)
        self.hide()
