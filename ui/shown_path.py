"""The conversation tree as the transcript reads it: ``core.transcript.path`` (kept under this
name for the widgets that take a ``ShownConversation``)."""

from __future__ import annotations

from core.transcript.path import EVERYTHING, PathView, ShownConversation, restructures

__all__ = ["EVERYTHING", "PathView", "ShownConversation", "restructures"]
