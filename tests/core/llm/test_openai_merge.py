"""Delta merging and request mapping, through httpx2's own seam (``MockTransport``): fast, no sockets."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

import httpx2
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ProviderError
from core.events import ToolCall
from core.failures import english
from core.llm.messages import Finish, Message, ModelRequest, StreamChunk, TextDelta
from core.llm.openai_compat import OpenAICompatProvider, shown_url, url_problem
from core.llm.openai_errors import describe_error
from tests.core.llm.loopback import chunk, closed_port, usage_chunk
from tests.core.llm.openai_kit import collect, run

Handler = Callable[[httpx2.Request], httpx2.Response]
ASK = ModelRequest(system="sys", messages=(Message("user", "hi"),))
TRICKY = st.lists(
    st.one_of(
        st.sampled_from(['"', "\\", "\u2028", "\u0085", "\ufeff", "⏰", "👩‍👩‍👧", "{", "\n"]),
        # No lone surrogates: no server can send one as raw UTF-8 (escaped ones are tested below).
        st.characters(exclude_categories=("Cs",)),
    ),
    max_size=30,
).map("".join)


def sse(events: Sequence[dict[str, Any] | str], done: bool = True) -> httpx2.Response:
    # Raw UTF-8 (no \\u escapes), as most servers send it: U+2028 and U+0085 must not split lines.
    lines = [
        f"data: {e if isinstance(e, str) else json.dumps(e, ensure_ascii=False)}\n\n"
        for e in events
    ]
    body = "".join(lines) + ("data: [DONE]\n\n" if done else "")
    return httpx2.Response(
        200, headers={"Content-Type": "text/event-stream"}, content=body.encode()
    )


def through(
    handler: Handler, request: ModelRequest = ASK, **options: Any
) -> tuple[list[StreamChunk], ProviderError | None, list[dict[str, Any]]]:
    bodies: list[dict[str, Any]] = []

    def endpoint(http_request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(http_request.content))
        return handler(http_request)

    async def scenario() -> tuple[list[StreamChunk], ProviderError | None]:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(endpoint))
        options.setdefault("max_retry_delay", 0.0)
        provider = OpenAICompatProvider("http://model.test/v1", "m", http_client=client, **options)
        try:
            return await collect(provider, request)
        finally:
            await provider.aclose()

    chunks, error = run(scenario)
    return chunks, error, bodies


def finish_of(events: Sequence[dict[str, Any] | str]) -> Finish:
    chunks, error, _ = through(lambda _: sse(events))
    assert error is None, error
    last = chunks[-1]
    assert isinstance(last, Finish)
    return last


def pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points) if b > a]


@pytest.mark.slow  # each example is a whole SDK exchange (~25 ms)
@settings(max_examples=40, deadline=None)
@given(
    first=TRICKY,
    second=TRICKY,
    text=TRICKY,
    cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=6),
    order=st.randoms(use_true_random=False),
)
def test_pieces_in_any_interleaving_merge_back_to_the_exact_text_and_arguments(
    first: str, second: str, text: str, cuts: list[int], order: Any
) -> None:
    heads = [
        chunk(tool_calls=[{"index": 0, "id": "a", "function": {"name": "one", "arguments": ""}}]),
        chunk(tool_calls=[{"index": 1, "id": "b", "function": {"name": "two", "arguments": ""}}]),
    ]
    tails = [
        chunk(tool_calls=[{"index": 0, "function": {"arguments": p}}]) for p in pieces(first, cuts)
    ]
    others = [
        chunk(tool_calls=[{"index": 1, "function": {"arguments": p}}]) for p in pieces(second, cuts)
    ]
    mixed = _interleave(tails, others, order)
    words = [chunk(p) for p in pieces(text, cuts)]

    chunks, error, _ = through(lambda _: sse([*heads, *words, *mixed, chunk(finish="tool_calls")]))

    assert error is None
    assert "".join(c.text for c in chunks if isinstance(c, TextDelta)) == text
    done = chunks[-1]
    assert isinstance(done, Finish)
    assert done.text == text
    assert done.tool_calls == (ToolCall("a", "one", first), ToolCall("b", "two", second))


def _interleave(left: list[Any], right: list[Any], order: Any) -> list[Any]:
    out: list[Any] = []
    left, right = list(left), list(right)
    while left or right:
        take_left = bool(left) and (not right or order.random() < 0.5)
        out.append((left if take_left else right).pop(0))
    return out


@pytest.mark.slow  # as above
@settings(max_examples=20, deadline=None)
@given(user=TRICKY, reply=TRICKY, result=TRICKY, arguments=TRICKY)
def test_message_texts_reach_the_server_unchanged(
    user: str, reply: str, result: str, arguments: str
) -> None:
    request = ModelRequest(
        system="sys",
        messages=(
            Message("user", user),
            Message("assistant", reply, tool_calls=(ToolCall("c1", "f", arguments),)),
            Message("tool", result, tool_call_id="c1"),
        ),
    )

    _, _, bodies = through(lambda _: sse([chunk("ok", finish="stop")]), request)

    sent = bodies[0]["messages"]
    assert sent[1]["content"] == user
    assert sent[2]["content"] == reply  # "" with tool calls and no text: every family takes it
    assert sent[2]["tool_calls"][0]["function"]["arguments"] == arguments
    assert sent[3]["content"] == result


def test_complete_tool_calls_without_an_index_each_become_a_call() -> None:
    calls = [
        {"id": "x", "function": {"name": "schedule_list", "arguments": "{}"}},
        {"id": "y", "function": {"name": "schedule_delete", "arguments": '{"id": "schedule-1"}'}},
    ]

    done = finish_of([chunk(tool_calls=calls), chunk(finish="stop")])

    assert done.tool_calls == (
        ToolCall("x", "schedule_list", "{}"),
        ToolCall("y", "schedule_delete", '{"id": "schedule-1"}'),
    )
    assert done.reason == "tool_calls"


def test_a_tool_call_without_an_id_gets_one_from_its_index() -> None:
    done = finish_of(
        [
            chunk(tool_calls=[{"index": 0, "function": {"name": "f", "arguments": "{}"}}]),
            chunk(finish="tool_calls"),
        ]
    )

    assert done.tool_calls == (ToolCall("call_0", "f", "{}"),)


def test_a_repeated_id_and_name_in_later_pieces_are_not_doubled() -> None:
    head = {"index": 0, "id": "c", "function": {"name": "f", "arguments": '{"a"'}}
    again = {"index": 0, "id": "c", "function": {"name": "f", "arguments": ": 1}"}}

    done = finish_of(
        [chunk(tool_calls=[head]), chunk(tool_calls=[again]), chunk(finish="tool_calls")]
    )

    assert done.tool_calls == (ToolCall("c", "f", '{"a": 1}'),)


def test_finish_reasons_map_to_the_neutral_ones() -> None:
    assert finish_of([chunk("x", finish="stop")]).reason == "stop"
    assert finish_of([chunk("x", finish="length")]).reason == "length"
    assert finish_of([chunk("x", finish="content_filter")]).reason == "stop"
    assert finish_of([chunk("x", finish="end_turn")]).reason == "stop"
    assert finish_of([chunk("x", finish="function_call")]).reason == "tool_calls"


def test_other_choices_and_odd_fields_are_ignored() -> None:
    second_choice = chunk("ignored")
    second_choice["choices"][0]["index"] = 1
    odd = {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": "nope",
    }
    empty_delta = {**chunk(), "choices": [{"index": 0, "delta": None, "finish_reason": None}]}

    done = finish_of(
        [
            chunk("kept"),
            second_choice,
            odd,
            empty_delta,
            chunk("", finish="stop"),
            usage_chunk(1, 2),
        ]
    )

    assert done.text == "kept"
    assert done.usage is not None
    assert done.usage.completion_tokens == 2


def test_the_model_name_falls_back_to_the_configured_one() -> None:
    nameless = chunk("x", finish="stop")
    nameless["model"] = ""

    assert finish_of([nameless]).model == "m"


def test_the_reading_goes_last_when_there_is_no_user_message() -> None:
    request = ModelRequest(system="", messages=(Message("assistant", ""),), time_context="R")

    _, _, bodies = through(lambda _: sse([chunk("ok", finish="stop")]), request)

    assert bodies[0]["messages"] == [
        {"role": "assistant", "content": ""},
        {"role": "system", "content": "R"},
    ]


def test_a_bare_function_schema_is_wrapped_as_a_function_tool() -> None:
    bare = {"name": "f", "parameters": {"type": "object", "properties": {}}}
    request = ModelRequest(system="", messages=(Message("user", "u"),), tools=(bare,))

    _, _, bodies = through(lambda _: sse([chunk("ok", finish="stop")]), request)

    assert bodies[0]["tools"] == [{"type": "function", "function": bare}]


def test_a_timeout_before_the_answer_is_retried_then_reported() -> None:
    def stall(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("stalled", request=request)

    chunks, error, bodies = through(stall, max_retries=1, timeout=30)

    assert chunks == []
    assert error is not None
    assert error.kind == "timeout"
    assert "did not answer for 30 seconds" in error.message
    assert len(bodies) == 2


def test_an_unreadable_chunk_shape_is_a_bad_response() -> None:
    _, error, _ = through(lambda _: sse(["[1, 2, 3]"]))

    assert error is not None
    assert error.kind == "bad_response"
    assert "cannot read" in error.message


def test_a_transport_that_was_shut_down_cancels_the_request() -> None:
    def shut(_: httpx2.Request) -> httpx2.Response:
        raise RuntimeError("Cannot send a request, as the client has been closed.")

    _, error, _ = through(shut)

    assert error is not None
    assert error.kind == "cancelled"
    assert error.failure is not None
    assert error.failure.code == "closed"


def test_an_unexpected_transport_failure_is_still_a_provider_error() -> None:
    def explode(_: httpx2.Request) -> httpx2.Response:
        raise RuntimeError("transport exploded")

    _, error, _ = through(explode)

    assert error is not None
    assert error.kind == "bad_response"


def test_errors_the_sdk_raises_without_a_status_are_described() -> None:
    request = httpx2.Request("GET", "http://model.test/v1/models")
    invalid = openai.APIResponseValidationError(httpx2.Response(200, request=request), body=None)

    def describe(exc: openai.OpenAIError, *, listing: bool) -> tuple[str, str]:
        described = describe_error(
            exc,
            base_url="u",
            model="m",
            has_key=False,
            started=False,
            listing=listing,
            timeout=1.0,
            retries=0,
        )
        return described.kind, described.message

    assert describe(invalid, listing=True)[0] == "bad_response"
    assert "OpenAI format" in describe(invalid, listing=True)[1]
    assert describe(invalid, listing=False)[0] == "bad_response"
    assert describe(openai.OpenAIError("odd"), listing=False)[0] == "bad_response"


def test_a_transport_failure_the_sdk_does_not_wrap_is_a_connection_failure() -> None:
    def refuse(_: httpx2.Request) -> httpx2.Response:
        raise ExceptionGroup("connect attempts", [OSError("unreachable")])

    _, error, _ = through(refuse, max_retries=0)

    assert error is not None
    assert error.kind == "connection"
    assert "http://model.test/v1" in error.message


@pytest.mark.parametrize(
    "url",
    [
        "",
        "localhost:11434/v1",
        "http://",
        "ftp://host/v1",
        "http://exa mple/v1",
        "http://[::1/v1",
        "http://localhost:99999/v1",
    ],
)
def test_a_base_url_that_is_not_an_http_address_fails_the_request_readably(url: str) -> None:
    async def scenario() -> tuple[ProviderError | None, ProviderError | None]:
        provider = OpenAICompatProvider(url, "m", max_retries=0)
        _, streamed = await collect(provider)
        try:
            await provider.list_models()
            listed = None
        except ProviderError as error:
            listed = error
        await provider.aclose()
        return streamed, listed

    streamed, listed = run(scenario)

    for error in (streamed, listed):
        assert error is not None
        assert error.kind == "connection"
        assert "http:// or https://" in error.message
    assert url_problem(url) is not None


@pytest.mark.parametrize(
    "url", ["http://localhost:11434/v1", "https://api.deepseek.com/v1", "http://[::1]:8080/v1"]
)
def test_usable_base_urls_have_no_problem(url: str) -> None:
    assert url_problem(url) is None


def test_closing_an_unused_provider_closes_the_injected_client() -> None:
    async def scenario() -> bool:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(lambda _: httpx2.Response(500)))
        provider = OpenAICompatProvider("http://model.test/v1", "m", http_client=client)
        await provider.aclose()
        return client.is_closed

    assert run(scenario)


def test_credentials_inside_the_base_url_are_never_shown() -> None:
    port = closed_port()
    url = f"http://alice:hunter2@127.0.0.1:{port}/v1"

    async def scenario() -> tuple[str, str, ProviderError | None]:
        provider = OpenAICompatProvider(url, "m", max_retries=0)
        _, error = await collect(provider)
        await provider.aclose()
        return repr(provider), str(provider.info), error

    shown, info, error = run(scenario)

    assert error is not None
    for text in (shown, info, error.message):
        assert "hunter2" not in text
        assert "alice" not in text
    assert f"http://127.0.0.1:{port}/v1" in error.message
    assert shown_url("http://[::1/v1") == "http://[::1/v1"
    problem = url_problem("http://alice:hunter2@exa mple/v1")
    assert problem is not None
    assert "hunter2" not in english(problem)


def test_index_less_pieces_join_the_call_with_their_id_or_the_latest_call() -> None:
    events = [
        chunk(tool_calls=[{"id": "p", "function": {"name": "f", "arguments": '{"a"'}}]),
        chunk(tool_calls=[{"id": "p", "function": {"arguments": ": 1}"}}]),
        chunk(tool_calls=[{"id": "q", "function": {"name": "g", "arguments": "{"}}]),
        chunk(tool_calls=[{"function": {"arguments": "}"}}]),
        chunk(finish="tool_calls"),
    ]

    done = finish_of(events)

    assert done.tool_calls == (ToolCall("p", "f", '{"a": 1}'), ToolCall("q", "g", "{}"))


def test_an_index_less_call_after_a_high_index_never_overwrites_it() -> None:
    events = [
        chunk(tool_calls=[{"index": 3, "id": "a", "function": {"name": "f", "arguments": "{}"}}]),
        chunk(tool_calls=[{"id": "b", "function": {"name": "g", "arguments": "{}"}}]),
        chunk(finish="tool_calls"),
    ]

    done = finish_of(events)

    assert done.tool_calls == (ToolCall("a", "f", "{}"), ToolCall("b", "g", "{}"))


def test_an_escaped_lone_surrogate_in_streamed_text_arrives_as_that_code_point() -> None:
    text = " \ud800 "
    body = f"data: {json.dumps(chunk(text), ensure_ascii=True)}\n\n"
    body += f"data: {json.dumps(chunk(finish='stop'))}\n\ndata: [DONE]\n\n"
    response = httpx2.Response(
        200, headers={"Content-Type": "text/event-stream"}, content=body.encode()
    )

    chunks, error, _ = through(lambda _: response)

    assert error is None
    assert "".join(c.text for c in chunks if isinstance(c, TextDelta)) == text
