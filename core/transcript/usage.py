"""What an answer's steps cost, summed over its turn. Pure: no I/O, no clock, no Qt.

Usage under an answer is summed over the model steps of its turn: prompt tokens and completion
tokens as the endpoint reported them for each step, and tokens per second over the time the model
spent writing: the completion tokens of the steps whose first text and end were both timed, over
the time between (a step without text, or whose text came whole, unstreamed, is not counted: it
was not seen being written; no rate when no step was). The wait for the turn's first text (the
steps before it included) is kept too, and how long the steps thought (their reasoning), so
the window tells thinking time from the wait for the answer. It is shown under the row of the step that ends the turn (a
step without tool calls); nothing when no step reported usage.
"""

from __future__ import annotations

from core.events import AssistantMessage
from core.frozen import frozen, replace

MIN_WRITING_MS = 100
"""A step written faster than this (its text came whole) says nothing about the model's speed."""


@frozen
class TurnUsage:
    """Tokens an answer's steps cost (see the module docstring): ``written`` completion tokens
    over ``writing_ms`` (the steps timed from their first text to their end); ``first_text_ms``,
    how long the turn took to its first text (None: no text yet), and ``before_text_ms``, the
    steps before it (tool calls without words)."""

    prompt: int = 0
    completion: int = 0
    reported: bool = False
    written: int = 0
    writing_ms: int = 0
    before_text_ms: int = 0
    first_text_ms: int | None = None
    thought_ms: int = 0
    """How long its steps thought (their ``reasoningMs``), apart from the wait for words."""

    def plus(self, answer: AssistantMessage) -> TurnUsage:
        total, first = answer.duration_ms, answer.first_text_ms
        before, first_text = self.before_text_ms, self.first_text_ms
        if first_text is None and first is not None:
            first_text = before + first
        elif first_text is None and total is not None:
            before += total
        usage = answer.usage
        thought = self.thought_ms + (answer.reasoning_ms or 0)
        if usage is None:  # its time still counts towards the wait for the first words
            return replace(
                self, before_text_ms=before, first_text_ms=first_text, thought_ms=thought
            )
        written, writing = self.written, self.writing_ms
        if total is not None and first is not None and total - first >= MIN_WRITING_MS:
            written, writing = written + usage.completion_tokens, writing + total - first
        return TurnUsage(
            self.prompt + usage.prompt_tokens,
            self.completion + usage.completion_tokens,
            True,
            written,
            writing,
            before,
            first_text,
            thought,
        )

    @property
    def per_second(self) -> float | None:
        """Completion tokens per second while the model wrote; None when no step can tell."""
        return self.written * 1000 / self.writing_ms if self.writing_ms > 0 else None
