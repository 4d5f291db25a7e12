"""Why a file was not attached, in the window's language: each ``core.session.refusal.RefusalCode``
as a translated sentence (context ``RefusalWords``). No I/O.

Here rather than in ``ui.wording`` because the widgets never import the session package; the app's
own refusals (``app.attach_flow``) are made in the window's language already and carry no code.
"""

from __future__ import annotations

from typing import assert_never

from PySide6.QtCore import QCoreApplication, QLocale

from core.session.refusal import RefusalCode, Refused
from ui.i18n import fill

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("RefusalWords", …)


def refused_text(refused: Refused) -> str:
    """Why a file was not attached; a refusal without a code (the app's own, already in the
    window's language) by its sentence."""
    a = refused.args
    match refused.code:
        case None:
            return refused.reason
        case RefusalCode.TOO_BIG:
            text = translate(
                "RefusalWords", "“%1” is %2: attachments are at most %3 for text and %4 for images."
            )
            return fill(text, (str(a[0]), _size(a[1]), _size(a[2]), _size(a[3])))
        case RefusalCode.TEXT_TOO_BIG:
            text = translate("RefusalWords", "“%1” is %2: text files are at most %3.")
            return fill(text, (str(a[0]), _size(a[1]), _size(a[2])))
        case RefusalCode.NOT_TEXT:
            text = translate(
                "RefusalWords",
                "“%1” is neither text nor a PNG, JPEG, GIF or WebP image, so it cannot be attached.",
            )
            return fill(text, (str(a[0]),))
        case RefusalCode.NOT_SAVED:
            return fill(
                translate("RefusalWords", "“%1” could not be saved (%2)."), (str(a[0]), str(a[1]))
            )
        case unexpected:
            assert_never(unexpected)


def _size(count: object) -> str:
    """``1.5 MB`` (``1,5 MB`` in German), ``256 KB``: a file's size as the refusal says it."""
    value = int(count) if isinstance(count, int) else 0
    if value < 1024 * 1024:
        return f"{max(1, round(value / 1024))} KB"
    megabytes = value / (1024 * 1024)
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return f"{megabytes:.1f} MB"
    return f"{locale.toString(megabytes, 'f', 1)} MB"
