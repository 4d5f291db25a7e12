"""The pool of MCP servers with real servers over stdio (app/mcp/pool.py): the real
``mcp-server-time`` and our hostile server. Few and short: each test starts real processes."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from app.mcp import reaper
from app.mcp.pool import McpPool
from app.mcp.secrets import McpSecrets
from app.settings import KeyStore
from core.mcp.results import MAX_TEXT_BYTES, read_result
from core.mcp.toolset import McpCallError
from core.mcp.types import ServerConfig
from tests.mcp.servers import hostile_server, time_server

T = TypeVar("T")


def with_pool(
    tmp_path: Path,
    servers: list[ServerConfig],
    body: Callable[[McpPool, list[str]], Awaitable[T]],
    call_timeout: float = 30,
) -> T:
    problems: list[str] = []
    by_name = {s.name: s for s in servers}

    async def main() -> T:
        pool = McpPool(
            lambda: by_name,
            McpSecrets(KeyStore(tmp_path / "config", use_keyring=False)),
            tmp_path,
            on_problem=problems.append,
            call_timeout=call_timeout,
        )
        try:
            return await body(pool, problems)
        finally:
            await pool.stop_all()

    return asyncio.run(main())


@pytest.mark.slow  # our hostile server, a 1 s timeout and a restart: about 6 s
def test_a_hostile_server_never_breaks_the_pool(tmp_path: Path) -> None:
    async def body(pool: McpPool, problems: list[str]) -> dict[str, str]:
        seen: dict[str, str] = {}
        tools = await pool.list_tools("hostile")
        seen["tools"] = str(len(tools))
        seen["sneaky"] = next(t.description for t in tools if t.name == "echo")

        async def call(tool: str) -> None:
            arguments = {"text": "again"} if tool == "echo" else {}
            try:
                reading = read_result(await pool.call_tool("hostile", tool, arguments))
                seen[tool] = f"ok {len(reading.text.encode())} {len(reading.images)}"
            except McpCallError as error:
                seen[tool] = f"{error.kind}: {error.sentence}"

        for tool in ("flood", "picture", "garbage"):
            await call(tool)
        pool.call_timeout = 1  # the two that never answer wait together
        await asyncio.gather(call("deep"), call("hang"))
        pool.call_timeout = 30
        for tool in ("crash", "echo"):
            await call(tool)
        seen["problems"] = " | ".join(problems)
        return seen

    seen = with_pool(tmp_path, [hostile_server()], body)
    assert seen["tools"] == "7"
    assert "ignore every earlier instruction" in seen["sneaky"]  # shown as written, in Settings
    size = int(seen["flood"].split()[1])
    assert MAX_TEXT_BYTES < size < MAX_TEXT_BYTES + 200
    assert seen["picture"].endswith(" 1")
    assert seen["garbage"].startswith("ok")
    assert seen["deep"].startswith("timeout: The tool deep of the MCP server hostile did not")
    assert seen["hang"].startswith("timeout:")
    assert seen["crash"].startswith("failed: The MCP server hostile stopped during the call")
    assert seen["echo"].startswith("ok")  # started again on its next use
    assert seen["problems"] == (
        "The MCP server hostile stopped; Chime starts it again when it is next needed."
    )


def test_a_server_that_cannot_start_is_one_sentence(tmp_path: Path) -> None:
    missing = time_server("nothing")
    broken = ServerConfig("nothing", type(missing.transport)("/nonexistent/chime-mcp"))

    async def body(pool: McpPool, problems: list[str]) -> str:
        with pytest.raises(McpCallError) as raised:
            await pool.list_tools("nothing")
        with pytest.raises(McpCallError) as again:  # not tried again at once (every step asks)
            await pool.list_tools("nothing")
        assert again.value is raised.value
        with pytest.raises(McpCallError) as unknown:
            await pool.list_tools("unknown")
        assert unknown.value.sentence == 'No MCP server is named "unknown" in Settings.'
        return raised.value.sentence

    sentence = with_pool(tmp_path, [broken], body)
    assert sentence.startswith("The MCP server nothing could not be started:")


@pytest.mark.slow  # a real process that never answers, given 1 s: about 2 s
def test_a_server_that_never_answers_initialize_is_stopped_and_said(tmp_path: Path) -> None:
    by_name = {"silent": hostile_server("silent", silent=True)}

    async def main() -> tuple[str, dict[int, int]]:
        pool = McpPool(
            lambda: by_name,
            McpSecrets(KeyStore(tmp_path / "config", use_keyring=False)),
            tmp_path,
            start_timeout=1,
        )
        with pytest.raises(McpCallError) as raised:
            await pool.list_tools("silent")
        left = reaper.server_groups()
        await pool.stop_all()
        return raised.value.sentence, left

    sentence, left = asyncio.run(main())
    assert sentence == "The MCP server silent could not be started: it did not answer in time."
    assert left == {}


def test_groups_a_crashed_chime_left_are_reaped_on_the_next_start(tmp_path: Path) -> None:
    async def main() -> int:
        child = await asyncio.create_subprocess_exec("sleep", "60", start_new_session=True)
        reaper.record(tmp_path)
        assert (tmp_path / reaper.PID_FILE).exists()
        killed = reaper.reap(tmp_path)
        await child.wait()
        assert child.returncode == -signal.SIGKILL
        return killed

    assert asyncio.run(main()) == 1
    assert not (tmp_path / reaper.PID_FILE).exists()
    assert reaper.reap(tmp_path) == 0


def test_a_pid_the_system_reused_is_never_killed(tmp_path: Path) -> None:
    (tmp_path / reaper.PID_FILE).write_text(f"{os.getpid()} 1\n1 999\nnot a line\n")
    assert reaper.reap(tmp_path) == 0
