"""The server families (``core.llm.compat``) through the real door on a loopback server: each
family's recorded routes and stream (``tests/data/servers/``, README there) give the request that
family accepts and the answer Chime reads from it; the probes, the empty answer told apart, and
Test connection's tool check."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from core.errors import ProviderError
from core.events import ToolCall
from core.llm.compat import QUIRKS
from core.llm.messages import Message, ModelRequest
from core.llm.openai_compat import OpenAICompatProvider, ToolCheck
from tests.core.llm.loopback import (
    Json,
    LoopbackServer,
    Reply,
    Silent,
    Sse,
    chunk,
    closed_port,
    model_list,
)
from tests.core.llm.openai_kit import TOOL, collect, final, run

SERVERS = Path(__file__).resolve().parents[2] / "data" / "servers"
FAMILIES = sorted(p.stem for p in SERVERS.glob("*.json"))
HISTORY = ModelRequest(
    system="You are Chime.",
    messages=(
        Message("user", "remind me in 10 minutes to stretch"),
        Message(
            "assistant",
            "",
            tool_calls=(
                ToolCall(
                    "call_0", "schedule_create", '{"prompt": "stretch", "after_seconds": 600}'
                ),
            ),
        ),
        Message("tool", '{"ok": true, "id": "schedule-1"}', tool_call_id="call_0"),
        Message("assistant", "I'll remind you to stretch in 10 minutes."),
        Message("user", "and in an hour to drink water"),
    ),
    tools=(TOOL,),
    time_context="Local time: 2026-07-15T14:00:00+02:00[Europe/Berlin]",
)
NOT_THERE = Json(404, {"detail": "Not Found"})


def record_of(family: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((SERVERS / f"{family}.json").read_text(encoding="utf-8"))
    return record


def routes_of(record: dict[str, Any]) -> dict[str, Reply]:
    """The record's fixed routes; every other probe path answers 404 as a real server does."""
    fixed = {path: Json(r["status"], r["body"]) for path, r in record["routes"].items()}
    return {"/props": NOT_THERE, "/api/": NOT_THERE, "/v1/models": NOT_THERE, **fixed}


def reply_of(record: dict[str, Any]) -> Reply:
    """The recorded answer: a stream, or a whole completion where the family is asked unstreamed."""
    return Json(200, record["completion"]) if "completion" in record else Sse(record["stream"])


async def _exchange(record: dict[str, Any]) -> tuple[Any, LoopbackServer, OpenAICompatProvider]:
    async with LoopbackServer([reply_of(record)], routes_of(record)) as server:
        provider = OpenAICompatProvider(
            server.base_url, record["model"], preset=record["preset"], max_retries=0
        )
        chunks, error = await collect(provider, HISTORY)
        await provider.aclose()
    assert error is None, error
    return chunks, server, provider


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_is_recognised_sent_the_request_it_accepts_and_its_answer_is_read(
    family: str,
) -> None:
    record = record_of(family)

    chunks, server, provider = run(lambda: _exchange(record))

    assert provider.quirks.family == family
    (chat,) = [r for r in server.received if r.path.endswith("/chat/completions")]
    assert chat.json() == record["request"]
    finish = final(chunks)
    calls = [[c.id, c.name, c.arguments] for c in finish.tool_calls]
    assert {"text": finish.text, "tool_calls": calls, "finish": finish.reason} == record["answer"]
    if family in ("openai", "deepseek"):  # hosted services are not probed
        assert [r.path for r in server.received] == ["/v1/chat/completions"]


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_reports_its_context_where_it_can_and_the_budget_follows(
    family: str,
) -> None:
    record = record_of(family)

    async def scenario() -> Any:
        async with LoopbackServer([], routes_of(record)) as server:
            provider = OpenAICompatProvider(
                server.base_url, record["model"], preset=record["preset"]
            )
            budget = await provider.budget()
            await provider.aclose()
        return budget

    budget = run(scenario)

    assert budget.context_tokens == record["context_tokens"]
    reported = QUIRKS[family].context_source != "none"
    assert budget.source == ("server" if reported else "default")
    assert budget.answer_tokens == record["request"].get(
        QUIRKS[family].max_tokens_field
    )  # what the answer may take is what is sent


def test_the_tool_call_message_carries_what_its_family_accepts() -> None:
    contents = {f: record_of(f)["request"]["messages"][2]["content"] for f in FAMILIES}

    assert contents.pop("openai") is None  # OpenAI documents null
    assert set(contents.values()) == {""}  # llama-cpp-python refuses null with a 500
    assert {record_of(f)["request"]["tool_choice"] for f in FAMILIES} == {"auto"}


