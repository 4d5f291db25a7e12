"""A live session whose data folder is deleted (or moved) under it, on real files (issue 24 point
5): the next write notices, every barrier says False from then on, the observers hear it once,
and what is in memory stays whole, ready to be saved elsewhere."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.host import SessionHost
from core.llm.offline import OfflineAssistant
from core.session import jsonl_store
from core.session.jsonl_store import LogFile
from core.session.live import LiveSession
from tests import wire as v
from tests.core.agent.fakes import FakeWaker
from tests.core.session.helpers import ManualTimer, make_store, user
from tests.fakes import FakeClock

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def test_a_deleted_data_folder_is_noticed_at_the_next_write_and_nothing_in_memory_is_lost(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    timer = ManualTimer()

    async def main() -> tuple[list[bool], list[str], str | None, bytes, int, list[bool]]:
        session = await make_store(data, FakeClock(START), timer=timer).create()
        heard: list[str] = []
        writes: list[bool] = []
        session.subscribe_lost(broken_observer)  # an observer's bug must not stop the others
        session.subscribe_lost(heard.append)
        session.subscribe_persistence(writes.append)
        session.append(v.USER_MESSAGE, user("before", "m1"))
        saved_before = await session.flush()
        shutil.rmtree(data)  # the whole data folder, while the session is live
        session.append(v.USER_MESSAGE, user("after", "m2"))
        flushes = [saved_before, await session.flush(), await session.flush()]
        session.append(v.USER_MESSAGE, user("later", "m3"))
        timer.fire()  # the write-behind was not armed again: nothing to fire
        flushes.append(await session.flush())
        copy = await asyncio.to_thread(session.log_bytes)
        count = len(session.events)
        await session.close()
        return flushes, heard, session.lost, copy, count, writes

    flushes, heard, lost, copy, count, writes = asyncio.run(main())
    assert flushes == [True, False, False, False]
    assert len(heard) == 1
    assert heard[0].startswith("the session log was deleted (")
    assert lost == heard[0]
    assert writes == [True, False]  # one failed write told; no retry storm after it
    assert not data.exists()  # nothing was recreated behind the user's back
    lines = copy.split(b"\n")
    assert json.loads(lines[0])["type"] == "session"
    texts = [json.loads(line)["data"]["text"] for line in lines[1:] if line]
    assert texts == ["before", "after", "later"]
    assert count == 3


def broken_observer(_reason: str) -> None:
    raise RuntimeError("an observer's bug")


def test_a_moved_data_folder_is_noticed_too(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def main() -> tuple[bool, str | None]:
        session = await make_store(data, FakeClock(START)).create()
        data.rename(tmp_path / "elsewhere")
        session.append(v.USER_MESSAGE, user("after", "m1"))
        saved = await session.flush()
        lost = session.lost
        await session.close()
        return saved, lost

    saved, lost = asyncio.run(main())
    assert saved is False
    assert lost is not None
    assert lost.startswith("the session log is no longer where it was (")


def test_a_log_replaced_by_another_file_is_noticed(tmp_path: Path) -> None:
    """A sync tool puts its own copy in the log's place: the file Chime writes is unlinked
    (deleted), or, when a hard link elsewhere keeps it alive, no longer the one at the path."""

    async def main(keep_a_link: bool) -> tuple[bool, bool, str | None]:
        data = tmp_path / f"data-{keep_a_link}"
        session = await make_store(data, FakeClock(START)).create()
        path = data / "sessions" / session.id / "session.jsonl"
        if keep_a_link:
            os.link(path, tmp_path / f"link-{session.id}")
        copy = path.with_name("copy")
        shutil.copyfile(path, copy)
        copy.replace(path)
        session.append(v.USER_MESSAGE, user("after", "m1"))
        saved = await session.flush()
        untouched = b"after" not in path.read_bytes()
        lost = session.lost
        await session.close()
        return saved, untouched, lost

    for keep_a_link, said in ((False, "was deleted"), (True, "was replaced by another file")):
        saved, untouched, lost = asyncio.run(main(keep_a_link))
        assert (saved, untouched) == (False, True)
        assert lost is not None
        assert lost.startswith(f"the session log {said} (")


def test_a_session_in_place_is_never_reported_lost(tmp_path: Path) -> None:
    async def main() -> tuple[bool, str | None]:
        session = await make_store(tmp_path, FakeClock(START)).create()
        session.append(v.USER_MESSAGE, user("hi", "m1"))
        saved = await session.flush()
        lost = session.lost
        await session.close()
        return saved, lost

    assert asyncio.run(main()) == (True, None)


def test_a_reminder_asked_for_after_the_folder_vanished_is_not_confirmed(tmp_path: Path) -> None:
    """The tools answer from barriers: with the log gone, a create says it could not be saved
    instead of promising a reminder that would vanish at quit."""
    data = tmp_path / "data"
    clock = FakeClock(START)

    async def main() -> tuple[str, str]:
        session = await make_store(data, clock).create()
        host = SessionHost(
            session, OfflineAssistant(clock), clock, lambda: "UTC", FakeWaker, system_prompt="x"
        )
        host.start()
        shutil.rmtree(data)
        host.submit("remind me in 10 minutes to stretch")
        await host.when_idle()
        answer = [e for e in session.events if e["type"] == v.ASSISTANT_MESSAGE][-1]
        (result,) = [e for e in session.events if e["type"] == v.TOOL_RESULT]
        await host.dispose()
        return str(answer["data"]["text"]), str(result["data"]["content"])

    answer, result = asyncio.run(main())
    assert "persistence_uncertain" in result
    assert "I'll remind you" not in answer


def test_a_log_whose_path_cannot_be_looked_at_is_not_called_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"{}\n")
    log = LogFile(path, writable=True)

    def denied(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    try:
        with monkeypatch.context() as patch:
            patch.setattr(jsonl_store.os, "stat", denied)
            log.check_in_place()  # no evidence that it went: not lost
    finally:
        log.close()


def test_a_detached_session_has_no_file_to_lose() -> None:
    session = LiveSession.detached("d", FakeClock(START))
    unsubscribe = session.subscribe_lost(broken_observer)
    unsubscribe()
    session.append(v.USER_MESSAGE, user("kept", "m1"))
    assert session.lost is None
    assert b'"kept"' in session.log_bytes()


def test_a_session_whose_folder_vanished_exports_from_memory(tmp_path: Path) -> None:
    data, rescued = tmp_path / "data", tmp_path / "rescued"
    rescued.mkdir()

    async def main() -> tuple[bytes, str]:
        store = make_store(data, FakeClock(START))
        session = await store.create()
        unsubscribe = session.subscribe_lost(broken_observer)
        unsubscribe()  # a window that let go of the session hears nothing more
        session.append(v.USER_MESSAGE, user("before", "m1"))
        assert await session.flush()
        shutil.rmtree(data)
        session.append(v.USER_MESSAGE, user("after", "m2"))
        assert not await session.flush()
        await store.export_live(session, "jsonl", rescued / "copy.jsonl")
        await store.export_live(session, "markdown", rescued / "copy.md", "UTC")
        await session.close()
        return (rescued / "copy.jsonl").read_bytes(), (rescued / "copy.md").read_text("utf-8")

    raw, markdown = asyncio.run(main())
    assert [json.loads(line)["seq"] for line in raw.split(b"\n")[1:] if line] == [0, 1]
    assert "before" in markdown
    assert "after" in markdown
