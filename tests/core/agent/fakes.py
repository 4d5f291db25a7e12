"""Typed fakes for the agent, owner and host tests: a scripted model, a recording waker and a tiny
toolset (the session log is the one fake of ``tests.fakes``)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from core.errors import ProviderError, ToolArgumentError
from core.events import ToolCall
from core.llm.messages import Finish, ModelInfo, ModelRequest, StreamChunk, TextDelta


@dataclass(frozen=True)
class Reply:
    """One scripted model step: text (streamed in ``deltas`` if given), tool calls, or an error.
    ``gate``: the step streams its deltas, then waits for the event before finishing."""

    text: str = ""
    calls: tuple[tuple[str, str], ...] = ()
    deltas: tuple[str, ...] | None = None
    error: ProviderError | None = None
    gate: asyncio.Event | None = None


class ScriptedModel:
    """A ModelProvider replying from a script (then ``default``), recording every request."""

    def __init__(self, script: Iterable[Reply | Callable[[ModelRequest], Reply]] = ()) -> None:
        self.script = list(script)
        self.requests: list[ModelRequest] = []
        self.default = Reply("ok")
        self._ids = itertools.count(1)

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(provider="scripted", name="script-1")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        self.requests.append(request)
        item = self.script.pop(0) if self.script else self.default
        reply = item(request) if callable(item) else item
        for delta in reply.deltas or ((reply.text,) if reply.text else ()):
            yield TextDelta(delta)
        if reply.gate is not None:
            await reply.gate.wait()
        if reply.error is not None:
            raise reply.error
        calls = tuple(ToolCall(f"call-{next(self._ids)}", n, a) for n, a in reply.calls)
        yield Finish(reply.text, calls, "tool_calls" if calls else "stop")


@dataclass
class FakeWaker:
    """A Waker recording arm/cancel; the test calls ``fire()`` after advancing the clock."""

    callback: Callable[[], None] | None = None
    armed: datetime | None = None
    arms: list[datetime] = field(default_factory=list)
    cancels: int = 0

    def arm(self, wake_at: datetime) -> None:
        self.armed = wake_at
        self.arms.append(wake_at)

    def cancel(self) -> None:
        self.cancels += 1
        self.armed = None

    def fire(self) -> None:
        assert self.armed is not None, "fire() with no timer armed"
        self.armed = None
        assert self.callback is not None
        self.callback()


class EchoTools:
    """A toolset with one tool, ``echo``, recording calls; ``{"fail": true}`` raises
    ToolArgumentError, ``{"crash": true}`` raises RuntimeError, ``gate`` blocks calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.gate: asyncio.Event | None = None
        self.running = 0
        self.max_running = 0

    def definitions(self) -> list[dict[str, Any]]:
        schema = {"type": "object", "properties": {}}
        return [
            {
                "type": "function",
                "function": {"name": "echo", "description": "echo", "parameters": schema},
            }
        ]

    async def call(self, name: str, arguments: Any) -> object:
        self.calls.append((name, arguments))
        self.running += 1
        self.max_running = max(self.max_running, self.running)
        try:
            if self.gate is not None:
                await self.gate.wait()
            if isinstance(arguments, dict) and arguments.get("fail"):
                raise ToolArgumentError("fail was asked for")
            if isinstance(arguments, dict) and arguments.get("crash"):
                raise RuntimeError("boom")
            return {"echo": arguments}
        finally:
            self.running -= 1


def counter_ids(prefix: str = "id") -> Callable[[], str]:
    numbers = itertools.count(1)
    return lambda: f"{prefix}-{next(numbers)}"


async def settle(rounds: int = 20) -> None:
    """Lets every ready task run (no real time passes)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
