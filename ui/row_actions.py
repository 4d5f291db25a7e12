"""The words of the message footer's verbs (hover buttons and the row's context menu). No I/O.

Which verbs a row offers is decided once, in ``core.transcript.verbs`` (a field of the row,
``TranscriptRow.verbs``); here are only the label and tooltip of each verb shown as a footer
button (``FOOTER``), marked with ``QT_TRANSLATE_NOOP("RowActions", …)`` and translated when shown.
The view emits ``TranscriptView.row_action(name, seq)`` for every verb it does not handle itself
(``copy`` and ``settings`` are the view's own), with the seq of the input whose exchange the row
belongs to.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.frozen import frozen
from core.transcript.verbs import FOOTER, Verb, offered
from ui.i18n import QT_TRANSLATE_NOOP


@frozen
class RowAction:
    """A footer verb's words: ``label`` and ``tip`` (untranslated; see ``label``/``tip``)."""

    name: Verb
    label: str
    tip: str = ""


ROW_ACTIONS: tuple[RowAction, ...] = (
    RowAction(
        Verb.COPY,
        QT_TRANSLATE_NOOP("RowActions", "Copy"),
        QT_TRANSLATE_NOOP("RowActions", "Copy this message as plain text (Ctrl+Shift+C)"),
    ),
    RowAction(
        Verb.EDIT,
        QT_TRANSLATE_NOOP("RowActions", "Edit"),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "Edit this message and send it again; the earlier version stays (Up in an empty "
            "message box edits the last one)",
        ),
    ),
    RowAction(
        Verb.CONTINUE,
        QT_TRANSLATE_NOOP("RowActions", "Continue"),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "This answer was cut off (stopped, or at the model's length limit): ask the model "
            "to go on from where it stopped (Enter)",
        ),
    ),
    RowAction(
        Verb.REGENERATE,
        QT_TRANSLATE_NOOP("RowActions", "Regenerate"),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "Answer this message again; the earlier answer stays (Ctrl+Alt+R for the last answer)",
        ),
    ),
    RowAction(
        Verb.HIDE,
        QT_TRANSLATE_NOOP("RowActions", "Hide from the model"),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "Leave this message and its answer out of the view and of what the model is sent "
            "(Undo in the message bar; a thin row keeps its place, with Show)",
        ),
    ),
)
_BY_VERB = {action.name: action for action in ROW_ACTIONS}
assert tuple(_BY_VERB) == FOOTER  # every footer verb has its words, in the footer's order


def footer_actions(verbs: tuple[Verb, ...], *, writable: bool) -> tuple[RowAction, ...]:
    """The footer buttons of a row offering ``verbs``."""
    return tuple(_BY_VERB[verb] for verb in offered(verbs, writable=writable) if verb in _BY_VERB)


def label(action: RowAction) -> str:
    return QCoreApplication.translate("RowActions", action.label)


def tip(action: RowAction) -> str:
    return QCoreApplication.translate("RowActions", action.tip) if action.tip else ""
