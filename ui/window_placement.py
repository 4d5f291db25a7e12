"""Placement: where the window is, kept across starts and fitted into its screen. No I/O.

The window is never smaller than ``MIN_SIZE`` (or its screen) and a saved geometry is fitted into
the screen it opens on; until the window manager has framed the window, a frame of
``FRAME_ALLOWANCE`` is assumed.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QMargins, QObject, QSize
from PySide6.QtWidgets import QWidget

from ui.window_parts import fit_rect

MIN_SIZE = QSize(640, 480)
FRAME_ALLOWANCE = QMargins(4, 32, 4, 4)
"""A title bar and borders, assumed until the window manager has framed the window."""
DEFAULT_SIZE = QSize(1100, 720)


class Placement(QObject):
    """The window's geometry: saved, restored, fitted into the screen."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        window.setMinimumSize(MIN_SIZE)
        window.resize(DEFAULT_SIZE)

    def saved(self) -> str:
        """The window's geometry and state as Qt saves it, base64 (for state.json)."""
        return bytes(self._window.saveGeometry().toBase64().data()).decode("ascii")

    def restore(self, saved: str) -> None:
        """Restore a saved geometry (base64), fitted into the screen the window opens on (call
        ``fit`` again once shown: only then is the frame's size known)."""
        if saved:
            self._window.restoreGeometry(QByteArray.fromBase64(saved.encode("ascii")))
        self.fit()

    def fit(self) -> None:
        """Keep the whole window on its screen: never larger than the available area (a scale
        factor makes the same pixels a bigger window), moved inside it when it sticks out."""
        window = self._window
        available = window.screen().availableGeometry()
        frame = window.frameGeometry()
        if frame == window.geometry():  # the window manager has not framed it yet: allow for it
            frame = frame.marginsAdded(FRAME_ALLOWANCE)
        extra = QSize(frame.width() - window.width(), frame.height() - window.height())
        window.setMinimumSize(
            min(MIN_SIZE.width(), available.width() - extra.width()),
            min(MIN_SIZE.height(), available.height() - extra.height()),
        )
        fitted = fit_rect(frame, available)
        if fitted.size() != frame.size():
            window.resize(fitted.width() - extra.width(), fitted.height() - extra.height())
        if fitted.topLeft() != frame.topLeft():
            window.move(fitted.topLeft())
