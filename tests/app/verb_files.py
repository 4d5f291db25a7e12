"""Files the tests of the everyday verbs attach, and what the composer shows of them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from tests.app.window import RealApp


def write_note(folder: Path, name: str = "note.txt", text: str = "bring water") -> Path:
    """A small text file."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def write_picture(path: Path, size: int = 8) -> QImage:
    """A small red PNG at ``path``; returns the image (to paste it too)."""
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.red)
    assert image.save(str(path))
    return image


def chips(chime: RealApp) -> list[str]:
    """The names of the files waiting above the message box."""
    return [f.name for f in chime.window.composer.attachments.files]
