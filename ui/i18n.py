"""Marks for pyside6-lupdate (scripts/translations.py): typed stand-ins for PySide6's own.

``QT_TRANSLATE_NOOP(context, text)`` and ``QT_TR_NOOP(text)`` mark a string kept in a table for
translation and return it unchanged; it is translated where it is shown, with
``QCoreApplication.translate(context, text)`` and the same context (``QT_TR_NOOP`` at module
level: context ""). PySide6's versions are typed as returning ``object``; lupdate reads the names,
not where they come from.
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    del context
    return text


def QT_TR_NOOP(text: str) -> str:
    return text
