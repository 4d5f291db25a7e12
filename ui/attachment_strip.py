"""AttachmentStrip: the files added to the message being written, above the composer. No I/O.

Each file is a chip (a paperclip, "plan.md · 2 KB", ✕); ✕ removes it before sending. Its name is shown as
plain text with direction controls and line breaks written out (``core.visible_text``). The app stores the
file (``SessionPort.add_attachment``) when it is added, and hands the strip the record; a refused
file is never shown here (the window says why instead).

Signals:
    removed(str): the sha256 of the file the user took off the message.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from core.events import Attachment
from core.visible_text import visible_name
from ui.icons import tinted
from ui.untrusted import literal, plain
from ui.wrap_layout import WrapLayout

NAME_CHARS = 32
"""A longer file name is shortened in the middle on its chip (its tooltip has it whole)."""


def short_name(name: str) -> str:
    """``name`` at most ``NAME_CHARS`` long, cut in the middle ("a-very-lo…name.md")."""
    if len(name) <= NAME_CHARS:
        return name
    head = (NAME_CHARS - 1) // 2
    return name[:head] + "…" + name[-(NAME_CHARS - 1 - head) :]


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
        self._layout = WrapLayout(self)  # as many lines as the chips need, none squeezed
        self._layout.setContentsMargins(0, 0, 0, 0)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
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
        name = visible_name(attachment.name)  # the log may hold a name from before the rule
        clip = QLabel(chip)
        side = self.fontMetrics().height()
        color = self.palette().color(QPalette.ColorRole.Text)
        clip.setPixmap(tinted("paperclip", color, side, self.devicePixelRatioF()).pixmap(side))
        label = plain(QLabel(f"{short_name(name)} · {size_text(attachment.size)}", chip))
        label.setToolTip(literal(f"{name}\n{attachment.media_type}"))
        row.addWidget(clip)
        remove = QToolButton(chip)
        remove.setText("✕")
        remove.setAutoRaise(True)
        remove.setAccessibleName(self.tr("Remove {name}").format(name=name))
        remove.clicked.connect(lambda: self._remove(attachment.sha256))
        row.addWidget(label)
        row.addWidget(remove)
        self._layout.addWidget(chip)
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
            chip.hide()  # out of the layout at once (deleted on the next turn of the loop)
            chip.deleteLater()
        self._files = [f for f in self._files if f.sha256 != sha]
        self.setVisible(bool(self._files))
