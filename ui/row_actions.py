"""The per-message actions of the transcript (hover buttons and the row's context menu). No I/O.

One table, so the actions of a later issue (edit a message, regenerate an answer) are one row each
here: the footer of a message lays out a button per action that applies to its kind, the context
menu lists them, and the view emits ``TranscriptView.row_action(name, seq)`` for every action it
does not handle itself (``copy`` and ``copy_markdown`` are the view's own).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from ui.i18n import QT_TRANSLATE_NOOP

MESSAGE_KINDS = frozenset({"user", "assistant", "reminder"})


@dataclass(frozen=True, slots=True)
class RowAction:
    """``name`` is what the view emits; ``label`` and ``tip`` are marked with
    ``QT_TRANSLATE_NOOP("RowActions", …)`` and translated when shown; ``kinds`` are the row
    kinds whose footer shows it."""

    name: str
    label: str
    kinds: frozenset[str]
    tip: str = ""


ROW_ACTIONS: tuple[RowAction, ...] = (
    RowAction(
        "copy",
        QT_TRANSLATE_NOOP("RowActions", "Copy"),
        MESSAGE_KINDS,
        QT_TRANSLATE_NOOP("RowActions", "Copy this message as plain text (Ctrl+Shift+C)"),
    ),
)


def actions_for(kind: str) -> tuple[RowAction, ...]:
    return tuple(action for action in ROW_ACTIONS if kind in action.kinds)


def label(action: RowAction) -> str:
    return QCoreApplication.translate("RowActions", action.label)


def tip(action: RowAction) -> str:
    return QCoreApplication.translate("RowActions", action.tip) if action.tip else ""
