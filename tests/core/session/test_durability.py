"""Crash properties on real files: a truncated or damaged log opens as a valid prefix, or read-only.

Never is an event whose barrier succeeded lost silently: it is either still in the log, or its
(damaged) bytes are saved in ``session.jsonl.torn-*`` beside the log, or the session refuses to be
rewritten (read-only, corrupt middle).
"""

from __future__ import annotations

import asyncio
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import SessionFormatError
from core.session.store import SessionStore
from tests import wire as v
from tests.core.session.helpers import create_change, make_store, user
from tests.fakes import FakeClock

CLOSERS = {v.TOOL_RESULT, v.TURN_END}


@pytest.fixture(scope="module")
def acknowledged(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[dict[str, Any]]]:
    clock = FakeClock(datetime(2026, 8, 5, 12, 0, tzinfo=UTC))
    return acknowledged_log(tmp_path_factory.mktemp("source"), clock)


def acknowledged_log(data_dir: Path, clock: FakeClock) -> tuple[bytes, list[dict[str, Any]]]:
    """A real session whose every event was acknowledged by a successful barrier."""

    async def scenario() -> tuple[bytes, list[dict[str, Any]]]:
        store = make_store(data_dir, clock)
        session = await store.create()
        session.append(v.USER_MESSAGE, user('say "hi" \\ \u2028 🎉'))
        session.append(v.TURN_START, v.turn_start(1, 0))
        session.append_events(
            v.group(
                [
                    (v.USER_MESSAGE, v.user_message("r", "stretch", v.SCHEDULE_SOURCE)),
                    (v.SCHEDULE_CHANGE, create_change("schedule-1")),
                ]
            )
        )
        session.append(v.TURN_END, v.turn_end(1, "completed"))
        assert await session.flush()
        events = [dict(e) for e in session.events]
        await session.close()
        path = data_dir / "sessions" / session.id / "session.jsonl"
        return path.read_bytes(), events

    return asyncio.run(scenario())


def whole_prefix(data: bytes, length: int, events: list[dict[str, Any]]) -> tuple[int, int]:
    """(events, bytes) of the longest prefix of whole lines and whole groups within ``length``."""
    header_end = data.index(b"\n") + 1
    position, best = header_end, (0, header_end)
    left = 0
    for count, event in enumerate(events, start=1):
        position = data.index(b"\n", position) + 1
        left = (event.get("group") or 1) - 1 if left == 0 else left - 1
        if position > length:
            break
        if left == 0:
            best = (count, position)
    return best


async def reopen(data_dir: Path, clock: FakeClock, content: bytes) -> tuple[Any, list[bytes]]:
    """Write ``content`` as session s0001's log, open it live; (session or error, torn files)."""
    folder = data_dir / "sessions" / "s0001"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "session.jsonl").write_bytes(content)
    try:
        outcome: Any = await SessionStore(data_dir, clock).open("s0001")
    except SessionFormatError as error:
        outcome = error
    else:
        await outcome.close()
    torn = [p.read_bytes() for p in sorted(folder.glob("session.jsonl.torn-*"))]
    return outcome, torn


async def check_truncation(
    data_dir: Path, clock: FakeClock, data: bytes, events: list[dict[str, Any]], cut: int
) -> None:
    outcome, torn = await reopen(data_dir, clock, data[:cut])
    header_end = data.index(b"\n") + 1
    if cut < header_end:
        assert isinstance(outcome, SessionFormatError)
        return
    kept, kept_bytes = whole_prefix(data, cut, events)
    got = list(outcome.events)
    assert got[:kept] == events[:kept]
    assert {e["type"] for e in got[kept:]} <= CLOSERS
    assert torn == ([data[kept_bytes:cut]] if cut > kept_bytes else [])


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_a_log_truncated_anywhere_opens_as_its_whole_prefix(
    tmp_path: Path,
    clock: FakeClock,
    acknowledged: tuple[bytes, list[dict[str, Any]]],
    data: st.DataObject,
) -> None:
    original, events = acknowledged
    cut = data.draw(st.integers(0, len(original)))
    asyncio.run(check_truncation(tmp_path, clock, original, events, cut))


@pytest.mark.slow
def test_a_log_truncated_at_every_byte_opens_as_its_whole_prefix(
    tmp_path: Path, clock: FakeClock, acknowledged: tuple[bytes, list[dict[str, Any]]]
) -> None:
    original, events = acknowledged

    async def every_cut() -> None:
        for cut in range(len(original) + 1):
            await check_truncation(tmp_path, clock, original, events, cut)

    asyncio.run(every_cut())


async def check_damage(
    data_dir: Path,
    clock: FakeClock,
    data: bytes,
    events: list[dict[str, Any]],
    at: int,
    byte: bytes,
) -> None:
    damaged = data[:at] + byte + data[at + 1 :]
    outcome, torn = await reopen(data_dir, clock, damaged)
    log = data_dir / "sessions" / "s0001" / "session.jsonl"
    if isinstance(outcome, SessionFormatError) or outcome.read_only:
        assert log.read_bytes() == damaged  # refused or corrupt middle: nothing rewritten
        return
    header_end = data.index(b"\n") + 1
    starts = [header_end]
    for _ in events:
        starts.append(data.index(b"\n", starts[-1]) + 1)
    seq = data.count(b"\n", header_end, at) if at >= header_end else 0
    first = group_start(events, seq)
    got = list(outcome.events)
    assert got[:first] == events[:first]
    if torn:  # the damaged group was cut off, but its bytes are kept beside the log
        assert torn == [damaged[starts[first] :]]
    else:  # nothing was cut: every acknowledged event is still there (one may be altered,
        # e.g. a turn/end whose type no longer reads "turn/end" gets the recovery closers)
        assert len(got) >= len(events)
        assert sum(a != b for a, b in zip(got, events, strict=False)) <= 1
        assert {e["type"] for e in got[len(events) :]} <= CLOSERS


def group_start(events: list[dict[str, Any]], seq: int) -> int:
    for start in range(min(seq, len(events) - 1), -1, -1):
        size = events[start].get("group")
        if size is not None:
            return start if start + size > seq else seq
    return seq


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_a_damaged_byte_never_loses_an_acknowledged_event_silently(
    tmp_path: Path,
    clock: FakeClock,
    acknowledged: tuple[bytes, list[dict[str, Any]]],
    data: st.DataObject,
) -> None:
    original, events = acknowledged
    at = data.draw(st.integers(0, len(original) - 1))
    byte = data.draw(st.sampled_from([b"\n", b"{", b"\xff", b'"', b"x", b"7", b"\\"]))
    asyncio.run(check_damage(tmp_path, clock, original, events, at, byte))


@pytest.mark.slow
def test_damage_at_every_byte_never_loses_an_acknowledged_event_silently(
    tmp_path: Path, clock: FakeClock, acknowledged: tuple[bytes, list[dict[str, Any]]]
) -> None:
    original, events = acknowledged

    async def every_byte() -> None:
        for at in range(len(original)):
            await check_damage(tmp_path, clock, original, events, at, b"\n" if at % 2 else b"{")

    asyncio.run(every_byte())
