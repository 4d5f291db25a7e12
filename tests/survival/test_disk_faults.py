"""Disk faults under a live session (injected through the store's file-ops seam): a data folder
that turns read-only, a permission error, a full disk, a failing fsync. For each: barriers report
failure, schedule tools answer ``persistence_uncertain``, the host's persistence observer hears
it, and once the disk works again every retained event is written exactly once and nothing is
lost (the reopened log equals the live one). Real mounts: scripts/disk_faults.py."""

from __future__ import annotations

import asyncio
import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests import wire as v
from tests.fakes import FakeClock
from tests.survival.disk_fault_kit import (
    FAULTS,
    START,
    Fault,
    Rig,
    log_lines,
    make_store,
    reopened_events,
    tool_values,
)

IDS = [fault.name for fault in FAULTS]


def user(text: str) -> dict[str, Any]:
    return v.user_message(text, text, v.user_source("UTC"))


@pytest.mark.parametrize("fault", FAULTS, ids=IDS)
def test_a_failed_barrier_keeps_its_events_and_the_next_good_one_writes_them_exactly_once(
    tmp_path: Path, fault: Fault
) -> None:
    async def main() -> tuple[Rig, list[bool], list[dict[str, Any]]]:
        rig = await Rig.open(tmp_path)
        session = rig.session
        session.append(v.USER_MESSAGE, user("before"))
        assert await session.flush()
        log = tmp_path / "sessions" / session.id / "session.jsonl"
        length = log.stat().st_size
        rig.ops.fault = fault
        session.append(v.USER_MESSAGE, user("during"))
        session.append_events(
            v.group([(v.SESSION_TITLE, {"title": "a"}), (v.SESSION_TITLE, {"title": "b"})])
        )
        failed = [await session.flush(), await session.flush()]
        if "truncate" not in fault.ops:  # cut back to the durable length at once
            assert log.stat().st_size == length
        rig.ops.fault = None
        session.append(v.USER_MESSAGE, user("after"))
        ok = await session.flush()
        live = rig.snapshot()
        await rig.host.dispose()
        return rig, [*failed, ok], live

    rig, outcomes, live = asyncio.run(main())
    assert outcomes == [False, False, True]
    assert rig.outcomes[-3:] == [False, False, True]
    assert asyncio.run(reopened_events(tmp_path, rig.session.id)) == live
    assert [json.loads(line)["seq"] for line in log_lines(tmp_path, rig.session.id)] == list(
        range(len(live))
    )


def persistence_codes(values: list[str]) -> list[tuple[str, str | None]]:
    decoded = [json.loads(value) for value in values]
    return [
        (d["operation"], d.get("id"))
        for d in decoded
        if isinstance(d, dict) and d.get("code") == "persistence_uncertain"
    ]


@pytest.mark.parametrize("fault", FAULTS, ids=IDS)
def test_a_reminder_asked_for_on_a_broken_disk_is_not_created_and_the_user_is_told(
    tmp_path: Path, fault: Fault
) -> None:
    async def main() -> tuple[Rig, list[Any], list[Any], list[dict[str, Any]]]:
        rig = await Rig.open(tmp_path)
        rig.ops.fault = fault
        broken = await rig.say("remind me in 10 minutes to stretch")
        rig.ops.fault = None
        healed = await rig.say("what reminders do I have")
        await rig.session.flush()
        live = rig.snapshot()
        await rig.host.dispose()
        return rig, broken, healed, live

    rig, broken, healed, live = asyncio.run(main())
    assert persistence_codes(tool_values(broken)) == [("create", None)]
    answer = [e["data"]["text"] for e in broken if e["type"] == v.ASSISTANT_MESSAGE][-1]
    assert "couldn't confirm" in answer
    assert tool_values(healed) == ["[]"]
    assert False in rig.outcomes
    assert rig.outcomes[-1] is True
    assert asyncio.run(reopened_events(tmp_path, rig.session.id)) == live


@pytest.mark.parametrize("fault", FAULTS, ids=IDS)
def test_a_create_whose_second_barrier_fails_is_kept_and_written_once_the_disk_works(
    tmp_path: Path, fault: Fault
) -> None:
    async def main() -> tuple[list[Any], Any, list[dict[str, Any]], str]:
        rig = await Rig.open(tmp_path)
        tools = rig.host.tools
        assert await rig.session.flush()  # nothing queued: barrier #1 needs no disk
        rig.ops.fault = fault
        uncertain = [
            await tools.call("schedule_create", {"prompt": "stretch", "after_seconds": 600}),
            await tools.call("schedule_list", {}),
            await tools.call("schedule_delete", {"id": "schedule-1"}),
        ]
        rig.ops.fault = None
        listed = await tools.call("schedule_list", {})
        live = rig.snapshot()
        await rig.host.dispose()
        return uncertain, listed, live, rig.session.id

    uncertain, listed, live, session_id = asyncio.run(main())
    assert [(u["code"], u["operation"], u.get("id")) for u in uncertain] == [
        ("persistence_uncertain", "create", "schedule-1"),
        ("persistence_uncertain", "list", None),
        ("persistence_uncertain", "delete", "schedule-1"),
    ]
    assert [view["id"] for view in listed] == ["schedule-1"]
    reopened = asyncio.run(reopened_events(tmp_path, session_id))
    assert reopened == live
    creates = [e for e in reopened if e["type"] == v.SCHEDULE_CHANGE]
    assert [c["data"]["operation"] for c in creates] == ["create"]


