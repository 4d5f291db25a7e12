"""Shared pieces of the OpenAI provider tests: a bounded runner, a collector, a request, a key."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from core.errors import ProviderError
from core.llm.messages import Finish, Message, ModelRequest, StreamChunk
from core.llm.openai_compat import OpenAICompatProvider
from tests.core.llm.loopback import LoopbackServer, Reply

T = TypeVar("T")
KEY = "sk-test-Zq7-very-secret-key"
TOOL = {
    "type": "function",
    "function": {
        "name": "schedule_create",
        "description": "Create a reminder.",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
    },
}
REQUEST = ModelRequest(
    system="You are Chime.",
    messages=(Message("user", "hello"),),
    tools=(TOOL,),
    time_context="Local time: 2026-07-15T14:00:00+02:00[Europe/Berlin]",
    time_zone="Europe/Berlin",
)


def run(scenario: Callable[[], Awaitable[T]]) -> T:
    """Runs one scenario on a fresh loop, bounded so a bug cannot hang the suite."""

    async def bounded() -> T:
        async with asyncio.timeout(5):
            return await scenario()

    return asyncio.run(bounded())


def provider_for(
    server_url: str, api_key: str | None = None, **options: Any
) -> OpenAICompatProvider:
    options.setdefault("max_retries", 2)
    options.setdefault("max_retry_delay", 0.0)
    options.setdefault("ask_server", False)  # the probes have their own tests (test_openai_servers)
    return OpenAICompatProvider(server_url, "test-model", api_key, **options)


async def collect(
    provider: OpenAICompatProvider, request: ModelRequest = REQUEST
) -> tuple[list[StreamChunk], ProviderError | None]:
    chunks: list[StreamChunk] = []
    try:
        async with contextlib.aclosing(provider.stream(request)) as stream:
            async for item in stream:
                chunks.append(item)  # noqa: PERF401 -- a loop keeps the chunks seen before a failure
    except ProviderError as error:
        return chunks, error
    return chunks, None


def exchange(
    script: list[Reply], api_key: str | None = None, request: ModelRequest = REQUEST, **options: Any
) -> tuple[list[StreamChunk], ProviderError | None, LoopbackServer]:
    async def scenario() -> tuple[list[StreamChunk], ProviderError | None, LoopbackServer]:
        async with LoopbackServer(script) as server:
            provider = provider_for(server.base_url, api_key, **options)
            chunks, error = await collect(provider, request)
            await provider.aclose()
        return chunks, error, server

    return run(scenario)


def final(chunks: list[StreamChunk]) -> Finish:
    assert chunks, "no chunks"
    last = chunks[-1]
    assert isinstance(last, Finish)
    assert sum(isinstance(c, Finish) for c in chunks) == 1
    return last
