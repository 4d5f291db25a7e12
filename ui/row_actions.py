"""The per-message actions of the transcript (hover buttons and the row's context menu). No I/O.

One table, so each per-message action is one row here: the footer of a message lays out a button
per action that applies to its kind, the context menu lists them, and the view emits
``TranscriptView.row_action(name, seq)`` for every action it does not handle itself (``copy`` and
``copy_markdown`` are the view's own), with the seq of the input whose exchange the row belongs
to. Actions that write to the session (``writes``) are left out of a read-only one.

The conversation verbs (agent.md §7) are here too: Edit a message (and send it again), Regenerate
an answer, Hide an exchange from the model. The buttons of an error row (Retry, Edit, Discard,
Settings), of a hidden exchange's row (Show) and a message's version switcher ("‹ 2/3 ›") are
laid out by ``ui.row_layout``; their names are below.
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
    writes: bool = False


ROW_ACTIONS: tuple[RowAction, ...] = (
    RowAction(
        "copy",
        QT_TRANSLATE_NOOP("RowActions", "Copy"),
        MESSAGE_KINDS,
        QT_TRANSLATE_NOOP("RowActions", "Copy this message as plain text (Ctrl+Shift+C)"),
    ),
    RowAction(
        "edit",
        QT_TRANSLATE_NOOP("RowActions", "Edit"),
        frozenset({"user"}),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "Edit this message and send it again; the earlier version stays (Up in an empty "
            "message box edits the last one)",
        ),
        writes=True,
    ),
    RowAction(
        "regenerate",
        QT_TRANSLATE_NOOP("RowActions", "Regenerate"),
        frozenset({"assistant"}),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "Answer this message again; the earlier answer stays (Ctrl+Alt+R for the last answer)",
        ),
        writes=True,
    ),
    RowAction(
        "hide",
        QT_TRANSLATE_NOOP("RowActions", "Hide from the model"),
        frozenset({"user", "reminder"}),
        QT_TRANSLATE_NOOP(
            "RowActions",
            "Leave this message and its answer out of the view and of what the model is sent "
            "(Undo in the message bar; a thin row keeps its place, with Show)",
        ),
        writes=True,
    ),
)

# The names of the buttons ``ui.row_layout`` lays out itself (emitted as row actions too).
RETRY = "retry"
EDIT = "edit"
DISCARD = "discard"
SETTINGS = "settings"
SHOW = "show"
PREVIOUS_VERSION = "version-previous"
NEXT_VERSION = "version-next"


def actions_for(kind: str, *, writable: bool = True) -> tuple[RowAction, ...]:
    return tuple(
        action for action in ROW_ACTIONS if kind in action.kinds and (writable or not action.writes)
    )


def label(action: RowAction) -> str:
    return QCoreApplication.translate("RowActions", action.label)


def tip(action: RowAction) -> str:
    return QCoreApplication.translate("RowActions", action.tip) if action.tip else ""
