"""The rig of the hostile-endpoint survival tests: a real ``SessionHost`` on a real session folder
(tmp_path), a fake clock and waker, and ``OpenAICompatProvider`` pointed at the scripted loopback
server of ``tests.core.llm.loopback`` on 127.0.0.1. Owns: building that rig, reading the session
file back from disk, and judging a turn's shape. Must not: sleep for real time or reach the network.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from core.failures import english, read_failure
from core.host import SessionHost
from core.llm.openai_compat import OpenAICompatProvider
from core.llm.provider import ModelProvider
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.core.agent.fakes import FakeWaker, counter_ids, settle
from tests.core.llm.loopback import Sse, chunk
from tests.fakes import FakeClock
from tests.survival.hostile_server import HostileReply, HostileServer

T = TypeVar("T")
START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
ZONE = "Europe/Berlin"
GOOD = Sse([chunk("All good again."), chunk(finish="stop")])
"""A well-behaved answer: the server is fine again."""


def no_write_behind(_delay: float, _callback: Callable[[], None]) -> None:
    return None


def run(scenario: Callable[[], Awaitable[T]], *, seconds: float = 10) -> T:
    """One scenario on a fresh loop, bounded so a hang fails the test instead of the suite."""

    async def bounded() -> T:
        async with asyncio.timeout(seconds):
            return await scenario()

    return asyncio.run(bounded())


@dataclass
class Rig:
    """A live host on a session in ``data_dir``, talking to ``server``."""

    server: HostileServer
    store: SessionStore
    session: LiveSession
    host: SessionHost
    provider: ModelProvider
    clock: FakeClock
    wakers: list[FakeWaker]
    deltas: list[str] = field(default_factory=list)
    ends: list[tuple[int, str]] = field(default_factory=list)

    async def idle(self) -> None:
        for _ in range(3):
            await settle()
            await self.host.owner.drained()
            await self.host.when_idle()
        assert await self.session.flush(), "the session could not be written"

    async def ask(self, text: str) -> None:
        """Submits ``text`` and waits for the turn (and any follow-ups) to end."""
        self.host.submit(text)
        await self.idle()

    async def retry(self) -> None:
        assert self.host.retry(), "nothing to retry"
        await self.idle()

    def events(self) -> list[dict[str, Any]]:
        """The session as it is on disk now (the header line left out)."""
        return read_log(self.store.data_dir, self.session.id)


async def open_rig(
    server: HostileServer,
    data_dir: Path,
    *,
    api_key: str | None = None,
    read_timeout: float = 5.0,
    model: ModelProvider | None = None,
    **provider_options: Any,
) -> Rig:
    """A started host; its model is ``OpenAICompatProvider`` on ``server`` unless ``model``."""
    clock = FakeClock(START)
    store = SessionStore(data_dir, clock, options=StoreOptions(scheduler=no_write_behind))
    session = await store.create()
    provider = model or OpenAICompatProvider(
        server.base_url,
        "test-model",
        api_key,
        timeout=read_timeout,
        max_retries=0,
        max_retry_delay=0.0,
        **{"ask_server": False, **provider_options},  # every scripted reply answers a chat step
    )
    wakers: list[FakeWaker] = []

    def waker(callback: Callable[[], None]) -> FakeWaker:
        wakers.append(FakeWaker(callback))
        return wakers[-1]

    host = SessionHost(
        session,
        provider,
        clock,
        lambda: ZONE,
        waker,
        system_prompt="You are Chime.",
        new_id=counter_ids("ev"),
    )
    rig = Rig(server, store, session, host, provider, clock, wakers)
    host.on_delta(rig.deltas.append)
    host.on_turn_end(lambda turn, status: rig.ends.append((turn, status)))
    host.start()
    return rig


async def close_rig(rig: Rig) -> None:
    await rig.host.dispose()
    if isinstance(rig.provider, OpenAICompatProvider):
        await rig.provider.aclose()


def hosted(
    script: Sequence[HostileReply],
    data_dir: Path,
    body: Callable[[Rig], Awaitable[T]],
    *,
    seconds: float = 10,
    **options: Any,
) -> T:
    """Runs ``body(rig)`` against a loopback server answering ``script``, then disposes all."""

    async def scenario() -> T:
        server = HostileServer(list(script))
        async with server:
            rig = await open_rig(server, data_dir, **options)
            try:
                return await body(rig)
            finally:
                await close_rig(rig)

    return run(scenario, seconds=seconds)


def read_log(data_dir: Path, session_id: str) -> list[dict[str, Any]]:
    """Every event of the session file, split on the byte LF only (session-log.md §2)."""
    raw = (data_dir / "sessions" / session_id / "session.jsonl").read_bytes()
    lines = raw.split(b"\n")
    assert lines[-1] == b"", "the session file must end with LF"
    return [json.loads(line) for line in lines[1:-1]]


def of_type(events: Sequence[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == kind]


def turn_events(events: Sequence[dict[str, Any]], turn: int) -> list[dict[str, Any]]:
    """The events from ``turn/start`` of ``turn`` to its ``turn/end`` (inclusive)."""
    start = next(
        i for i, e in enumerate(events) if e["type"] == v.TURN_START and e["data"]["turn"] == turn
    )
    end = next(
        i
        for i, e in enumerate(events)
        if i > start and e["type"] == v.TURN_END and e["data"]["turn"] == turn
    )
    return list(events[start : end + 1])


def turn_end(events: Sequence[dict[str, Any]], turn: int) -> dict[str, Any]:
    data: dict[str, Any] = turn_events(events, turn)[-1]["data"]
    return data


def assert_readable_failure(end: dict[str, Any], kind: str | None = None) -> dict[str, str]:
    """A ``turn/end`` that failed with ``{kind, message, reason}``: a sentence a person can act
    on, and its code with values that fit it (the same sentence in English)."""
    assert end["status"] == "failed", end
    error = end["error"]
    assert set(error) == {"kind", "message", "reason"}, error
    reason = read_failure(error["reason"])
    assert reason is not None, error
    assert english(reason) == error["message"], error
    assert kind is None or error["kind"] == kind, error
    message = error["message"]
    assert isinstance(message, str), message
    assert message[:1].isupper(), message
    assert 20 <= len(message) <= 600, message
    for junk in ("\n", "Traceback", "object at 0x", "Error(", "{'"):
        assert junk not in message, message
    return dict(error)
