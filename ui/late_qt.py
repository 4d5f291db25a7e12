"""Qt names with large enum classes, imported when first used rather than before the first paint.

PySide6 makes a Python enum class of every enum of a Qt class the first time the class is
imported, at ~1 ms a class and more for big ones: ``QAccessible`` (8 enums, ~190 members) cost
every start although only telling a screen reader about news needs it. ``QStyle``, bigger still
(~49 M instructions), is made when an item is painted (``item_state``; an item's ``state`` is one
of its enums) or a style is handed to Python (``app.appearance`` picks Fusion on the command line
for that reason). The widgets ask here instead. No I/O.

A viewport Qt made has the same cost once: PySide6 finds the Python class of a widget C++ hands
back by loading every lazily loaded class of QtWidgets (~60 enum classes, a tenth of a cold
start), so the item views take a viewport made in Python (``own_viewport``), which it knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QStyle


def alert(widget: QObject) -> None:
    """Tell screen readers that ``widget`` has news for the user (an accessible Alert)."""
    from PySide6.QtGui import QAccessible, QAccessibleEvent

    QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.Alert))


def item_state() -> type[QStyle.StateFlag]:
    """The flags of a painted item's state (selected, focused): an empty list paints none."""
    from PySide6.QtWidgets import QStyle

    return QStyle.StateFlag


def own_viewport() -> QWidget:
    """A viewport like the one ``QAbstractItemView`` makes, made here (see the module
    docstring); give it to ``setViewport`` before anything asks for ``viewport()``."""
    viewport = QWidget()
    viewport.setObjectName("qt_scrollarea_viewport")
    viewport.setBackgroundRole(QPalette.ColorRole.Base)
    viewport.setForegroundRole(QPalette.ColorRole.Text)
    viewport.setAutoFillBackground(True)
    viewport.setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents)
    viewport.setMouseTracking(True)
    return viewport
