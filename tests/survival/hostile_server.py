"""A hostile OpenAI-compatible endpoint on 127.0.0.1 for the survival tests and
``scripts/hostile_endpoint.py``. Owns: the replies the scripted loopback server of
``tests.core.llm.loopback`` does not make: a flood that never ends (text, tool-call arguments or
empty chunks, until the client hangs up), raw bytes in the event stream, and a 401 that echoes the
request's headers back (as some proxies do). Must not: sleep for real time or reach the network.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from typing import Any, Literal

from tests.core.llm.loopback import SSE_HEADERS, Json, LoopbackServer, Reply, chunk


@dataclass(frozen=True)
class Flood:
    """A 200 event stream that sends chunks for ever, never a finish, until the client hangs up.

    ``kind``: ``text`` (``piece`` as content), ``arguments`` (``piece`` as one tool call's
    arguments) or ``empty`` (chunks with an empty delta). ``sent`` counts chunks across floods.
    """

    kind: Literal["text", "arguments", "empty"] = "text"
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
    if kind == "arguments":
        call = {"index": 0, "id": "call_flood", "type": "function"}
        call["function"] = {"name": "schedule_list", "arguments": piece}
        return chunk(tool_calls=[call])
    return chunk(piece if kind == "text" else None)


class HostileServer(LoopbackServer):
    """``LoopbackServer`` that also plays ``Flood``, ``Raw`` and ``EchoHeaders`` replies.

    It hooks the base server's per-request answer: a hostile reply at the head of the script is
    played here, anything else is left to the base class. ``flood_chunks`` counts flood chunks
    written (the proof that a flood really kept going until the client stopped reading).
    """

    def __init__(self, script: list[HostileReply]) -> None:
        super().__init__([])
        self.hostile = list(script)
        self.flood_chunks = 0

    async def _answer_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        head = self.hostile[0] if self.hostile else None
        if isinstance(head, Flood | Raw | EchoHeaders):
            return await self._hostile(head, reader, writer)
        if head is not None:
            self.hostile.pop(0)
            self._script.append(head)
        return await super()._answer_one(reader, writer)

    async def _hostile(
        self,
        reply: Flood | Raw | EchoHeaders,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> bool:
        request = await _read_head(reader)
        if request is None:
            return False
        self.hostile.pop(0)
        self.request_seen.set()
        if isinstance(reply, EchoHeaders):
            message = reply.prefix + "Your request headers were: " + json.dumps(request)
            body = json.dumps({"error": {"message": message, "type": "auth"}}).encode()
            await _send(writer, reply.status, {"Content-Type": "application/json"}, body)
            return True
        await _send(writer, 200, SSE_HEADERS, None)
        if isinstance(reply, Raw):
            await _write_chunk(writer, reply.body)
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            return True
        await self._flood(reply, writer)
        self.hung_up.set()
        return False

    async def _flood(self, reply: Flood, writer: asyncio.StreamWriter) -> None:
        data = f"data: {json.dumps(flood_chunk(reply.kind, reply.piece))}\n\n".encode()
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


async def _read_head(reader: asyncio.StreamReader) -> dict[str, str] | None:
    """Reads one request (head and body); returns its headers, lower-cased names."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    headers: dict[str, str] = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if value:
            headers[name.strip().lower()] = value.strip()
    await reader.readexactly(int(headers.get("content-length", "0")))
    return headers


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
