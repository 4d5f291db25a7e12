"""The context budget in tokens: how long a request may be, and a token estimate. Pure: no I/O.

No tokenizer library is used: the model behind an OpenAI-compatible endpoint can be any model, and
the maintained tokenizer libraries either load the model's own tokenizer file from a hub at run
time (``tokenizers``) or know only OpenAI's encodings and download those (``tiktoken``). The
estimate is conservative instead: one token per 2.7 bytes of UTF-8 (``BYTES_PER_TOKEN_X10`` / 10),
rounded up, plus ``MESSAGE_OVERHEAD`` tokens per message for the chat template's role markers, plus
``TOOLS_OVERHEAD`` tokens when tools are sent (chat templates wrap the definitions in
instructions of their own). Measured on a real llama-cpp-python server (Gemma 3's tokenizer,
``chatml-function-calling``): Chime's system prompt and reading came to 653 tokens (estimate 756),
the same with the three reminder tools to 1,684 (estimate 1,886), English prose to 744 (estimate
1,223). Scripts that a tokenizer splits finely (one token per CJK character: three bytes) are
still counted in full. An attached text file counts as its bytes; an image as ``IMAGE_TOKENS``
(vision models take from about 256 to about 1,500 tokens for one image, by model and size).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from core.frozen import frozen
from core.llm.messages import Message

BYTES_PER_TOKEN_X10 = 27
MESSAGE_OVERHEAD = 8
TOOLS_OVERHEAD = 256
IMAGE_TOKENS = 1536
MIN_ANSWER_TOKENS = 256
MAX_ANSWER_TOKENS = 4096


@frozen
class TokenBudget:
    """A model's context window and the part of it kept for the answer (sent as ``max_tokens``).

    ``source`` says where ``context_tokens`` came from: ``server`` (the server reported it),
    ``settings`` (the user named it) or ``default`` (the server family's usual figure).
    """

    context_tokens: int
    answer_tokens: int
    source: str

    @property
    def prompt_tokens(self) -> int:
        """What the request (system prompt, tools, history) may take."""
        return max(0, self.context_tokens - self.answer_tokens)


def budget_for(context_tokens: int, source: str) -> TokenBudget:
    """The budget of a context window: a quarter of it for the answer, within 256..4096 tokens
    (never more than half the window)."""
    answer = max(MIN_ANSWER_TOKENS, min(MAX_ANSWER_TOKENS, context_tokens // 4))
    return TokenBudget(context_tokens, min(answer, max(1, context_tokens // 2)), source)


def text_tokens(text: str) -> int:
    """The conservative token estimate of ``text``."""
    return _bytes_tokens(
        len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    )


def message_tokens(message: Message) -> int:
    """The estimate of one history message: its text, its tool calls, its attachments, the
    template overhead."""
    calls = sum(text_tokens(c.name) + text_tokens(c.arguments) for c in message.tool_calls)
    files = sum(
        IMAGE_TOKENS if file.media_type.startswith("image/") else _bytes_tokens(file.size)
        for file in message.attachments
    )
    return MESSAGE_OVERHEAD + text_tokens(message.text) + calls + files


def _bytes_tokens(size: int) -> int:
    return -(-size * 10 // BYTES_PER_TOKEN_X10)


def messages_tokens(messages: Iterable[Message]) -> int:
    return sum(message_tokens(m) for m in messages)


def fixed_tokens(system: str, tools: Sequence[dict[str, Any]], reading: str | None) -> int:
    """The estimate of what every request carries besides the history: the system prompt, the
    tool definitions and the time-context reading."""
    tools_text = json.dumps(list(tools), ensure_ascii=False, separators=(",", ":")) if tools else ""
    readings = MESSAGE_OVERHEAD + text_tokens(reading) if reading else 0
    tooling = TOOLS_OVERHEAD + text_tokens(tools_text) if tools else 0
    return MESSAGE_OVERHEAD + text_tokens(system) + tooling + readings
