"""The OpenAI chat wire format, both ways. Pure: no I/O, no asyncio, no SDK or HTTP client.

A ``ModelRequest`` becomes a ``/chat/completions`` body (``chat_body``), shaped for the server
family's ``Quirks`` (``core.llm.compat``: the one place the families' differences live); streamed ``chat.completion.chunk`` objects merge into text pieces and one ``Finish``.
``core.llm.openai_compat`` (the network door) sends what this builds and feeds this what arrives.
Reasoning arrives in a delta field of its own (``reasoning_content``, or ``reasoning``) or as a
``<think>`` block in ``content`` (``core.reasoning``); both become ``ReasoningDelta`` pieces
and ``Finish.reasoning``, apart from the answer text.
Chunks are read by attribute and never trusted: anything missing or of the wrong type is skipped,
so the SDK's unvalidated chunk objects and plain test objects merge alike.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType, SimpleNamespace
from typing import Any, Literal

from core.events import FinishReason, TokenUsage, ToolCall
from core.llm.compat import Quirks, ToolContent
from core.llm.messages import Finish, Image, Message, ModelRequest, ReasoningDelta, TextDelta
from core.llm.text_calls import calls_in_text
from core.reasoning import Piece, ThinkSplitter, split_closing

FINISH_REASONS: Mapping[str, FinishReason] = MappingProxyType(
    {
        "stop": "stop",
        "length": "length",
        "tool_calls": "tool_calls",
        "function_call": "tool_calls",
        "content_filter": "stop",
    }
)
"""The server's finish reasons as the neutral ones; any other reason is ``stop``."""

StreamGap = Literal["unreadable", "empty", "ended_early"]
"""Why a stream that ended without a finish reason cannot be taken as an answer: a chunk had no
``choices`` list, no chunk arrived at all, or the chunks stopped before a finish reason."""

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


# ---------------------------------------------------------------- request mapping

ToolChoice = str | dict[str, Any]
"""``"auto"``, ``"required"``, or ``{"type": "function", "function": {"name": ...}}``."""


def chat_body(
    request: ModelRequest,
    quirks: Quirks,
    *,
    model: str,
    max_tokens: int | None,
    include_usage: bool,
    tool_choice: ToolChoice = "auto",
) -> dict[str, Any]:
    """The whole streamed ``/chat/completions`` body for ``request`` on a server of ``quirks``'s
    family. With tools, ``tool_choice`` is always sent (``"auto"`` unless told otherwise: a
    missing one is ``"none"`` to llama-cpp-python, which then hides the tools from the model),
    and the body is unstreamed where the family cannot stream a tool choice (read the answer
    with ``completion_as_chunk``)."""
    tools = to_openai_tools(request)
    streamed = quirks.streams_tools or not tools
    body: dict[str, Any] = {
        "model": model,
        "messages": to_openai_messages(request, tool_content=quirks.tool_content),
        "stream": streamed,
    }
    if tools:
        body["tools"] = tools
        body["tool_choice"] = tool_choice
    if include_usage and streamed:
        body["stream_options"] = {"include_usage": True}
    if max_tokens is not None:
        body[quirks.max_tokens_field] = max_tokens
    if request.temperature is not None:
        body["temperature"] = request.temperature
    return body


def to_openai_messages(
    request: ModelRequest, *, tool_content: ToolContent = "empty"
) -> list[dict[str, Any]]:
    """The ``messages`` array: system prompt, history, and the reading before the last user turn.
    Every text is made UTF-8-safe (``wire_text``). An assistant message with tool calls and no
    text carries ``tool_content`` (``""``, or ``null`` where the family documents it)."""
    history = [_message(m, tool_content) for m in request.messages]
    if request.time_context:
        reading = {"role": "system", "content": request.time_context}
        last_user = max(
            (i for i, m in enumerate(request.messages) if m.role == "user"), default=None
        )
        history.insert(len(history) if last_user is None else last_user, reading)
    head = [{"role": "system", "content": request.system}] if request.system else []
    return [_wired(m) for m in head + history]


def to_openai_tools(request: ModelRequest) -> list[dict[str, Any]]:
    """The ``tools`` array; a bare function schema is wrapped as ``{"type": "function"}``."""
    return [
        definition if "type" in definition else {"type": "function", "function": definition}
        for definition in request.tools
    ]