def test_a_context_named_in_settings_wins_over_the_servers() -> None:
    record = record_of("llamacpp")

    async def scenario() -> Any:
        async with LoopbackServer([], routes_of(record)) as server:
            provider = OpenAICompatProvider(
                server.base_url, "m", preset="llamacpp", context_tokens=16384
            )
            budget = await provider.budget()
            await provider.aclose()
            return budget

    budget = run(scenario)

    assert (budget.context_tokens, budget.source, budget.answer_tokens) == (16384, "settings", 4096)


def test_a_preset_guess_is_corrected_by_what_the_server_says_it_is() -> None:
    listing = {"object": "list", "data": [{"id": "m.gguf", "object": "model", "owned_by": "me"}]}

    async def scenario() -> str:
        async with LoopbackServer([], {"/v1/models": Json(200, listing)}) as server:
            provider = OpenAICompatProvider(server.base_url, "m.gguf", preset="llamacpp")
            await provider.budget()
            await provider.aclose()
            return provider.quirks.family

    assert run(scenario) == "llamacpp-python"  # the llama.cpp preset, served by llama-cpp-python


def test_a_frozen_server_keeps_the_presets_family_and_default_after_one_bound() -> None:
    async def scenario() -> Any:
        async with LoopbackServer([Silent(), Silent(), Silent()]) as server:
            provider = OpenAICompatProvider(
                server.base_url, "m", preset="ollama", probe_timeout=0.05
            )
            budget = await provider.budget()
            await provider.aclose()
            return provider.quirks.family, budget

    family, budget = run(scenario)

    assert family == "ollama"
    assert (budget.context_tokens, budget.source) == (4096, "default")


def test_a_server_too_busy_to_say_what_it_is_is_asked_again_after_a_failed_step() -> None:
    record = record_of("llamacpp-python")
    listing = record["routes"]["/v1/models"]
    asked_models: list[int] = []
    streamed: list[bool] = []

    def decide(request: Any) -> Reply:
        if request.path.endswith("/models"):
            asked_models.append(1)
            # Still reading another prompt the first time: no answer within the bound.
            return Silent() if len(asked_models) == 1 else Json(listing["status"], listing["body"])
        if request.path.startswith(("/props", "/api/")):
            return NOT_THERE
        streamed.append(bool(request.json().get("stream")))
        if streamed[-1]:  # what it does when asked streamed with tools: a 200 and nothing
            return Sse([], done=False)
        return Json(200, record["completion"])

    async def scenario() -> tuple[ProviderError | None, Any, str]:
        async with LoopbackServer([], decide=decide) as server:
            provider = OpenAICompatProvider(
                server.base_url, "m", preset="llamacpp", probe_timeout=0.05, max_retries=0
            )
            _, error = await collect(provider, HISTORY)  # the llama.cpp guess: streamed
            chunks, _ = await collect(provider, HISTORY)  # asked again: llama-cpp-python
            await provider.aclose()
            return error, final(chunks), provider.quirks.family

    error, retried, family = run(scenario)

    assert error is not None
    assert error.kind == "bad_response"
    assert family == "llamacpp-python"
    assert streamed == [True, False]  # the retry was asked whole, as that server needs
    assert len(asked_models) == 3  # the probe, the empty answer's diagnosis, the probe again
    assert [call.name for call in retried.tool_calls] == ["schedule_create"]


# ---------------------------------------------------------------- an answer without events


def no_answer(models: Reply) -> ProviderError:
    """The error of a 200 answer without events, the door's GET /models answered by ``models``."""

    async def scenario() -> ProviderError | None:
        async with LoopbackServer([Sse([], done=False)], {"/v1/models": models}) as server:
            provider = OpenAICompatProvider(server.base_url, "m", ask_server=False, max_retries=0)
            _, error = await collect(provider, HISTORY)
            await provider.aclose()
        return error

    error = run(scenario)
    assert error is not None
    return error


def test_an_empty_answer_from_a_server_that_lists_its_models_names_the_context() -> None:
    error = no_answer(model_list("m"))

    assert error.kind == "bad_response"
    assert "longer than the model's context" in error.message
    assert error.failure is not None
    assert error.failure.code == "no_answer"
    assert "the context is 4,096 tokens, assumed: the server does not report it" in error.message
    assert "--n_ctx" in error.message


def test_an_empty_answer_from_a_server_that_is_no_api_says_to_check_the_base_url() -> None:
    error = no_answer(Json(200, {"html": "no"}))

    assert error.kind == "bad_response"
    assert "OpenAI-compatible API" in error.message
    assert "context" not in error.message


