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
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from app.mcp import reaper
from app.mcp.failures import CallTimedOutError, ConnectionClosedError, ServerRefusedError
from app.mcp.secrets import McpSecrets
from core.mcp.results import bounded
from core.mcp.toolset import McpCallError
from core.mcp.types import ServerConfig, ToolInfo

if TYPE_CHECKING:  # the SDK loads when a server first starts (it takes seconds to import)
    from app.mcp.connection import Connection

RETRY_AFTER = 60.0
"""Seconds a server that could not start is not tried again (each model step asks for tools)."""
START_TIMEOUT = 30.0
CALL_TIMEOUT = 120.0
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
        self._open: dict[str, tuple[Connection, tuple[ToolInfo, ...]]] = {}
        self._starting: dict[str, asyncio.Task[tuple[Connection, tuple[ToolInfo, ...]]]] = {}
        self._logs: dict[str, TextIO] = {}
        self._stopping: set[asyncio.Task[None]] = set()
        self._failed: dict[str, tuple[float, McpCallError]] = {}
        """Servers that could not start: when (monotonic seconds) and why."""
        self._closed = False
        reaper.reap(data_dir)

    @property
    def running(self) -> tuple[str, ...]:
        return tuple(name for name, (c, _) in self._open.items() if c.alive)

    async def list_tools(self, server: str) -> Sequence[ToolInfo]:
        return (await self._session(server))[1]

    async def call_tool(
        self, server: str, tool: str, arguments: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        connection = await self._live(server)
        try:
            return await connection.call(tool, dict(arguments), self.call_timeout)
        except CallTimedOutError:
            seconds = f"{self.call_timeout:g}"
            raise McpCallError(
                "timeout",
                f"The tool {tool} of the MCP server {server} did not answer within {seconds} s; "
                "it was cancelled. It may or may not have taken effect.",
            ) from None
        except ConnectionClosedError:
            await self._drop(server)
            self._on_problem(_crashed(server))
            raise McpCallError(
                "failed",
                f"The MCP server {server} stopped during the call of {tool}; the call may or may "
                "not have taken effect. Chime starts the server again when it is next needed.",
            ) from None
        except ServerRefusedError as error:
            raise McpCallError("failed", _sentence(server, tool, str(error))) from None

    async def test(self, config: ServerConfig) -> tuple[ToolInfo, ...]:
        """Starts ``config`` apart from the pool, lists its tools, stops it (Settings' "Test");
        McpCallError says why it could not."""
        connection = self._connection(config)
        try:
            await connection.open(self._start_timeout)
            return await connection.tools()
        except (Exception, TimeoutError) as error:
            raise McpCallError("failed", _start_failed(config.name, error)) from None
        finally:
            await connection.close()

    def restart_soon(self, server: str) -> None:
        """Stops ``server`` in the background (its configuration changed or it was removed):
        its next use starts it anew. ``stop_all`` waits for these stops."""
        self._failed.pop(server, None)
        if server in self._open:
            task = asyncio.get_running_loop().create_task(self._drop(server))
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)

    async def stop_all(self) -> None:
        """Stops every server (quit); the pool starts nothing afterwards."""
        self._closed = True
        for task in list(self._starting.values()):
            task.cancel()
        for name in list(self._open):
            await self._drop(name)
        await asyncio.gather(*self._stopping, return_exceptions=True)
        for log in self._logs.values():
            log.close()
        self._logs.clear()

    async def _live(self, server: str) -> Connection:
        """The connection of ``server``, started anew (and said so) when it ended since it was
        last used: a ping finds a connection that closed while idle."""
        connection, _ = await self._session(server)
        try:
            await connection.ping()
        except ConnectionClosedError:
            await self._drop(server)
            self._on_problem(_crashed(server))
            connection, _ = await self._session(server)
        return connection

    async def _session(self, server: str) -> tuple[Connection, tuple[ToolInfo, ...]]:
        if self._closed:
            raise McpCallError("failed", "Chime is quitting: no MCP server is started.")
        opened = self._open.get(server)
        if opened is not None and opened[0].alive:
            return opened
        if opened is not None:
            await self._drop(server)
            self._on_problem(_crashed(server))
        failed = self._failed.get(server)
        if failed is not None and time.monotonic() - failed[0] < RETRY_AFTER:
            raise failed[1]
        task = self._starting.get(server)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._start(server))
            self._starting[server] = task
            task.add_done_callback(lambda _t: self._starting.pop(server, None))
        return await asyncio.shield(task)

    async def _start(self, server: str) -> tuple[Connection, tuple[ToolInfo, ...]]:
        config = self._servers().get(server)
        if config is None:
            raise McpCallError("failed", f'No MCP server is named "{server}" in Settings.')
        connection = self._connection(config)
        try:
            await connection.open(self._start_timeout)
            tools = await connection.tools()
        except (Exception, TimeoutError) as error:
            await connection.close()
            failure = McpCallError("failed", _start_failed(server, error))
            self._failed[server] = (time.monotonic(), failure)
            raise failure from None
        self._failed.pop(server, None)
        self._open[server] = (connection, tools)
        self._record()
        return connection, tools

    def _connection(self, config: ServerConfig) -> Connection:
        from app.mcp.connection import Connection  # the SDK loads here, on a server's first start

        folder = self._data_dir / "mcp-logs"
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(config.name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        log = self._logs.get(config.name)
        if log is None:
            log = self._logs[config.name] = (folder / f"{digest}.log").open("a", encoding="utf-8")
        return Connection(config, self._secrets.values(config), log, str(self._data_dir))

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