def with_text_calls(finish: Finish, request: ModelRequest, quirks: Quirks) -> Finish:
    """``finish`` with the tool calls its text writes out (``core.llm.text_calls``) made real,
    where the family leaves such calls unparsed, the request offered tools and the server sent
    none: reason ``tool_calls``, the text without the calls, ``calls_from_text`` set."""
    if finish.tool_calls or not request.tools or not quirks.text_calls:
        return finish
    found = calls_in_text(finish.text, request.tools)
    if found is None:
        return finish
    return replace(
        finish, text=found.text, tool_calls=found.calls, reason="tool_calls", calls_from_text=True
    )


def completion_as_chunk(completion: Any) -> Any:
    """A whole (unstreamed) ``chat.completion`` as the one chunk ``StreamMerge`` reads: each
    choice's ``message`` becomes its ``delta``. Read by attribute, never trusted, like a chunk."""
    choices = getattr(completion, "choices", None)
    return SimpleNamespace(
        model=getattr(completion, "model", None),
        usage=getattr(completion, "usage", None),
        choices=[
            SimpleNamespace(
                index=getattr(c, "index", 0),
                delta=getattr(c, "message", None),
                finish_reason=getattr(c, "finish_reason", None),
            )
            for c in choices
        ]
        if isinstance(choices, list)
        else None,
    )


