"""OpenAICompatProvider against a real HTTP server on 127.0.0.1: streams, tool calls, failures."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from core.errors import ProviderError
from core.events import ToolCall
from core.llm.messages import Finish, Message, ModelRequest, StreamChunk, TextDelta
from core.llm.openai_compat import NO_KEY
from tests.core.llm.loopback import (
    Endless,
    Json,
    LoopbackServer,
    Reply,
    Silent,
    Sse,
    chunk,
    closed_port,
    error_body,
    usage_chunk,
)
from tests.core.llm.openai_kit import (
    KEY,
    REQUEST,
    TOOL,
    collect,
    exchange,
    final,
    provider_for,
    run,
)

# ---------------------------------------------------------------- success


def test_streamed_text_arrives_as_deltas_and_one_finish_with_the_whole_text() -> None:
    chunks, error, _ = exchange([Sse([chunk("Hel"), chunk("lo, "), chunk("world", finish="stop")])])

    assert error is None
    assert [c.text for c in chunks if isinstance(c, TextDelta)] == ["Hel", "lo, ", "world"]
    done = final(chunks)
    assert done.text == "Hello, world"
    assert done.reason == "stop"
    assert done.tool_calls == ()
    assert done.model == "test-model"


def test_two_parallel_tool_calls_interleaved_by_index_are_merged() -> None:
    first = [
        {
            "index": 0,
            "id": "call_a",
            "type": "function",
            "function": {"name": "schedule_create", "arguments": ""},
        }
    ]
    second = [
        {
            "index": 1,
            "id": "call_b",
            "type": "function",
            "function": {"name": "schedule_list", "arguments": '{"'},
        }
    ]
    events = [
        chunk(tool_calls=first),
        chunk(tool_calls=second),
        chunk(tool_calls=[{"index": 0, "function": {"arguments": '{"text": "str'}}]),
        chunk(tool_calls=[{"index": 1, "function": {"arguments": 'all": true}'}}]),
        chunk(tool_calls=[{"index": 0, "function": {"arguments": 'etch \\"now\\" ⏰"}'}}]),
        chunk(finish="tool_calls"),
    ]

    chunks, error, _ = exchange([Sse(events)])

    assert error is None
    done = final(chunks)
    assert done.reason == "tool_calls"
    assert done.tool_calls == (
        ToolCall("call_a", "schedule_create", '{"text": "stretch \\"now\\" ⏰"}'),
        ToolCall("call_b", "schedule_list", '{"all": true}'),
    )
    assert [c for c in chunks if isinstance(c, TextDelta)] == []


def test_the_usage_chunk_becomes_the_finish_usage() -> None:
    chunks, error, _ = exchange([Sse([chunk("ok", finish="stop"), usage_chunk(41, 7)])])

    assert error is None
    usage = final(chunks).usage
    assert usage is not None
    assert usage.to_json() == {"promptTokens": 41, "completionTokens": 7}


def test_the_length_finish_reason_is_kept() -> None:
    chunks, _, _ = exchange([Sse([chunk("cut sh", finish="length")])])

    assert final(chunks).reason == "length"


def test_the_request_body_carries_model_messages_tools_and_the_stream_flag() -> None:
    history = ModelRequest(
        system="You are Chime.",
        messages=(
            Message("user", "remind me"),
            Message(
                "assistant", "", tool_calls=(ToolCall("call_1", "schedule_create", '{"a":1}'),)
            ),
            Message("tool", "created schedule-1", tool_call_id="call_1", name="schedule_create"),
            Message("assistant", "Done."),
            Message("user", "thanks"),
        ),
        tools=(TOOL,),
        time_context="READING",
    )

    _, _, server = exchange([Sse([chunk("ok", finish="stop")])], api_key=KEY, request=history)

    (received,) = server.received
    assert (received.method, received.path) == ("POST", "/v1/chat/completions")
    assert received.headers["authorization"] == f"Bearer {KEY}"
    body = received.json()
    assert body["model"] == "test-model"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["tools"] == [TOOL]
    assert body["tool_choice"] == "auto"  # llama-cpp-python hides the tools without it
    assert body["max_tokens"] == 1024  # a quarter of the 4096 tokens assumed for a custom server
    assert body["messages"] == [
        {"role": "system", "content": "You are Chime."},
        {"role": "user", "content": "remind me"},
        {
            "role": "assistant",
            "content": "",  # llama-cpp-python refuses null here; every family takes ""
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "schedule_create", "arguments": '{"a":1}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "created schedule-1"},
        {"role": "assistant", "content": "Done."},
        {"role": "system", "content": "READING"},
        {"role": "user", "content": "thanks"},
    ]


def test_a_request_without_tools_sends_no_tools_field() -> None:
    bare = ModelRequest(system="", messages=(Message("user", "hi"),))

    _, _, server = exchange([Sse([chunk("ok", finish="stop")])], request=bare)

    body = server.received[0].json()
    assert "tools" not in body
    assert "tool_choice" not in body  # a choice without tools is refused by OpenAI
    assert body["messages"] == [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize("api_key", [None, KEY])
def test_the_environment_openai_identity_never_reaches_the_endpoint(
    monkeypatch: pytest.MonkeyPatch, api_key: str | None
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-key")
    monkeypatch.setenv("OPENAI_ADMIN_KEY", "sk-env-admin")
    monkeypatch.setenv("OPENAI_ORG_ID", "org-env")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-env")
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", "Authorization: Bearer sk-env-header\nX-Env: 1")

    _, error, server = exchange([Sse([chunk("ok", finish="stop")])], api_key=api_key)

    assert error is None
    headers = server.received[0].headers
    assert headers["authorization"] == f"Bearer {api_key or NO_KEY}"
    assert "x-env" not in headers
    assert "openai-organization" not in headers
    assert "openai-project" not in headers
    assert not any("env" in value for value in headers.values())


def test_a_server_that_rejects_stream_options_is_asked_again_without_them() -> None:
    rejection = Json(400, error_body("Unrecognized request argument supplied: stream_options"))
    script: list[Reply] = [
        rejection,
        Sse([chunk("ok", finish="stop")]),
        Sse([chunk("again", finish="stop")]),
    ]

    async def scenario() -> tuple[list[StreamChunk], list[StreamChunk], LoopbackServer]:
        async with LoopbackServer(script) as server:
            provider = provider_for(server.base_url)
            first, _ = await collect(provider)
            second, _ = await collect(provider)
            await provider.aclose()
        return first, second, server

    first, second, server = run(scenario)

    assert final(first).text == "ok"
    assert final(second).text == "again"
    bodies = [r.json() for r in server.received]
    assert [("stream_options" in b) for b in bodies] == [True, False, False]


def test_a_429_then_success_is_retried_transparently() -> None:
    chunks, error, server = exchange(
        [Json(429, error_body("slow down")), Sse([chunk("ok", finish="stop")])]
    )

    assert error is None
    assert final(chunks).text == "ok"
    assert len(server.received) == 2
    assert server.received[0].json() == server.received[1].json()


def test_a_long_retry_after_is_cut_to_the_configured_cap() -> None:
    # The SDK would honour 100 s; the 5 s bound of run() fails this test if the cap stops working.
    slow_down = Json(429, error_body("slow down"), headers={"Retry-After": "100"})

    chunks, error, server = exchange(
        [slow_down, Sse([chunk("ok", finish="stop")])], max_retry_delay=0.0
    )

    assert error is None
    assert final(chunks).text == "ok"
    assert len(server.received) == 2


# ---------------------------------------------------------------- failures


def test_a_401_with_a_key_says_the_key_was_rejected() -> None:
    _, error, _ = exchange([Json(401, error_body("Incorrect API key provided"))], api_key=KEY)

    assert error is not None
    assert error.kind == "auth"
    assert error.message == "The endpoint rejected the API key (401). Check the key in Settings."
    assert not error.retryable


def test_a_401_without_a_key_asks_for_one() -> None:
    _, error, _ = exchange([Json(401, error_body("missing key"))])

    assert error is not None
    assert error.kind == "auth"
    assert "requires an API key" in error.message


def test_a_403_is_an_auth_failure_that_quotes_the_server() -> None:
    _, error, _ = exchange([Json(403, error_body("model not enabled for project"))], api_key=KEY)

    assert error is not None
    assert error.kind == "auth"
    assert "(403)" in error.message
    assert "model not enabled for project" in error.message


def test_a_persistent_429_fails_as_rate_limit_after_the_bounded_retries() -> None:
    _, error, server = exchange([Json(429, error_body("slow down"))] * 3)

    assert error is not None
    assert error.kind == "rate_limit"
    assert error.retryable
    assert "429" in error.message
    assert "after 2 retries" in error.message
    assert len(server.received) == 3


def test_an_exhausted_quota_is_not_worth_retrying() -> None:
    no_quota = Json(429, error_body("You exceeded your current quota", code="insufficient_quota"))

    _, error, server = exchange([no_quota], api_key=KEY, max_retries=0)

    assert error is not None
    assert error.kind == "rate_limit"
    assert not error.retryable
    assert "quota" in error.message
    assert len(server.received) == 1


def test_a_500_is_retried_then_fails_as_a_server_error() -> None:
    _, error, server = exchange([Json(500, error_body("boom"))] * 3)

    assert error is not None
    assert error.kind == "server"
    assert error.retryable
    assert "(500)" in error.message
    assert '"boom"' in error.message
    assert len(server.received) == 3


def test_a_404_names_the_model_and_quotes_the_server() -> None:
    missing = Json(404, error_body("model 'test-model' not found, try pulling it first"))

    _, error, _ = exchange([missing])

    assert error is not None
    assert error.kind == "not_found"
    assert "'test-model'" in error.message
    assert "try pulling it first" in error.message


def test_a_400_is_reported_with_the_server_reason() -> None:
    _, error, _ = exchange([Json(400, error_body("test-model does not support tools"))])

    assert error is not None
    assert error.kind == "bad_response"
    assert "(400)" in error.message
    assert "does not support tools" in error.message


@pytest.mark.parametrize(
    "said",
    [
        "request (8144 tokens) exceeds the available context size (2048 tokens), try increasing it",
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000",
        "Requested tokens (5000) exceed context window of 2048",
    ],
    ids=["llama.cpp", "openai-vllm", "llama-cpp-python"],
)
def test_a_400_over_the_context_says_the_conversation_is_too_long_and_what_to_do(said: str) -> None:
    _, error, _ = exchange([Json(400, error_body(said))])

    assert error is not None
    assert error.kind == "too_long"
    assert error.message.startswith("The conversation is too long for this model's context (400).")
    assert "--n_ctx 8192" in error.message
    assert "tool calls" not in error.message
    assert said[:40] in error.message


def test_a_long_multiline_server_message_is_shortened_to_one_line() -> None:
    _, error, _ = exchange([Json(400, error_body("line one\nline two " + "x" * 500))])

    assert error is not None
    assert "\n" not in error.message
    assert len(error.message) < 400
    assert "line one line two" in error.message


def test_an_error_body_that_is_not_json_still_gives_a_readable_failure() -> None:
    _, error, _ = exchange(
        [Json(502, raw=b"<html>Bad Gateway</html>", headers={"Content-Type": "text/html"})] * 3
    )

    assert error is not None
    assert error.kind == "server"
    assert "(502)" in error.message


def test_a_closed_port_is_a_connection_failure_naming_the_url() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"

    async def scenario() -> tuple[list[StreamChunk], ProviderError | None]:
        provider = provider_for(url, max_retries=1)
        try:
            return await collect(provider)
        finally:
            await provider.aclose()

    chunks, error = run(scenario)

    assert chunks == []
    assert error is not None
    assert error.kind == "connection"
    assert error.retryable
    assert url in error.message
    assert "Check that the server is running" in error.message


def test_a_stream_cut_mid_answer_keeps_the_deltas_and_fails_as_connection() -> None:
    chunks, error, _ = exchange([Sse([chunk("Hel"), chunk("lo")], cut=True)])

    assert [c for c in chunks if isinstance(c, Finish)] == []
    assert [c.text for c in chunks if isinstance(c, TextDelta)] == ["Hel", "lo"]
    assert error is not None
    assert error.kind == "connection"
    assert error.message.startswith("The connection to the model endpoint broke before the answer")


def test_a_stream_that_ends_without_a_finish_reason_is_not_taken_as_complete() -> None:
    chunks, error, _ = exchange([Sse([chunk("Hel")], done=False)])

    assert [c for c in chunks if isinstance(c, Finish)] == []
    assert error is not None
    assert error.kind == "connection"
    assert error.message.startswith("The model endpoint closed the stream before the answer")


@pytest.mark.parametrize("garbage", ["{not json", "[1, 2", '"unterminated', "\ufeff{}"])
def test_a_malformed_event_line_is_a_bad_response(garbage: str) -> None:
    chunks, error, _ = exchange([Sse([chunk("Hel"), garbage, chunk("lo", finish="stop")])])

    assert [c for c in chunks if isinstance(c, Finish)] == []
    assert error is not None
    assert error.kind == "bad_response"
    assert "cannot read" in error.message


def test_an_error_event_in_the_stream_is_a_server_failure_quoting_it() -> None:
    chunks, error, _ = exchange([Sse([chunk("Hel"), error_body("CUDA out of memory")])])

    assert [c for c in chunks if isinstance(c, Finish)] == []
    assert error is not None
    assert error.kind == "server"
    assert "CUDA out of memory" in error.message


def test_a_silent_server_times_out() -> None:
    _, error, _ = exchange([Silent()], max_retries=0, timeout=0.05)

    assert error is not None
    assert error.kind == "timeout"
    assert error.retryable
    assert "0.05 seconds" in error.message


def test_cancelling_the_consumer_closes_the_stream_on_the_server() -> None:
    async def scenario() -> tuple[list[StreamChunk], bool, bool]:
        async with LoopbackServer([Endless([chunk("tick ")])]) as server:
            provider = provider_for(server.base_url)
            seen: list[StreamChunk] = []
            first = asyncio.Event()

            async def consume() -> None:
                async with contextlib.aclosing(provider.stream(REQUEST)) as stream:
                    async for item in stream:
                        seen.append(item)
                        first.set()

            task = asyncio.create_task(consume())
            await first.wait()
            assert not server.hung_up.is_set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await server.hung_up.wait()
            await provider.aclose()
            return seen, task.cancelled(), server.hung_up.is_set()

    seen, cancelled, hung_up = run(scenario)

    assert seen == [TextDelta("tick ")]
    assert cancelled
    assert hung_up


def test_a_request_after_the_provider_was_closed_is_cancelled() -> None:
    async def scenario() -> ProviderError | None:
        async with LoopbackServer([]) as server:
            provider = provider_for(server.base_url)
            await provider.aclose()
            _, error = await collect(provider)
            return error

    error = run(scenario)

    assert error is not None
    assert error.kind == "cancelled"


def test_cancelling_while_waiting_for_the_first_byte_closes_the_connection() -> None:
    async def scenario() -> tuple[bool, bool]:
        async with LoopbackServer([Silent()]) as server:
            provider = provider_for(server.base_url)
            task = asyncio.create_task(collect(provider))
            await server.request_seen.wait()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await server.hung_up.wait()
            await provider.aclose()
            return task.cancelled(), server.hung_up.is_set()

    assert run(scenario) == (True, True)


def test_a_stream_that_stalls_mid_answer_times_out_and_says_so() -> None:
    async def scenario() -> tuple[list[StreamChunk], ProviderError | None]:
        async with LoopbackServer([Endless([chunk("Hel")])]) as server:
            provider = provider_for(server.base_url, timeout=0.05, max_retries=0)
            result = await collect(provider)
            await provider.aclose()
            return result

    chunks, error = run(scenario)

    assert chunks == [TextDelta("Hel")]
    assert error is not None
    assert error.kind == "timeout"
    assert "stopped sending the answer for 0.05 seconds" in error.message


def test_closing_the_provider_mid_answer_ends_the_stream_as_cancelled() -> None:
    async def scenario() -> tuple[list[StreamChunk], ProviderError | None, bool]:
        async with LoopbackServer([Endless([chunk("tick")])]) as server:
            provider = provider_for(server.base_url)
            first = asyncio.Event()
            seen: list[StreamChunk] = []

            async def consume() -> ProviderError | None:
                try:
                    async for item in provider.stream(REQUEST):
                        seen.append(item)
                        first.set()
                except ProviderError as error:
                    return error
                return None

            task = asyncio.create_task(consume())
            await first.wait()
            await provider.aclose()
            error = await task
            await server.hung_up.wait()
            return seen, error, server.hung_up.is_set()

    seen, error, hung_up = run(scenario)

    assert seen == [TextDelta("tick")]
    assert error is not None
    assert error.kind == "cancelled"
    assert "settings changed" in error.message
    assert hung_up
