"""Look and feel: the QApplication's style, style sheet, icon, theme and text size. No I/O but
reading the bundled style sheet."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

from app.paths import APP_NAME, resource
from app.settings import Settings


def apply_appearance(app: QApplication, settings: Settings) -> None:
    """Theme (system / light / dark via QStyleHints) and text size."""
    scheme = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}.get(
        settings.theme, Qt.ColorScheme.Unknown
    )
    QGuiApplication.styleHints().setColorScheme(scheme)
    font = QFont(app.font())
    font.setPointSize(settings.text_size)
    app.setFont(font)


def make_application(argv: Sequence[str]) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication(list(argv))
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    app.setDesktopFileName("chime")
    app.setStyle("Fusion")
    return app


def load_style(app: QApplication) -> None:
    app.setStyleSheet(resource("style", "app.qss").read_text(encoding="utf-8"))
    app.setWindowIcon(QIcon(str(resource("icons", "chime.svg"))))
