"""Guards of the WORKAROUND marks in ``core/llm/openai_compat.py``, failing loudly after an upgrade.

Each test names its workaround when an SDK (or httpx2) change makes it stop taking effect. Through
httpx2's ``MockTransport``: no sockets, and no real waiting (the SDK's retry sleep is recorded).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import httpx2
import pytest
from openai import AsyncOpenAI

from core.errors import ProviderError
from core.llm.messages import Finish, Message, ModelRequest, StreamChunk
from core.llm.openai_compat import ChimeAsyncOpenAI, OpenAICompatProvider
from tests.core.llm.loopback import chunk, error_body
from tests.core.llm.openai_kit import collect, run

ASK = ModelRequest(system="", messages=(Message("user", "hi"),))
KEY = "sk-configured"
ENVIRONMENT = {
    "OPENAI_ORG_ID": "org-from-env",
    "OPENAI_PROJECT_ID": "proj-from-env",
    "OPENAI_ADMIN_KEY": "sk-admin-from-env",
    "OPENAI_CUSTOM_HEADERS": "Authorization: Bearer sk-header-from-env\nX-From-Env: yes",
}
FROM_ENV = (
    "org-from-env",
    "proj-from-env",
    "sk-admin-from-env",
    "sk-header-from-env",
    "X-From-Env",
)


def answer() -> httpx2.Response:
    body = f"data: {json.dumps(chunk('ok', finish='stop'))}\n\ndata: [DONE]\n\n"
    return httpx2.Response(200, headers={"Content-Type": "text/event-stream"}, content=body)


def exchange(
    replies: Iterator[httpx2.Response], **options: Any
) -> tuple[list[StreamChunk], ProviderError | None, list[httpx2.Request]]:
    seen: list[httpx2.Request] = []

    def endpoint(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return next(replies)

    async def scenario() -> tuple[list[StreamChunk], ProviderError | None]:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(endpoint))
        options.setdefault("max_retry_delay", 0.0)
        options.setdefault("ask_server", False)  # every reply below answers a chat request
        provider = OpenAICompatProvider(
            "http://model.test/v1", "m", KEY, http_client=client, **options
        )
        try:
            return await collect(provider, ASK)
        finally:
            await provider.aclose()

    chunks, error = run(scenario)
    return chunks, error, seen


@pytest.fixture
def identity_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def sdk_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The seconds each SDK retry asked to wait, answered at once (openai 3.57 sleeps through
    ``anyio.sleep``; an SDK that sleeps otherwise leaves this empty, and the test says so)."""
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(anyio, "sleep", record)
    return waits


# ---------------------------------------------------------------- _calculate_retry_timeout


@pytest.mark.parametrize(
    ("retry_after", "cap", "expected"), [("100", 1.5, 1.5), ("0.25", 1.5, 0.25)]
)
def test_a_retry_waits_the_servers_retry_after_but_never_more_than_max_retry_delay(
    sdk_waits: list[float], retry_after: str, cap: float, expected: float
) -> None:
    slow_down = httpx2.Response(429, headers={"Retry-After": retry_after}, json=error_body("wait"))

    chunks, error, seen = exchange(iter([slow_down, answer()]), max_retry_delay=cap, max_retries=1)

    assert error is None
    assert isinstance(chunks[-1], Finish)
    assert len(seen) == 2
    assert sdk_waits == [expected], (
        f"the SDK waited {sdk_waits} s: WORKAROUND(openai 3.57) ChimeAsyncOpenAI."
        "_calculate_retry_timeout no longer takes effect (renamed, or no longer called)"
    )


# ---------------------------------------------------------------- the environment's identity


@pytest.mark.usefixtures("identity_in_the_environment")
def test_the_environments_organization_and_project_reach_no_request() -> None:
    _, error, seen = exchange(iter([answer()]))

    assert error is None
    headers = seen[0].headers
    leaked = {k: v for k, v in headers.items() if k.lower().startswith("openai-")}
    assert leaked == {}, (
        f"{leaked} reached the endpoint: WORKAROUND(openai 3.57) clearing organization and "
        "project after AsyncOpenAI.__init__ no longer takes effect"
    )


