"""OpenAICompatProvider: the network door to OpenAI-compatible chat endpoints (agent.md §5.2).

Owns: the I/O of one endpoint through the official ``openai`` SDK (``AsyncOpenAI`` over
``httpx2``): building the SDK client, streaming one ``/chat/completions`` step, listing models, the
bounds on an answer and on the response body, and turning every failure into a ``ProviderError``
whose message tells the user what to fix. The wire format (request dicts, the merge of streamed
deltas) is ``core.llm.openai_wire``, pure; the sentences are ``core.llm.openai_errors``. Must not:
know about sessions, tools' meaning or Qt; log, print or embed the API key anywhere (messages,
``repr``, logs); read the clock or the system zone.

Choices the spec leaves open (written down here):

- The server is asked once what it is and how long its context is (``core.llm.server_probe``,
  bounded by ``probe_timeout``; a server that did not answer in time is asked again after a
  failed step), before the provider's first step; the request is then shaped for
  its family (``core.llm.compat``) and bounded by ``budget()``: ``max_tokens`` is the budget's
  answer share. Where the family cannot stream a tool choice, a step with tools is asked
  unstreamed and its answer read as one chunk.
- A 200 answer without any event is told apart by asking ``GET /models`` at once: a model list
  (``bad_response``: the conversation is probably over the context, the sentence names both
  sizes), no connection (``connection``: the server stopped after accepting the request), or
  anything else (``bad_response``: the base URL is no OpenAI-compatible API).
- ``check_tools`` (Test connection) streams a one-word chat, then asks for a call of
  ``PROBE_TOOL`` as the family allows (forced by name with a one-token answer, ``"required"``, or
  in words under ``"auto"``).

- The time-context reading is a second system message placed just before the latest user
  message (``openai_wire.to_openai_messages``), so everything before the current turn stays a
  stable prefix for the server's cache.
- Retries (429, 408/409, 5xx, connect failures and timeouts before the first byte) are the SDK's
  own, bounded by ``max_retries``; each backoff is capped by ``max_retry_delay`` (the SDK honours
  ``Retry-After`` up to two minutes, too long for a chat turn). Nothing is retried once the answer
  has started streaming: the agent's Retry starts a clean turn instead.
- The stream must carry a ``finish_reason``; a stream that ends without one (connection closed
  early, even cleanly) is a failure, never a silently truncated answer. A 200 answer that held no
  event at all is one of the three cases above.
- A server that rejects ``stream_options`` (usage reporting) with a 400 is asked again once
  without it, and never again by this provider.
- Endpoints without a key get a fixed placeholder key: the SDK would otherwise fall back to
  ``OPENAI_API_KEY`` from the environment and send that key to whatever server is configured.
- An answer is bounded (``max_answer_chars``, default ``MAX_ANSWER_CHARS``): the characters of
  its text and tool-call arguments plus one per chunk, so a server that never stops sending (text,
  arguments or empty chunks) cannot grow memory or run forever. Past the bound the stream is
  closed and the step ends with finish ``length``, its text followed by ``cut_note(limit)``
  (also streamed, so the window shows it); tool calls still open at the cut are dropped, since
  their arguments are incomplete and running them would act on a fragment.
- The SDK's event decoder buffers an unfinished line or event without limit, so the response body
  is bounded too: more than ``EVENT_BYTES_PER_CHAR * max_answer_chars + 64 KiB`` bytes without a
  blank line (the end of an event) fail the step as ``bad_response``. Any event the answer bound
  could still accept fits (a character takes at most 12 bytes: an escaped surrogate pair).
- ``CancelledError`` is never converted: cancelling the consuming task cancels it and closes the
  stream. Kind ``cancelled`` is for a request cut off because the provider itself was closed.

``ProviderError.kind`` (``retryable`` marks the ones worth the window's Retry at once); its
``failure`` names the reason by code (``core.failures``) for the window to say in its language:

- ``auth``: 401 (key rejected, or a key is required) and 403.
- ``rate_limit``: 429 after the bounded retries (retryable); an exhausted quota is not retryable.
- ``server``: 5xx after the retries, or an error event inside the stream (retryable).
- ``connection``: unreachable endpoint, a base URL that is not http(s), a connection cut
  mid-answer, or a stream that ended without a finish reason (retryable except the bad URL).
- ``timeout``: no bytes for ``timeout`` seconds, before or during the answer (retryable).
- ``not_found``: 404 (unknown model, or no API at that base URL).
- ``too_long``: a 400 or 413 whose text says the conversation exceeds the model's context
  (OpenAI's ``context_length_exceeded``, llama.cpp's "exceeds the available context size", vLLM's
  "maximum context length"): the sentence says so, not that tools may be missing.
- ``bad_response``: unreadable stream or model list, and other 4xx (e.g. "model does not support
  tools"), quoting the server's own message on one line, key scrubbed.
- ``cancelled``: the provider was closed (settings changed) before or while the request ran.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit

import httpx2
import openai
from openai import AsyncOpenAI

from core.errors import ErrorKind, ProviderError
from core.failures import Failure, FailureCode
from core.frozen import frozen
from core.llm.budget import TokenBudget, budget_for, fixed_tokens, messages_tokens
from core.llm.compat import ForcedTool, Quirks, quirks_for_preset
from core.llm.messages import Finish, Message, ModelInfo, ModelRequest, StreamChunk, TextDelta
from core.llm.openai_errors import (
    broken,
    describe_error,
    foreign,
    server_text,
    unreadable,
)
from core.llm.openai_wire import (
    StreamGap,
    StreamMerge,
    ToolChoice,
    chat_body,
    completion_as_chunk,
)
from core.llm.server_probe import PROBE_TIMEOUT, ServerProfile, models_state, probe_server

NO_KEY = "no-key"
"""Sent as the bearer token when the user configured no key; local servers ignore it."""

MAX_ANSWER_CHARS = 4_000_000
"""The default bound of one streamed answer (about 1M tokens; real answers are far shorter)."""
EVENT_BYTES_PER_CHAR = 12
"""The most bytes one answer character can take in an event: an escaped surrogate pair."""

PROBE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "chime_probe",
        "description": "Call this to answer Chime's connection test.",
        "parameters": {"type": "object", "properties": {}},
    },
}
"""The tool Test connection asks the model to call (no arguments: the call is the answer)."""
PROBE_ASK = "This is a connection test. Call the chime_probe tool now."
CHAT_ASK = "This is a connection test. Answer with one word."


@frozen
class ToolCheck:
    """What Test connection learnt: the streamed chat worked; whether the model called the
    probe tool (``refusal``: the English sentence when the server refused tools outright,
    ``refused`` the same as a failure for the window's words); the budget."""

    calls_tools: bool
    refusal: str
    budget: TokenBudget
    family: str
    refused: Failure | None = None


class ChimeAsyncOpenAI(AsyncOpenAI):
    """AsyncOpenAI that ignores the environment's OpenAI identity and caps its retry waits.

    The SDK fills the organization, project, admin key and extra headers (``Authorization``
    included, which then overrides the configured key) from ``OPENAI_*`` environment variables;
    the endpoint chosen in Settings must receive none of them, so they are cleared after
    construction. The SDK has no public seam for its backoff either, so this overrides its
    private ``_calculate_retry_timeout`` (same signature) and caps the SDK's own figure at
    ``max_retry_delay`` seconds. Tests pass 0. Each reach into the SDK is marked WORKAROUND and
    guarded by ``tests/core/llm/test_openai_workarounds.py``. Never copied: the SDK's
    ``with_options`` rebuilds a client without ``max_retry_delay`` and fails.
    """

    def __init__(self, *, max_retry_delay: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chime_max_retry_delay = max_retry_delay
        # WORKAROUND(openai 3.57): __init__ reads OPENAI_ORG_ID, OPENAI_PROJECT_ID and
        # OPENAI_ADMIN_KEY whenever the argument is None, and None is the only way to say "none";
        # the headers are built from these attributes at each request, so they are cleared here.
        # Without it the environment's organization and project go to whatever endpoint Settings
        # name, and the admin key sits in the client.
        self.organization = None
        self.project = None
        self.admin_api_key = None
        # WORKAROUND(openai 3.57): the private _custom_headers hold OPENAI_CUSTOM_HEADERS, whose
        # Authorization line replaces the configured key on every request. Without it the
        # environment's credential goes to the endpoint of Settings, and ours does not.
        self._custom_headers = {}
        # WORKAROUND(openai 3.57): the private _ambient_authorizations keep that line's
        # Authorization values (the SDK's record of credentials that came from the environment).
        # Without it the environment's credential stays held in the client after the headers go.
        self._ambient_authorizations = frozenset()

    # WORKAROUND(openai 3.57): the SDK has no public setting for its backoff and honours a
    # Retry-After of up to two minutes; this overrides its private _calculate_retry_timeout (same
    # signature) and caps the figure. Without it one 429 with a long Retry-After stalls the turn
    # for minutes with no sign of life.
    def _calculate_retry_timeout(self, *args: Any, **kwargs: Any) -> float:
        delay: float = super()._calculate_retry_timeout(*args, **kwargs)
        return max(0.0, min(delay, self._chime_max_retry_delay))


class OpenAICompatProvider:
    """A ``ModelProvider`` for one OpenAI-compatible base URL and model.

    ``timeout`` bounds connecting (at most 10 s) and every wait for the next bytes of the answer,
    so a model that takes minutes to answer still works while it keeps streaming. The SDK client
    is built on first use (inside the running loop); a base URL that is not an http(s) address
    fails that first use with a ``ProviderError``, never the constructor. Call ``aclose()`` when
    the provider is replaced; consume ``stream()`` under ``contextlib.aclosing`` so abandoning it
    closes the connection at once.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        http_client: httpx2.AsyncClient | None = None,
        timeout: float = 120.0,
        max_retries: int = 2,
        max_retry_delay: float = 4.0,
        include_usage: bool = True,
        max_answer_chars: int = MAX_ANSWER_CHARS,
        preset: str = "custom",
        context_tokens: int | None = None,
        ask_server: bool = True,
        probe_timeout: float = PROBE_TIMEOUT,
    ) -> None:
        self._base_url = base_url.strip().rstrip("/")
        self._shown_url = shown_url(self._base_url)
        self._model = model
        self._secret = _Secret(api_key or "")
        self._timeout = timeout
        self._max_retries = max_retries
        self._max_retry_delay = max_retry_delay
        self._include_usage = include_usage
        self._max_answer_chars = max_answer_chars
        self._http_client = http_client
        self._http: httpx2.AsyncClient | None = None
        self._client: AsyncOpenAI | None = None
        self._closed = False
        self._guess = quirks_for_preset(preset)
        self._context_setting = context_tokens
        self._server: ServerProfile | None = None
        self._ask_server = ask_server
        self._probe_timeout = probe_timeout

    def __repr__(self) -> str:
        key = "set" if self._secret.value else "none"
        return f"OpenAICompatProvider(base_url={self._shown_url!r}, model={self._model!r}, api_key=<{key}>)"

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(
            provider="openai-compatible", name=self._model, extra={"baseUrl": self._shown_url}
        )

    async def aclose(self) -> None:
        """Closes the HTTP client (an injected one too); later requests fail as ``cancelled``."""
        self._closed = True
        if self._client is not None:
            await self._client.close()
        elif self._http_client is not None:
            await self._http_client.aclose()

    async def budget(self) -> TokenBudget:
        """The context budget: the context length the settings name, else the server's own
        (asked once, ``core.llm.server_probe``), else the family's default."""
        server = await self._profile()
        if self._context_setting:
            return budget_for(self._context_setting, "settings")
        if server.context_tokens:
            return budget_for(server.context_tokens, "server")
        return budget_for(server.quirks.default_context, "default")

    @property
    def quirks(self) -> Quirks:
        """The server family's quirks in use (the preset's until the server has been asked)."""
        return self._server.quirks if self._server is not None else self._guess

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamChunk, None]:
        """Streams one model step: ``TextDelta`` pieces, then exactly one ``Finish``.

        A step that fails while the server has not said what it is (it was too busy to answer
        the probe in time: a local server still reading another prompt) forgets the preset's
        guess, so the next step (Retry) asks again: a wrong guess (llama-cpp-python served
        under the llama.cpp preset is asked streamed with tools, which it cannot do) is not
        kept for the provider's whole life."""
        budget = await self.budget()
        try:
            async with contextlib.aclosing(self._step(request, budget.answer_tokens)) as step:
                async for chunk in step:
                    yield chunk
        except ProviderError:
            if self._ask_server and self._server is not None and not self._server.probed:
                self._server = None
            raise

    async def check_tools(self, force: ForcedTool | None = None) -> ToolCheck:
        """Test connection: a streamed one-word chat (its failure raises), then a tool probe
        forced the way the family allows (``force`` overrides it): a one-token answer where a
        named tool can be forced. A server that refuses tools (a 4xx) gives ``calls_tools=False``."""
        budget = await self.budget()
        await self._run(ModelRequest("", (Message("user", CHAT_ASK),)), 1)
        quirks = self.quirks
        way = force or quirks.forced_tool
        choice = _probe_choice(way)
        probe = ModelRequest("", (Message("user", PROBE_ASK),), tools=(PROBE_TOOL,))
        try:
            finish = await self._run(probe, 1 if way == "named" else 64, choice)
        except ProviderError as error:
            if error.kind != "bad_response":
                raise
            return ToolCheck(False, error.message, budget, quirks.label, error.failure)
        return ToolCheck(bool(finish.tool_calls), "", budget, quirks.label)

    async def _run(
        self, request: ModelRequest, max_tokens: int, tool_choice: ToolChoice = "auto"
    ) -> Finish:
        async with contextlib.aclosing(self._step(request, max_tokens, tool_choice)) as step:
            async for chunk in step:
                if isinstance(chunk, Finish):
                    return chunk
        raise _failed(ErrorKind.BAD_RESPONSE, Failure(FailureCode.NOT_AN_API))

    async def _profile(self) -> ServerProfile:
        if self._server is None and not self._ask_server:
            self._server = ServerProfile(self._guess, None, probed=False)
        if self._server is None:
            self._sdk()
            assert self._http is not None
            self._server = await probe_server(
                self._http,
                self._base_url,
                self._auth_headers(),
                self._model,
                self._guess,
                bound=self._probe_timeout,
            )
        return self._server

    def _auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._secret.value or NO_KEY}"}

    async def _step(
        self, request: ModelRequest, max_tokens: int | None, tool_choice: ToolChoice = "auto"
    ) -> AsyncGenerator[StreamChunk, None]:
        merge = StreamMerge()
        try:
            sdk_stream = await self._open(request, max_tokens, tool_choice)
            async with sdk_stream:  # leaving it (also by the bound's break) closes the response
                async for chunk in sdk_stream:
                    for piece in merge.feed(chunk):
                        yield TextDelta(piece)
                    if merge.size > self._max_answer_chars:
                        break
        except Exception as exc:  # every failure leaves as a ProviderError, by contract
            raise self._translate(exc, started=merge.started) from None
        if merge.size > self._max_answer_chars:
            note = cut_note(self._max_answer_chars)
            yield TextDelta(note)
            yield merge.cut(note, self._model)
        else:
            yield await self._finish(merge, request)

    async def list_models(self) -> list[str]:
        """The model names ``GET /models`` offers, unique and sorted."""
        try:
            page = await self._sdk().models.list()
        except Exception as exc:  # every failure leaves as a ProviderError, by contract
            raise self._translate(exc, started=False, listing=True) from None
        data = getattr(page, "data", None)
        if not isinstance(data, list):
            raise _failed(ErrorKind.BAD_RESPONSE, Failure(FailureCode.MODELS_MALFORMED))
        return sorted({i for i in (getattr(m, "id", None) for m in data) if isinstance(i, str)})

    def _sdk(self) -> AsyncOpenAI:
        if self._closed:
            raise _closed()
        if self._client is None:
            problem = url_problem(self._base_url)
            if problem is not None:
                raise _failed(ErrorKind.CONNECTION, problem)
            http_client = self._http = self._http_client or openai.DefaultAsyncHttpxClient()
            # WORKAROUND(openai 3.57): the SDK's event decoder buffers an unfinished line or event
            # without limit and has no setting for it; an httpx2 response hook runs before the SDK
            # reads the body, so it can swap the body for one that counts. Without it an endless
            # line (or data: lines that never end an event) grows memory and never ends the turn.
            http_client.event_hooks["response"].append(self._bound_events)
            self._client = ChimeAsyncOpenAI(
                max_retry_delay=self._max_retry_delay,
                api_key=self._secret.value or NO_KEY,
                base_url=self._base_url,
                timeout=httpx2.Timeout(self._timeout, connect=min(self._timeout, 10.0)),
                max_retries=self._max_retries,
                http_client=http_client,
            )
        return self._client

    async def _bound_events(self, response: httpx2.Response) -> None:
        """Response hook: the body fails once too many bytes arrive without ending an event."""
        limit = EVENT_BYTES_PER_CHAR * self._max_answer_chars + 65_536
        response.stream = _EventBound(cast("httpx2.AsyncByteStream", response.stream), limit)

    async def _open(
        self, request: ModelRequest, max_tokens: int | None, tool_choice: ToolChoice
    ) -> openai.AsyncStream[Any] | _Whole:
        try:
            return await self._create(request, max_tokens, tool_choice)
        except openai.BadRequestError as exc:
            if not (self._include_usage and "stream_options" in server_text(exc)):
                raise
            self._include_usage = False
            return await self._create(request, max_tokens, tool_choice)

    async def _create(
        self, request: ModelRequest, max_tokens: int | None, tool_choice: ToolChoice
    ) -> openai.AsyncStream[Any] | _Whole:
        body = chat_body(
            request,
            self.quirks,
            model=self._model,
            max_tokens=max_tokens,
            include_usage=self._include_usage,
            tool_choice=tool_choice,
        )
        # The body holds the documented shapes under the SDK's own parameter names.
        create: Any = self._sdk().chat.completions.create
        answer = await create(**body)
        return answer if body["stream"] else _Whole(answer)

    async def _finish(self, merge: StreamMerge, request: ModelRequest) -> Finish:
        outcome = merge.finish(self._model)
        if isinstance(outcome, Finish):
            return outcome
        if outcome == "empty":
            raise await self._no_answer(request)
        raise _incomplete(outcome)

    async def _no_answer(self, request: ModelRequest) -> ProviderError:
        """A 200 that held no event, told apart by asking ``GET /models`` at once: a model list
        means the server is up and the URL right (llama-cpp-python answers a prompt over its
        context this way), no connection means it stopped after accepting the request, anything
        else that the base URL is not an OpenAI-compatible API."""
        assert self._http is not None
        state = await models_state(
            self._http, self._base_url, self._auth_headers(), self._probe_timeout
        )
        if state == "unreachable":
            crashed = Failure(FailureCode.CRASHED, (self._shown_url,))
            return _failed(ErrorKind.CONNECTION, crashed, retryable=True)
        if state == "other":
            return _incomplete("empty")
        budget = await self.budget()
        prompt = fixed_tokens(request.system, request.tools, request.time_context)
        prompt += messages_tokens(request.messages)
        nothing = Failure(FailureCode.NO_ANSWER, (prompt, budget.context_tokens, budget.source))
        return _failed(ErrorKind.BAD_RESPONSE, nothing)

    def _translate(self, exc: Exception, *, started: bool, listing: bool = False) -> ProviderError:
        """Any failure as a ``ProviderError`` whose message never contains the key."""
        if isinstance(exc, ProviderError):
            return exc
        if self._closed:  # whatever broke, it broke because aclose() pulled the connection
            return _closed()
        if isinstance(exc, openai.OpenAIError):
            return self._from_sdk(exc, started=started, listing=listing)
        if isinstance(exc, OSError | ExceptionGroup):  # transport failures the SDK did not wrap
            cut = broken(self._shown_url, started=started)
            return _failed(ErrorKind.CONNECTION, cut, retryable=True)
        # WORKAROUND(httpx2 2.16): a client closed under the request (an injected one closed by
        # its owner) raises a bare RuntimeError marked only by its message, which the SDK passes
        # on unwrapped. Without the match that is reported as an unreadable stream.
        if isinstance(exc, RuntimeError) and "closed" in str(exc).lower():
            return _closed()
        # An event the SDK's own JSON decode refused is said in the bounded decode's words.
        failure = foreign(exc) if not listing else None
        return _failed(
            ErrorKind.BAD_RESPONSE, failure or unreadable(type(exc).__name__, listing=listing)
        )

    def _from_sdk(
        self, exc: openai.OpenAIError, *, started: bool, listing: bool = False
    ) -> ProviderError:
        error = describe_error(
            exc,
            base_url=self._shown_url,
            model=self._model,
            has_key=bool(self._secret.value),
            started=started,
            listing=listing,
            timeout=self._timeout,
            retries=self._max_retries,
            secret=self._secret.value,
        )
        failure = error.failure.redacted(self._secret.value)
        return _failed(error.kind, failure, retryable=error.retryable)


