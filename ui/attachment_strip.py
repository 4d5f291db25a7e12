"""AttachmentStrip: the files added to the message being written, above the composer. No I/O.

Each file is a chip (a paperclip, or an image's picture, "plan.md · 2 KB", ✕); ✕ removes it
before sending, a click on the paperclip or picture (or Space on it) opens the file.
The pictures come from ``thumbnails`` (``ui.thumbnails.Thumbnails``, set by the app), which may
answer later (``pictures_arrived``); an image that cannot be shown keeps its paperclip and says
so in its tooltip. Its name is shown as
plain text with direction controls and line breaks written out (``core.visible_text``). The app stores the
file (``SessionPort.add_attachment``) when it is added, and hands the strip the record; a refused
file is never shown here (the window says why instead).

Signals:
    removed(str): the sha256 of the file the user took off the message.
    open_requested(str): the sha256 of the file the user asked to open.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPalette, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from core.events import Attachment
from core.visible_text import visible_name
from ui.icons import tinted
from ui.thumbnails import Thumbnails, no_thumbnails
from ui.untrusted import literal, plain
from ui.wrap_layout import WrapLayout

CHIP_PICTURE = 40
"""An image's picture on its chip, its largest side in pixels."""
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
    open_requested = Signal(str)

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
        self._openers: dict[str, QToolButton] = {}
        self.thumbnails: Thumbnails = no_thumbnails
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
        opener = QToolButton(chip)
        opener.setAutoRaise(True)
        opener.setAccessibleName(self.tr("Open {name}").format(name=name))
        opener.clicked.connect(lambda: self.open_requested.emit(attachment.sha256))
        label = plain(QLabel(f"{short_name(name)} · {size_text(attachment.size)}", chip))
        label.setToolTip(literal(f"{name}\n{attachment.media_type}"))
        row.addWidget(opener)
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
        self._openers[attachment.sha256] = opener
        self._show_picture(attachment)
        self.setVisible(True)

    def pictures_arrived(self) -> None:
        """New thumbnails are at hand: the chips of images show theirs."""
        for file in self._files:
            self._show_picture(file)

    def _show_picture(self, file: Attachment) -> None:
        """The chip's button: the image's picture, or the paperclip (not read yet, no image, or
        one that cannot be shown: its tooltip says so)."""
        opener = self._openers[file.sha256]
        name = visible_name(file.name)
        picture = self.thumbnails(file) if file.media_type.startswith("image/") else None
        tip = self.tr("Open {name}").format(name=name)
        if picture is not None and not picture.isNull():
            shown = QPixmap.fromImage(picture)
            size = shown.size().scaled(
                QSize(CHIP_PICTURE, CHIP_PICTURE), Qt.AspectRatioMode.KeepAspectRatio
            )
            opener.setIcon(QIcon(shown))
            opener.setIconSize(size)
        else:
            side = self.fontMetrics().height()
            color = self.palette().color(QPalette.ColorRole.Text)
            opener.setIcon(tinted("paperclip", color, side, self.devicePixelRatioF()))
            opener.setIconSize(QSize(side, side))
            if picture is not None:
                tip += "\n" + self.tr(
                    "The picture cannot be shown: its file is missing or damaged."
                )
        opener.setToolTip(literal(tip))

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
        self._openers.pop(sha, None)
        if chip is not None:
            chip.hide()  # out of the layout at once (deleted on the next turn of the loop)
            chip.deleteLater()
        self._files = [f for f in self._files if f.sha256 != sha]
        self.setVisible(bool(self._files))