@pytest.mark.usefixtures("identity_in_the_environment")
def test_the_environments_custom_headers_reach_no_request_and_never_replace_the_key() -> None:
    _, error, seen = exchange(iter([answer()]))

    assert error is None
    headers = seen[0].headers
    assert (headers["authorization"], headers.get("x-from-env")) == (f"Bearer {KEY}", None), (
        "OPENAI_CUSTOM_HEADERS reached the endpoint: WORKAROUND(openai 3.57) clearing the "
        "private _custom_headers no longer takes effect"
    )


@pytest.mark.usefixtures("identity_in_the_environment")
def test_the_environments_identity_is_held_nowhere_in_the_sdk_client() -> None:
    client = ChimeAsyncOpenAI(max_retry_delay=0.0, api_key=KEY, base_url="http://model.test/v1")

    holding = sorted(
        name for name, value in vars(client).items() if any(e in repr(value) for e in FROM_ENV)
    )

    assert holding == [], (
        f"the client still holds the environment's identity in {holding}: a WORKAROUND(openai "
        "3.57) in ChimeAsyncOpenAI.__init__ (organization, project, admin_api_key, "
        "_custom_headers, _ambient_authorizations) no longer clears what the SDK read"
    )
    assert client.auth_headers == {"Authorization": f"Bearer {KEY}"}
    assert not any(e in repr(client.default_headers) for e in FROM_ENV)


def test_the_sdk_still_has_every_name_the_workarounds_replace() -> None:
    plain = AsyncOpenAI(api_key=KEY, base_url="http://model.test/v1")
    cleared = (
        "organization",
        "project",
        "admin_api_key",
        "_custom_headers",
        "_ambient_authorizations",
    )

    missing = [name for name in cleared if name not in vars(plain)]
    if not callable(getattr(AsyncOpenAI, "_calculate_retry_timeout", None)):
        missing.append("_calculate_retry_timeout")

    assert missing == [], f"openai changed: {missing} gone; recheck every WORKAROUND(openai 3.57)"


# ---------------------------------------------------------------- the response-body hook


def test_an_unfinished_event_longer_than_the_event_bound_fails_the_step_readably() -> None:
    limit = 12 * 100 + 65_536  # EVENT_BYTES_PER_CHAR * max_answer_chars + 64 KiB

    async def one_long_line() -> AsyncIterator[bytes]:  # streamed: bytes would be read at once
        yield b"data: "
        for _ in range(limit // 4096 + 1):
            yield b"x" * 4096

    endless_line = httpx2.Response(
        200, headers={"Content-Type": "text/event-stream"}, content=one_long_line()
    )

    _, error, _ = exchange(iter([endless_line]), max_answer_chars=100)

    assert error is not None
    assert error.kind == "bad_response"
    assert f"more than {limit:,} bytes" in error.message, (
        f"got {error}: WORKAROUND(openai 3.57) the response hook that bounds the body no longer "
        "runs before the SDK reads it"
    )
    assert error.failure is not None
    assert (error.failure.code, error.failure.args) == ("oversized", (limit,))


# ---------------------------------------------------------------- a client closed under us


def test_an_injected_client_closed_by_its_owner_cancels_the_request() -> None:
    async def scenario() -> ProviderError | None:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(lambda _: answer()))
        await client.aclose()
        provider = OpenAICompatProvider("http://model.test/v1", "m", http_client=client)
        _, error = await collect(provider, ASK)
        return error

    error = run(scenario)

    assert error is not None
    assert error.kind == "cancelled", (
        f"got {error.kind}: WORKAROUND(httpx2 2.16) matching the closed client's RuntimeError "
        "by its message no longer takes effect"
    )