def test_an_empty_answer_from_a_server_that_then_stops_says_it_stopped() -> None:
    async def scenario() -> ProviderError | None:
        async def answer_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(EMPTY_STREAM)
            await writer.drain()
            server.close()  # gone before the door asks GET /models
            writer.close()

        server = await asyncio.start_server(answer_once, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        provider = OpenAICompatProvider(
            f"http://127.0.0.1:{port}/v1", "m", ask_server=False, max_retries=0
        )
        _, error = await collect(provider, HISTORY)
        await provider.aclose()
        await server.wait_closed()
        return error

    error = run(scenario)

    assert error is not None
    assert (error.kind, error.retryable) == ("connection", True)
    assert "stopped answering" in error.message
    assert error.failure is not None
    assert error.failure.code == "crashed"


EMPTY_STREAM = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 0\r\n"
    b"Connection: close\r\n\r\n"
)


# ---------------------------------------------------------------- Test connection's tool check


def tool_check(preset: str, replies: list[Reply]) -> tuple[ToolCheck, list[Any]]:
    async def scenario() -> tuple[ToolCheck, list[Any]]:
        routes = {"/v1/models": NOT_THERE, "/props": NOT_THERE, "/api/": NOT_THERE}
        async with LoopbackServer(replies, routes) as s:
            provider = OpenAICompatProvider(s.base_url, "m", preset=preset, max_retries=0)
            try:
                check = await provider.check_tools()
            finally:
                await provider.aclose()
        chats = [r.json() for r in s.received if r.path.endswith("/chat/completions")]
        return check, chats

    return run(scenario)


SAID_OK = Sse([chunk("OK", finish="length")])
CALLED = Sse(
    [
        chunk(tool_calls=[{"index": 0, "id": "p", "function": {"name": "chime_probe"}}]),
        chunk(finish="length"),
    ]
)


@pytest.mark.parametrize(
    ("preset", "choice", "max_tokens"),
    [
        ("openai", {"type": "function", "function": {"name": "chime_probe"}}, 1),
        ("llamacpp", "required", 64),
        ("ollama", "auto", 64),
    ],
)
def test_the_tool_probe_is_forced_as_the_family_allows_and_a_call_is_recognised(
    preset: str, choice: Any, max_tokens: int
) -> None:
    check, (chat, probe) = tool_check(preset, [SAID_OK, CALLED])

    assert check.calls_tools
    assert chat["max_tokens" if preset != "openai" else "max_completion_tokens"] == 1
    assert "tools" not in chat
    assert probe["tool_choice"] == choice
    assert probe.get("max_tokens", probe.get("max_completion_tokens")) == max_tokens
    assert [t["function"]["name"] for t in probe["tools"]] == ["chime_probe"]


def test_a_model_that_answers_the_probe_in_words_does_not_call_tools() -> None:
    check, _ = tool_check("ollama", [SAID_OK, Sse([chunk("Sure!", finish="stop")])])

    assert not check.calls_tools
    assert check.refusal == ""


def test_a_server_that_refuses_tools_does_not_call_tools_and_says_why() -> None:
    refusal = Json(400, {"error": {"message": "qwen:0.5b does not support tools"}})

    check, _ = tool_check("ollama", [SAID_OK, refusal])

    assert not check.calls_tools
    assert "does not support tools" in check.refusal


def test_a_chat_that_fails_fails_the_check_in_its_own_words() -> None:
    with pytest.raises(ProviderError) as failed:
        tool_check("ollama", [Json(401, {"error": {"message": "no"}})])

    assert failed.value.kind == "auth"


def test_a_probe_that_fails_otherwise_fails_the_check() -> None:
    with pytest.raises(ProviderError) as failed:
        tool_check("ollama", [SAID_OK, Json(401, {"error": {"message": "no"}})])

    assert failed.value.kind == "auth"


def test_a_chat_without_any_answer_fails_the_check() -> None:
    with pytest.raises(ProviderError):
        tool_check("ollama", [Sse([]), Sse([])])


def test_a_closed_port_is_unreachable_for_the_check() -> None:
    async def scenario() -> None:
        provider = OpenAICompatProvider(f"http://127.0.0.1:{closed_port()}/v1", "m", max_retries=0)
        try:
            await provider.check_tools()
        finally:
            await provider.aclose()

    with pytest.raises(ProviderError) as failed:
        run(scenario)
    assert failed.value.kind == "connection"
