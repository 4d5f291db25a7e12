"""list_models (GET /models) against the loopback server, and the endpoint presets table."""

from __future__ import annotations

import pytest

from core.errors import ProviderError
from core.llm.presets import PRESETS, preset, preset_for_url
from tests.core.llm.loopback import Json, LoopbackServer, Reply, closed_port, error_body
from tests.core.llm.openai_kit import KEY, provider_for, run


def list_models(
    script: list[Reply], api_key: str | None = None
) -> tuple[list[str] | ProviderError, LoopbackServer]:
    async def scenario() -> tuple[list[str] | ProviderError, LoopbackServer]:
        async with LoopbackServer(script) as server:
            provider = provider_for(server.base_url, api_key, max_retries=0)
            try:
                result: list[str] | ProviderError = await provider.list_models()
            except ProviderError as error:
                result = error
            await provider.aclose()
        return result, server

    return run(scenario)


def models_body(*ids: str) -> dict[str, object]:
    return {"object": "list", "data": [{"id": i, "object": "model", "owned_by": "me"} for i in ids]}


def test_the_model_list_is_the_unique_ids_sorted() -> None:
    result, server = list_models([Json(200, models_body("qwen3:8b", "llama3.2", "qwen3:8b"))], KEY)

    assert result == ["llama3.2", "qwen3:8b"]
    (received,) = server.received
    assert (received.method, received.path) == ("GET", "/v1/models")
    assert received.headers["authorization"] == f"Bearer {KEY}"


def test_an_empty_model_list_is_empty() -> None:
    result, _ = list_models([Json(200, models_body())])

    assert result == []


def test_entries_without_a_string_id_are_skipped() -> None:
    body = {"object": "list", "data": [{"id": 7}, {"name": "x"}, {"id": "ok"}]}

    result, _ = list_models([Json(200, body)])

    assert result == ["ok"]


@pytest.mark.parametrize(
    ("reply", "kind", "words"),
    [
        (Json(401, error_body("no")), "auth", "requires an API key"),
        (Json(404, error_body("no route")), "not_found", "no model list"),
        (Json(500, error_body("boom")), "server", "(500)"),
        (
            Json(200, raw=b"<html>hello</html>", headers={"Content-Type": "text/html"}),
            "bad_response",
            "OpenAI format",
        ),
        (Json(200, {"object": "list", "data": "nope"}), "bad_response", "OpenAI format"),
    ],
)
def test_a_failed_model_list_says_what_to_fix(reply: Reply, kind: str, words: str) -> None:
    result, _ = list_models([reply])

    assert isinstance(result, ProviderError)
    assert result.kind == kind
    assert words in result.message


def test_a_model_list_from_a_closed_port_is_a_connection_failure() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"

    async def scenario() -> ProviderError | None:
        provider = provider_for(url, max_retries=0)
        try:
            await provider.list_models()
        except ProviderError as error:
            return error
        finally:
            await provider.aclose()
        return None

    error = run(scenario)

    assert error is not None
    assert error.kind == "connection"
    assert url in error.message


def test_every_preset_has_a_unique_key_and_a_v1_url_except_custom() -> None:
    assert len({p.key for p in PRESETS}) == len(PRESETS)
    for entry in PRESETS:
        assert entry.base_url.endswith("/v1") or entry.key == "custom"
        assert entry.local == entry.base_url.startswith("http://localhost:")


@pytest.mark.parametrize(
    ("key", "url", "needs_key"),
    [
        ("ollama", "http://localhost:11434/v1", False),
        ("lmstudio", "http://localhost:1234/v1", False),
        ("llamacpp", "http://localhost:8080/v1", False),
        ("vllm", "http://localhost:8000/v1", False),
        ("openai", "https://api.openai.com/v1", True),
        ("deepseek", "https://api.deepseek.com/v1", True),
        ("custom", "", False),
    ],
)
def test_the_presets_name_the_documented_default_urls(key: str, url: str, needs_key: bool) -> None:
    entry = preset(key)

    assert entry is not None
    assert (entry.base_url, entry.needs_api_key) == (url, needs_key)


def test_a_url_maps_back_to_its_preset_or_to_custom() -> None:
    assert preset_for_url(" http://localhost:11434/v1/ ").key == "ollama"
    assert preset_for_url("https://api.deepseek.com/v1").key == "deepseek"
    assert preset_for_url("http://192.168.1.5:11434/v1").key == "custom"
    assert preset_for_url("").key == "custom"
    assert preset("nope") is None


def test_listing_models_after_the_provider_was_closed_is_cancelled() -> None:
    async def scenario() -> ProviderError | None:
        async with LoopbackServer([]) as server:
            provider = provider_for(server.base_url)
            await provider.aclose()
            try:
                await provider.list_models()
            except ProviderError as error:
                return error
        return None

    error = run(scenario)

    assert error is not None
    assert error.kind == "cancelled"
