"""SessionStore on real files: layout, header, recovery, locks, restart, list, fork, trash, export."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from core.errors import (
    ScheduleLogError,
    SessionError,
    SessionFormatError,
    SessionLockedError,
    SessionNotFoundError,
)
from core.schedule import fold_schedule
from core.session import jsonl_store as disk
from core.session.checkpoint import Checkpoint
from core.session.checkpointer import Checkpointer
from core.session.live import LiveSession
from core.session.repair import OUTCOME_UNKNOWN
from core.session.store import SessionStore
from tests import wire as v
from tests.core.session.helpers import (
    FailingOps,
    add_turn,
    create_change,
    delete_change,
    log_path,
    make_store,
    user,
)
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parents[3]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def new_session(store: SessionStore, turns: int = 0) -> LiveSession:
    session = await store.create()
    for turn in range(1, turns + 1):
        add_turn(session, turn, f"q{turn}")
    return session


def body_lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[1:-1]


def test_a_new_session_has_the_exact_header_layout_and_private_modes(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> str:
        session = await make_store(tmp_path, clock).create()
        await session.close()
        return session.id

    sid = run(scenario())
    path = log_path(tmp_path, sid)
    assert path.read_bytes() == (
        b'{"type":"session","version":1,"id":"s0001","createdAt":"2026-08-05T12:00:00.000Z",'
        b'"parentId":null,"seedLength":0}\n'
    )
    if sys.platform != "win32":
        for folder in (tmp_path / "sessions", path.parent):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        for file in path.parent.iterdir():
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, file.name
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []


def test_default_ids_are_time_ordered_uuid7_text(tmp_path: Path, clock: FakeClock) -> None:
    random = iter([bytes([255] * 10), bytes(10)])
    store = SessionStore(tmp_path, clock, random_bytes=lambda n: next(random))

    async def scenario() -> list[str]:
        first = await store.create()
        clock.advance(0.001)
        second = await store.create()
        await first.close()
        await second.close()
        return [first.id, second.id]

    ids = run(scenario())
    assert ids == sorted(ids)
    assert all(len(i) == 36 and i[14] == "7" and i[19] in "89ab" for i in ids)


def test_creating_an_existing_id_never_overwrites(tmp_path: Path, clock: FakeClock) -> None:
    store = SessionStore(tmp_path, clock, lambda: "same")

    async def scenario() -> None:
        first = await store.create()
        first.append(v.USER_MESSAGE, user("keep me"))
        await first.close()
        with pytest.raises(FileExistsError):
            await store.create()

    run(scenario())
    assert len(body_lines(log_path(tmp_path, "same"))) == 1


def test_restart_reopens_the_same_events_and_schedule_fold(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=3)
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        session.append(v.SESSION_TITLE, v.session_title("Ops"))
        events = list(session.events)
        fold = session.schedule_fold()
        await session.close()
        for _ in range(2):  # cold (the checkpoint is written on close) and warm
            reopened = await store.open(session.id)
            assert list(reopened.events) == events
            assert reopened.schedule_fold() == fold
            assert reopened.schedule_fold() == fold_schedule(reopened.events)
            assert reopened.title == "Ops"
            await reopened.close()

    run(scenario())


def test_unknown_types_and_extra_keys_survive_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> list[Mapping[str, Any]]:
        store = make_store(tmp_path, clock)
        session = await store.create()
        session.append("future/thing", {"x": [1, 2]})
        await session.close()
        path = log_path(tmp_path, session.id)
        with path.open("ab") as handle:
            handle.write(
                b'{"seq":1,"at":"2026-08-05T12:00:00.000Z","type":"x","data":null,"k":1}\n'
            )
        reopened = await store.open(session.id)
        events = list(reopened.events)
        await reopened.close()
        return events

    events = run(scenario())
    assert [e["type"] for e in events] == ["future/thing", "x"]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (b'{"type":"session","version":2,"id":"s0001"}\n', "unknown session format version 2"),
        (b'{"type":"session","version":true,"id":"s0001"}\n', "version True"),
        (b"not json\n", "not JSON"),
        (b'{"type":"other"}\n', "not a session header"),
        (b'{"type":"session","version":1,"id":"../x","createdAt":"x"}\n', "invalid session id"),
        (
            b'{"type":"session","version":1,"id":"s0001","createdAt":"2026"}\n',
            "invalid createdAt",
        ),
        (
            b'{"type":"session","version":1,"id":"s0001","createdAt":"2026-08-05T12:00:00.000Z",'
            b'"parentId":5,"seedLength":0}\n',
            "invalid parentId",
        ),
        (
            b'{"type":"session","version":1,"id":"s0001","createdAt":"2026-08-05T12:00:00.000Z",'
            b'"parentId":null,"seedLength":-1}\n',
            "invalid seedLength",
        ),
        (b'{"type":"session","version":1', "no complete header line"),
        (b"\xff\n", "header cannot be read: not valid UTF-8"),
        (b"[" * 10_000 + b"\n", "header cannot be read: nested too deeply"),
        (b" " * 70_000 + b"{}\n", "header cannot be read: too large"),
    ],
)
def test_a_bad_header_is_refused_and_the_file_left_untouched(
    tmp_path: Path, clock: FakeClock, header: bytes, message: str
) -> None:
    store = make_store(tmp_path, clock)
    path = log_path(tmp_path, "s0001")
    path.parent.mkdir(parents=True)
    body = b'{"seq":0,"at":"2026-08-05T12:00:00.000Z","type":"x","data":{}}\n{"torn'
    content = header + body if header.endswith(b"\n") else header
    path.write_bytes(content)
    with pytest.raises(SessionFormatError, match=message):
        run(store.open("s0001"))
    assert path.read_bytes() == content
    assert sorted(p.name for p in path.parent.iterdir()) == ["lock", "session.jsonl"]
    # the lock was released: a good header now opens live
    path.write_bytes(
        b'{"type":"session","version":1,"id":"s0001","createdAt":"2026-08-05T12:00:00.000Z",'
        b'"parentId":null,"seedLength":0}\n'
    )
    session = run(store.open("s0001"))
    assert not session.read_only
    run(session.close())


def test_a_missing_or_malformed_id_is_not_found(tmp_path: Path, clock: FakeClock) -> None:
    store = make_store(tmp_path, clock)
    for bad in ("nope", "../etc", ""):
        with pytest.raises(SessionNotFoundError):
            run(store.open(bad))


def test_a_torn_tail_is_saved_beside_the_log_and_cut(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        await session.close()
        path = log_path(tmp_path, session.id)
        good = path.read_bytes()
        with path.open("ab") as handle:
            handle.write(b'{"seq":7,"at":"2026-08-05T12:00:0')
        clock.advance(61)
        reopened = await store.open(session.id)
        assert len(reopened.events) == 7
        await reopened.close()
        assert path.read_bytes() == good
        torn = path.parent / "session.jsonl.torn-20260805T120101.000Z"
        assert torn.read_bytes() == b'{"seq":7,"at":"2026-08-05T12:00:0'
        with path.open("ab") as handle:
            handle.write(b"garbage that does not parse\n")
        again = await store.open(session.id)
        await again.close()
        assert (path.parent / "session.jsonl.torn-20260805T120101.000Z-1").exists()
        assert path.read_bytes() == good

    run(scenario())


def test_a_torn_group_is_dropped_whole(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await store.create()
        session.append(v.USER_MESSAGE, user("before"))
        session.append_events(
            v.group(
                [
                    (v.USER_MESSAGE, user("reminder")),
                    (v.SCHEDULE_CHANGE, create_change("schedule-1")),
                ]
            )
        )
        await session.close()
        path = log_path(tmp_path, session.id)
        data = path.read_bytes()
        path.write_bytes(data[: data.rindex(b'{"seq":2')])  # the group's second line is lost
        reopened = await store.open(session.id)
        assert [e["data"]["text"] for e in reopened.events] == ["before"]
        assert reopened.schedule_fold().to_json() == {"active": [], "seenIds": []}
        await reopened.close()

    run(scenario())


def test_a_corrupt_middle_opens_read_only_and_is_never_rewritten(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=2)
        await session.close()
        path = log_path(tmp_path, session.id)
        lines = path.read_bytes().split(b"\n")
        lines[4] = lines[4].replace(b'"seq":3', b'"seq":9')
        corrupt = b"\n".join(lines)
        path.write_bytes(corrupt)
        opened = await store.open(session.id)
        assert opened.read_only
        assert opened.read_only_reason is not None
        assert "line 5: seq 9 is not its index 3" in opened.read_only_reason
        assert len(opened.events) == 3
        with pytest.raises(ScheduleLogError, match="corrupt"):
            opened.schedule_fold()
        await opened.close()
        assert path.read_bytes() == corrupt
        # the lock was not kept: nothing owns a corrupt session
        second = await store.open(session.id)
        assert second.read_only
        await second.close()

    run(scenario())


def test_an_open_turn_is_closed_durably_before_going_live(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        add_turn(session, 2, "crash here", end=False)
        await session.flush()
        path = log_path(tmp_path, session.id)
        snapshot = path.read_bytes()
        await session.close()
        path.write_bytes(snapshot)
        (path.parent / "checkpoint.json").unlink()
        reopened = await store.open(session.id)
        tail = list(reopened.events)[-2:]
        assert [e["type"] for e in tail] == ["tool/result", "turn/end"]
        assert tail[0]["data"] == {
            "callId": "call-2",
            "name": "schedule_list",
            "content": OUTCOME_UNKNOWN,
            "isError": True,
        }
        assert tail[1]["data"] == {"turn": 2, "status": "interrupted"}
        assert reopened.durable_count == len(reopened.events)
        assert reopened.open_turn() is None
        await reopened.close()

    run(scenario())


def test_closers_that_cannot_be_written_fail_the_open(tmp_path: Path, clock: FakeClock) -> None:
    ops = FailingOps()

    async def scenario() -> None:
        store = make_store(tmp_path, clock, ops=ops)
        session = await new_session(store)
        add_turn(session, 1, "open", end=False)
        await session.close()
        path = log_path(tmp_path, session.id)
        (path.parent / "checkpoint.json").unlink()
        crashed = path.read_bytes()
        ops.fail_writes = 1
        with pytest.raises(SessionError, match="could not be closed"):
            await store.open(session.id)
        assert path.read_bytes() == crashed  # the failed closers were truncated away
        again = await store.open(session.id)  # the lock was released: live again
        assert not again.read_only
        assert again.open_turn() is None
        assert [e["type"] for e in again.events][-1] == "turn/end"
        await again.close()

    run(scenario())


def test_a_second_open_in_the_same_process_is_read_only(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        live = await store.create()
        other = await make_store(tmp_path, clock).open(live.id)
        assert other.read_only
        assert other.read_only_reason is not None
        assert "open in another window or process" in other.read_only_reason
        await other.close()
        await live.close()
        now_live = await store.open(live.id)
        assert not now_live.read_only
        await now_live.close()

    run(scenario())


@pytest.mark.slow
def test_a_second_process_cannot_take_a_live_session(tmp_path: Path, clock: FakeClock) -> None:
    import subprocess

    async def scenario() -> tuple[str, str]:
        store = make_store(tmp_path, clock)
        live = await new_session(store, turns=1)
        await live.flush()
        script = (
            "import asyncio, sys\n"
            "from datetime import UTC, datetime\n"
            "from pathlib import Path\n"
            "from core.session.store import SessionStore\n"
            "async def main():\n"
            "    store = SessionStore(Path(sys.argv[1]), lambda: datetime(2026, 1, 1, tzinfo=UTC))\n"
            "    s = await store.open(sys.argv[2])\n"
            "    try:\n"
            "        s.append('user/message', {'text': 'intruder'})\n"
            "    except Exception as e:\n"
            "        print(type(e).__name__)\n"
            "    print(s.read_only, len(s.events))\n"
            "    await s.close()\n"
            "asyncio.run(main())\n"
        )
        result = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-c", script, str(tmp_path), live.id],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        await live.close()
        return result.stdout, log_path(tmp_path, live.id).read_text(encoding="utf-8")

    out, content = run(scenario())
    assert out.split() == ["SessionReadOnlyError", "True", "7"]
    assert "intruder" not in content


def test_checkpoint_lets_a_reopen_skip_parsing_and_is_rebuilt_when_stale(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=2)
        await session.close()
        folder = log_path(tmp_path, session.id).parent
        assert (folder / "checkpoint.json").exists()
        assert (folder / "offsets.bin").stat().st_size == 8 * 14
        reopened = await store.open(session.id)
        add_turn(reopened, 3, "more")
        await reopened.close()
        checkpoint = json.loads((folder / "checkpoint.json").read_bytes())
        assert checkpoint["count"] == 21
        # a checkpoint that no longer matches the bytes is ignored, then rewritten
        path = log_path(tmp_path, session.id)
        data = path.read_bytes()
        path.write_bytes(data.replace(b"answer q1", b"answer Q1"))
        rebuilt = await store.open(session.id)
        assert rebuilt.events[5]["data"]["text"] == "answer Q1"
        assert len(rebuilt.events) == 21
        await rebuilt.close()

    run(scenario())


@pytest.mark.parametrize(
    "damage",
    [
        "checkpoint-garbage",
        "offsets-garbage",
        "offsets-short",
        "offsets-missing",
        "folds-bad",
        "schedule-bad",
        "other-id",
    ],
)
def test_a_damaged_checkpoint_only_costs_a_cold_open(
    tmp_path: Path, clock: FakeClock, damage: str
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=2)
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        events, fold = list(session.events), session.schedule_fold()
        await session.close()
        folder = log_path(tmp_path, session.id).parent
        checkpoint = json.loads((folder / "checkpoint.json").read_bytes())
        if damage == "checkpoint-garbage":
            (folder / "checkpoint.json").write_bytes(b"{not json")
        elif damage == "offsets-garbage":
            (folder / "offsets.bin").write_bytes(b"\x01" * (8 * 15))
        elif damage == "offsets-short":
            (folder / "offsets.bin").write_bytes(b"")
        elif damage == "offsets-missing":
            (folder / "offsets.bin").unlink()
        else:
            key, value = {
                "folds-bad": ("folds", {"count": "x"}),
                "schedule-bad": ("schedule", {"active": 1}),
                "other-id": ("sessionId", "s9999"),
            }[damage]
            checkpoint[key] = value
            (folder / "checkpoint.json").write_text(json.dumps(checkpoint))
        reopened = await store.open(session.id)
        assert list(reopened.events) == events
        assert reopened.schedule_fold() == fold
        await reopened.close()

    run(scenario())


def test_a_checkpoint_is_also_written_every_n_events(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock, checkpoint_every=10)
        session = await new_session(store, turns=2)
        await session.flush()
        await asyncio.sleep(0)
        for _ in range(100):
            if (log_path(tmp_path, session.id).parent / "checkpoint.json").exists():
                break
            await asyncio.to_thread(lambda: None)
        checkpoint = json.loads(
            (log_path(tmp_path, session.id).parent / "checkpoint.json").read_bytes()
        )
        assert checkpoint["count"] == 14
        await session.close()

    run(scenario())


def test_a_corrupt_line_past_the_checkpoint_is_still_caught(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        await session.close()
        path = log_path(tmp_path, session.id)
        with path.open("ab") as handle:
            handle.write(b'{"seq":7,"at":"2026-08-05T12:00:00.000Z","type":"x","data":{}}\n')
            handle.write(b"{bad}\n")
            handle.write(b'{"seq":9,"at":"2026-08-05T12:00:00.000Z","type":"x","data":{}}\n')
        opened = await store.open(session.id)
        assert opened.read_only
        assert opened.read_only_reason is not None
        assert "line 10" in opened.read_only_reason
        assert len(opened.events) == 8
        await opened.close()

    run(scenario())


def test_tail_turns_returns_the_last_turns_from_their_input(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=5)
        session.append(v.USER_MESSAGE, user("pending"))
        await session.close()
        reopened = await store.open(session.id)
        last_two = reopened.tail_turns(2)
        assert [e.seq for e in last_two] == list(range(21, 36))
        assert len(reopened.tail_turns(50)) == 36
        assert [e.seq for e in reopened.entries[-3:]] == [33, 34, 35]
        assert reopened.pending_inputs() == (35,)
        await reopened.close()

    run(scenario())


def test_tail_turns_within_a_bound_walks_back_no_further(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=2)  # seqs 0-13: two turns of seven events
        for n in range(40):
            session.append(v.USER_MESSAGE, user(f"queued {n}"))
        await session.close()
        reopened = await store.open(session.id)
        assert [e.seq for e in reopened.tail_turns(50, 10)] == list(range(44, 54))
        assert [e.seq for e in reopened.tail_turns(1, 10)] == list(range(44, 54))
        assert reopened.tail_turns(1, 100)[0].seq == 7  # the last turn's input, past the bound
        assert len(reopened.tail_turns(50)) == 54
        await reopened.close()

    run(scenario())


def test_list_shows_titles_and_last_activity_newest_first(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> list[tuple[str, str | None, int]]:
        store = make_store(tmp_path, clock)
        first = await new_session(store, turns=1)
        await first.close()
        clock.advance(60)
        second = await store.create()
        second.append(v.SESSION_TITLE, v.session_title("Named"))
        await second.flush()  # listed while live: the tail past the (absent) checkpoint is read
        empty = await store.create()
        await empty.close()
        bad = tmp_path / "sessions" / "broken"
        bad.mkdir()
        (bad / "session.jsonl").write_bytes(b"{}\n")
        written = clock().timestamp() - 86_400  # an unreadable header: listed by its file's time
        os.utime(bad / "session.jsonl", (written, written))
        listed = await store.list()
        await second.close()
        broken = next(s for s in listed if s.problem)
        assert broken.last_activity_at.timestamp() == written
        return [(s.id, s.title, s.event_count) for s in listed] + [
            (s.id, s.problem, 0) for s in listed if s.problem
        ]

    listed = run(scenario())
    assert listed[:4] == [
        ("s0003", None, 0),  # created last; same activity time as s0002, ties go by id
        ("s0002", "Named", 1),
        ("s0001", "q1", 7),
        ("broken", None, 0),
    ]
    assert listed[4][0] == "broken"


def test_a_session_moved_to_the_trash_while_listing_is_left_out(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> list[str]:
        store = make_store(tmp_path, clock)
        for _ in range(2):
            await (await new_session(store, turns=1)).close()
        listed_ids = disk.session_ids

        def listed_then_trashed(data_dir: Path, *, trash: bool = False) -> list[str]:
            ids = listed_ids(data_dir, trash=trash)
            disk.move_session(data_dir / "sessions" / "s0001", data_dir / "trash" / "s0001")
            return ids

        monkeypatch.setattr(disk, "session_ids", listed_then_trashed)
        return [s.id for s in await store.list()]

    assert run(scenario()) == ["s0002"]


def test_fork_copies_a_prefix_verbatim_cut_at_a_turn_boundary(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        parent = await new_session(store, turns=3)
        parent.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        await parent.close()
        child = await store.fork(parent.id, 10)  # inside turn 2 (events 8..13)
        assert child.header.parent_id == parent.id
        assert child.seed_length == 8
        assert (
            body_lines(log_path(tmp_path, child.id))
            == body_lines(log_path(tmp_path, parent.id))[:8]
        )
        assert child.pending_inputs() == ()
        child.append(v.USER_MESSAGE, user("new branch"))
        assert child.pending_inputs() == (8,)
        assert child.schedule_fold().to_json() == {"active": [], "seenIds": []}
        await child.close()
        whole = await store.fork(parent.id, 10_000)
        assert len(whole.events) == 22
        assert whole.schedule_fold().to_json() == {"active": [], "seenIds": []}
        await whole.close()
        empty = await store.fork(parent.id, 0)
        assert len(empty.events) == 0
        await empty.close()

    run(scenario())


def test_fork_never_splits_a_group(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> int:
        store = make_store(tmp_path, clock)
        parent = await new_session(store, turns=1)
        parent.append_events(
            v.group(
                [
                    (v.USER_MESSAGE, v.user_message("r", "reminder", v.SCHEDULE_SOURCE)),
                    (v.SCHEDULE_CHANGE, create_change("schedule-1")),
                    (v.SCHEDULE_CHANGE, create_change("schedule-2")),
                ]
            )
        )
        await parent.close()
        child = await store.fork(parent.id, 9)
        count = len(child.events)
        await child.close()
        return count

    assert run(scenario()) == 7


def test_a_corrupt_session_can_be_rescued_by_a_fork(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        parent = await new_session(store, turns=2)
        await parent.close()
        path = log_path(tmp_path, parent.id)
        lines = path.read_bytes().split(b"\n")
        lines[11] = b"{oops"
        path.write_bytes(b"\n".join(lines))
        child = await store.fork(parent.id, 14)
        assert not child.read_only
        # event 10 is corrupt: the good prefix ends inside turn 2, which starts at event 8
        assert child.seed_length == 8
        assert [e["type"] for e in child.events][6:] == ["turn/end", "user/message"]
        await child.close()

    run(scenario())


def test_trash_restore_and_empty_trash(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        with pytest.raises(SessionLockedError):
            await store.trash(session.id)
        await session.close()
        await store.trash(session.id)
        assert await store.list() == []
        assert [s.id for s in await store.list_trash()] == [session.id]
        await store.restore(session.id)
        assert [s.id for s in await store.list()] == [session.id]
        with pytest.raises(SessionNotFoundError):
            await store.restore(session.id)
        await store.trash(session.id)
        other = await store.create()
        await other.close()
        (tmp_path / "trash" / other.id).mkdir(parents=True)
        with pytest.raises(SessionError, match="already exists"):
            await store.trash(other.id)
        assert await store.empty_trash() == 1
        assert not (tmp_path / "trash" / session.id).exists()
        with pytest.raises(SessionNotFoundError):
            await store.trash("s0404")

    run(scenario())


def test_exports_give_a_readable_transcript_and_the_raw_log(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> tuple[str, bytes, Path]:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        session.append_events(
            v.group(
                [
                    (v.USER_MESSAGE, v.user_message("r", "stretch", v.SCHEDULE_SOURCE)),
                    (v.SCHEDULE_CHANGE, create_change("schedule-1")),
                ]
            )
        )
        await session.close()
        target = tmp_path / "out.md"
        text = await store.export_markdown(session.id, target, "Europe/Berlin")
        raw = await store.export_jsonl(session.id, tmp_path / "out.jsonl")
        return text, raw, target

    text, raw, target = run(scenario())
    assert "### You · 14:00\n\nq1" in text  # in the zone asked for
    assert "### ⏰ Reminder · 14:00\n\n> stretch" in text  # not Chime's framing: quoted
    assert "answer q1" in text
    assert target.read_text(encoding="utf-8") == text
    assert raw == log_path(tmp_path, "s0001").read_bytes()
    assert (tmp_path / "out.jsonl").read_bytes() == raw
    if sys.platform != "win32":
        assert stat.S_IMODE(os.stat(target).st_mode) == 0o600


def test_old_events_stay_readable_after_the_log_grows_past_its_first_map(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        await session.close()
        reopened = await store.open(session.id)
        for index in range(3000):
            reopened.append(v.USER_MESSAGE, user(f"n{index}"))
        assert await reopened.flush()
        assert reopened.events[7]["data"]["text"] == "n0"  # evicted from the cache, re-read
        assert reopened.events[0]["data"]["text"] == "q1"
        await reopened.close()

    run(scenario())


def test_a_bad_schedule_change_written_by_someone_else_fails_the_fold_for_good(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await store.create()
        await session.close()
        path = log_path(tmp_path, session.id)
        with path.open("ab") as handle:
            for seq in range(2):
                line = {"seq": seq, "at": "2026-08-05T12:00:00.000Z", "type": "schedule/change"}
                handle.write(json.dumps({**line, "data": {"version": 9}}).encode() + b"\n")
        for _ in range(2):  # cold, then from the checkpoint that kept the failure
            opened = await store.open(session.id)
            with pytest.raises(ScheduleLogError, match="event 0"):
                opened.schedule_fold()
            opened.append(v.USER_MESSAGE, user("still usable"))
            await opened.close()

    run(scenario())


def test_a_seed_length_beyond_the_log_fails_the_schedule_fold(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = log_path(tmp_path, "s0001")
    path.parent.mkdir(parents=True)
    path.write_bytes(
        b'{"type":"session","version":1,"id":"s0001","createdAt":"2026-08-05T12:00:00.000Z",'
        b'"parentId":"p","seedLength":5}\n'
    )
    session = run(make_store(tmp_path, clock).open("s0001", read_only=True))
    with pytest.raises(ScheduleLogError, match="seedLength"):
        session.schedule_fold()
    run(session.close())


def test_a_bad_header_read_only_is_refused_too(tmp_path: Path, clock: FakeClock) -> None:
    path = log_path(tmp_path, "s0001")
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"type":"session","version":3}\n')
    with pytest.raises(SessionFormatError):
        run(make_store(tmp_path, clock).open("s0001", read_only=True))


def test_a_periodic_checkpoint_covers_the_durable_events_only_while_newer_ones_wait(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[asyncio.Future[None]] = []
    start = Checkpointer.start

    def recording(self: Checkpointer, state: Checkpoint, offsets: bytes) -> asyncio.Future[None]:
        started.append(start(self, state, offsets))
        return started[-1]

    monkeypatch.setattr(Checkpointer, "start", recording)

    async def scenario() -> None:
        store = make_store(tmp_path, clock, checkpoint_every=2)
        session = await store.create()
        loop = asyncio.get_running_loop()

        # runs after the write that starts the checkpoint, before its task has run
        def on_written(ok: bool) -> None:
            if ok:
                loop.call_soon(session.append, v.USER_MESSAGE, user("c"))

        unsubscribe = session.subscribe_persistence(on_written)
        session.append(v.USER_MESSAGE, user("a"))
        session.append(v.USER_MESSAGE, user("b"))
        await session.flush()
        await asyncio.gather(*started)
        folder = log_path(tmp_path, session.id).parent
        written = json.loads((folder / "checkpoint.json").read_bytes())
        assert (written["count"], written["folds"]["count"]) == (2, 2)  # c is not in it
        assert len(session.events) == 3
        unsubscribe()
        await session.close()
        assert json.loads((folder / "checkpoint.json").read_bytes())["count"] == 3

    run(scenario())


def test_a_checkpoint_that_cannot_be_written_does_not_fail_the_close(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> bool:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        (log_path(tmp_path, session.id).parent / "checkpoint.json").mkdir()
        closed = await session.close()
        reopened = await store.open(session.id)
        assert len(reopened.events) == 7
        await reopened.close()
        return closed

    assert run(scenario()) is True


def test_session_accessors_report_activity_and_refuse_bad_spans(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        session = await make_store(tmp_path, clock).create()
        assert session.last_activity == "2026-08-05T12:00:00.000Z"
        clock.advance(5)
        session.append(v.USER_MESSAGE, user("x"))
        assert session.last_activity == "2026-08-05T12:00:05.000Z"
        with pytest.raises(IndexError):
            session.byte_span(1)  # not durable yet
        await session.close()

    run(scenario())


def test_listing_an_empty_data_dir_and_exporting_a_missing_session(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    assert run(store.list()) == []
    with pytest.raises(SessionNotFoundError):
        run(store.export_jsonl("s0404"))


def test_exports_without_a_target_only_return_the_content(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> tuple[str, bytes]:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        await session.close()
        return await store.export_markdown(session.id), await store.export_jsonl(session.id)

    text, raw = run(scenario())
    assert "answer q1" in text
    assert raw.count(b"\n") == 8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sessions"]


def test_list_survives_a_damaged_checkpoint_and_a_log_without_newline(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> list[tuple[str, str | None, int]]:
        store = make_store(tmp_path, clock)
        session = await new_session(store, turns=1)
        await session.close()
        checkpoint = log_path(tmp_path, session.id).parent / "checkpoint.json"
        state = json.loads(checkpoint.read_bytes())
        checkpoint.write_text(json.dumps({**state, "folds": {"count": 1}}))
        odd = tmp_path / "sessions" / "odd"
        odd.mkdir()
        (odd / "session.jsonl").write_bytes(b"x" * 70000)
        written = clock().timestamp() - 86_400  # listed by its file's time: before s0001
        os.utime(odd / "session.jsonl", (written, written))
        return [(s.id, s.title, s.event_count) for s in await store.list()]

    assert run(scenario()) == [("s0001", "q1", 7), ("odd", None, 0)]


def test_an_open_that_scanned_many_events_writes_a_checkpoint_at_once(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock, checkpoint_every=5)
        session = await new_session(store, turns=1)
        await session.flush()
        folder = log_path(tmp_path, session.id).parent
        await session.close()
        (folder / "checkpoint.json").unlink()
        reopened = await store.open(session.id)  # cold: 7 events scanned
        assert reopened.checkpoint_if_due() is None  # already being written
        viewer = await store.open(session.id, read_only=True)
        assert viewer.checkpoint_if_due() is None  # read-only sessions never write one
        await viewer.close()
        await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})
        assert json.loads((folder / "checkpoint.json").read_bytes())["count"] == 7
        await reopened.close()

    run(scenario())


def _two_active(session: LiveSession) -> None:
    session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
    session.append(v.SCHEDULE_CHANGE, delete_change("schedule-1"))
    session.append(v.SCHEDULE_CHANGE, create_change("schedule-2"))
    session.append(v.SCHEDULE_CHANGE, create_change("schedule-3"))


def _listed_reminders(store: SessionStore) -> dict[str, int | None]:
    return {s.id: s.active_reminders for s in run(store.list())}


@pytest.mark.parametrize("checkpoint", ["kept", "deleted", "damaged"])
def test_a_closed_session_lists_its_count_of_active_reminders(
    tmp_path: Path, clock: FakeClock, checkpoint: str
) -> None:
    store = make_store(tmp_path, clock)
    session = run(new_session(store, turns=1))
    _two_active(session)
    run(session.close())
    saved = log_path(tmp_path, session.id).parent / "checkpoint.json"
    if checkpoint == "deleted":
        saved.unlink()
    elif checkpoint == "damaged":  # a bad schedule state: the whole log is scanned instead
        state = json.loads(saved.read_bytes())
        saved.write_text(json.dumps({**state, "schedule": {"active": []}}))
    assert _listed_reminders(store) == {session.id: 2}


def test_changes_past_the_checkpoint_are_folded_onto_its_state(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> list[int | None]:
        store = make_store(tmp_path, clock)
        session = await store.create()
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        await session.close()
        counts = [s.active_reminders for s in await store.list()]
        reopened = await store.open(session.id)
        reopened.append(v.SCHEDULE_CHANGE, delete_change("schedule-1"))
        reopened.append(v.SCHEDULE_CHANGE, create_change("schedule-2"))
        reopened.append(v.SCHEDULE_CHANGE, create_change("schedule-3"))
        await reopened.flush()  # listed while live: the checkpoint still covers one event
        counts += [s.active_reminders for s in await store.list()]
        await reopened.close()
        return counts

    assert run(scenario()) == [1, 2]


def test_a_fork_lists_none_of_its_parents_reminders(tmp_path: Path, clock: FakeClock) -> None:
    store = make_store(tmp_path, clock)
    parent = run(new_session(store, turns=1))
    _two_active(parent)
    run(parent.close())
    child = run(store.fork(parent.id, 10_000))
    assert child.seed_length == 11
    run(child.close())
    assert _listed_reminders(store) == {parent.id: 2, child.id: 0}
    (log_path(tmp_path, child.id).parent / "checkpoint.json").unlink()  # the inherited prefix
    assert _listed_reminders(store) == {parent.id: 2, child.id: 0}  # is scanned, not folded


def test_a_corrupt_schedule_change_lists_an_unknown_count(tmp_path: Path, clock: FakeClock) -> None:
    store = make_store(tmp_path, clock)
    session = run(store.create())
    run(session.close())
    line = {"seq": 0, "at": "2026-08-05T12:00:00.000Z", "type": "schedule/change"}
    with log_path(tmp_path, session.id).open("ab") as handle:
        handle.write(json.dumps({**line, "data": {"version": 9}}).encode() + b"\n")
    assert _listed_reminders(store) == {session.id: None}  # failed past the checkpoint
    reopened = run(store.open(session.id))
    reopened.append(v.USER_MESSAGE, user("still usable"))
    run(reopened.close())
    assert _listed_reminders(store) == {session.id: None}  # the checkpoint kept the failure


def test_a_corrupt_line_or_a_seed_length_beyond_the_log_lists_an_unknown_count(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = make_store(tmp_path, clock)
    session = run(new_session(store, turns=2))
    run(session.close())
    path = log_path(tmp_path, session.id)
    (path.parent / "checkpoint.json").unlink()
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([*lines[:3], b"{not json", *lines[4:]]))
    forked = log_path(tmp_path, "s9999")
    forked.parent.mkdir(parents=True)
    forked.write_bytes(
        b'{"type":"session","version":1,"id":"s9999","createdAt":"2026-08-05T12:00:00.000Z",'
        b'"parentId":"p","seedLength":5}\n'
    )
    assert _listed_reminders(store) == {session.id: None, "s9999": None}


def test_a_lock_is_free_only_when_no_one_holds_it_and_its_folder_can_be_written(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> list[bool]:
        store = make_store(tmp_path, clock)
        session = await store.create()
        held = await store.lock_is_free(session.id)
        await session.close()
        free = await store.lock_is_free(session.id)
        again = await store.open(session.id)  # probing did not keep the lock
        live = not again.read_only
        await again.close()

        def unwritable(_folder: Path) -> None:
            raise OSError(errno.EROFS, "Read-only file system")

        monkeypatch.setattr(disk, "try_lock", unwritable)
        return [held, free, live, await store.lock_is_free(session.id)]

    assert run(scenario()) == [False, True, True, False]
