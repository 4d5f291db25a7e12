"""Qt names with large enum classes, imported when first used rather than before the first paint.

PySide6 makes a Python enum class of every enum of a Qt class the first time the class is
imported, at ~1 ms a class and more for big ones: ``QAccessible`` (8 enums, ~190 members) cost
every start although only telling a screen reader about news needs it. (``QStyle``, bigger still,
is made anyway by the style sheet.) The widgets ask here instead. No I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import QObject


def alert(widget: QObject) -> None:
    """Tell screen readers that ``widget`` has news for the user (an accessible Alert)."""
    from PySide6.QtGui import QAccessible, QAccessibleEvent

    QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.Alert))
