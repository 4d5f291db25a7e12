"""The pool's decisions without real processes (app/mcp/pool.py): a connection stand-in that
times out, is refused, closes mid-call or while idle, or dies between two uses."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.mcp.failures import CallTimedOutError, ConnectionClosedError, ServerRefusedError
from app.mcp.pool import McpPool
from app.mcp.secrets import McpSecrets
from app.settings import KeyStore
from core.mcp.toolset import McpCallError
from core.mcp.types import ServerConfig, StdioServer, ToolInfo

SERVER = ServerConfig("fake", StdioServer("fake-server"))


class StandIn:
    """A connection whose next call ends as ``outcome`` says; ``alive`` can be turned off."""

    opened = 0

    def __init__(self, outcome: list[Exception | None], ping: list[Exception | None]) -> None:
        self.outcome, self.pings = outcome, ping
        self.alive = False
        self.closed = False

    async def open(self, within: float) -> None:
        StandIn.opened += 1
        self.alive = True

    async def tools(self) -> tuple[ToolInfo, ...]:
        return (ToolInfo("fake", "t", "", "does t"),)

    async def call(self, tool: str, arguments: dict[str, Any], within: float) -> dict[str, Any]:
        failure = self.outcome.pop(0) if self.outcome else None
        if failure is not None:
            raise failure
        return {"content": [{"type": "text", "text": "ok"}]}

    async def ping(self) -> None:
        failure = self.pings.pop(0) if self.pings else None
        if failure is not None:
            raise failure

    async def close(self) -> None:
        self.closed, self.alive = True, False


def rig(
    tmp_path: Path, outcome: list[Exception | None], ping: list[Exception | None] | None = None
) -> tuple[McpPool, list[str], list[StandIn]]:
    problems: list[str] = []
    made: list[StandIn] = []
    pool = McpPool(
        lambda: {"fake": SERVER},
        McpSecrets(KeyStore(tmp_path, use_keyring=False)),
        tmp_path,
        on_problem=problems.append,
    )

    def connection(_config: ServerConfig) -> Any:
        made.append(StandIn(outcome, ping if ping is not None else []))
        return made[-1]

    setattr(pool, "_connection", connection)  # noqa: B010 -- the seam this test replaces
    return pool, problems, made


def call(pool: McpPool) -> str:
    async def main() -> str:
        try:
            await pool.call_tool("fake", "t", {})
            return "ok"
        except McpCallError as error:
            return f"{error.kind}: {error.sentence}"

    return asyncio.run(main())


def test_a_timeout_keeps_the_server(tmp_path: Path) -> None:
    pool, problems, made = rig(tmp_path, [CallTimedOutError(), None])
    assert call(pool).startswith(
        "timeout: The tool t of the MCP server fake did not answer within 120 s"
    )
    assert call(pool) == "ok"
    assert len(made) == 1
    assert problems == []


def test_a_refusal_is_the_servers_own_words(tmp_path: Path) -> None:
    pool, _, _ = rig(tmp_path, [ServerRefusedError("Unknown tool: t")])
    assert call(pool) == "failed: The tool t of the MCP server fake failed: Unknown tool: t"


def test_a_crash_mid_call_is_said_and_the_next_use_starts_it_again(tmp_path: Path) -> None:
    pool, problems, made = rig(tmp_path, [ConnectionClosedError("closed"), None])
    assert call(pool).startswith("failed: The MCP server fake stopped during the call of t")
    assert made[0].closed
    assert call(pool) == "ok"
    assert len(made) == 2
    assert problems == [
        "The MCP server fake stopped; Chime starts it again when it is next needed."
    ]


def test_a_connection_that_closed_while_idle_is_started_again_before_the_call(
    tmp_path: Path,
) -> None:
    pool, problems, made = rig(tmp_path, [None], ping=[ConnectionClosedError("closed")])
    assert call(pool) == "ok"
    assert len(made) == 2
    assert len(problems) == 1


def test_a_dead_connection_found_between_uses_is_replaced(tmp_path: Path) -> None:
    pool, problems, made = rig(tmp_path, [None, None])

    async def main() -> tuple[str, ...]:
        await pool.list_tools("fake")
        made[0].alive = False
        await pool.list_tools("fake")
        pool.restart_soon("fake")
        pool.restart_soon("unknown")
        await pool.stop_all()
        return pool.running

    assert asyncio.run(main()) == ()
    assert len(made) == 2
    assert problems == [
        "The MCP server fake stopped; Chime starts it again when it is next needed."
    ]


def test_two_first_uses_at_once_start_one_server(tmp_path: Path) -> None:
    pool, _, made = rig(tmp_path, [])

    async def main() -> None:
        await asyncio.gather(pool.list_tools("fake"), pool.list_tools("fake"))
        await pool.stop_all()

    asyncio.run(main())
    assert len(made) == 1


def test_a_pid_file_that_cannot_be_written_is_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.mcp import reaper

    def refuse(_folder: Path) -> None:
        raise OSError("read-only")

    monkeypatch.setattr(reaper, "record", refuse)
    pool, _, _ = rig(tmp_path, [])

    async def main() -> None:
        await pool.list_tools("fake")
        await pool.stop_all()

    asyncio.run(main())
    assert "could not write the MCP servers' pid file" in caplog.text
