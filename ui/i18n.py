"""Marks for pyside6-lupdate (scripts/translations.py), typed stand-ins for PySide6's own, and
which language a setting means. No I/O.

``QT_TRANSLATE_NOOP(context, text)`` and ``QT_TR_NOOP(text)`` mark a string kept in a table for
translation and return it unchanged; it is translated where it is shown, with
``QCoreApplication.translate(context, text)`` and the same context (``QT_TR_NOOP`` at module
level: context ""). PySide6's versions are typed as returning ``object``; lupdate reads the names,
not where they come from.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QLocale

from core.frozen import frozen

TRANSLATED = ("de",)
"""The languages Chime ships a translation for besides English (resources/i18n/chime_<lang>.qm)."""
LANGUAGES = (("en", "English"), ("de", "Deutsch"))
"""Each language Chime speaks by its own name (never translated)."""


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    del context
    return text


def QT_TR_NOOP(text: str) -> str:
    return text


_PLACE = re.compile(r"%([1-9])")


@frozen
class Sentence:
    """Words made before the translators are installed, translated when they are shown: the
    settings file is read before its ``language`` is known. ``source`` is marked with
    ``QT_TRANSLATE_NOOP(context, ...)`` where it is written; ``%1``…``%9`` stand for ``args``
    (values such as file names and system error texts, which are not translated)."""

    context: str
    source: str
    args: tuple[str, ...] = ()

    def text(self) -> str:
        """The sentence in the installed language (English without a translator), the values
        put in at once so that a value holding "%2" is not filled in again."""

        return fill(QCoreApplication.translate(self.context, self.source), self.args)


def fill(text: str, args: tuple[str, ...]) -> str:
    """``text`` (translated) with ``%1``…``%9`` replaced by ``args`` at once, so that a value
    holding "%2" is not filled in again; a place without a value stays as it is."""

    def value(place: re.Match[str]) -> str:
        n = int(place[1])
        return args[n - 1] if n <= len(args) else place[0]

    return _PLACE.sub(value, text)


def chosen_language(setting: str, system: QLocale) -> str:
    """``en`` or one of ``TRANSLATED``: the setting, or for ``system`` the system locale's
    language when Chime is translated into it (English otherwise)."""
    if setting != "system":
        return setting
    language = system.name().split("_", 1)[0]
    return language if language in TRANSLATED else "en"
