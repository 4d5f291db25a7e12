"""One running MCP server spoken to through the official SDK: stdio (the SDK's stdio client starts
it in a process group of its own) or Streamable HTTP. Owns the SDK's context managers; must not
decide when a server starts or stops (the pool does).

The SDK's transports and ``ClientSession`` are anyio context managers that must be entered and
left by one task, so each connection has an owner task that opens them, hands the session out,
waits to be told to close and then leaves them (the SDK's stdio shutdown: stdin closed, then
SIGTERM and SIGKILL to the group). Calls run from any task through the session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any, TextIO

import httpx2
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT, Implementation, PaginatedRequestParams

from app import __version__
from app.mcp.failures import CallTimedOutError, ConnectionClosedError, ServerRefusedError
from core.mcp.types import HttpServer, ServerConfig, StdioServer, ToolInfo

CLIENT_INFO = Implementation(name="Chime", version=__version__)
MAX_TOOLS_LISTED = 5000
"""Tools read from one server at most (pages of its listing); the budget keeps far fewer."""


class Connection:
    """An open session with one server; ``open()`` first, ``close()`` last (both idempotent)."""

    def __init__(
        self,
        config: ServerConfig,
        secrets: Mapping[str, str],
        errlog: TextIO,
        cwd: str,
    ) -> None:
        self.config = config
        self._secrets = dict(secrets)
        self._errlog = errlog
        self._cwd = cwd
        self._ready: asyncio.Future[ClientSession] | None = None
        self._closing = asyncio.Event()
        self._owner: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return self._owner is not None and not self._owner.done()

    async def tools(self) -> tuple[ToolInfo, ...]:
        """Every tool the server lists (following its pages, at most ``MAX_TOOLS_LISTED``)."""
        session, name = await self._session(), self.config.name
        tools: list[ToolInfo] = []
        cursor: str | None = None
        while len(tools) < MAX_TOOLS_LISTED:
            params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
            with _failures():
                page = await session.list_tools(params=params)
            tools.extend(
                ToolInfo(name, tool.name, "", tool.description or "", dict(tool.input_schema))
                for tool in page.tools
            )
            cursor = page.next_cursor
            if not cursor:
                break
        return tuple(tools[:MAX_TOOLS_LISTED])

    async def call(self, tool: str, arguments: dict[str, Any], within: float) -> dict[str, Any]:
        """The tool's ``CallToolResult`` as JSON data; CallTimedOutError, ConnectionClosedError or
        ServerRefusedError when there is none."""
        session = await self._session()
        with _failures():
            result = await session.call_tool(tool, arguments, within)
        return result.model_dump(mode="json", by_alias=True, exclude_none=True)

    async def ping(self) -> None:
        """ConnectionClosedError when the connection ended since it was last used."""
        session = await self._session()
        with contextlib.suppress(CallTimedOutError, ServerRefusedError), _failures():
            await session.send_ping()

    async def _session(self) -> ClientSession:
        if self._ready is None or not self._ready.done() or self._ready.exception() is not None:
            raise ConnectionClosedError("the connection is not open")
        return self._ready.result()

    async def open(self, within: float) -> ClientSession:
        """Starts (or connects to) the server and initializes the session within ``within`` seconds."""
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self._owner = loop.create_task(self._own(self._ready))
        try:
            return await asyncio.wait_for(asyncio.shield(self._ready), within)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Leaves the SDK's contexts (a stdio server: stdin closed, then SIGTERM and SIGKILL to
        its group). A server still starting (hung in ``initialize``) is cancelled instead."""
        self._closing.set()
        owner, ready = self._owner, self._ready
        if owner is not None and not owner.done():
            if ready is not None and not ready.done():
                owner.cancel()
            await asyncio.wait([owner])  # its own failure was handed to open(); ours propagates
        if ready is not None and ready.done() and not ready.cancelled():
            ready.exception()  # read: a start that failed after open() gave up is known

    async def _own(self, ready: asyncio.Future[ClientSession]) -> None:
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(self._transport())
                session = ClientSession(read, write, client_info=CLIENT_INFO)
                await stack.enter_async_context(session)
                await session.initialize()
                if not ready.done():
                    ready.set_result(session)
                await self._closing.wait()
        except BaseException as error:  # handed to open(); a later failure ends the connection
            if not ready.done():
                ready.set_exception(error if isinstance(error, Exception) else ConnectionError())
            if not isinstance(error, Exception):
                raise
        finally:
            if not ready.done():
                ready.set_exception(ConnectionError("the server ended before it was ready"))

    def _transport(self) -> AbstractAsyncContextManager[Any]:
        match self.config.transport:
            case StdioServer() as stdio:
                return stdio_client(self._stdio(stdio), errlog=self._errlog)
            case HttpServer() as http:
                return _http(http, self._secrets)

    def _stdio(self, stdio: StdioServer) -> StdioServerParameters:
        env = dict(stdio.env)
        env.update(
            (name, self._secrets[name]) for name in stdio.secret_env if name in self._secrets
        )
        return StdioServerParameters(
            command=stdio.command, args=list(stdio.args), env=env, cwd=stdio.cwd or self._cwd
        )


@contextlib.contextmanager
def _failures() -> Iterator[None]:
    """The SDK's errors as the pool's: timeout, closed connection, the server's refusal."""
    try:
        yield
    except MCPError as error:
        if error.code == REQUEST_TIMEOUT:
            raise CallTimedOutError(error.message) from None
        if error.code == CONNECTION_CLOSED:
            raise ConnectionClosedError(error.message) from None
        raise ServerRefusedError(error.message) from None
    except (OSError, RuntimeError) as error:  # the SDK's own transport failures
        raise ConnectionClosedError(str(error) or type(error).__name__) from None


@contextlib.asynccontextmanager
async def _http(http: HttpServer, secrets: Mapping[str, str]) -> AsyncIterator[Any]:
    headers = dict(http.headers)
    headers.update((name, secrets[name]) for name in http.secret_headers if name in secrets)
    client = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300))
    async with client, streamable_http_client(http.url, http_client=client) as streams:
        yield streams
