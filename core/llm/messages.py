"""Provider-neutral request and stream types. Pure: frozen values, no I/O.

A request is the system prompt, the history as ``Message`` values, and the tool definitions.
A provider answers with a stream of ``StreamChunk`` values (``TextDelta`` answer text,
``ReasoningDelta`` thinking) ending in exactly one ``Finish``. A
tool call, its finish reason and the token usage are the session vocabulary's own values
(``core.events``): what a model sends is what the log records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from core.events import Attachment, FinishReason, TokenUsage, ToolCall

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class Image:
    """An image sent with a user message: its media type and bytes."""

    media_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the model's history.

    ``user``: ``text`` (``source_kind`` is ``user`` or ``plugin``; a plugin message is a reminder
    follow-up, and ``skipped`` its recurring reminders' skipped occurrences); ``attachments`` name
    its files (the history fold), which the turn turns into text inside ``text`` and ``images``
    before the request is sent (``core.agent.files``). ``assistant``: ``text`` and ``tool_calls``. ``tool``: ``text`` is the result given to
    the model, ``tool_call_id`` and ``name`` say which call it answers, ``is_error`` whether it failed.
    """

    role: Role
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    source_kind: Literal["user", "plugin"] = "user"
    skipped: tuple[tuple[str, int], ...] = ()
    attachments: tuple[Attachment, ...] = ()
    images: tuple[Image, ...] = ()


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """Everything one model step needs. ``tools`` are OpenAI-style function definitions."""

    system: str
    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...] = ()
    time_context: str | None = None
    """The turn's time-context reading (agent.md §4); providers send it as a system message."""
    time_zone: str | None = None
    """The zone of the reading, when known and unambiguous (the offline assistant resolves local
    times in it). None when the zone is unknown or mixed."""
    temperature: float | None = None
    """The session's sampling temperature (agent.md §7); None: the endpoint's default."""


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A piece of streamed answer text."""

    text: str


@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    """A piece of streamed reasoning (the model's thinking before its answer): shown apart from
    the answer, recorded in ``assistant/message.reasoning``, never sent back to the model."""

    text: str


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of one model step: the whole text, the merged tool calls and why it stopped.
    ``reasoning`` is the step's whole reasoning ("" when it had none); ``calls_from_text`` says
    the tool calls were recognised in the answer's text (``core.llm.text_calls``), not sent as
    ``tool_calls`` by the server."""

    text: str
    tool_calls: tuple[ToolCall, ...]
    reason: FinishReason
    usage: TokenUsage | None = None
    model: str = ""
    reasoning: str = ""
    calls_from_text: bool = False


StreamChunk = TextDelta | ReasoningDelta | Finish


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """Which provider and model answered: recorded in ``assistant/message.model``."""

    provider: str
    name: str
    extra: dict[str, Any] = field(default_factory=dict)
