"""The window's language: Chime's own translation and Qt's, chosen once at start. No I/O but
reading the bundled ``.qm`` files.

``language`` in the settings is ``system`` (the desktop's locale), ``en`` or ``de``. A language
applies when Chime starts: the translators are installed before the first widget is built, so
every caption is translated once (desktop.md §3). English is the source language: its file holds
only the plural forms ("1 active reminder", "2 active reminders"). Qt's own translation (``qtbase_<lang>``, from Qt's translations folder) makes the standard
dialog buttons ("Cancel", "Save") follow Chime's language.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.paths import resource
from core.frozen import frozen
from ui.i18n import chosen_language


@frozen
class Installed:
    """What ``install_language`` changed: the language in effect (``en``, ``de``), its
    translators and the default locale before (``remove_language`` restores it)."""

    language: str
    translators: tuple[QTranslator, ...]
    previous_locale: QLocale


def language_for(setting: str, system: QLocale | None = None) -> str:
    """The language ``setting`` means (``en`` or a translated one), ``system`` standing in for the
    desktop's locale (``QLocale.system()`` when None)."""
    return chosen_language(setting, QLocale.system() if system is None else system)


def install_language(
    app: QCoreApplication, setting: str, system: QLocale | None = None
) -> Installed:
    """Install the translators for ``setting`` (``system`` reads ``QLocale.system()`` unless
    ``system`` is given). A language chosen in the settings also becomes the default locale (day
    and month names, digit grouping); ``system`` leaves the system's."""
    previous = QLocale()
    language = language_for(setting, system)
    if setting != "system":
        QLocale.setDefault(QLocale(language))
    installed: list[QTranslator] = []
    sources = [(f"chime_{language}", str(resource("i18n")))]
    if language != "en":
        qt = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        sources.append((f"qtbase_{language}", qt))
    for name, folder in sources:
        translator = QTranslator(app)
        # A missing Qt translation (a stripped Qt) leaves its buttons English, nothing more.
        if translator.load(name, folder) and app.installTranslator(translator):
            installed.append(translator)
    return Installed(language, tuple(installed), previous)


def remove_language(app: QCoreApplication, installed: Installed) -> None:
    """Undo ``install_language`` (the in-process tests start several windows)."""
    for translator in installed.translators:
        app.removeTranslator(translator)
        translator.deleteLater()
    QLocale.setDefault(installed.previous_locale)