def reminder_groups(events: list[dict[str, Any]]) -> list[list[str]]:
    return [
        [x["type"] for x in events[e["seq"] : e["seq"] + e["group"]]]
        for e in events
        if "group" in e
    ]


@pytest.mark.parametrize("fault", FAULTS, ids=IDS)
@pytest.mark.parametrize("queued", [False, True], ids=["post-dispatch-barrier", "first-barrier"])
def test_a_due_reminder_on_a_broken_disk_is_admitted_exactly_once_when_it_recovers(
    tmp_path: Path, fault: Fault, queued: bool
) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        rig = await Rig.open(tmp_path)
        await rig.say("remind me in 2 minutes to stretch")
        assert await rig.session.flush()
        assert rig.waker.armed is not None
        rig.clock.set(rig.waker.armed)
        rig.ops.fault = fault
        if queued:  # something waits to be written: the drive's first barrier fails
            rig.session.append(v.SESSION_TITLE, {"title": "queued"})
        rig.waker.fire()
        await rig.settle()
        admitted_while_broken = sum(1 for e in rig.session.events if "group" in e)
        rig.ops.fault = None
        rig.host.request_drive()
        await rig.settle()
        assert await rig.session.flush()
        live = rig.snapshot()
        await rig.host.dispose()
        reopened = await reopened_events(tmp_path, rig.session.id)
        return live, reopened, admitted_while_broken

    live, reopened, admitted_while_broken = asyncio.run(main())
    assert admitted_while_broken == (0 if queued else 1)
    assert reopened == live
    assert reminder_groups(reopened) == [[v.USER_MESSAGE, v.SCHEDULE_CHANGE]]
    ends = [e["data"]["status"] for e in reopened if e["type"] == v.TURN_END]
    assert ends == ["completed", "completed"]


@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS], ids=errno.errorcode.get)
@pytest.mark.parametrize("refused", ["lock", "session.jsonl"])
def test_a_session_whose_folder_cannot_be_written_opens_read_only_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, refused: str
) -> None:
    async def create() -> tuple[str, list[dict[str, Any]]]:
        rig = await Rig.open(tmp_path)
        await rig.say("hello")
        live = rig.snapshot()
        await rig.host.dispose()
        return rig.session.id, live

    session_id, live = asyncio.run(create())
    folder = tmp_path / "sessions" / session_id
    real_open = os.open

    def refusing(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
        if writing and Path(path) == folder / refused:
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    async def reopen() -> tuple[bool, str | None, list[dict[str, Any]]]:
        session = await make_store(tmp_path, FakeClock(START)).open(session_id)
        try:
            return session.read_only, session.read_only_reason, [dict(e) for e in session.events]
        finally:
            await session.close()

    monkeypatch.setattr(os, "open", refusing)
    read_only, reason, events = asyncio.run(reopen())
    assert read_only
    assert reason is not None
    assert os.strerror(code) in reason
    assert events == live
    monkeypatch.undo()  # the disk is writable again: the session opens live (no lock leaked)
    assert asyncio.run(reopen())[:2] == (False, None)


def test_a_torn_tail_found_on_a_full_disk_is_left_alone_until_there_is_room_to_save_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def create() -> str:
        rig = await Rig.open(tmp_path)
        await rig.say("hello")
        await rig.host.dispose()
        return rig.session.id

    session_id = asyncio.run(create())
    log = tmp_path / "sessions" / session_id / "session.jsonl"
    torn = b'{"seq":99,"at":"2026-08-05T12:00:00.000Z","ty'
    with log.open("ab") as handle:
        handle.write(torn)
    before = log.read_bytes()
    real_open = os.open

    def full(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if "torn-" in Path(path).name:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real_open(path, flags, *args, **kwargs)

    async def reopen() -> tuple[bool, str | None]:
        session = await make_store(tmp_path, FakeClock(START)).open(session_id)
        await session.close()
        return session.read_only, session.read_only_reason

    monkeypatch.setattr(os, "open", full)
    read_only, reason = asyncio.run(reopen())
    assert read_only
    assert os.strerror(errno.ENOSPC) in (reason or "")
    assert log.read_bytes() == before
    monkeypatch.undo()
    assert asyncio.run(reopen()) == (False, None)
    (saved,) = log.parent.glob("session.jsonl.torn-*")
    assert saved.read_bytes() == torn
    assert log.read_bytes() == before[: -len(torn)]