def _probe_choice(way: ForcedTool) -> ToolChoice:
    """The ``tool_choice`` that makes the model call the probe tool, as the family allows."""
    if way == "named":
        return {"type": "function", "function": {"name": PROBE_TOOL["function"]["name"]}}
    return "required" if way == "required" else "auto"


def _incomplete(gap: StreamGap) -> ProviderError:
    """The failure of a stream that ended without a finish reason."""
    if gap == "unreadable":
        return _failed(ErrorKind.BAD_RESPONSE, Failure(FailureCode.NO_CHOICES))
    if gap == "empty":  # a 200 that held no event: e.g. a web page, not an API
        return _failed(ErrorKind.BAD_RESPONSE, Failure(FailureCode.NOT_AN_API))
    return _failed(ErrorKind.CONNECTION, Failure(FailureCode.ENDED_EARLY), retryable=True)


def _failed(kind: ErrorKind, failure: Failure, *, retryable: bool = False) -> ProviderError:
    return ProviderError.because(kind, failure, retryable=retryable)


def _closed() -> ProviderError:
    """The provider was closed under the request (the settings changed)."""
    return _failed(ErrorKind.CANCELLED, Failure(FailureCode.CLOSED))


class _Whole:
    """An unstreamed answer read like a stream of one chunk (``completion_as_chunk``)."""

    def __init__(self, completion: Any) -> None:
        self._completion = completion

    async def __aenter__(self) -> _Whole:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None

    async def __aiter__(self) -> AsyncIterator[Any]:
        yield completion_as_chunk(self._completion)


