"""Look and feel: the QApplication's style, palette, style sheet, icon, theme and text size. No I/O
but reading the bundled style sheet.

A theme applies live, to every widget, from one palette source (``ui.theme``): the palette of the
light or dark scheme is set on the application, then the style sheet is set again with that
palette's colours written into it (``ui.theme.style_sheet``), which re-polishes every widget; the
transcript repaints its rows from the new palette when it is told (a PaletteChange). The text size
is the application font's point size, set before the style sheet so every widget, the transcript's
rows and the message box follow it at once. ``system`` follows the desktop's colour scheme, also
when it changes while Chime runs (``SettingsFlow.follow_system_scheme``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QDir, Qt
from PySide6.QtGui import QFont, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from app.paths import APP_NAME, resource
from app.settings import Settings
from ui.icons import SEARCH_PREFIX
from ui.theme import Scheme, palette_for, style_sheet


def effective_scheme(theme: str) -> Qt.ColorScheme:
    """Light or dark: the chosen theme, or the system's scheme for ``system``."""
    if theme == "dark":
        return Qt.ColorScheme.Dark
    if theme == "light":
        return Qt.ColorScheme.Light
    system = QGuiApplication.styleHints().colorScheme()
    return Qt.ColorScheme.Dark if system == Qt.ColorScheme.Dark else Qt.ColorScheme.Light


def scheme_of(theme: str) -> Scheme:
    return "dark" if effective_scheme(theme) == Qt.ColorScheme.Dark else "light"


def apply_appearance(app: QApplication, settings: Settings) -> None:
    """Theme (system / light / dark) and text size, applied to every widget now."""
    hints = QGuiApplication.styleHints()
    requested = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}
    # Unknown gives the desktop its say again, so "system" reads the desktop's own scheme.
    hints.setColorScheme(requested.get(settings.theme, Qt.ColorScheme.Unknown))
    scheme = scheme_of(settings.theme)
    palette = palette_for(scheme)
    app.setPalette(palette)
    font = QFont(app.font())
    font.setPointSize(settings.text_size)
    app.setFont(font)
    apply_style_sheet(app, palette)


def apply_style_sheet(app: QApplication, palette: QPalette) -> None:
    """The bundled style sheet with ``palette``'s colours written in."""
    template = resource("style", "app.qss").read_text(encoding="utf-8")
    app.setStyleSheet(style_sheet(template, palette))


def make_application(argv: Sequence[str]) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    # Fusion from the command line: ``app.setStyle("Fusion")`` returns the style, and wrapping
    # it makes PySide6 build QStyle's enum classes before the first paint (~49 M instructions).
    return configured(QApplication([*argv, "-style", "Fusion"]), fusion_chosen=True)


def configured(app: QApplication, *, fusion_chosen: bool = False) -> QApplication:
    """``app`` named Chime (for the desktop, settings and the tray), with the window's icons
    found and the Fusion style (``fusion_chosen``: on its command line already)."""
    register_icons()
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    app.setDesktopFileName("chime")
    if not fusion_chosen:
        app.setStyle("Fusion")
    return app


def register_icons() -> None:
    """``icons:<name>.svg`` finds the window's own icons (``ui.icons``)."""
    QDir.addSearchPath(SEARCH_PREFIX, str(resource("icons")))


def load_style(app: QApplication) -> None:
    """The window icon and the style sheet for the light scheme (``apply_appearance`` then sets
    the chosen theme)."""
    apply_style_sheet(app, palette_for("light"))
    app.setPalette(palette_for("light"))
    set_window_icon(app)


def set_window_icon(app: QApplication) -> None:
    """Chime's icon on every window. A start sets only this before ``apply_appearance``: the light
    sheet ``load_style`` sets first would be replaced before any widget read it."""
    app.setWindowIcon(QIcon(str(resource("icons", "chime.svg"))))
