"""The MCP servers of this Chime, shared by every session: started on first use (never at app
start), asked for their tools once per start, called with a timeout, restarted on the next use
after a crash (with a sentence for the window), all stopped on quit. Implements
``core.mcp.toolset.McpClient``; must not decide what a call may do (the toolset asks the person).

Choices (docs/spec/agent.md §3.1): a server gets ``START_TIMEOUT`` (30 s) to start and answer
``initialize``, a tool call ``CALL_TIMEOUT`` (120 s; the SDK then cancels the request); a call
whose connection closed (the server crashed or was killed mid-call) is a ``failed`` result, the
connection is dropped and the next use starts the server again. A server's stderr goes to
``mcp-logs/<name>.log`` in the data folder. The process groups of the stdio servers are written
down (``app.mcp.reaper``) after each start and stop, and reaped when the pool is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT, PaginatedRequestParams

from app.mcp import reaper
from app.mcp.connection import Connection
from app.mcp.secrets import McpSecrets
from core.mcp.results import bounded
from core.mcp.toolset import McpCallError
from core.mcp.types import ServerConfig, ToolInfo

START_TIMEOUT = 30.0
CALL_TIMEOUT = 120.0
MAX_TOOLS_LISTED = 5000
"""Tools read from one server at most (pages of its listing); the budget keeps far fewer."""
_log = logging.getLogger(__name__)


class McpPool:
    """The running servers by name; ``servers()`` is the configuration as it stands now."""

    def __init__(
        self,
        servers: Callable[[], Mapping[str, ServerConfig]],
        secrets: McpSecrets,
        data_dir: Path,
        *,
        on_problem: Callable[[str], None] = lambda _sentence: None,
        start_timeout: float = START_TIMEOUT,
        call_timeout: float = CALL_TIMEOUT,
    ) -> None:
        self._servers = servers
        self._secrets = secrets
        self._data_dir = data_dir
        self._on_problem = on_problem
        self._start_timeout = start_timeout
        self.call_timeout = call_timeout
        self._open: dict[str, tuple[Connection, ClientSession, tuple[ToolInfo, ...]]] = {}
        self._starting: dict[str, asyncio.Task[tuple[ClientSession, tuple[ToolInfo, ...]]]] = {}
        self._logs: dict[str, TextIO] = {}
        self._closed = False
        reaper.reap(data_dir)

    @property
    def running(self) -> tuple[str, ...]:
        return tuple(name for name, (c, _, _) in self._open.items() if c.alive)

    async def list_tools(self, server: str) -> Sequence[ToolInfo]:
        return (await self._session(server))[1]

    async def call_tool(
        self, server: str, tool: str, arguments: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        session = await self._live_session(server)
        try:
            result = await session.call_tool(tool, dict(arguments), self.call_timeout)
        except MCPError as error:
            raise await self._call_failed(server, tool, error) from None
        except (OSError, RuntimeError, ValueError) as error:  # the SDK's own failures
            await self._drop(server)
            raise McpCallError("failed", _sentence(server, tool, str(error))) from None
        return result.model_dump(mode="json", by_alias=True, exclude_none=True)

    async def test(self, config: ServerConfig) -> tuple[ToolInfo, ...]:
        """Starts ``config`` apart from the pool, lists its tools, stops it (Settings' "Test");
        McpCallError says why it could not."""
        connection = self._connection(config)
        try:
            session = await connection.open(self._start_timeout)
            return await _tools(config.name, session)
        except (Exception, TimeoutError) as error:
            raise McpCallError("failed", _start_failed(config.name, error)) from None
        finally:
            await connection.close()

    async def restart(self, server: str) -> None:
        """Stops ``server`` (its configuration changed): the next use starts it anew."""
        await self._drop(server)

    async def stop_all(self) -> None:
        """Stops every server (quit); the pool starts nothing afterwards."""
        self._closed = True
        for task in list(self._starting.values()):
            task.cancel()
        for name in list(self._open):
            await self._drop(name)
        for log in self._logs.values():
            log.close()
        self._logs.clear()

    async def _live_session(self, server: str) -> ClientSession:
        """The session of ``server``, started anew (and said so) when it ended since last used:
        a ping finds a connection that closed while idle."""
        session, _ = await self._session(server)
        try:
            await session.send_ping()
        except MCPError as error:
            if error.code != CONNECTION_CLOSED:
                return session
            await self._drop(server)
            self._on_problem(_crashed(server))
            session, _ = await self._session(server)
        return session

    async def _session(self, server: str) -> tuple[ClientSession, tuple[ToolInfo, ...]]:
        if self._closed:
            raise McpCallError("failed", "Chime is quitting: no MCP server is started.")
        opened = self._open.get(server)
        if opened is not None and opened[0].alive:
            return opened[1], opened[2]
        if opened is not None:
            await self._drop(server)
            self._on_problem(_crashed(server))
        task = self._starting.get(server)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._start(server))
            self._starting[server] = task
            task.add_done_callback(lambda _t: self._starting.pop(server, None))
        return await asyncio.shield(task)

    async def _start(self, server: str) -> tuple[ClientSession, tuple[ToolInfo, ...]]:
        config = self._servers().get(server)
        if config is None:
            raise McpCallError("failed", f'No MCP server is named "{server}" in Settings.')
        connection = self._connection(config)
        try:
            session = await connection.open(self._start_timeout)
            tools = await _tools(server, session)
        except (Exception, TimeoutError) as error:
            await connection.close()
            sentence = _start_failed(server, error)
            raise McpCallError("failed", sentence) from None
        self._open[server] = (connection, session, tools)
        self._record()
        return session, tools

    def _connection(self, config: ServerConfig) -> Connection:
        folder = self._data_dir / "mcp-logs"
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(config.name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        log = self._logs.get(config.name)
        if log is None:
            log = self._logs[config.name] = (folder / f"{digest}.log").open("a", encoding="utf-8")
        return Connection(config, self._secrets.values(config), log, str(self._data_dir))

    async def _call_failed(self, server: str, tool: str, error: MCPError) -> McpCallError:
        if error.code == REQUEST_TIMEOUT:
            seconds = f"{self.call_timeout:g}"
            return McpCallError(
                "timeout",
                f"The tool {tool} of the MCP server {server} did not answer within {seconds} s; "
                "it was cancelled. It may or may not have taken effect.",
            )
        if error.code == CONNECTION_CLOSED:
            await self._drop(server)
            self._on_problem(_crashed(server))
            return McpCallError(
                "failed",
                f"The MCP server {server} stopped during the call of {tool}; the call may or may "
                "not have taken effect. Chime starts the server again when it is next needed.",
            )
        return McpCallError("failed", _sentence(server, tool, error.message))

    async def _drop(self, server: str) -> None:
        opened = self._open.pop(server, None)
        if opened is not None:
            with contextlib.suppress(Exception):
                await opened[0].close()
            self._record()

    def _record(self) -> None:
        try:
            reaper.record(self._data_dir)
        except OSError as error:
            _log.warning("could not write the MCP servers' pid file: %s", error)


async def _tools(server: str, session: ClientSession) -> tuple[ToolInfo, ...]:
    """Every tool ``server`` lists (following its pages, at most ``MAX_TOOLS_LISTED``)."""
    tools: list[ToolInfo] = []
    cursor: str | None = None
    while len(tools) < MAX_TOOLS_LISTED:
        params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
        page = await session.list_tools(params=params)
        tools.extend(
            ToolInfo(server, tool.name, "", tool.description or "", dict(tool.input_schema))
            for tool in page.tools
        )
        cursor = page.next_cursor
        if not cursor:
            break
    return tuple(tools[:MAX_TOOLS_LISTED])


def _sentence(server: str, tool: str, reason: str) -> str:
    return bounded(f"The tool {tool} of the MCP server {server} failed: {reason}", 2000)


def _crashed(server: str) -> str:
    return f"The MCP server {server} stopped; Chime starts it again when it is next needed."


def _start_failed(server: str, error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        reason = "it did not answer in time"
    else:
        reason = str(error) or type(error).__name__
    return bounded(f"The MCP server {server} could not be started: {reason}.", 2000)
