"""Random schedules, clock moves and triggers through a whole SessionHost: reminders are never
admitted early or twice, each admission is one group, and nothing due is left behind."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import Entry, ScheduleChanged
from core.instant import datetime_to_ms, parse_instant_ms
from core.schedule import fold_schedule
from tests import wire as v
from tests.core.agent.fakes import Reply
from tests.core.test_host import HostRig, scripted

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("after"), st.integers(1, 900)),
        st.tuples(st.just("every"), st.integers(300, 900)),
        st.tuples(st.just("delete"), st.integers(1, 6)),
        st.tuples(st.just("advance"), st.integers(-600, 3600)),
        st.tuples(st.just("fire"), st.just(0)),
        st.tuples(st.just("activate"), st.just(0)),
        st.tuples(st.just("user"), st.just(0)),
    ),
    max_size=14,
)


async def apply(rig: HostRig, op: str, value: int) -> None:
    tools = rig.host.tools
    if op == "after":
        await tools.call("schedule_create", {"prompt": f"after {value}", "after_seconds": value})
    elif op == "every":
        await tools.call("schedule_create", {"prompt": f"every {value}", "every_seconds": value})
    elif op == "delete":
        await tools.call("schedule_delete", {"id": f"schedule-{value}"})
    elif op == "advance":
        rig.clock.advance(timedelta(seconds=value))
    elif op == "fire" and rig.waker.armed is not None:
        rig.clock.set(max(rig.clock(), rig.waker.armed))
        rig.waker.fire()
    elif op == "activate":
        rig.host.request_drive()
    elif op == "user":
        rig.host.submit("hello")
    await rig.idle()


@settings(max_examples=25, deadline=None)
@given(OPS)
def test_reminders_are_admitted_once_never_early_and_none_is_left_behind(ops: list[Any]) -> None:
    admitted_at: dict[int, int] = {}

    async def main() -> HostRig:
        rig = HostRig(scripted())
        rig.provider.default = Reply("noted")  # type: ignore[attr-defined]  # a ScriptedModel

        def record(entry: Entry) -> None:
            event = entry.event
            if isinstance(event, ScheduleChanged) and event.data["operation"] == "dispatch":
                admitted_at[entry.seq] = datetime_to_ms(rig.clock())

        rig.log.subscribe(record)
        rig.host.start()
        for op, value in ops:
            await apply(rig, op, value)
        rig.host.request_drive()
        await rig.idle()
        return rig

    rig = asyncio.run(main())
    targets: dict[str, int] = {}
    for event in rig.log.events:
        data = event["data"]
        if event["type"] != v.SCHEDULE_CHANGE:
            continue
        if data["operation"] == "create":
            targets[data["schedule"]["id"]] = parse_instant_ms(data["schedule"]["scheduledAt"])
        elif data["operation"] == "dispatch":
            assert admitted_at[event["seq"]] >= targets[data["id"]]  # never early
            if "acceptedAt" in data:
                every = fold_schedule(rig.log.events[: event["seq"] + 1])
                nxt = next((r for r in every.active if r.id == data["id"]), None)
                targets[data["id"]] = parse_instant_ms(nxt.scheduled_at) if nxt else 2**62
            else:
                targets[data["id"]] = 2**62  # a one-shot is dispatched at most once
    dispatch_seqs = set(admitted_at)
    grouped = {e.seq for g in rig.log.groups for e in g[1:]}
    assert dispatch_seqs == grouped  # every dispatch travelled in a group with its message
    now = datetime_to_ms(rig.clock())
    left = [r for r in fold_schedule(rig.log.events).active if r.scheduled_ms <= now]
    assert left == []  # nothing due is left behind once the agent is idle
    reminders = [
        e["seq"]
        for e in rig.log.events
        if e["type"] == v.USER_MESSAGE and e["data"]["source"]["kind"] == "plugin"
    ]
    answered = {t["input"] for t in rig.log.of_type(v.TURN_START)}
    assert set(reminders) <= answered
