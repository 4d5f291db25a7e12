"""MCP tools end to end: the model behind the loopback OpenAI-compatible server calls the real
``mcp-server-time`` through the pool; and a SIGKILL between ``tool/start`` and ``tool/result``
followed by a restart runs nothing twice."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.mcp import reaper
from app.mcp.pool import McpPool
from app.mcp.secrets import McpSecrets
from app.settings import KeyStore
from core.host import SessionHost
from core.mcp.toolset import McpHooks, McpToolset
from core.mcp.types import ApprovalRequest, Decision
from core.session.repair import STOPPED_DURING
from core.session.store import SessionStore
from tests.core.agent.fakes import FakeWaker, Reply, ScriptedModel, settle
from tests.core.llm.loopback import LoopbackServer, Sse, chunk
from tests.core.llm.openai_kit import provider_for
from tests.fakes import FakeClock
from tests.mcp.kill_child import NOW, Allowed, Client, toolset
from tests.mcp.servers import ROOT, time_server


class AskEachTime(Allowed):
    def allows(self, server: str, tool: str) -> bool:
        return False


def _types(session: Any) -> list[str]:
    return [str(e.event.type) for e in session.entries]


def _of(session: Any, kind: str) -> list[dict[str, Any]]:
    return [e.event.to_data() for e in session.entries if e.event.type == kind]


@pytest.mark.slow  # a real SIGKILLed child and a restart: about 2 s
def test_a_kill_during_a_call_then_a_restart_runs_nothing_twice(tmp_path: Path) -> None:
    calls = tmp_path / "calls.txt"

    async def create() -> str:
        session = await SessionStore(tmp_path, FakeClock(NOW)).create()
        await session.close()
        return session.id

    session_id = asyncio.run(create())
    child = subprocess.run(
        [sys.executable, "-m", "tests.mcp.kill_child", str(tmp_path), session_id, str(calls)],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == -9, child.stderr.decode()

    async def restart() -> tuple[list[str], list[dict[str, Any]], ScriptedModel]:
        clock = FakeClock(NOW)
        session = await SessionStore(tmp_path, clock).open(session_id)
        model = ScriptedModel([Reply("I could not tell whether the coffee was ordered.")])
        host = SessionHost(
            session,
            model,
            clock,
            lambda: "UTC",
            FakeWaker,
            system_prompt="x",
            extra_toolsets=(toolset(session_id, Client(calls, die=False)),),
        )
        host.start()
        for _ in range(5):
            await settle()
            await host.when_idle()
        await host.dispose()
        await session.close()
        return _types(session), _of(session, "tool/result"), model

    types, results, model = asyncio.run(restart())
    assert len(calls.read_text().splitlines()) == 1  # called once, by the killed child
    assert types.count("tool/start") == 1
    (result,) = results
    assert (result["outcome"], result["content"], result["isError"]) == (
        "unfinished",
        STOPPED_DURING,
        True,
    )
    assert types[-1] == "turn/end"
    (request,) = model.requests  # the resumed turn reads the recorded call and its result
    assert request.messages[-1].text == STOPPED_DURING


def _tool_call_stream(name: str, arguments: dict[str, str]) -> Sse:
    call = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }
    return Sse([chunk(tool_calls=[call]), chunk(finish="tool_calls")])


@pytest.mark.slow  # starts mcp-server-time, stopped as on quit: about 3 s
def test_the_model_calls_the_real_time_server_through_the_loopback_endpoint(
    tmp_path: Path,
) -> None:
    asked: list[ApprovalRequest] = []

    async def approve(request: ApprovalRequest) -> Decision:
        asked.append(request)
        return Decision.ALLOW_ONCE

    async def no_image(_name: str, _data: bytes) -> None:
        return None

    async def main() -> tuple[list[Any], list[str], list[dict[str, Any]]]:
        script = [
            _tool_call_stream("time__get_current_time", {"timezone": "Asia/Tokyo"}),
            Sse([chunk("It is morning in Tokyo."), chunk(finish="stop")]),
        ]
        servers = {"time": time_server()}
        pool = McpPool(lambda: servers, McpSecrets(KeyStore(tmp_path, use_keyring=False)), tmp_path)
        clock = FakeClock(NOW)
        session = await SessionStore(tmp_path, clock).create()
        hooks = McpHooks(pool, approve, AskEachTime(), no_image, lambda _s: None)
        async with LoopbackServer(script) as server:
            provider = provider_for(server.base_url)
            host = SessionHost(
                session,
                provider,
                clock,
                lambda: "UTC",
                FakeWaker,
                system_prompt="x",
                extra_toolsets=(McpToolset(session.id, lambda: ("time",), hooks),),
            )
            host.start()
            host.submit("what time is it in Tokyo?")
            for _ in range(5):
                await settle()
                await host.when_idle()
            await host.dispose()
            await provider.aclose()
        (pid,) = reaper.server_groups()  # started on first use, in a group of its own
        assert (tmp_path / reaper.PID_FILE).read_text().startswith(f"{pid} ")
        await pool.stop_all()
        assert not (tmp_path / reaper.PID_FILE).exists()
        assert pid not in reaper.server_groups()  # stopped as on quit
        await session.close()
        return [r.json() for r in server.received], _types(session), _of(session, "tool/result")

    bodies, types, results = asyncio.run(main())
    (question,) = asked
    assert '"timezone": "Asia/Tokyo"' in question.arguments_text
    first, second = (b for b in bodies if "messages" in b)
    names = [t["function"]["name"] for t in first["tools"]]
    assert names == [
        "schedule_create",
        "schedule_list",
        "schedule_delete",
        "time__get_current_time",
        "time__convert_time",
    ]
    (result,) = results
    assert result["server"] == "time"
    assert '"timezone": "Asia/Tokyo"' in result["content"]
    assert types.index("tool/start") + 1 == types.index("tool/result")
    assert second["messages"][-1]["role"] == "tool"
    assert second["messages"][-1]["content"] == result["content"]