def wire_text(text: str) -> str:
    """``text`` with each lone surrogate (a code point in U+D800..U+DFFF, which a ``\\ud800``
    escape in a model's JSON produces) replaced by U+FFFD. The SDK writes the request as UTF-8,
    which cannot carry them: one in the history made every later request of the session fail.
    Only the request is changed; the session keeps what the model sent."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def _wired(value: Any) -> Any:
    if isinstance(value, str):
        return wire_text(value)
    if isinstance(value, dict):
        return {key: _wired(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wired(item) for item in value]
    return value


def _message(message: Message, tool_content: ToolContent) -> dict[str, Any]:
    if message.role == "assistant":
        empty = None if message.tool_calls and tool_content == "null" else ""
        out: dict[str, Any] = {"role": "assistant", "content": message.text or empty}
        if message.tool_calls:
            out["tool_calls"] = [_tool_call(c) for c in message.tool_calls]
        return out
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.text}
    if message.images:
        parts: list[dict[str, Any]] = [{"type": "text", "text": message.text}]
        parts += [{"type": "image_url", "image_url": {"url": data_url(i)}} for i in message.images]
        return {"role": message.role, "content": parts}
    return {"role": message.role, "content": message.text}


def data_url(image: Image) -> str:
    """An image as the ``data:`` URL OpenAI-compatible servers take in an ``image_url`` part."""
    return f"data:{image.media_type};base64,{base64.b64encode(image.data).decode('ascii')}"


def _tool_call(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


# ---------------------------------------------------------------- stream merging


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


StreamPiece = TextDelta | ReasoningDelta
"""What one chunk adds that the window shows while it streams."""
REASONING_FIELDS = ("reasoning_content", "reasoning")
"""The delta fields servers stream reasoning in: DeepSeek, llama.cpp, vLLM and LM Studio name it
``reasoning_content``; newer vLLM and Ollama ``reasoning``. A chunk with both counts the first."""


class StreamMerge:
    """Folds ``chat.completion.chunk`` objects: text, reasoning, tool calls by index, usage,
    finish reason.

    Only choice 0 counts. ``size`` grows by one per chunk plus the characters of its text,
    reasoning and tool-call arguments, so the door can bound an answer that never stops (empty
    chunks included).
    """

    def __init__(self) -> None:
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._think = ThinkSplitter()
        self._calls: dict[int, _PartialCall] = {}
        self._finish_reason: str | None = None
        self._usage: TokenUsage | None = None
        self._model = ""
        self._unreadable = False
        self.size = 0

    @property
    def started(self) -> bool:
        """At least one chunk arrived."""
        return self.size > 0

    def feed(self, chunk: Any) -> list[StreamPiece]:
        """Takes one chunk; returns its new answer and reasoning pieces (never an empty one)."""
        self.size += 1
        self._model = _str(getattr(chunk, "model", None)) or self._model
        self._take_usage(getattr(chunk, "usage", None))
        choices = getattr(chunk, "choices", None)
        self._unreadable = self._unreadable or not isinstance(choices, list)
        pieces: list[StreamPiece] = []
        for choice in _list(choices):
            if getattr(choice, "index", 0) not in (0, None):
                continue
            pieces += self._take_delta(getattr(choice, "delta", None))
            reason = getattr(choice, "finish_reason", None)
            if isinstance(reason, str) and reason:
                self._finish_reason = reason
        return pieces

    def flush(self) -> list[StreamPiece]:
        """At the end of the stream: the content held back as a possible ``<think>`` tag."""
        return self._pieces(self._think.flush())

    def finish(self, fallback_model: str) -> Finish | StreamGap:
        """The step's ``Finish``, or why the chunks so far are not a whole answer. Tool calls
        under a ``stop`` reason make it ``tool_calls``; the chunks' model name wins over
        ``fallback_model``. Call ``flush`` first."""
        if self._finish_reason is None:
            if self._unreadable:
                return "unreadable"
            return "ended_early" if self.started else "empty"
        calls = self._tool_calls()
        reason = FINISH_REASONS.get(self._finish_reason, "stop")
        if calls and reason == "stop":
            reason = "tool_calls"
        text, reasoning = "".join(self._text), "".join(self._reasoning).strip()
        if not reasoning:
            split = split_closing(text)
            text, reasoning = split.answer, split.reasoning
        model = self._model or fallback_model
        return Finish(text, calls, reason, self._usage, model, reasoning)

    def cut(self, note: str, fallback_model: str) -> Finish:
        """The ``Finish`` of an answer stopped at its bound: the text so far plus ``note``, reason
        ``length``. Tool calls still open are dropped: their arguments are incomplete, and running
        them would act on a fragment."""
        text, reasoning = "".join(self._text) + note, "".join(self._reasoning).strip()
        model = self._model or fallback_model
        return Finish(text, (), "length", self._usage, model, reasoning)

    def _tool_calls(self) -> tuple[ToolCall, ...]:
        """The calls in index order, each with an id unique within this answer: a missing id is
        ``call_<index>``, a repeated one gets ``-<n>`` appended. Servers that reuse one id for
        several calls would otherwise give two results the same ``callId`` (ambiguous for the
        model, and refused by strict endpoints on every later request that carries the history)."""
        used: set[str] = set()
        return tuple(
            ToolCall(_unique(c.id or f"call_{i}", used), c.name, "".join(c.arguments))
            for i, c in sorted(self._calls.items())
        )

    def _take_delta(self, delta: Any) -> list[StreamPiece]:
        if delta is None:
            return []
        for position, call in enumerate(_list(getattr(delta, "tool_calls", None))):
            self._take_call(position, call)
        pieces: list[StreamPiece] = []
        thought = next(filter(None, (_str(getattr(delta, f, None)) for f in REASONING_FIELDS)), "")
        if thought:
            self.size += len(thought)
            self._reasoning.append(thought)
            pieces.append(ReasoningDelta(thought))
        content = getattr(delta, "content", None)
        if isinstance(content, str) and content:
            self.size += len(content)
            pieces += self._pieces(self._think.feed(content))
        return pieces

    def _pieces(self, split: list[Piece]) -> list[StreamPiece]:
        """The splitter's pieces as stream pieces, each kept in its own list."""
        pieces: list[StreamPiece] = []
        for piece in split:
            if piece.kind == "reasoning":
                self._reasoning.append(piece.text)
                pieces.append(ReasoningDelta(piece.text))
            else:
                self._text.append(piece.text)
                pieces.append(TextDelta(piece.text))
        return pieces

    def _take_call(self, position: int, call: Any) -> None:
        index = getattr(call, "index", None)
        if not isinstance(index, int):
            index = self._index_without_one(_str(getattr(call, "id", None)), position)
        partial = self._calls.setdefault(index, _PartialCall())
        partial.id = partial.id or _str(getattr(call, "id", None))
        function = getattr(call, "function", None)
        partial.name = partial.name or _str(getattr(function, "name", None))
        arguments = _str(getattr(function, "arguments", None))
        if arguments:
            self.size += len(arguments)
            partial.arguments.append(arguments)

    def _index_without_one(self, call_id: str, position: int) -> int:
        """Where an index-less piece belongs: its id's call, else a new call when it has an id,
        else the latest call (a continuation), else its position in the chunk."""
        for index, partial in self._calls.items():
            if call_id and partial.id == call_id:
                return index
        if call_id:
            return max(self._calls, default=-1) + 1
        return max(self._calls, default=position)

    def _take_usage(self, usage: Any) -> None:
        prompt = getattr(usage, "prompt_tokens", None)
        completion = getattr(usage, "completion_tokens", None)
        if isinstance(prompt, int) and isinstance(completion, int):
            self._usage = TokenUsage(prompt_tokens=prompt, completion_tokens=completion)


def _unique(call_id: str, used: set[str]) -> str:
    """``call_id``, or ``call_id-<n>`` with the smallest n ≥ 2 not in ``used``; marks it used."""
    candidate, n = call_id, 1
    while candidate in used:
        n += 1
        candidate = f"{call_id}-{n}"
    used.add(candidate)
    return candidate


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
