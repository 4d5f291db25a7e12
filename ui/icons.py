"""The window's own monochrome icons (``resources/icons``, reached as ``icons:<name>.svg``: the app
registers the search path), drawn in a colour of the palette so they follow the theme. No I/O of
its own: Qt reads the file through the search path.

Why not characters: a desktop without a colour-emoji font (common on Linux; the bundle ships none)
draws 📎 as an empty box."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter

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
    # A rectangle drawn with the colour as its brush, not ``fillRect``: PySide6 weighs that call's
    # overloads by building QGradient's enum classes (~12 M instructions before the first paint).
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawRect(pixmap.rect())
    painter.end()
    pixmap.setDevicePixelRatio(ratio)
    icon = QIcon()
    for mode in (QIcon.Mode.Normal, QIcon.Mode.Active, QIcon.Mode.Selected):
        icon.addPixmap(pixmap, mode)
    faded = pixmap.copy()  # not QPixmap(pixmap): its overloads build QImage's enum classes
    faded.fill(Qt.GlobalColor.transparent)
    painter = QPainter(faded)
    painter.setOpacity(0.45)
    painter.drawPixmap(0, 0, pixmap)
    painter.end()
    icon.addPixmap(faded, QIcon.Mode.Disabled)
    return icon
