"""MCP tools in a turn: approval, what the log records, cancellation, failures and the budget
(core/mcp/toolset.py through the real Agent, a scripted model and a fake protocol side)."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from core.agent import Agent, ToolRegistry
from core.events import Attachment
from core.llm.budget import budget_for
from core.llm.messages import ModelRequest
from core.mcp.toolset import McpCallError, McpHooks, McpToolset
from core.mcp.types import ApprovalRequest, Decision, ToolInfo
from tests.core.agent.fakes import EchoTools, Reply, ScriptedModel, counter_ids, settle
from tests.fakes import FakeClock, MemoryLog

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\nfake"


class FakeClient:
    """Servers by name: their tools and a scripted answer (or error, or a gate) per tool."""

    def __init__(self, tools: dict[str, list[str]]) -> None:
        self.tools = tools
        self.answers: dict[str, Mapping[str, Any] | Exception] = {}
        self.calls: list[tuple[str, str, Mapping[str, Any]]] = []
        self.gate: asyncio.Event | None = None

    async def list_tools(self, server: str) -> Sequence[ToolInfo]:
        if server not in self.tools:
            raise McpCallError("failed", f'The MCP server "{server}" could not be started.')
        schema = {"type": "object", "properties": {"zone": {"type": "string"}}}
        return [ToolInfo(server, t, "", f"does {t}", schema) for t in self.tools[server]]

    async def call_tool(
        self, server: str, tool: str, arguments: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        self.calls.append((server, tool, arguments))
        if self.gate is not None:
            await self.gate.wait()
        answer = self.answers.get(tool, {"content": [{"type": "text", "text": f"{tool} done"}]})
        if isinstance(answer, Exception):
            raise answer
        return answer


class Always:
    def __init__(self) -> None:
        self.allowed: set[tuple[str, str]] = set()

    def allows(self, server: str, tool: str) -> bool:
        return (server, tool) in self.allowed

    def allow(self, server: str, tool: str) -> None:
        self.allowed.add((server, tool))


class Rig:
    def __init__(self, servers: Sequence[str], client: FakeClient, decisions: list[Decision]):
        self.client = client
        self.decisions = decisions
        self.asked: list[ApprovalRequest] = []
        self.reports: list[str] = []
        self.always = Always()
        self.saved: list[tuple[str, bytes]] = []
        self.servers = list(servers)
        hooks = McpHooks(client, self.approve, self.always, self.save, self.reports.append)
        self.toolset = McpToolset("s1", lambda: self.servers, hooks, ["echo"])

    async def approve(self, request: ApprovalRequest) -> Decision:
        self.asked.append(request)
        return self.decisions.pop(0)

    async def save(self, name: str, data: bytes) -> Attachment | None:
        self.saved.append((name, data))
        return Attachment(name, "image/png", "ab" * 32, len(data))


def run_turn(
    rig: Rig | None,
    script: list[Any],
    model: ScriptedModel | None = None,
    cancel_after_settle: bool = False,
) -> tuple[MemoryLog, ScriptedModel]:
    async def main() -> tuple[MemoryLog, ScriptedModel]:
        log = MemoryLog()
        scripted = model or ScriptedModel(script)
        toolsets: list[Any] = [EchoTools()] + ([rig.toolset] if rig else [])
        agent = Agent(
            log,
            scripted,
            ToolRegistry(toolsets),
            FakeClock(START),
            lambda: "UTC",
            system_prompt="You are Chime.",
            new_id=counter_ids(),
        )
        agent.submit("what time is it?", "UTC")
        if cancel_after_settle:
            await settle(60)
            agent.cancel()
        await agent.when_idle()
        return log, scripted

    return asyncio.run(main())


def call(name: str, arguments: str = '{"zone": "Europe/Berlin"}') -> Reply:
    return Reply("", calls=((name, arguments),))


def test_an_allowed_call_is_asked_recorded_before_it_runs_and_answered() -> None:
    rig = Rig(["time"], FakeClient({"time": ["now"]}), [Decision.ALLOW_ONCE])
    log, model = run_turn(rig, [call("time__now"), Reply("It is noon.")])
    (asked,) = rig.asked
    assert (asked.server, asked.tool, asked.session_id) == ("time", "now", "s1")
    assert asked.arguments_text == '{\n  "zone": "Europe/Berlin"\n}'
    assert asked.description == "does now"
    types = log.types()
    assert types.index("tool/start") == types.index("tool/result") - 1
    assert log.of_type("tool/start") == [{"callId": "call-1"}]
    (result,) = log.of_type("tool/result")
    assert result == {
        "callId": "call-1",
        "name": "time__now",
        "content": "now done",
        "isError": False,
        "server": "time",
    }
    names = [t["function"]["name"] for t in model.requests[0].tools]
    assert names == ["echo", "time__now"]
    assert rig.client.calls == [("time", "now", {"zone": "Europe/Berlin"})]


def test_a_denied_call_never_runs_and_tells_the_model() -> None:
    rig = Rig(["time"], FakeClient({"time": ["now"]}), [Decision.DENY])
    log, _ = run_turn(rig, [call("time__now"), Reply("ok")])
    (result,) = log.of_type("tool/result")
    assert result["outcome"] == "denied"
    assert result["isError"] is True
    assert "The person denied this call" in result["content"]
    assert "tool/start" not in log.types()
    assert rig.client.calls == []


def test_always_allow_is_remembered_and_not_asked_again() -> None:
    rig = Rig(["time"], FakeClient({"time": ["now"]}), [Decision.ALWAYS])
    log, _ = run_turn(rig, [call("time__now"), call("time__now"), Reply("ok")])
    assert len(rig.asked) == 1
    assert rig.always.allowed == {("time", "now")}
    assert len(rig.client.calls) == 2
    assert [r["isError"] for r in log.of_type("tool/result")] == [False, False]


def test_stop_during_a_call_records_it_cancelled() -> None:
    client = FakeClient({"time": ["now"]})
    client.gate = asyncio.Event()
    rig = Rig(["time"], client, [Decision.ALLOW_ONCE])
    log, _ = run_turn(rig, [call("time__now")], cancel_after_settle=True)
    (result,) = log.of_type("tool/result")
    assert (result["outcome"], result["server"], result["isError"]) == ("cancelled", "time", True)
    assert log.of_type("turn/end")[-1]["status"] == "cancelled"


def test_a_timeout_or_a_crash_mid_call_is_an_error_result_with_a_sentence() -> None:
    client = FakeClient({"time": ["now", "later"]})
    client.answers["now"] = McpCallError("timeout", "The tool now did not answer within 60 s.")
    client.answers["later"] = McpCallError(
        "failed", 'The MCP server "time" stopped during the call.'
    )
    rig = Rig(["time"], client, [Decision.ALLOW_ONCE, Decision.ALLOW_ONCE])
    log, _ = run_turn(rig, [call("time__now"), call("time__later"), Reply("ok")])
    first, second = log.of_type("tool/result")
    assert (first["outcome"], first["content"]) == (
        "timeout",
        "The tool now did not answer within 60 s.",
    )
    assert second["outcome"] == "failed"
    assert log.of_type("turn/end")[-1]["status"] == "completed"


def test_images_are_saved_and_links_kept() -> None:
    client = FakeClient({"pics": ["draw"]})
    client.answers["draw"] = {
        "content": [
            {"type": "text", "text": "Here:"},
            {"type": "image", "data": base64.b64encode(PNG).decode(), "mimeType": "image/png"},
            {"type": "resource_link", "uri": "file:///tmp/a.txt", "name": "a.txt"},
        ]
    }
    rig = Rig(["pics"], client, [Decision.ALLOW_ONCE])
    log, _ = run_turn(rig, [call("pics__draw", "{}"), Reply("ok")])
    (result,) = log.of_type("tool/result")
    assert rig.saved == [("draw-1.png", PNG)]
    assert result["images"] == [
        {"name": "draw-1.png", "mediaType": "image/png", "sha256": "ab" * 32, "size": len(PNG)}
    ]
    assert result["links"] == [{"uri": "file:///tmp/a.txt", "name": "a.txt"}]
    assert "shown to the person" in result["content"]


def test_arguments_that_are_no_object_do_not_run() -> None:
    rig = Rig(["time"], FakeClient({"time": ["now"]}), [])
    log, _ = run_turn(rig, [call("time__now", "[1]"), Reply("ok")])
    (result,) = log.of_type("tool/result")
    assert result["content"] == "The arguments must be a JSON object."
    assert rig.client.calls == []


def test_a_server_that_cannot_start_is_reported_once_and_offers_nothing() -> None:
    rig = Rig(["gone"], FakeClient({}), [])
    _, model = run_turn(rig, [Reply("", calls=(("echo", "{}"),)), Reply("ok")])
    assert len(model.requests) == 2
    assert [t["function"]["name"] for t in model.requests[0].tools] == ["echo"]
    assert rig.reports == ['The MCP server "gone" could not be started.']


def test_a_conversation_without_mcp_servers_sends_exactly_todays_request() -> None:
    rig = Rig([], FakeClient({"time": ["now"]}), [])
    _, with_toolset = run_turn(rig, [Reply("hello")])
    _, without = run_turn(None, [Reply("hello")])
    assert with_toolset.requests == without.requests


class Budgeted(ScriptedModel):
    async def budget(self) -> Any:
        return budget_for(8192, "settings")


def test_a_thousand_tools_are_fitted_to_the_budget_and_the_rest_named() -> None:
    rig = Rig(["many"], FakeClient({"many": [f"t{i}" for i in range(1000)]}), [])
    _, model = run_turn(rig, [], model=Budgeted([Reply("ok")]))
    request: ModelRequest = model.requests[0]
    sent = [t["function"]["name"] for t in request.tools]
    assert 1 < len(sent) < 100
    (report,) = rig.reports
    assert report.startswith("The conversation's MCP servers offer 1,000 tools;")


def test_a_schema_that_is_no_object_or_too_deep_is_an_open_object() -> None:
    from core.mcp.toolset import _schema

    deep: Any = {}
    for _ in range(300):
        deep = {"properties": {"x": deep}, "type": "object"}
    open_object = {"type": "object", "properties": {}}
    assert _schema({"type": "string"}) == open_object
    assert _schema(deep) == open_object
    assert _schema({"type": "object", "properties": {"a": {"type": "string"}}})["properties"] == {
        "a": {"type": "string"}
    }


def test_an_image_that_could_not_be_saved_is_left_out_of_the_record() -> None:
    client = FakeClient({"pics": ["draw"]})
    png = base64.b64encode(PNG).decode()
    client.answers["draw"] = {"content": [{"type": "image", "data": png, "mimeType": "image/png"}]}
    rig = Rig(["pics"], client, [Decision.ALLOW_ONCE])

    async def refuse(name: str, data: bytes) -> Attachment | None:
        return None

    rig.toolset._hooks = McpHooks(client, rig.approve, rig.always, refuse, rig.reports.append)
    log, _ = run_turn(rig, [call("pics__draw", "{}"), Reply("ok")])
    (result,) = log.of_type("tool/result")
    assert "images" not in result
