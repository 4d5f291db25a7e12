"""RemindersDock: the reminders panel in its dock at the window's right. No I/O.

The dock is there from the start; the panel in it (``ui.reminders_panel``) is built when the dock
first shows or when it is asked for (``panel``): a start in a narrow window, where the dock is
folded into a toggle, does not build it. What the app hands over before then (the records, whether
the session writes) is kept and given to the panel when it is built.

Signals:
    built(): the panel was built (the window puts it into its tab order).
    ask_delete(str): the panel's Delete was chosen for this reminder (the window words a request).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from ui.screen import DeliveredView, ReminderView

if TYPE_CHECKING:  # imported when the panel is first built
    from ui.reminders_panel import RemindersPanel


class RemindersDock(QObject):
    """The dock (``dock``), its panel built when first needed (``panel``) and what it shows."""

    built = Signal()
    ask_delete = Signal(str)

    def __init__(self, window: QMainWindow, clock: Callable[[], datetime], bell: QIcon) -> None:
        super().__init__(window)
        self._clock, self._bell = clock, bell
        self._panel: RemindersPanel | None = None
        self._shown: tuple[Sequence[ReminderView], str | None, Sequence[DeliveredView]] = (
            (),
            None,
            (),
        )
        self._writable = True
        self.count = 0
        """How many reminders the session on screen has (the folded dock's toggle shows it)."""
        dock = self.dock = QDockWidget(
            QCoreApplication.translate("MainWindow", "Reminders"), window
        )
        dock.setObjectName("reminders-dock")
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        dock.setMinimumWidth(240)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.visibilityChanged.connect(self._on_visibility_changed)

    @property
    def panel(self) -> RemindersPanel:
        """The reminders panel in the dock (built when the dock first shows, or is asked for)."""
        if self._panel is None:
            from ui.reminders_panel import RemindersPanel

            panel = self._panel = RemindersPanel(self._clock, self._bell, self.dock)
            self.dock.setWidget(panel)
            panel.set_records(*self._shown)
            panel.set_writable(self._writable)
            panel.ask_delete.connect(self.ask_delete)
            self.built.emit()
        return self._panel

    def tab_widgets(self) -> tuple[QWidget, ...]:
        """The panel's widgets in tab order (none before it is built)."""
        panel = self._panel
        return () if panel is None else (panel.list, panel.delete_button)

    def set_records(
        self,
        records: Sequence[ReminderView],
        zone_name: str | None,
        delivered: Sequence[DeliveredView] = (),
    ) -> None:
        """The session's reminders (and the reminder turns delivered), shown in the panel."""
        self._shown = (tuple(records), zone_name, tuple(delivered))
        self.count = len(records)
        if self._panel is not None:
            self._panel.set_records(records, zone_name, delivered)

    def set_writable(self, writable: bool) -> None:
        """A read-only session's reminders cannot be deleted from the panel."""
        self._writable = writable
        if self._panel is not None:
            self._panel.set_writable(writable)

    def focus(self) -> None:
        self.panel.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_visibility_changed(self, visible: bool) -> None:
        if visible:
            self.panel  # noqa: B018  (built on access: the dock shows it now)
