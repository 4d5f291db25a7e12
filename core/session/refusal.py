"""Why a file cannot be attached (agent.md §7). Pure: a value only, so the session port can name
it without importing the attachment store, which does I/O.

The engine names why (``code`` and its values, ``args``); the window says it in its language
(``ui.wording.refused_text``); ``reason`` is the English sentence (logs, and the words of a
refusal the app made already translated, which has no code).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RefusalCode(StrEnum):
    """Each reason the engine refuses a file for, with its ``args`` in order."""

    TOO_BIG = "too_big"
    """name, size in bytes, the text limit, the image limit"""
    TEXT_TOO_BIG = "text_too_big"
    """name, size in bytes, the text limit"""
    NOT_TEXT = "not_text"
    """name"""
    NOT_SAVED = "not_saved"
    """name, the system's error text"""


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a file cannot be attached: an English sentence, and (from the engine) its code and
    values for the window's words."""

    reason: str
    code: RefusalCode | None = None
    args: tuple[str | int, ...] = ()
