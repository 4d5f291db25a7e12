"""A scripted OpenAI-compatible HTTP server on 127.0.0.1 for the provider's end-to-end tests.

It runs on the test's own asyncio loop (start it inside ``asyncio.run``), listens on port 0, and
answers each request with the next ``Reply`` of its script, recording what it received. Replies
cover what real servers do: JSON bodies with any status, server-sent event streams with chunked
transfer encoding, a stream cut mid-answer (socket aborted, no final chunk, no ``[DONE]``), an
endless stream that only ends when the client closes the connection, and silence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

SSE_HEADERS = {"Content-Type": "text/event-stream", "Transfer-Encoding": "chunked"}


@dataclass(frozen=True)
class Received:
    """One request as the server read it."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass(frozen=True)
class Json:
    """A complete response with a JSON (or, given ``raw``, arbitrary) body."""

    status: int
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    raw: bytes | None = None


@dataclass(frozen=True)
class Sse:
    """A 200 event stream: each event is a JSON object or a raw ``data:`` payload string.

    ``done`` appends ``data: [DONE]``; ``cut`` aborts the socket after the events instead of
    ending the chunked body, as a crashed server would.
    """

    events: Sequence[Mapping[str, Any] | str]
    done: bool = True
    cut: bool = False


@dataclass(frozen=True)
class Endless:
    """A 200 event stream that sends ``events`` and then never ends until the client hangs up."""

    events: Sequence[Mapping[str, Any] | str]


@dataclass(frozen=True)
class Silent:
    """Reads the request and never answers (for timeouts)."""


@dataclass(frozen=True)
class Gated:
    """``then``, sent only once ``gate`` is set: a server still reading a long prompt."""

    gate: asyncio.Event
    then: Json | Sse


Reply = Json | Sse | Endless | Silent | Gated


def chunk(
    content: str | None = None,
    *,
    tool_calls: list[dict[str, Any]] | None = None,
    finish: str | None = None,
    model: str = "test-model",
) -> dict[str, Any]:
    """One ``chat.completion.chunk`` with a single choice."""
    delta: dict[str, Any] = {}
    if content is not None:
        delta["content"] = content
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1_780_000_000,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def usage_chunk(prompt: int, completion: int) -> dict[str, Any]:
    """The final ``include_usage`` chunk: no choices, only usage."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1_780_000_000,
        "model": "test-model",
        "choices": [],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def model_list(*ids: str) -> Json:
    """A ``GET /models`` answer listing ``ids``."""
    return Json(200, {"object": "list", "data": [{"id": i, "object": "model"} for i in ids]})


def server_routes(models: Reply) -> dict[str, Reply]:
    """The fixed routes of a plain OpenAI-compatible server (``LoopbackServer`` ``paths``):
    ``models`` at ``/v1/models`` (which the family probe asks too), and neither llama.cpp's
    ``/props`` nor Ollama's or LM Studio's ``/api/`` routes."""
    return {"/v1/models": models, "/props": Json(404, {}), "/api/": Json(404, {})}


def error_body(message: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "code": code}}


class LoopbackServer:
    """``async with LoopbackServer([...]) as server``: ``base_url``, ``received``, ``hung_up``.

    ``request_seen`` is set when the first request has been read.

    ``hung_up`` is set when the client closes a connection while an ``Endless`` or ``Silent``
    reply was still open: the proof that cancelling closed the stream.

    ``paths`` answer every request whose path starts with one of its keys (the longest that
    matches) with the same reply, without taking a step of the script: what a real server
    answers to its fixed routes (``/v1/models``, ``/props``) while the script plays the chat.
    """

    def __init__(
        self,
        script: Sequence[Reply],
        paths: Mapping[str, Reply] | None = None,
        decide: Callable[[Received], Reply] | None = None,
    ) -> None:
        """``script``: the replies in order; ``paths``: fixed routes (see above); ``decide``: a
        reply chosen from each request instead of the script (a server that refuses some
        messages and answers the others)."""
        self._script = list(script)
        self._paths = dict(paths or {})
        self._decide = decide
        self.received: list[Received] = []
        self.hung_up = asyncio.Event()
        self.request_seen = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def open_connections(self) -> int:
        """Connections the client still holds open (idle keep-alive ones included)."""
        return len(self._tasks)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/v1"

    async def __aenter__(self) -> LoopbackServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(
        self,
        _exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.transport.abort()
        if self._tasks:  # aborted sockets wake every handler with EOF; bounded all the same
            await asyncio.wait(self._tasks, timeout=2)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            while await self._answer_one(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.transport.abort()
            self._tasks.discard(task)

    async def _answer_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        request = await _read_request(reader)
        if request is None:
            return False
        self.received.append(request)
        self.request_seen.set()
        reply = self._reply_to(request)
        if isinstance(reply, Gated):
            await reply.gate.wait()
            reply = reply.then
        if isinstance(reply, Json):
            await _send_json(writer, reply)
            return True
        if isinstance(reply, Sse):
            return await _send_sse(writer, reply)
        if isinstance(reply, Endless):
            await _send_head(writer, 200, SSE_HEADERS)
            for event in reply.events:
                await _send_chunk(writer, _event_bytes(event))
        await _wait_for_hangup(reader)
        self.hung_up.set()
        return False

    def _reply_to(self, request: Received) -> Reply:
        routes = sorted((k for k in self._paths if request.path.startswith(k)), key=len)
        if routes:
            return self._paths[routes[-1]]
        if self._decide is not None:
            return self._decide(request)
        return self._script.pop(0) if self._script else Json(599, error_body("unscripted"))


async def _read_request(reader: asyncio.StreamReader) -> Received | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, path, _version = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return Received(method, path, headers, body)


async def _send_head(writer: asyncio.StreamWriter, status: int, headers: Mapping[str, str]) -> None:
    lines = [f"HTTP/1.1 {status} Scripted"] + [f"{k}: {v}" for k, v in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    await writer.drain()


async def _send_json(writer: asyncio.StreamWriter, reply: Json) -> None:
    body = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
    headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
    await _send_head(writer, reply.status, {**headers, **reply.headers})
    writer.write(body)
    await writer.drain()


def _event_bytes(event: Mapping[str, Any] | str) -> bytes:
    payload = event if isinstance(event, str) else json.dumps(event)
    return f"data: {payload}\n\n".encode()


async def _send_chunk(writer: asyncio.StreamWriter, data: bytes) -> None:
    writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    await writer.drain()


async def _send_sse(writer: asyncio.StreamWriter, reply: Sse) -> bool:
    await _send_head(writer, 200, SSE_HEADERS)
    for event in reply.events:
        await _send_chunk(writer, _event_bytes(event))
    if reply.cut:
        writer.transport.abort()
        return False
    if reply.done:
        await _send_chunk(writer, b"data: [DONE]\n\n")
    writer.write(b"0\r\n\r\n")
    await writer.drain()
    return True


async def _wait_for_hangup(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while await reader.read(4096):
            pass


def closed_port() -> int:
    """A loopback port with nothing listening (bound, then released)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
