"""The window's own monochrome icons (``resources/icons``, reached as ``icons:<name>.svg``: the app
registers the search path), drawn in a colour of the palette so they follow the theme. No I/O of
its own: Qt reads the file through the search path.

Why not characters: a desktop without a colour-emoji font (common on Linux; the bundle ships none)
draws 📎 as an empty box."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

SEARCH_PREFIX = "icons"
"""The ``QDir`` search path prefix the app registers for ``resources/icons``."""


def tinted(name: str, color: QColor, size: int, ratio: float = 1.0) -> QIcon:
    """The icon ``name`` (``paperclip``) ``size`` device-independent pixels square, in
    ``color``, sharp at the screen's pixel ``ratio``."""
    side = max(1, round(size * ratio))
    pixmap = QIcon(f"{SEARCH_PREFIX}:{name}.svg").pixmap(side, side)
    if pixmap.isNull():  # the file is missing: an empty icon, never a crash
        return QIcon()
    painter = QPainter(pixmap)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    painter.fillRect(pixmap.rect(), color)
    painter.end()
    pixmap.setDevicePixelRatio(ratio)
    icon = QIcon()
    for mode in (QIcon.Mode.Normal, QIcon.Mode.Active, QIcon.Mode.Selected):
        icon.addPixmap(pixmap, mode)
    faded = QPixmap(pixmap)
    faded.fill(Qt.GlobalColor.transparent)
    painter = QPainter(faded)
    painter.setOpacity(0.45)
    painter.drawPixmap(0, 0, pixmap)
    painter.end()
    icon.addPixmap(faded, QIcon.Mode.Disabled)
    return icon
