"""A derived checkpoint can never change what the log means (session-log.md §8).

Each scenario sets a reminder due at 23:40 on a real session folder, closes it (the close writes
the checkpoint), edits or forges ``checkpoint.json`` as someone else might, and reopens it with a
live host on a fake clock: what the window shows, what the tools answer, what the owner delivers
and what the log holds afterwards are exactly what they are without the checkpoint.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from core.events import Entry, Event, ScheduleChanged, UserMessage, UserSource
from core.host import SessionHost
from core.schedule import ScheduleTools, fold_schedule
from core.session.checkpoint import Checkpoint, Claims, claims_hold, decode_checkpoint
from core.session.folds import SessionFolds
from core.session.lines import encode_entry
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.core.agent.fakes import FakeWaker, ScriptedModel, counter_ids, settle
from tests.core.session.helpers import add_turn, log_path
from tests.fakes import FakeClock

START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
DUE = "2026-08-05T23:40:00.000Z"
EDITED = "2026-08-05T14:15:00.000Z"
MADE_UP = {
    "id": "schedule-9",
    "kind": "at",
    "prompt": "made up",
    "scheduledAt": "2026-08-05T12:30:00.000Z",
}


def no_write_behind(_delay: float, _callback: Callable[[], None]) -> None:
    return None


def at_change(schedule_id: str, prompt: str, when: str) -> dict[str, Any]:
    record = {"id": schedule_id, "kind": "at", "prompt": prompt, "scheduledAt": when}
    return {"version": 1, "operation": "create", "schedule": record}


async def closed_session(store: SessionStore) -> str:
    """Turns, the reminder due at 23:40, more turns than the open decodes; closed."""
    session = await store.create()
    add_turn(session, 1, "q1")
    session.append(v.SCHEDULE_CHANGE, at_change("schedule-1", "leave", DUE))
    for turn in range(2, 60):
        add_turn(session, turn, f"q{turn}")
    assert await session.close()
    return session.id


def checkpoint_path(store: SessionStore, sid: str) -> Path:
    return log_path(store.data_dir, sid).parent / "checkpoint.json"


def edit_by_hand(store: SessionStore, sid: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the checkpoint's JSON the way a text editor would (nothing else recomputed)."""
    path = checkpoint_path(store, sid)
    value = json.loads(path.read_bytes())
    change(value)
    path.write_text(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def forge(store: SessionStore, sid: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite the checkpoint through Chime's own encoder: every digest and seal recomputed."""
    path = checkpoint_path(store, sid)
    checkpoint = decode_checkpoint(path.read_bytes())
    assert checkpoint is not None
    schedule = json.loads(json.dumps(checkpoint.schedule))
    change(schedule)
    path.write_bytes(dataclasses.replace(checkpoint, schedule=schedule).encode())


def edit_hour(value: dict[str, Any]) -> None:
    value["schedule"]["active"][0]["scheduledAt"] = EDITED


def add_made_up(value: dict[str, Any]) -> None:
    schedule = value.get("schedule", value)
    schedule["active"].append(dict(MADE_UP))
    schedule["seenIds"].append(MADE_UP["id"])


def forged_hour(schedule: dict[str, Any]) -> None:
    schedule["active"][0]["scheduledAt"] = EDITED


async def deliver_until(session: LiveSession, clock: FakeClock, when: datetime) -> None:
    """Run a live host on ``session`` with the clock at ``when``, until it settles."""
    wakers: list[FakeWaker] = []
    host = SessionHost(
        session,
        ScriptedModel(),
        clock,
        lambda: "UTC",
        lambda callback: wakers.append(FakeWaker(callback)) or wakers[-1],
        system_prompt="You are Chime.",
        new_id=counter_ids("h"),
    )
    host.start()
    clock.set(when)
    for _ in range(6):
        for waker in wakers:
            if waker.armed is not None:
                waker.fire()
        await settle()
        await host.owner.drained()
        await host.when_idle()
    await host.dispose()


def reminders_in(events: list[dict[str, Any]]) -> list[str]:
    return [
        e["data"]["text"]
        for e in events
        if e["type"] == v.USER_MESSAGE and e["data"]["source"]["kind"] == "plugin"
    ]


def log_events(store: SessionStore, sid: str) -> list[dict[str, Any]]:
    lines = log_path(store.data_dir, sid).read_bytes().split(b"\n")[1:]
    return [json.loads(line) for line in lines if line]


TAMPERINGS = {
    "hour edited by hand": (edit_by_hand, edit_hour),
    "reminder made up by hand": (edit_by_hand, add_made_up),
    "hour forged with its seal": (forge, forged_hour),
    "reminder forged with its seal": (forge, add_made_up),
}


@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_a_tampered_checkpoint_changes_nothing_the_tools_or_the_owner_do(
    tmp_path: Path, tampering: str
) -> None:
    rewrite, change = TAMPERINGS[tampering]

    async def main() -> None:
        clock = FakeClock(START)
        options = StoreOptions(scheduler=no_write_behind)
        store = SessionStore(tmp_path, clock, counter_ids("s"), options=options)
        sid = await closed_session(store)
        truth = fold_schedule(log_events(store, sid))
        rewrite(store, sid, change)

        session = await store.open(sid)
        answer = await ScheduleTools(session, clock).call("schedule_list", {})
        assert [(r["id"], r["scheduledAt"]) for r in answer] == [("schedule-1", DUE)]
        assert session.schedule_fold() == truth
        await deliver_until(session, clock, START + timedelta(hours=3))

        events = log_events(store, sid)
        assert reminders_in(events) == []
        assert fold_schedule(events) == truth

    asyncio.run(main())


def test_a_checkpoint_edited_by_hand_is_not_even_shown(tmp_path: Path) -> None:
    async def main() -> None:
        clock = FakeClock(START)
        store = SessionStore(tmp_path, clock, counter_ids("s"))
        sid = await closed_session(store)
        edit_by_hand(store, sid, edit_hour)
        session = await store.open(sid)
        assert [r.to_json()["scheduledAt"] for r in session.schedule_fold().active] == [DUE]
        await session.close()
        assert decode_checkpoint(checkpoint_path(store, sid).read_bytes()) is not None

    asyncio.run(main())


def test_the_reminder_still_arrives_at_its_own_time_after_a_forged_checkpoint(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        clock = FakeClock(START)
        options = StoreOptions(scheduler=no_write_behind)
        store = SessionStore(tmp_path, clock, counter_ids("s"), options=options)
        sid = await closed_session(store)
        forge(store, sid, forged_hour)
        session = await store.open(sid)
        await deliver_until(session, clock, datetime(2026, 8, 5, 23, 41, tzinfo=UTC))
        delivered = reminders_in(log_events(store, sid))
        assert len(delivered) == 1
        assert '"leave"' in delivered[0]
        assert f"occurrence_at: {DUE}" in delivered[0]

    asyncio.run(main())


# -- claims_hold on its own: the lines a checkpoint names decide ------------------------------

EVERY = {
    "id": "schedule-2",
    "kind": "every",
    "prompt": "drink",
    "everySeconds": 300,
    "scheduledAt": "2026-08-05T12:05:00.000Z",
}


def folded(events: list[Event], seed: int = 0) -> tuple[SessionFolds, list[bytes]]:
    """The folds and log lines (without ``\\n``) of ``events``, read as a scan reads them."""
    folds, lines = SessionFolds(seed), []
    for seq, event in enumerate(events):
        folds.read(seq, AT, event)
        lines.append(encode_entry(Entry(seq, AT, event))[:-1])
    return folds, lines


def line_reader(lines: list[bytes]) -> Callable[[int], bytes]:
    return lines.__getitem__


def holds(folds: SessionFolds, lines: list[bytes], **changed: Any) -> bool:
    checkpoint = dataclasses.replace(Checkpoint.of("s", 1000, len(lines), folds), **changed)
    return claims_hold(checkpoint, Claims.of(checkpoint.folds()), line_reader(lines))


AT = "2026-08-05T12:00:00.000Z"
LOG = [
    UserMessage("m0", "remind me", UserSource("UTC")),
    ScheduleChanged(at_change("schedule-1", "leave", DUE)),
    ScheduleChanged({"version": 1, "operation": "create", "schedule": EVERY}),
    ScheduleChanged(
        {
            "version": 1,
            "operation": "dispatch",
            "id": "schedule-2",
            "acceptedAt": "2026-08-05T12:07:30.000Z",
        }
    ),
]


def test_a_true_checkpoint_holds_every_record_moved_on_by_its_latest_dispatch() -> None:
    folds, lines = folded(LOG)
    assert folds.schedule_sources == {"schedule-1": (1, None), "schedule-2": (2, 3)}
    assert folds.pending == [0]
    assert holds(folds, lines)


@pytest.mark.parametrize(
    "changed",
    [
        {"sources": {"schedule-1": (1, None)}},  # a record without its line
        {"sources": {"schedule-1": (0, None), "schedule-2": (2, 3)}},  # not a create
        {"sources": {"schedule-1": (1, 2), "schedule-2": (2, 3)}},  # a one-shot "dispatched"
        {"sources": {"schedule-1": (1, None), "schedule-2": (2, 1)}},  # a dispatch before it
        {"sources": {"schedule-1": (1, None), "schedule-2": (2, None)}},  # not moved on
        {"sources": {"schedule-1": (1, None), "schedule-2": (2, 9)}},  # beyond the checkpoint
        {"sources": {"schedule-1": (1, None), "schedule-2": (3, 3)}},  # the dispatch as create
    ],
    ids=["missing", "not-a-create", "one-shot", "order", "not-moved", "beyond", "same-line"],
)
def test_a_claim_the_named_lines_do_not_bear_out_does_not_hold(changed: dict[str, Any]) -> None:
    folds, lines = folded(LOG)
    assert not holds(folds, lines, **changed)


def test_a_dispatch_of_another_record_an_input_that_is_no_message_or_a_failed_fold_do_not_hold() -> (
    None
):
    other = [*LOG[:3], ScheduleChanged({**LOG[3].data, "id": "schedule-1"})]
    folds, lines = folded(LOG)
    assert not holds(folds, [*lines[:3], folded(other)[1][3]])
    folds.pending = [1]
    assert not holds(folds, lines)
    folds.pending = [0]
    folds.fail_schedule("broken")
    assert not holds(folds, lines)


def test_a_line_that_cannot_be_read_or_a_record_its_dispatch_ended_does_not_hold() -> None:
    folds, lines = folded(LOG)
    assert not holds(folds, [*lines[:2], b"{not json", lines[3]])
    late = {**EVERY, "scheduledAt": "9999-12-31T23:55:00.000Z"}
    ended = [
        ScheduleChanged({"version": 1, "operation": "create", "schedule": late}),
        ScheduleChanged(
            {
                "version": 1,
                "operation": "dispatch",
                "id": "schedule-2",
                "acceptedAt": "9999-12-31T23:56:00.000Z",
            }
        ),
    ]
    folds, lines = folded(ended[:1])
    _, ended_lines = folded(ended)
    claimed = {"schedule-2": (0, 1)}
    assert not holds(folds, ended_lines, sources=claimed, count=2)
