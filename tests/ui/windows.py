"""The main window as the transcript tests show it: built on a fixed clock, sized, on screen."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from PySide6.QtGui import QIcon

from ui.main_window import MainWindow


def clock() -> datetime:
    return datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def shown_window(qtbot: Any, width: int, height: int) -> MainWindow:
    """A main window of ``width`` × ``height``, shown and exposed (``qtbot`` closes it)."""
    shown = MainWindow(clock, QIcon())
    qtbot.addWidget(shown)
    shown.resize(width, height)
    shown.show()
    qtbot.waitExposed(shown)
    return shown
