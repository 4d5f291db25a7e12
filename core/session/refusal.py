"""Why a file cannot be attached (agent.md §7). Pure: a value only, so the session port can name
it without importing the attachment store, which does I/O."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a file cannot be attached: a sentence for the window."""

    reason: str
