"""The API key never leaks: not in logs (ours, the SDK's, httpx2's), messages, repr or model info."""

from __future__ import annotations

import logging

import pytest

from core.errors import ProviderError
from core.llm.openai_compat import OpenAICompatProvider
from core.llm.provider import ModelProvider
from tests.core.llm.loopback import (
    Json,
    LoopbackServer,
    Reply,
    Sse,
    chunk,
    closed_port,
    error_body,
    model_list,
)
from tests.core.llm.openai_kit import KEY, collect, provider_for, run

LOGGERS = ("", "openai", "httpx2", "httpcore2", "core")


@pytest.mark.slow  # five exchanges with every transport logger at DEBUG: about 0.3 s
def test_the_key_appears_in_no_log_record_message_or_repr_during_a_whole_exchange(
    caplog: pytest.LogCaptureFixture,
) -> None:
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    echo = error_body(f"bad request from key {KEY}")
    script: list[Reply] = [
        Sse([chunk("hi", finish="stop")]),
        Json(500, error_body("boom")),
        model_list("m"),
        Json(404, {}),  # the door's GET /models after that answer without events
        Json(400, echo),
        Json(401, echo),
    ]

    async def scenario() -> list[str]:
        texts: list[str] = []
        async with LoopbackServer(script) as server:
            provider = provider_for(server.base_url, KEY, max_retries=1)
            texts += [repr(provider), repr(provider.info), str(provider.info)]
            for _ in range(3):
                _, error = await collect(provider)
                texts += [str(error), repr(error), getattr(error, "message", "")]
            try:
                await provider.list_models()
            except ProviderError as listing_error:
                texts += [str(listing_error), repr(listing_error)]
            await provider.aclose()
        refused = provider_for(f"http://127.0.0.1:{closed_port()}/v1", KEY, max_retries=0)
        _, refusal = await collect(refused)
        await refused.aclose()
        return [*texts, str(refusal)]

    texts = run(scenario)

    logged = {record.name.split(".")[0] for record in caplog.records}
    assert {
        "openai",
        "httpx2",
        "httpcore2",
    } <= logged  # the capture really saw the SDK and transport
    assert KEY not in caplog.text
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert KEY not in repr(record.args)
    assert any("[redacted]" in t for t in texts)  # the 400 echo was shown, scrubbed
    for text in texts:
        assert KEY not in text


def test_the_provider_satisfies_the_model_provider_protocol_and_names_itself() -> None:
    provider: ModelProvider = OpenAICompatProvider("http://localhost:11434/v1/", "llama3.2", KEY)

    assert provider.info.provider == "openai-compatible"
    assert provider.info.name == "llama3.2"
    assert provider.info.extra == {"baseUrl": "http://localhost:11434/v1"}
    assert "api_key=<set>" in repr(provider)
    assert "api_key=<none>" in repr(OpenAICompatProvider("http://localhost:11434/v1", "m"))
