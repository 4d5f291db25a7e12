"""The verbs a transcript row offers: one decision, kept in the row (``TranscriptRow.verbs``) and
read by the painted buttons, the context menu and the keyboard. Pure: no I/O, no Qt.

A verb's name is what the view emits (``TranscriptView.row_action(name, seq)``) with the seq of
the input whose exchange the row belongs to; ``ui.row_actions`` holds their words. The verbs that
write to the session (``WRITES``) are not offered by a read-only one (``offered``).

Adding a verb: a member here, its place in ``verbs_of``, its words in ``ui.row_actions`` (and in
the view's menu labels), and the app's handler in ``app.verbs``.
"""

from __future__ import annotations

from enum import StrEnum


class Verb(StrEnum):
    COPY = "copy"
    EDIT = "edit"
    REGENERATE = "regenerate"
    CONTINUE = "continue"
    HIDE = "hide"
    RETRY = "retry"
    DISCARD = "discard"
    SETTINGS = "settings"
    SHOW = "show"
    PREVIOUS_VERSION = "version-previous"
    NEXT_VERSION = "version-next"
    SET_REMINDER = "set-reminder"


WRITES = frozenset(
    {
        Verb.EDIT,
        Verb.REGENERATE,
        Verb.CONTINUE,
        Verb.HIDE,
        Verb.RETRY,
        Verb.DISCARD,
        Verb.SHOW,
        Verb.PREVIOUS_VERSION,
        Verb.NEXT_VERSION,
        Verb.SET_REMINDER,
    }
)
FOOTER = (Verb.COPY, Verb.EDIT, Verb.CONTINUE, Verb.REGENERATE, Verb.HIDE)
"""The verbs shown as buttons in a message's footer, in this order."""
ENTER = (Verb.RETRY, Verb.SHOW, Verb.SET_REMINDER, Verb.CONTINUE)
"""The verbs Enter (or Space) runs on the current row, the first one offered."""


def verbs_of(
    kind: str, *, typed: bool = True, version: tuple[int, int] = (0, 0), cut: bool = False
) -> tuple[Verb, ...]:
    """What a row of ``kind`` offers: its version switcher's steps first (``version``: which of
    how many), then the rest in the order they are shown; an error row of a reminder's turn
    (``typed`` False) has nothing to edit; an answer that was stopped or cut by the model's
    length limit (``cut``, ``is_cut``) offers Continue."""
    number, count = version
    earlier = (Verb.PREVIOUS_VERSION,) if number > 1 else ()
    steps = (*earlier, *((Verb.NEXT_VERSION,) if 0 < number < count else ()))
    match kind:
        case "user":
            return (*steps, Verb.COPY, Verb.EDIT, Verb.HIDE)
        case "reminder":
            return (*steps, Verb.COPY, Verb.HIDE)
        case "assistant":
            return (
                (Verb.COPY, Verb.CONTINUE, Verb.REGENERATE) if cut else (Verb.COPY, Verb.REGENERATE)
            )
        case "error":
            edit = (Verb.EDIT,) if typed else ()
            return (Verb.RETRY, *edit, Verb.DISCARD, Verb.SETTINGS)
        case "hidden":
            return (Verb.SHOW,)
        case "unset":
            return (Verb.SET_REMINDER,)
        case _:
            return ()


def is_cut(finish: str, text: str, calls: int) -> bool:
    """An answer Continue can go on from: text that ended at Stop (``interrupted``) or at the
    model's length limit, without tool calls (agent.md §7)."""
    return finish in ("length", "interrupted") and calls == 0 and bool(text.strip())


def offered(verbs: tuple[Verb, ...], *, writable: bool) -> tuple[Verb, ...]:
    """``verbs`` less those that write when the session is read-only."""
    return verbs if writable else tuple(verb for verb in verbs if verb not in WRITES)


def on_enter(verbs: tuple[Verb, ...], *, writable: bool) -> Verb | None:
    """The verb Enter runs on a row (None: Enter does nothing there)."""
    return next((verb for verb in offered(verbs, writable=writable) if verb in ENTER), None)
