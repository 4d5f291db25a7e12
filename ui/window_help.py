"""The window's Help and links: About, the shortcuts table and the question before a link opens.
No I/O.

A link opens in the system browser only after a question that shows its whole target; only
``http``, ``https`` and ``mailto`` links open at all. Their words keep the translation context of
the class they came from (``MainWindow``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget

from ui.actions import WindowActions
from ui.window_parts import ask_open_link, show_shortcuts

OPENABLE_SCHEMES = ("http", "https", "mailto")


class WindowHelp(QObject):
    """Help → About and Keyboard shortcuts, and opening links after asking.

    Signals:
        open_url_requested(str): the user confirmed opening this link.
        refused(str): a link of a kind Chime does not open (the sentence saying so).
    """

    open_url_requested = Signal(str)
    refused = Signal(str)

    def __init__(self, window: QWidget, actions: WindowActions) -> None:
        super().__init__(window)
        self._window, self._actions = window, actions
        self.version_of: Callable[[], str] = QApplication.applicationVersion
        """Chime's version, asked for when About opens (the application's, set at start)."""
        actions.action("shortcuts").triggered.connect(self.show_shortcuts)
        actions.action("about").triggered.connect(self.show_about)

    def show_shortcuts(self) -> None:
        """Every shortcut in a table (``ui.window_parts``)."""
        show_shortcuts(self._window, self._actions.shortcut_lines())

    def about_text(self) -> str:
        """About's text: the version first (and Qt's and Python's, for bug reports)."""
        from platform import python_version

        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import qVersion

        return QCoreApplication.translate(
            "MainWindow",
            "Chime {version}\n\nA chat app whose assistant can set reminders that come back as "
            "turns of the same conversation, while that conversation is open.\n\n"
            "Qt {qt} (PySide6 {pyside}), Python {python}",
        ).format(
            version=self.version_of()
            or QCoreApplication.translate("MainWindow", "(version unknown)"),
            qt=qVersion(),
            pyside=pyside_version,
            python=python_version(),
        )

    def show_about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(
            self._window, QCoreApplication.translate("MainWindow", "About Chime"), self.about_text()
        )

    def ask_open_link(self, url: str) -> None:
        """Show a link's whole target and open it in the browser only if the user says so."""
        from PySide6.QtCore import QUrl

        if QUrl(url).scheme().lower() not in OPENABLE_SCHEMES:
            self.refused.emit(
                QCoreApplication.translate(
                    "MainWindow", "Chime opens only web and e-mail links; not: {url}"
                ).format(url=url)
            )
            return
        ask_open_link(self._window, url, self.open_url_requested.emit)
