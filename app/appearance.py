"""Look and feel: the QApplication's style, style sheet, icon, theme and text size. No I/O but
reading the bundled style sheet."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from app.paths import APP_NAME, resource
from app.settings import Settings

DARK = {
    QPalette.ColorRole.Window: "#25272b",
    QPalette.ColorRole.WindowText: "#e4e6ea",
    QPalette.ColorRole.Base: "#1b1c1f",
    QPalette.ColorRole.AlternateBase: "#2c2f34",
    QPalette.ColorRole.Text: "#e4e6ea",
    QPalette.ColorRole.Button: "#34373c",
    QPalette.ColorRole.ButtonText: "#e4e6ea",
    QPalette.ColorRole.BrightText: "#ffffff",
    QPalette.ColorRole.Highlight: "#3d6fd8",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.PlaceholderText: "#9a9ea6",
    QPalette.ColorRole.ToolTipBase: "#34373c",
    QPalette.ColorRole.ToolTipText: "#e4e6ea",
    QPalette.ColorRole.Link: "#7aa7ff",
    QPalette.ColorRole.Light: "#4a4d53",
    QPalette.ColorRole.Midlight: "#3d4046",
    QPalette.ColorRole.Mid: "#4a4d53",
    QPalette.ColorRole.Dark: "#151618",
    QPalette.ColorRole.Shadow: "#000000",
}
DARK_DISABLED = "#6b6f76"


def dark_palette() -> QPalette:
    """Fusion's colours for a dark scheme (Fusion does not darken itself on every platform)."""
    palette = QPalette()
    for role, color in DARK.items():
        palette.setColor(role, QColor(color))
    disabled = QPalette.ColorGroup.Disabled
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.PlaceholderText,
    ):
        palette.setColor(disabled, role, QColor(DARK_DISABLED))
    return palette


def effective_scheme(theme: str) -> Qt.ColorScheme:
    """Light or dark: the chosen theme, or the system's scheme for ``system``."""
    if theme == "dark":
        return Qt.ColorScheme.Dark
    if theme == "light":
        return Qt.ColorScheme.Light
    system = QGuiApplication.styleHints().colorScheme()
    return Qt.ColorScheme.Dark if system == Qt.ColorScheme.Dark else Qt.ColorScheme.Light


def apply_appearance(app: QApplication, settings: Settings) -> None:
    """Theme (system / light / dark, following QStyleHints for ``system``) and text size."""
    hints = QGuiApplication.styleHints()
    requested = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}
    hints.setColorScheme(requested.get(settings.theme, Qt.ColorScheme.Unknown))
    dark = effective_scheme(settings.theme) == Qt.ColorScheme.Dark
    style = app.style()
    app.setPalette(dark_palette() if dark else style.standardPalette())
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