class _EventBound(httpx2.AsyncByteStream):
    """A response body that raises once more than ``limit`` bytes came after the last blank
    line (LF LF, CR CR or CRLF CRLF: the end of a server-sent event)."""

    _ENDS = (b"\n\n", b"\r\r", b"\r\n\r\n")

    def __init__(self, inner: httpx2.AsyncByteStream, limit: int) -> None:
        self._inner = inner
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        pending, tail = 0, b""
        async for piece in self._inner:
            window = tail + piece  # an end split across two pieces is still found
            end = max((window.rfind(e) + len(e) for e in self._ENDS if e in window), default=-1)
            pending = len(window) - end if end >= 0 else pending + len(piece)
            if pending > self._limit:
                raise _failed(
                    ErrorKind.BAD_RESPONSE, Failure(FailureCode.OVERSIZED, (self._limit,))
                )
            tail = window[-3:]
            yield piece

    async def aclose(self) -> None:
        await self._inner.aclose()


def cut_note(limit: int) -> str:
    """The note that ends an answer cut at the bound (``max_answer_chars``)."""
    return (
        f"\n\n[Chime stopped reading this answer after {limit:,} characters: the model endpoint "
        "kept sending without finishing. The rest was not received.]"
    )


def shown_url(base_url: str) -> str:
    """``base_url`` without a ``user:password@`` part, for messages, ``repr`` and ``info``."""
    try:
        parts = urlsplit(base_url)
    except ValueError:
        return base_url
    if "@" not in parts.netloc:
        return base_url
    return parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]).geturl()


def url_problem(base_url: str) -> Failure | None:
    """Why ``base_url`` is not a usable http(s) address (``bad_url``), or None when it is."""
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    usable = (
        parts is not None
        and parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and (port is None or port > 0)
        and not any(c.isspace() for c in base_url)
    )
    if usable:
        return None
    return Failure(FailureCode.BAD_URL, (shown_url(base_url),))


@dataclass(frozen=True, slots=True)
class _Secret:
    """The API key, kept out of ``repr`` and scrubbed from any text shown to the user."""

    value: str = field(repr=False)
