"""A child process for the crash test: a session whose model calls an MCP tool; the tool's
client writes down that it was called and SIGKILLs the process (after ``tool/start`` was made
durable, before any result). Usage: ``python -m tests.mcp.kill_child DATA_DIR SESSION_ID CALLS``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.host import SessionHost
from core.mcp.toolset import McpHooks, McpToolset
from core.mcp.types import ApprovalRequest, Decision, ToolInfo
from core.session.store import SessionStore
from tests.core.agent.fakes import FakeWaker, Reply, ScriptedModel
from tests.fakes import FakeClock

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
CALL = Reply("", calls=(("shop__order", '{"item": "coffee"}'),))


class Client:
    """Records each call in ``calls`` (one line) and, in the child, dies during it."""

    def __init__(self, calls: Path, *, die: bool) -> None:
        self.calls = calls
        self.die = die

    async def list_tools(self, server: str) -> Sequence[ToolInfo]:
        return [ToolInfo(server, "order", "", "Orders an item.", {"type": "object"})]

    async def call_tool(
        self, server: str, tool: str, arguments: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        with self.calls.open("a", encoding="utf-8") as handle:
            handle.write(f"{server} {tool} {os.getpid()}\n")
        if self.die:
            os.kill(os.getpid(), signal.SIGKILL)
        return {"content": [{"type": "text", "text": "ordered"}]}


class Allowed:
    def allows(self, server: str, tool: str) -> bool:
        return True

    def allow(self, server: str, tool: str) -> None:
        return None


async def _ask(_request: ApprovalRequest) -> Decision:
    return Decision.ALLOW_ONCE


def toolset(session_id: str, client: Client) -> McpToolset:
    async def no_image(_name: str, _data: bytes) -> None:
        return None

    hooks = McpHooks(client, _ask, Allowed(), no_image, lambda _sentence: None)
    return McpToolset(session_id, lambda: ("shop",), hooks)


async def main(data_dir: Path, session_id: str, calls: Path) -> None:
    clock = FakeClock(NOW)
    session = await SessionStore(data_dir, clock).open(session_id)
    model = ScriptedModel([CALL])
    host = SessionHost(
        session,
        model,
        clock,
        lambda: "UTC",
        FakeWaker,
        system_prompt="x",
        extra_toolsets=(toolset(session_id, Client(calls, die=True)),),
    )
    host.start()
    host.submit("order me a coffee")
    for _ in range(400):
        await asyncio.sleep(0.01)
    raise SystemExit("the tool was never called")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])))
