"""A hostile OpenAI-compatible endpoint on 127.0.0.1 for the survival tests and
``scripts/hostile_endpoint.py``. Owns: the replies the scripted loopback server of
``tests.core.llm.loopback`` does not make: a flood that never ends (text, tool-call arguments or
empty chunks, until the client hangs up), raw bytes in the event stream, and an error that echoes the
request's headers back (as some proxies do). Must not: sleep for real time or reach the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tests.core.llm.loopback import (
    SSE_HEADERS,
    Endless,
    Json,
    LoopbackServer,
    Received,
    Reply,
    Sse,
    chunk,
    error_body,
)


@dataclass(frozen=True)
class Flood:
    """A 200 event stream that sends chunks for ever, never a finish, until the client hangs up.

    ``kind``: ``text`` (``piece`` as content), ``arguments`` (``piece`` as one tool call's
    arguments), ``empty`` (chunks with an empty delta), ``line`` (one ``data:`` line that never
    ends: ``piece`` repeated, no line break) or ``event`` (``data:`` lines of ``piece`` that never
    reach the blank line ending their event).
    """

    kind: Literal["text", "arguments", "empty", "line", "event"] = "text"
    piece: str = "flood "


@dataclass(frozen=True)
class Raw:
    """A 200 event stream whose body is exactly ``body`` (chunked), then ended cleanly."""

    body: bytes


@dataclass(frozen=True)
class EchoHeaders:
    """An error whose message quotes every request header, ``Authorization`` included, after
    ``prefix`` (to place the key where a shortened message would cut it), as proxies do."""

    status: int = 401
    prefix: str = ""


HostileReply = Reply | Flood | Raw | EchoHeaders


def flood_chunk(kind: str, piece: str) -> dict[str, Any]:
    """One chunk of a ``text``, ``arguments`` or ``empty`` flood."""
    if kind == "arguments":
        call = {"index": 0, "id": "call_flood", "type": "function"}
        call["function"] = {"name": "schedule_list", "arguments": piece}
        return chunk(tool_calls=[call])
    return chunk(piece if kind == "text" else None)


class HostileServer(LoopbackServer):
    """``LoopbackServer`` (its sockets and lifetime) answering from ``hostile``: the loopback
    replies plus ``Flood``, ``Raw`` and ``EchoHeaders``. A reply is chosen once a request has been
    read, so replies appended while a keep-alive connection waits are used in order.
    ``flood_chunks`` counts flood chunks written (the proof that a flood kept going until the
    client stopped reading); ``received`` records every request."""

    def __init__(self, script: list[HostileReply]) -> None:
        super().__init__([])
        self.hostile = list(script)
        self.flood_chunks = 0

    async def _answer_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        request = await _read_request(reader)
        if request is None:
            return False
        self.received.append(request)
        self.request_seen.set()
        reply = self.hostile.pop(0) if self.hostile else Json(599, error_body("unscripted"))
        if isinstance(reply, Json | EchoHeaders | Raw | Sse):
            return await _send_complete(writer, reply, request)
        await _send(writer, 200, SSE_HEADERS, None)
        if isinstance(reply, Flood):
            await self._flood(reply, writer)
        elif isinstance(reply, Endless):
            for event in reply.events:
                await _write_chunk(writer, _event(event))
        await _wait_for_hangup(reader)
        self.hung_up.set()
        return False

    async def _flood(self, reply: Flood, writer: asyncio.StreamWriter) -> None:
        data = _event(flood_chunk(reply.kind, reply.piece))
        if reply.kind in ("line", "event"):
            head = b"data: " if reply.kind == "line" else b""
            await _write_chunk(writer, head + b'{"choices": [{"delta": {"content": "')
            data = reply.piece.encode() * 64 if reply.kind == "line" else b"data: x\n" * 64
        for count in itertools.count():
            if writer.transport.is_closing():
                return
            try:
                await _write_chunk(writer, data)
            except ConnectionError:
                return
            self.flood_chunks += 1
            if count % 64 == 0:
                await asyncio.sleep(0)  # lets the client run even when the socket never fills


async def _send_complete(
    writer: asyncio.StreamWriter, reply: Json | EchoHeaders | Raw | Sse, request: Received
) -> bool:
    """Sends a reply that ends by itself; False when it left the connection unusable."""
    if isinstance(reply, EchoHeaders):
        message = reply.prefix + "Your request headers were: " + json.dumps(dict(request.headers))
        reply = Json(reply.status, {"error": {"message": message, "type": "auth"}})
    if isinstance(reply, Json):
        body = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
        await _send(
            writer, reply.status, {"Content-Type": "application/json", **reply.headers}, body
        )
        return True
    await _send(writer, 200, SSE_HEADERS, None)
    if isinstance(reply, Raw):
        await _write_chunk(writer, reply.body)
    else:
        for event in reply.events:
            await _write_chunk(writer, _event(event))
        if reply.cut:
            writer.transport.abort()
            return False
        if reply.done:
            await _write_chunk(writer, b"data: [DONE]\n\n")
    writer.write(b"0\r\n\r\n")
    await writer.drain()
    return True


def _event(event: Mapping[str, Any] | str) -> bytes:
    payload = event if isinstance(event, str) else json.dumps(event)
    return f"data: {payload}\n\n".encode()


async def _read_request(reader: asyncio.StreamReader) -> Received | None:
    """Reads one request (head and body); header names lower-cased. None at end of stream."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    first, *lines = head.decode("latin-1").split("\r\n")
    method, path, _version = first.split(" ", 2)
    headers: dict[str, str] = {}
    for line in lines:
        name, _, value = line.partition(":")
        if value:
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return Received(method, path, headers, body)


async def _wait_for_hangup(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while await reader.read(4096):
            pass


async def _send(
    writer: asyncio.StreamWriter, status: int, headers: dict[str, str], body: bytes | None
) -> None:
    fields = dict(headers)
    if body is not None:
        fields["Content-Length"] = str(len(body))
    lines = [f"HTTP/1.1 {status} Hostile"] + [f"{k}: {v}" for k, v in fields.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b""))
    await writer.drain()


async def _write_chunk(writer: asyncio.StreamWriter, data: bytes) -> None:
    writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    await writer.drain()


__all__ = ["EchoHeaders", "Flood", "HostileReply", "HostileServer", "Json", "Raw"]
