"""AttachmentStrip: the files added to the message being written, above the composer. No I/O.

Each file is a chip ("📎 plan.md · 2 KB ✕"); ✕ removes it before sending. The app stores the
file (``SessionPort.add_attachment``) when it is added, and hands the strip the record; a refused
file is never shown here (the window says why instead).

Signals:
    removed(str): the sha256 of the file the user took off the message.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from core.events import Attachment


def size_text(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / (1024 * 1024):.1f} MB"


class AttachmentStrip(QWidget):
    """The chips of the files waiting to be sent (hidden when there are none)."""

    removed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentStrip")
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)
        self._files: list[Attachment] = []
        self._chips: dict[str, QWidget] = {}
        self.setVisible(False)

    @property
    def files(self) -> tuple[Attachment, ...]:
        return tuple(self._files)

    def add(self, attachment: Attachment) -> None:
        if attachment.sha256 in self._chips:
            return  # the same content twice is one file
        chip = QWidget(self)
        chip.setObjectName("attachmentChip")
        chip.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)  # its border and background
        row = QHBoxLayout(chip)
        row.setContentsMargins(6, 2, 2, 2)
        label = QLabel(f"📎 {attachment.name} · {size_text(attachment.size)}", chip)
        label.setToolTip(attachment.media_type)
        remove = QToolButton(chip)
        remove.setText("✕")
        remove.setAutoRaise(True)
        remove.setAccessibleName(self.tr("Remove {name}").format(name=attachment.name))
        remove.clicked.connect(lambda: self._remove(attachment.sha256))
        row.addWidget(label)
        row.addWidget(remove)
        self._layout.insertWidget(self._layout.count() - 1, chip)
        self._files.append(attachment)
        self._chips[attachment.sha256] = chip
        self.setVisible(True)

    def take(self) -> tuple[Attachment, ...]:
        """The files, removed from the strip (the message was sent)."""
        files = self.files
        for sha in list(self._chips):
            self._drop(sha)
        return files

    def _remove(self, sha: str) -> None:
        self._drop(sha)
        self.removed.emit(sha)

    def _drop(self, sha: str) -> None:
        chip = self._chips.pop(sha, None)
        if chip is not None:
            chip.deleteLater()
        self._files = [f for f in self._files if f.sha256 != sha]
        self.setVisible(bool(self._files))
