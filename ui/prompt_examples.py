"""The saved prompts offered until the library is first edited, in the window's language. No I/O.

Three examples (issue 21: "a few sensible examples on first run"): they show what saved prompts
are for and give ``/`` something to list on a first start. They are not written to settings.json
until the library is saved (``Settings.prompts`` stays None), so they follow the window's
language; saving the library, even emptied, makes it the user's own.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.prompts import SavedPrompt
from ui.i18n import QT_TRANSLATE_NOOP

EXAMPLES = (
    (
        QT_TRANSLATE_NOOP("PromptExamples", "Be brief"),
        QT_TRANSLATE_NOOP(
            "PromptExamples",
            "Answer in as few words as will do: no preamble, no summary, no offer to help further.",
        ),
        None,
    ),
    (
        QT_TRANSLATE_NOOP("PromptExamples", "Translator"),
        QT_TRANSLATE_NOOP(
            "PromptExamples",
            "Translate what I write into English, or into German when it is English. Give only "
            "the translation, keeping its tone and formatting.",
        ),
        0.3,
    ),
    (
        QT_TRANSLATE_NOOP("PromptExamples", "Code reviewer"),
        QT_TRANSLATE_NOOP(
            "PromptExamples",
            "Review the code I send: bugs first, then unclear names, missing tests and style, "
            "each with the lines it concerns and a concrete fix.",
        ),
        0.2,
    ),
)
"""The saved prompts offered until the library is first edited (in the window's language)."""


def example_prompts() -> tuple[SavedPrompt, ...]:
    translate = QCoreApplication.translate
    return tuple(
        SavedPrompt(translate("PromptExamples", name), translate("PromptExamples", text), t)
        for name, text, t in EXAMPLES
    )


def library(prompts: tuple[SavedPrompt, ...] | None) -> tuple[SavedPrompt, ...]:
    """The saved prompts in effect: the examples while the library was never edited (None)."""
    return example_prompts() if prompts is None else prompts
