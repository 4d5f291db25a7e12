"""Test connection's tool probe in the real request's shape (issue 19): Chime's system prompt, the
three reminder tools and a reminder in plain words, under ``"auto"``; its verdict says what came
back, it reports where it is, and cancelling it closes the request."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.host import load_system_prompt
from core.llm.openai_compat import OpenAICompatProvider, ProbeStage, ToolCheck, ToolProbe
from core.schedule.tools import tool_definitions
from tests.core.llm.loopback import Json, LoopbackServer, Received, Reply, Silent, Sse, chunk
from tests.core.llm.openai_kit import run

PROBE = ToolProbe(
    load_system_prompt(), tuple(tool_definitions()), "Remind me in 10 minutes to stretch."
)
ROUTES: dict[str, Reply] = {
    "/v1/models": Json(404, {}),
    "/props": Json(404, {}),
    "/api/": Json(404, {}),
}
SAID_OK = Sse([chunk("OK", finish="length")])
ARGS = '{"prompt": "stretch", "after_seconds": 600}'
PARSED = Sse(
    [
        chunk(
            tool_calls=[
                {"index": 0, "id": "c", "function": {"name": "schedule_create", "arguments": ARGS}}
            ]
        ),
        chunk(finish="tool_calls"),
    ]
)
WRITTEN = Sse(
    [
        chunk('```json\n{"name": "schedule_create", "arguments": ' + ARGS + "}\n```"),
        chunk(finish="stop"),
    ]
)
WORDS = Sse([chunk("[SCHEDULE REMINDER] After_seconds: 600"), chunk(finish="stop")])


def probe(
    replies: list[Reply], preset: str = "llamacpp"
) -> tuple[ToolCheck, list[Any], list[ProbeStage]]:
    stages: list[ProbeStage] = []

    async def scenario() -> tuple[ToolCheck, list[Any]]:
        async with LoopbackServer(replies, ROUTES) as server:
            provider = OpenAICompatProvider(server.base_url, "m", preset=preset, max_retries=0)
            try:
                check = await provider.check_tools(probe=PROBE, on_stage=stages.append)
            finally:
                await provider.aclose()
        return check, [r.json() for r in server.received if r.path.endswith("/completions")]

    check, bodies = run(scenario)
    return check, bodies, stages


def test_the_probe_is_a_real_turns_request() -> None:
    _check, (_chat, body), _stages = probe([SAID_OK, PARSED])

    assert body["tool_choice"] == "auto"
    assert [t["function"]["name"] for t in body["tools"]] == [
        "schedule_create",
        "schedule_list",
        "schedule_delete",
    ]
    assert body["messages"][0] == {"role": "system", "content": load_system_prompt()}
    assert body["messages"][-1] == {"role": "user", "content": PROBE.ask}
    assert body["max_tokens"] >= 256  # the answer share of the budget, as a turn asks


@pytest.mark.parametrize(
    ("reply", "seen", "calls"),
    [(PARSED, "parsed", True), (WRITTEN, "text", True), (WORDS, "words", False)],
)
def test_the_verdict_says_what_came_back(reply: Reply, seen: str, calls: bool) -> None:
    check, _bodies, stages = probe([SAID_OK, reply])

    assert check.seen == seen
    assert check.calls_tools is calls
    assert stages == ["chat", "reading", "answering"]


def test_a_hosted_family_does_not_read_calls_written_as_text() -> None:
    check, _bodies, _stages = probe([SAID_OK, WRITTEN], preset="openai")

    assert check.seen == "words"


def test_a_refusal_of_tools_is_its_own_verdict() -> None:
    refusal = Json(400, {"error": {"message": "model does not support tools"}})

    check, _bodies, stages = probe([SAID_OK, refusal])

    assert check.seen == "refused"
    assert not check.calls_tools
    assert stages == ["chat", "reading"]


def test_cancelling_the_probe_while_the_server_reads_closes_the_request() -> None:
    async def scenario() -> tuple[bool, list[ProbeStage]]:
        stages: list[ProbeStage] = []
        probed = asyncio.Event()

        def decide(request: Received) -> Reply:
            if "tools" not in request.json():
                return SAID_OK
            probed.set()
            return Silent()

        async with LoopbackServer([], ROUTES, decide=decide) as server:
            provider = OpenAICompatProvider(server.base_url, "m", max_retries=0, timeout=600)
            task = asyncio.create_task(provider.check_tools(probe=PROBE, on_stage=stages.append))
            await probed.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await asyncio.wait_for(server.hung_up.wait(), 2)
            await provider.aclose()
            return server.hung_up.is_set(), stages

    hung_up, stages = run(scenario)

    assert hung_up
    assert stages == ["chat", "reading"]
