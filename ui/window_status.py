"""StatusLine: the window's status bar, the session's state, a failed save, the provider, the zone
and a hovered link's target. No I/O.

Its words keep the translation context of the class they came from (``MainWindow``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QLabel, QStatusBar

from ui.attachment_links import attachment_sha
from ui.untrusted import literal, plain


class StatusLine(QObject):
    """The status bar's labels: ``state`` and ``persistence`` at the left, ``provider`` and
    ``zone`` at the right; a hovered link's target replaces them while the mouse is on it."""

    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.bar = bar
        self.zone_label = self._label("status-zone")
        self.provider_label = self._label("status-provider")
        self.state_label = self._label("status-state")
        self.persistence_label = self._label("status-persistence")
        self.persistence_label.hide()
        bar.addWidget(self.state_label)
        bar.addWidget(self.persistence_label)
        bar.addPermanentWidget(self.provider_label)
        bar.addPermanentWidget(self.zone_label)

    def _label(self, name: str) -> QLabel:
        label = plain(QLabel(self.bar))
        label.setObjectName(name)
        return label

    def set_zone(self, zone_name: str | None) -> None:
        self.zone_label.setText(
            zone_name or QCoreApplication.translate("MainWindow", "zone unknown")
        )
        self.zone_label.setToolTip(
            QCoreApplication.translate("MainWindow", "The system time zone, sampled for each turn")
        )

    def set_provider(self, text: str) -> None:
        self.provider_label.setText(text)

    def set_state(self, state: str, detail: str = "") -> None:
        """``live``, ``cold``, ``read-only: open elsewhere`` or ``corrupt``."""
        self.state_label.setText(QCoreApplication.translate("MainWindow", "Session: ") + state)
        self.state_label.setToolTip(literal(detail))

    def set_persistence_warning(self, failed: bool) -> None:
        """Show or clear the warning that a save (persistence barrier) failed."""
        self.persistence_label.setText(
            QCoreApplication.translate(
                "MainWindow",
                "⚠ Could not save to disk — recent messages may be lost if the app closes now.",
            )
        )
        self.persistence_label.setVisible(failed)

    def show_link(self, url: str) -> None:
        """The target of the link under the mouse ("": the mouse left it); over an attached
        file, what a click does."""
        if attachment_sha(url):
            self.bar.showMessage(
                QCoreApplication.translate("MainWindow", "Click to open this file")
            )
        elif url:
            self.bar.showMessage(url)
        else:
            self.bar.clearMessage()
