"""The import's file question and its progress dialog (``ImportProgress``). No I/O.

The progress dialog is window-modal: it shows how much of the file was read and how many
conversations so far, and its Cancel button (or Esc) asks the import to stop; the app closes it
when the import ends either way.

Signals:
    cancel_requested(): the person pressed Cancel (or Esc, or closed the dialog).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

translate = QCoreApplication.translate


def ask_import_path(parent: QWidget) -> Path | None:
    """The file to import (ChatGPT's ``conversations.json`` or a Chime JSONL export), or None."""
    path, _selected = QFileDialog.getOpenFileName(
        parent,
        translate("ImportProgress", "Import conversations"),
        str(Path.home()),
        translate("ImportProgress", "ChatGPT export or Chime export (*.zip *.json *.jsonl)")
        + ";;"
        + translate("ImportProgress", "All files (*)"),
    )
    return Path(path) if path else None


class ImportProgress(QDialog):
    """How far the import of one file is (see the module docstring)."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget, name: str) -> None:
        super().__init__(parent)
        self.setObjectName("import-progress")
        self.setWindowTitle(self.tr("Importing conversations"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        self.label = QLabel(self.tr("Reading {name}…").format(name=name), self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.label)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setAccessibleName(self.tr("Import progress"))
        layout.addWidget(self.bar)
        self.count = QLabel("", self)
        layout.addWidget(self.count)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.rejected.connect(self._cancel)
        layout.addWidget(self.buttons)

    def set_progress(self, done: int, total: int, conversations: int) -> None:
        """``done`` of ``total`` bytes read, ``conversations`` read so far."""
        self.bar.setValue(min(1000, done * 1000 // total) if total > 0 else 0)
        self.count.setText(
            self.tr("%n conversation(s) read", "", conversations) if conversations else ""
        )

    def _cancel(self) -> None:
        if self.buttons.isEnabled():
            self.buttons.setEnabled(False)
            self.label.setText(self.tr("Cancelling… nothing is imported."))
            self.cancel_requested.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self._cancel()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.buttons.isEnabled():  # the window's close button cancels, as Esc does
            self._cancel()
            event.ignore()
            return
        super().closeEvent(event)

    def finish(self) -> None:
        """The import ended: close for good."""
        self.buttons.setEnabled(False)
        self.done(0)
