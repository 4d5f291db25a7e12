"""A warm open shows the checkpoint's state at once; every barrier first awaits its verification.

Each scenario writes a session of more turns than the open parses (so the change below lies in
bytes only the checkpoint vouches for), closes it (the close writes the checkpoint), alters the
covered bytes as someone else might, and reopens.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from core.errors import ScheduleLogError, SessionReadOnlyError
from core.schedule import ScheduleTools
from core.session.live import LiveSession
from core.session.reconcile import DRIFTED
from core.session.recovery import WARM_TURNS
from core.session.store import SessionStore
from tests import wire as v
from tests.core.session.helpers import (
    add_turn,
    create_change,
    delete_change,
    log_path,
    make_store,
    user,
)
from tests.fakes import FakeClock

TURNS = WARM_TURNS + 5
CREATE = b'"prompt":"check logs 1"'
PROMPT_CHANGED = b'"prompt":"check logs 7"'


def run(coro: Awaitable[Any]) -> Any:
    async def main() -> Any:
        return await coro

    return asyncio.run(main())


async def closed_session(store: SessionStore, *, open_turn: bool = False) -> str:
    """A session: turn 1, the create of ``schedule-1``, then more turns; closed (checkpointed)."""
    session = await store.create()
    add_turn(session, 1, "q1")
    session.append(v.SCHEDULE_CHANGE, create_change("schedule-1", "check logs 1"))
    for turn in range(2, TURNS + 1):
        add_turn(session, turn, f"q{turn}", end=not open_turn or turn < TURNS)
    assert await session.close()
    assert (log_path(store.data_dir, session.id).parent / "checkpoint.json").exists()
    return session.id


def alter(
    store: SessionStore, session_id: str, old: bytes, new: bytes, *, last: bool = False
) -> bytes:
    """Replace the first (or last) ``old`` in the log by ``new`` of the same length."""
    assert len(old) == len(new)
    path = log_path(store.data_dir, session_id)
    data = path.read_bytes()
    where = data.rfind(old) if last else data.find(old)
    assert where > 0
    changed = data[:where] + new + data[where + len(old) :]
    path.write_bytes(changed)
    return changed


async def prompts(session: LiveSession, clock: FakeClock) -> list[str] | dict[str, Any]:
    answer = await ScheduleTools(session, clock).call("schedule_list", {})
    return [view["prompt"] for view in answer] if isinstance(answer, list) else answer


def scenario(
    tmp_path: Path, clock: FakeClock, body: Callable[[SessionStore, str], Awaitable[None]]
) -> None:
    async def main() -> None:
        store = make_store(tmp_path, clock)
        await body(store, await closed_session(store))

    asyncio.run(main())


def test_a_normal_reopen_shows_at_once_and_is_verified_without_a_rescan(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        session = await store.open(sid)
        assert not session.verified
        shown = session.tail_turns(2)
        assert await session.verification()
        assert session.verified
        assert not session.read_only
        assert session.tail_turns(2) == shown
        assert await prompts(session, clock) == ["check logs 1"]
        session.append(v.USER_MESSAGE, user("more"))
        assert await session.flush()
        assert await session.close()
        again = await store.open(sid)
        assert await again.verification()
        assert again.events[-1]["data"]["text"] == "more"
        await again.close()

    scenario(tmp_path, clock, body)


def test_a_changed_prompt_under_the_checkpoint_is_shown_first_but_the_tools_answer_from_a_rescan(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        alter(store, sid, CREATE, PROMPT_CHANGED)
        folder = log_path(store.data_dir, sid).parent
        session = await store.open(sid)
        events = session.events
        assert not session.verified
        assert session.schedule_fold().active[0].prompt == "check logs 1"  # display only
        assert await prompts(session, clock) == ["check logs 7"]
        assert session.verified
        assert not await session.verification()
        assert not session.read_only
        assert not (folder / "checkpoint.json").exists()
        assert session.events is events
        assert events[7]["data"]["schedule"]["prompt"] == "check logs 7"
        assert await session.close()
        again = await store.open(sid)
        assert again.schedule_fold().active[0].prompt == "check logs 7"
        assert await again.verification()
        await again.close()

    scenario(tmp_path, clock, body)


def test_a_middle_line_made_unparseable_under_the_checkpoint_fails_the_first_barrier_read_only(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        changed = alter(store, sid, b'{"seq":3,', b'!"seq":3,')
        session = await store.open(sid)
        assert not session.verified
        assert not session.read_only
        answer = await prompts(session, clock)
        assert isinstance(answer, dict)
        assert answer["code"] == "persistence_uncertain"
        assert session.read_only_reason is not None
        assert "line 5" in session.read_only_reason
        assert len(session.events) == 3
        with pytest.raises(ScheduleLogError):
            session.schedule_fold()
        assert not await session.flush()
        with pytest.raises(SessionReadOnlyError):
            session.append(v.USER_MESSAGE, user("lost"))
        await session.close()
        assert log_path(store.data_dir, sid).read_bytes() == changed

    scenario(tmp_path, clock, body)


def test_a_read_only_viewer_adopts_the_rescan_in_place_and_leaves_the_checkpoint_files(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        alter(store, sid, CREATE, PROMPT_CHANGED)
        viewer = await store.open(sid, read_only=True)
        assert not await viewer.verification()
        assert viewer.schedule_fold().active[0].prompt == "check logs 7"
        assert viewer.read_only_reason is not None
        assert "corrupt" not in viewer.read_only_reason
        assert (log_path(store.data_dir, sid).parent / "checkpoint.json").exists()
        await viewer.close()

    scenario(tmp_path, clock, body)


def test_a_turn_the_rescan_finds_open_is_closed_by_the_first_barrier(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        alter(store, sid, b'"type":"turn/end"', b'"type":"turn/enD"', last=True)
        session = await store.open(sid)
        assert session.open_turn() is None  # the checkpoint's word
        assert await session.flush()
        last = session.events[-1]
        assert (last["type"], last["data"]["status"]) == (v.TURN_END, "interrupted")
        assert session.durable_count == len(session.events)
        assert session.open_turn() is None
        await session.close()

    scenario(tmp_path, clock, body)


def test_events_queued_before_a_rescan_that_finds_another_open_turn_are_never_written(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        changed = alter(store, sid, b'"type":"turn/end"', b'"type":"turn/enD"', last=True)
        session = await store.open(sid)
        session.append(v.USER_MESSAGE, user("typed at once"))
        assert not await session.flush()
        assert session.read_only_reason == DRIFTED
        await session.close()
        assert log_path(store.data_dir, sid).read_bytes() == changed

    scenario(tmp_path, clock, body)


def test_events_queued_before_a_rescan_they_still_fit_are_written_once(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        alter(store, sid, CREATE, PROMPT_CHANGED)
        session = await store.open(sid)
        count = len(session.events)
        session.append(v.USER_MESSAGE, user("typed at once"))
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-2", "stretch"))
        assert await session.flush()
        assert [r.prompt for r in session.schedule_fold().active] == ["check logs 7", "stretch"]
        assert session.pending_inputs() == (count,)
        await session.close()
        again = await store.open(sid)
        assert len(again.events) == count + 2
        assert await prompts(again, clock) == ["check logs 7", "stretch"]
        await again.close()

    scenario(tmp_path, clock, body)


def test_a_queued_delete_the_rescanned_log_refuses_is_never_written(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        changed = alter(store, sid, b'"type":"schedule/change"', b'"type":"schedule/chAnge"')
        session = await store.open(sid)
        session.append(v.SCHEDULE_CHANGE, delete_change("schedule-1"))  # fits the stale fold
        assert not await session.flush()
        assert session.read_only_reason == DRIFTED
        with pytest.raises(ScheduleLogError):
            session.schedule_fold()
        await session.close()
        assert log_path(store.data_dir, sid).read_bytes() == changed

    scenario(tmp_path, clock, body)


def test_a_log_that_cannot_be_reread_for_the_rescan_leaves_the_session_read_only(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        alter(store, sid, CREATE, PROMPT_CHANGED)
        path = log_path(store.data_dir, sid)
        session = await store.open(sid)
        os.rename(path, path.with_name("moved.jsonl"))
        assert not await session.flush()
        assert session.read_only_reason is not None
        assert session.read_only_reason.startswith("The session log could not be verified")
        with pytest.raises(ScheduleLogError):
            session.schedule_fold()
        await session.close()

    scenario(tmp_path, clock, body)


@pytest.mark.parametrize(
    ("old", "new"),
    [(b'"seq":380,', b'"seq":381,'), (b'{"seq":380,', b'!"seq":380,')],
    ids=["seq-changed", "unparseable"],
)
def test_a_changed_line_among_the_shown_turns_is_caught_before_the_open_returns(
    tmp_path: Path, clock: FakeClock, old: bytes, new: bytes
) -> None:
    async def body(store: SessionStore, sid: str) -> None:
        alter(store, sid, old, new)
        session = await store.open(sid)
        assert session.verified
        assert session.read_only_reason is not None
        assert "line 382" in session.read_only_reason
        assert len(session.events) == 380
        await session.close()

    scenario(tmp_path, clock, body)


def test_a_turn_the_checkpoint_left_open_is_closed_only_after_verification(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def main() -> None:
        store = make_store(tmp_path, clock)
        sid = await closed_session(store, open_turn=True)
        changed = alter(store, sid, b'{"seq":3,', b'!"seq":3,')
        session = await store.open(sid)
        assert session.verified
        assert session.read_only_reason is not None
        assert "line 5" in session.read_only_reason
        await session.close()
        assert log_path(store.data_dir, sid).read_bytes() == changed
        intact = await closed_session(store, open_turn=True)
        reopened = await store.open(intact)
        assert reopened.verified
        assert reopened.open_turn() is None
        assert reopened.events[-1]["data"]["status"] == "interrupted"
        await reopened.close()

    asyncio.run(main())
