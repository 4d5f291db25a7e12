"""The three tools (§4), error conditions (§5), barriers (§11), cancellation (§11.3), queue (§12)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleTools, ToolArgumentError, fold_schedule
from core.schedule.messages import Rule
from core.schedule.records import CreateChange
from tests.core.schedule.fakes import change_event
from tests.fakes import FakeClock, MemoryLog

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
CODES = {
    "invalid_prompt",
    "invalid_selector",
    "invalid_rule",
    "invalid_time_zone",
    "not_future",
    "time_out_of_range",
    "frequency_too_high",
    "corrupt_schedule_log",
    "persistence_uncertain",
    "internal_error",
}


class Rig:
    """A log, a clock, the tools and a counter of recompute requests."""

    def __init__(
        self, log: MemoryLog | None = None, clock: Callable[[], Any] | None = None
    ) -> None:
        self.log = log if log is not None else MemoryLog()
        self.clock = clock if clock is not None else FakeClock(NOW)
        self.recomputes = 0
        self.tools = ScheduleTools(self.log, self.clock, on_change=self._recompute)

    def _recompute(self) -> None:
        self.recomputes += 1

    def call(self, name: str, arguments: Any, **kwargs: Any) -> Any:
        return asyncio.run(self.tools.call(name, arguments, **kwargs))

    def create(self, **arguments: Any) -> Any:
        return self.call("schedule_create", {"prompt": "p", **arguments})

    def counts(self) -> tuple[int, int]:
        return self.log.barriers, len(self.log.changes)


def code_of(value: Any) -> str:
    assert isinstance(value, dict)
    return str(value["code"])


# --- §4.1 generic argument layer ----------------------------------------------------------------

BAD_ARGUMENTS = [
    ("schedule_create", None),
    ("schedule_create", []),
    ("schedule_create", "prompt"),
    ("schedule_create", {}),
    ("schedule_create", {"prompt": 5, "after_seconds": 30}),
    ("schedule_create", {"prompt": None, "after_seconds": 30}),
    ("schedule_create", {"prompt": "p", "after_seconds": None}),
    ("schedule_create", {"prompt": "p", "after_seconds": "30"}),
    ("schedule_create", {"prompt": "p", "after_seconds": True}),
    ("schedule_create", {"prompt": "p", "after_seconds": -0.0}),
    ("schedule_create", {"prompt": "p", "after_seconds": float("nan")}),
    ("schedule_create", {"prompt": "p", "after_seconds": float("inf")}),
    ("schedule_create", {"prompt": "p", "after_seconds": [30]}),
    ("schedule_create", {"prompt": "p", "after_seconds": {"s": 30}}),
    ("schedule_create", {"prompt": "p", "every_seconds": None}),
    ("schedule_create", {"prompt": "p", "every_seconds": False}),
    ("schedule_create", {"prompt": "p", "every_seconds": -0.0}),
    ("schedule_create", {"prompt": "p", "every_seconds": float("-inf")}),
    ("schedule_create", {"prompt": "p", "at": None}),
    ("schedule_create", {"prompt": "p", "at": 5}),
    ("schedule_create", {"prompt": "p", "at": True}),
    ("schedule_create", {"prompt": "p", "at": ["2026-08-06T01:00:00Z"]}),
    ("schedule_create", {"prompt": "p", "at": {"date": "2026-08-06", "time": "09:00:00"}}),
    (
        "schedule_create",
        {
            "prompt": "p",
            "at": {"date": "2026-08-06", "time": "09:00:00", "time_zone": "UTC", "x": 1},
        },
    ),
    (
        "schedule_create",
        {"prompt": "p", "at": {"date": "2026-08-06", "time": 9, "time_zone": "UTC"}},
    ),
    ("schedule_list", None),
    ("schedule_list", ["x"]),
    ("schedule_delete", {}),
    ("schedule_delete", {"id": 1}),
    ("schedule_delete", {"id": None}),
    ("schedule_delete", "schedule-1"),
    ("schedule_update", {}),
]


@pytest.mark.parametrize(("name", "arguments"), BAD_ARGUMENTS)
def test_argument_shape_failures_raise_without_barrier_or_append(name: str, arguments: Any) -> None:
    rig = Rig()
    with pytest.raises(ToolArgumentError, match=r"\w"):
        rig.call(name, arguments)
    assert rig.counts() == (0, 0)
    assert rig.recomputes == 0


# --- stage A of create (§4.2, E1–E5) ------------------------------------------------------------

STAGE_A = [
    ({"prompt": "p"}, "invalid_selector"),
    ({"prompt": "p", "after_seconds": 1, "every_seconds": 300}, "invalid_selector"),
    ({"prompt": "p", "after_seconds": 1, "at": "x"}, "invalid_selector"),
    ({"prompt": " ", "after_seconds": 1, "at": "x"}, "invalid_selector"),
    ({"prompt": "p", "after_seconds": 1, "note": "x"}, "invalid_selector"),
    ({"prompt": " ", "at": "garbage"}, "invalid_prompt"),
    ({"prompt": "\u00a0\u3000\t\n", "after_seconds": 1}, "invalid_prompt"),
    ({"prompt": "", "after_seconds": 1}, "invalid_prompt"),
    ({"prompt": " ", "after_seconds": 0}, "invalid_prompt"),
    ({"prompt": "p", "after_seconds": 0}, "invalid_rule"),
    ({"prompt": "p", "after_seconds": -5}, "invalid_rule"),
    ({"prompt": "p", "after_seconds": 1.5}, "invalid_rule"),
    ({"prompt": "p", "after_seconds": 9007199254740992}, "invalid_rule"),
    ({"prompt": "p", "after_seconds": 1e20}, "invalid_rule"),
    ({"prompt": "p", "after_seconds": 100000000000000000000}, "invalid_rule"),
    ({"prompt": "p", "after_seconds": 10**400}, "invalid_rule"),
    ({"prompt": "p", "every_seconds": -(10**400)}, "invalid_rule"),
    ({"prompt": "p", "every_seconds": 1.5}, "invalid_rule"),
    ({"prompt": "p", "every_seconds": 299.5}, "invalid_rule"),
    ({"prompt": "p", "every_seconds": 300.5}, "invalid_rule"),
    ({"prompt": "p", "every_seconds": 9007199254740992}, "invalid_rule"),
    ({"prompt": "p", "every_seconds": 299}, "frequency_too_high"),
    ({"prompt": "p", "every_seconds": 0}, "frequency_too_high"),
    ({"prompt": "p", "every_seconds": -600}, "frequency_too_high"),
]


@pytest.mark.parametrize(("arguments", "code"), STAGE_A)
def test_stage_a_errors_need_no_barrier(arguments: dict[str, Any], code: str) -> None:
    rig = Rig()
    value = rig.call("schedule_create", arguments)
    assert list(value) == ["code", "message"]
    assert value["code"] == code
    assert rig.counts() == (0, 0)
    assert rig.recomputes == 0


# --- §4.5 numbers and §4.6 prompts --------------------------------------------------------------


@pytest.mark.parametrize("seconds", [30, 30.0, float("3e1")])
def test_after_seconds_accepts_integral_numbers_and_stores_an_int(seconds: float) -> None:
    rig = Rig()
    value = rig.create(after_seconds=seconds)
    assert json.dumps(value["afterSeconds"]) == "30"
    assert value["scheduledAt"] == "2026-08-05T12:00:30.000Z"
    assert json.dumps(rig.log.changes[0]["schedule"]["afterSeconds"]) == "30"


@pytest.mark.parametrize(
    ("arguments", "outcome"),
    [
        ({"after_seconds": 9007199254740991}, "time_out_of_range"),
        ({"after_seconds": 251616369599}, "9999-12-31T23:59:59.000Z"),
        ({"after_seconds": 251616369600}, "time_out_of_range"),
        ({"every_seconds": 9007199254740991}, "time_out_of_range"),
        ({"every_seconds": 251616369599}, "9999-12-31T23:59:59.000Z"),
        ({"every_seconds": 251616369600}, "time_out_of_range"),
        ({"every_seconds": 300}, "2026-08-05T12:05:00.000Z"),
        ({"every_seconds": 600.0}, "2026-08-05T12:10:00.000Z"),
    ],
)
def test_large_numbers_are_limited_only_by_the_year_9999(
    arguments: dict[str, Any], outcome: str
) -> None:
    rig = Rig()
    value = rig.create(**arguments)
    if outcome == "time_out_of_range":
        assert code_of(value) == outcome
        assert rig.counts() == (1, 0)
    else:
        assert value["scheduledAt"] == outcome
        assert rig.counts() == (2, 1)


@pytest.mark.parametrize(
    ("prompt", "stored"),
    [
        ("\ufeffhello\ufeff", "hello"),
        ("\u001f", "\u001f"),
        ("\u0085x\u0085", "\u0085x\u0085"),
        ("  line one\n\n  line two\t ", "line one\n\n  line two"),
        ("x" * 20000, "x" * 20000),
        ('😀 \u2028 "q" \\', '😀 \u2028 "q" \\'),
    ],
)
def test_prompts_are_stored_trimmed_with_interior_content_verbatim(
    prompt: str, stored: str
) -> None:
    rig = Rig()
    assert rig.call("schedule_create", {"prompt": prompt, "after_seconds": 60})["prompt"] == stored
    assert rig.log.changes[0]["schedule"]["prompt"] == stored


# --- successful operations ----------------------------------------------------------------------


def test_a_successful_create_awaits_two_barriers_and_requests_two_recomputes() -> None:
    rig = Rig()
    value = rig.create(after_seconds=30)
    assert value == {
        "id": "schedule-1",
        "kind": "after",
        "prompt": "p",
        "afterSeconds": 30,
        "scheduledAt": "2026-08-05T12:00:30.000Z",
        "state": "scheduled",
        "deliveryMode": "session-local",
    }
    assert rig.counts() == (2, 1)
    assert rig.recomputes == 2
    assert rig.log.changes[0] == CreateChange(fold_schedule(rig.log.events).active[0]).to_json()
    assert isinstance(rig.clock, FakeClock)
    assert rig.clock.calls == 2


def test_local_at_objects_store_no_trace_of_the_zone() -> None:
    rig = Rig()
    local = {"date": "2026-08-06", "time": "09:00:00", "time_zone": "Asia/Shanghai"}
    value = rig.create(at=local)
    assert value["scheduledAt"] == "2026-08-06T01:00:00.000Z"
    assert list(rig.log.changes[0]["schedule"]) == ["id", "kind", "prompt", "scheduledAt"]


def test_the_returned_state_uses_a_second_clock_sample() -> None:
    samples = iter([NOW, NOW + timedelta(seconds=5)])
    rig = Rig(clock=lambda: next(samples))
    assert rig.create(after_seconds=1)["state"] == "overdue"


def test_list_returns_views_in_creation_order_from_one_sample() -> None:
    rig = Rig()
    rig.create(after_seconds=60)
    rig.create(every_seconds=300)
    rig.log.barriers, rig.recomputes = 0, 0
    assert isinstance(rig.clock, FakeClock)
    rig.clock.advance(61)
    calls = rig.clock.calls
    views = rig.call("schedule_list", {"ignored": [1]})
    assert [(v["id"], v["state"]) for v in views] == [
        ("schedule-1", "overdue"),
        ("schedule-2", "scheduled"),
    ]
    assert rig.clock.calls == calls + 1
    assert rig.counts() == (1, 2)
    assert rig.recomputes == 1


def test_list_of_an_empty_session_is_an_empty_array() -> None:
    rig = Rig()
    assert rig.call("schedule_list", {}) == []
    assert rig.counts() == (1, 0)


def test_delete_removes_an_active_record_with_two_barriers() -> None:
    rig = Rig()
    rig.create(after_seconds=60)
    assert isinstance(rig.clock, FakeClock)
    calls = rig.clock.calls
    value = rig.call("schedule_delete", {"id": "schedule-1", "extra": True})
    assert value == {"id": "schedule-1", "deleted": True}
    assert list(value) == ["id", "deleted"]
    assert rig.log.changes[-1] == {"version": 1, "operation": "delete", "id": "schedule-1"}
    assert rig.counts() == (4, 2)
    assert rig.recomputes == 4
    assert rig.clock.calls == calls
    assert rig.call("schedule_list", {}) == []


@pytest.mark.parametrize("schedule_id", ["schedule-2", "Schedule-1", "schedule 1", "schedule-1x"])
def test_delete_of_an_id_that_is_not_active_is_not_found(schedule_id: str) -> None:
    rig = Rig()
    rig.create(after_seconds=60)
    value = rig.call("schedule_delete", {"id": schedule_id})
    assert value == {"id": schedule_id, "deleted": False, "code": "schedule_not_found"}
    assert rig.counts() == (3, 1)
    assert rig.recomputes == 3


def test_delete_of_a_deleted_record_is_not_found() -> None:
    rig = Rig()
    rig.create(after_seconds=60)
    rig.call("schedule_delete", {"id": "schedule-1"})
    assert rig.call("schedule_delete", {"id": "schedule-1"})["deleted"] is False


@pytest.mark.parametrize("schedule_id", ["", " schedule-1", "schedule-1\n", "\ufeffschedule-1"])
def test_delete_of_an_empty_or_padded_id_is_e15_without_barrier(schedule_id: str) -> None:
    rig = Rig()
    value = rig.call("schedule_delete", {"id": schedule_id})
    assert value == Rule.E15.value_json()
    assert rig.counts() == (0, 0)


# --- stage B errors (E6–E14, E16, E18) ----------------------------------------------------------

STAGE_B = [
    ({"at": "2026-08-06 09:00:00Z"}, Rule.E6),
    ({"at": "2026-02-30T09:00:00Z"}, Rule.E7),
    ({"at": "2026-08-06T09:00:00-00:00"}, Rule.E8),
    ({"at": {"date": "2026-8-06", "time": "09:00:00", "time_zone": "UTC"}}, Rule.E9),
    ({"at": {"date": "2026-08-06", "time": "24:00:00", "time_zone": "UTC"}}, Rule.E10),
    ({"at": {"date": "2026-03-08", "time": "02:30:00", "time_zone": "America/New_York"}}, Rule.E11),
    ({"at": {"date": "2026-08-06", "time": "09:00:00", "time_zone": "EST"}}, Rule.E12),
    ({"at": "2026-08-05T12:00:00Z"}, Rule.E13),
    ({"at": "2026-08-05T11:59:59.999Z"}, Rule.E13),
    ({"at": "0001-01-01T00:00:00+00:01"}, Rule.E14),
    ({"at": {"date": "9999-12-31", "time": "19:00:00", "time_zone": "America/New_York"}}, Rule.E14),
]


@pytest.mark.parametrize(("arguments", "rule"), STAGE_B)
def test_input_errors_found_in_the_queue_cost_one_barrier_and_no_id(
    arguments: dict[str, Any], rule: Rule
) -> None:
    rig = Rig()
    assert rig.create(**arguments) == rule.value_json()
    assert rig.counts() == (1, 0)
    assert rig.recomputes == 1
    assert rig.create(after_seconds=60)["id"] == "schedule-1"


def test_a_past_wall_time_in_a_gap_is_a_gap_not_a_past_time() -> None:
    rig = Rig()
    value = rig.create(at={"date": "2011-12-30", "time": "12:00:00", "time_zone": "Pacific/Apia"})
    assert value == Rule.E11.value_json()


CORRUPT = change_event({"version": 2, "operation": "delete", "id": "x"})


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("schedule_create", {"prompt": "p", "after_seconds": 60}),
        ("schedule_list", {}),
        ("schedule_delete", {"id": "x"}),
    ],
)
def test_a_corrupt_log_is_reported_after_one_barrier(name: str, arguments: dict[str, Any]) -> None:
    rig = Rig(MemoryLog([CORRUPT]))
    assert rig.call(name, arguments) == Rule.E16.value_json()
    assert rig.counts() == (1, 0)


def test_a_corrupt_log_behind_a_failed_barrier_is_persistence_uncertain() -> None:
    log = MemoryLog([CORRUPT])
    log.default_outcome = False
    assert code_of(Rig(log).call("schedule_list", {})) == "persistence_uncertain"


def test_a_fork_whose_seed_covers_the_bad_event_is_unaffected() -> None:
    rig = Rig(MemoryLog([CORRUPT], seed_length=1))
    assert rig.create(after_seconds=60)["id"] == "schedule-1"


def test_reading_a_broken_log_is_an_internal_error() -> None:
    class BrokenLog(MemoryLog):
        broken = False  # the disk goes away after the tools were set up

        @property
        def events(self) -> Any:
            if self.broken:
                raise OSError("disk gone")
            return super().events

        def schedule_fold(self) -> Any:
            if self.broken:
                raise OSError("disk gone")
            return super().schedule_fold()

    log = BrokenLog()
    rig = Rig(log)
    log.broken = True
    assert rig.call("schedule_list", {}) == Rule.E18.value_json()
    assert rig.counts() == (1, 0)


def test_the_logs_incremental_fold_is_used_when_offered() -> None:
    class IncrementalLog(MemoryLog):
        def schedule_fold(self) -> Any:
            events = [change_event(e["data"]) for e in self.events]
            return fold_schedule([*events, change_event(at_create("cached"))])

    rig = Rig(IncrementalLog())
    assert [v["id"] for v in rig.call("schedule_list", {})] == ["cached"]


def at_create(sid: str) -> dict[str, Any]:
    record = {"id": sid, "kind": "at", "prompt": "p", "scheduledAt": "2026-08-05T13:00:00.000Z"}
    return {"version": 1, "operation": "create", "schedule": record}


def _raising_clock() -> datetime:
    raise RuntimeError("clock broke")


@pytest.mark.parametrize(
    "clock",
    [
        _raising_clock,
        lambda: datetime(2026, 8, 5, 12),  # noqa: DTZ001 - a naive sample is a clock failure
        lambda: "2026-08-05T12:00:00.000Z",
    ],
)
def test_a_clock_failure_before_the_append_is_an_internal_error(clock: Callable[[], Any]) -> None:
    rig = Rig(clock=clock)
    assert rig.create(after_seconds=60) == Rule.E18.value_json()
    assert rig.counts() == (1, 0)
    assert rig.call("schedule_list", {}) == Rule.E18.value_json()


def test_a_clock_failure_after_the_append_keeps_the_create() -> None:
    samples: Iterator[datetime] = iter([NOW])
    rig = Rig(clock=lambda: next(samples))
    assert rig.create(after_seconds=60) == Rule.E18.value_json()
    assert rig.counts() == (2, 1)


def test_an_unexpected_failure_while_building_is_an_internal_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def explode(*_: object) -> Any:
        raise RuntimeError("tz database unreadable")

    monkeypatch.setattr("core.schedule.tools.build_record", explode)
    rig = Rig()
    assert rig.create(after_seconds=60) == Rule.E18.value_json()
    assert rig.counts() == (1, 0)


@pytest.mark.parametrize(
    ("name", "arguments", "barriers"),
    [
        ("schedule_create", {"prompt": "p", "after_seconds": 60}, 1),
        ("schedule_delete", {"id": "schedule-1"}, 3),
    ],
)
def test_a_refused_append_is_an_internal_error_and_consumes_no_id(
    name: str, arguments: dict[str, Any], barriers: int
) -> None:
    rig = Rig()
    if name == "schedule_delete":
        rig.create(after_seconds=60)
    rig.log.refuse_appends = True
    assert rig.call(name, arguments) == Rule.E18.value_json()
    assert rig.log.barriers == barriers
    rig.log.refuse_appends = False
    created = rig.create(after_seconds=60)
    assert created["id"] == ("schedule-1" if name == "schedule_create" else "schedule-2")


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("schedule_create", {"prompt": "p", "after_seconds": 60}),
        ("schedule_list", {}),
        ("schedule_delete", {"id": "schedule-1"}),
        ("schedule_delete", {"id": " padded"}),
    ],
)
def test_a_call_for_another_agent_is_an_internal_error_without_barrier(
    name: str, arguments: dict[str, Any]
) -> None:
    rig = Rig()
    value = rig.call(name, arguments, root_agent=False)
    expected = Rule.E15 if arguments.get("id") == " padded" else Rule.E18
    assert value == expected.value_json()
    assert rig.counts() == (0, 0)


# --- barriers and persistence (§11) -------------------------------------------------------------

FAILURES: list[bool | BaseException] = [False, OSError("disk full")]


@pytest.mark.parametrize("failure", FAILURES)
@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("schedule_create", {"prompt": "p", "after_seconds": 60}, {"operation": "create"}),
        ("schedule_list", {}, {"operation": "list"}),
        ("schedule_delete", {"id": "nope"}, {"operation": "delete", "id": "nope"}),
    ],
)
def test_a_failed_first_barrier_reports_persistence_uncertain(
    name: str, arguments: dict[str, Any], expected: dict[str, str], failure: bool | BaseException
) -> None:
    rig = Rig()
    rig.log.outcomes = [failure]
    value = rig.call(name, arguments)
    assert value == {**Rule.E17.value_json(), **expected}
    assert rig.counts() == (1, 0)
    assert rig.recomputes == 0


@pytest.mark.parametrize("outcome", [None, 1, "yes"])
def test_only_a_flush_returning_true_is_a_successful_barrier(outcome: Any) -> None:
    rig = Rig()
    rig.log.outcomes = [outcome]
    assert code_of(rig.call("schedule_list", {})) == "persistence_uncertain"


def test_a_failed_second_barrier_keeps_the_create_and_consumes_its_id() -> None:
    rig = Rig()
    rig.log.outcomes = [True, False]
    value = rig.create(after_seconds=60)
    assert value == {**Rule.E17.value_json(), "operation": "create", "id": "schedule-1"}
    assert rig.counts() == (2, 1)
    assert rig.recomputes == 1
    assert [v["id"] for v in rig.call("schedule_list", {})] == ["schedule-1"]
    assert rig.create(after_seconds=60)["id"] == "schedule-2"


def test_a_failed_second_barrier_keeps_the_delete() -> None:
    rig = Rig()
    rig.create(after_seconds=60)
    rig.log.outcomes = [True, OSError("gone")]
    value = rig.call("schedule_delete", {"id": "schedule-1"})
    assert value == {**Rule.E17.value_json(), "operation": "delete", "id": "schedule-1"}
    assert rig.call("schedule_list", {}) == []


def test_a_session_without_storage_never_reports_success() -> None:
    rig = Rig()
    rig.log.default_outcome = False
    for name, arguments in (
        ("schedule_create", {"prompt": "p", "after_seconds": 60}),
        ("schedule_list", {}),
        ("schedule_delete", {"id": "schedule-1"}),
    ):
        assert code_of(rig.call(name, arguments)) == "persistence_uncertain"
    assert rig.counts() == (3, 0)


def test_a_failing_recompute_callback_is_logged_and_never_changes_a_result(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> None:
        raise RuntimeError("owner gone")

    tools = ScheduleTools(MemoryLog(), FakeClock(NOW), on_change=broken)
    with caplog.at_level(logging.ERROR, logger="core.schedule.tools"):
        value = asyncio.run(tools.call("schedule_create", {"prompt": "p", "after_seconds": 60}))
    assert isinstance(value, dict)
    assert value["id"] == "schedule-1"
    assert sum("recompute" in r.getMessage() for r in caplog.records) == 2


def test_tools_work_without_a_recompute_callback() -> None:
    tools = ScheduleTools(MemoryLog(), FakeClock(NOW))
    assert asyncio.run(tools.call("schedule_list", {})) == []


# --- the queue (§12) and cancellation (§11.3) ---------------------------------------------------


def test_a_create_with_a_held_barrier_blocks_a_later_list() -> None:
    async def scenario() -> tuple[Any, Any, int, int]:
        log = MemoryLog()
        log.gate = asyncio.Event()
        log.outcomes = [True, False, True]
        tools = ScheduleTools(log, FakeClock(NOW))
        create = asyncio.create_task(
            tools.call("schedule_create", {"prompt": "p", "after_seconds": 60})
        )
        await asyncio.sleep(0)
        listing = asyncio.create_task(tools.call("schedule_list", {}))
        for _ in range(5):
            await asyncio.sleep(0)
        barriers_while_held = log.barriers
        log.gate.set()
        return await create, await listing, barriers_while_held, log.barriers

    created, listed, held, total = asyncio.run(scenario())
    assert held == 1
    assert code_of(created) == "persistence_uncertain"
    assert [v["id"] for v in listed] == ["schedule-1"]
    assert total == 3


def test_a_call_cancelled_while_queued_leaves_without_a_barrier() -> None:
    async def scenario() -> tuple[bool, Any, int]:
        log = MemoryLog()
        log.gate = asyncio.Event()
        tools = ScheduleTools(log, FakeClock(NOW))
        first = asyncio.create_task(tools.call("schedule_list", {}))
        await asyncio.sleep(0)
        queued = asyncio.create_task(
            tools.call("schedule_create", {"prompt": "p", "after_seconds": 9})
        )
        later = asyncio.create_task(
            tools.call("schedule_create", {"prompt": "q", "after_seconds": 9})
        )
        await asyncio.sleep(0)
        queued.cancel()
        log.gate.set()
        await first
        with pytest.raises(asyncio.CancelledError):
            await queued
        return queued.cancelled(), await later, log.barriers

    cancelled, later, barriers = asyncio.run(scenario())
    assert cancelled
    assert later["prompt"] == "q"
    assert later["id"] == "schedule-1"
    assert barriers == 3


def _run_cancelled_during(
    barrier: int, name: str, arguments: dict[str, Any], log: MemoryLog
) -> None:
    async def scenario() -> None:
        tools = ScheduleTools(log, FakeClock(NOW))
        log.gate = asyncio.Event()
        task = asyncio.create_task(tools.call(name, arguments))
        while log.barriers < barrier:
            if log.barriers == barrier - 1 and barrier == 2:
                log.gate.set()
                log.gate = asyncio.Event()
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())


def test_cancellation_during_the_first_barrier_appends_nothing() -> None:
    log = MemoryLog()
    _run_cancelled_during(1, "schedule_create", {"prompt": "p", "after_seconds": 60}, log)
    assert (log.barriers, log.changes) == (1, [])


def test_cancellation_during_the_second_barrier_keeps_the_change() -> None:
    log = MemoryLog()
    _run_cancelled_during(2, "schedule_create", {"prompt": "p", "after_seconds": 60}, log)
    assert log.barriers == 2
    assert [c["operation"] for c in log.changes] == ["create"]


class _CancellingArguments(dict[str, Any]):
    """Arguments whose inspection requests cancellation of the calling task (a cancellation that
    arrives while the call runs, before its turn in the queue)."""

    def __contains__(self, key: object) -> bool:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        return super().__contains__(key)


def test_a_cancellation_requested_before_the_turn_stops_before_any_barrier() -> None:
    log = MemoryLog()
    tools = ScheduleTools(log, FakeClock(NOW))
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(tools.call("schedule_delete", _CancellingArguments(id="schedule-1")))
    assert log.barriers == 0


def test_a_cancellation_requested_before_the_call_is_delivered_at_its_first_suspension() -> None:
    class SlowLog(MemoryLog):
        async def flush(self) -> bool:
            self.barriers += 1
            await asyncio.sleep(0)
            return True

    log = SlowLog()

    async def scenario() -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        await ScheduleTools(log, FakeClock(NOW)).call(
            "schedule_create", {"prompt": "p", "after_seconds": 9}
        )

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(scenario())
    assert (log.barriers, log.changes) == (1, [])


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("schedule_create", {"prompt": "p", "after_seconds": 60}),
        ("schedule_delete", {"id": "schedule-1"}),
    ],
)
def test_a_cancellation_delivered_before_the_append_appends_nothing(
    name: str, arguments: dict[str, Any]
) -> None:
    log = MemoryLog([change_event(at_create("schedule-1"))])

    def cancel_me() -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()

    tools = ScheduleTools(log, FakeClock(NOW), on_change=cancel_me)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(tools.call(name, arguments))
    assert (log.barriers, log.changes) == (1, [])


def test_the_queue_reports_whether_a_turn_runs() -> None:
    async def scenario() -> tuple[bool, bool]:
        tools = ScheduleTools(MemoryLog(), FakeClock(NOW))
        async with tools.queue.turn():
            inside = tools.queue.busy
        return inside, tools.queue.busy

    assert asyncio.run(scenario()) == (True, False)


# --- messages and definitions -------------------------------------------------------------------


def test_every_condition_has_its_own_constant_sentence_and_a_closed_code() -> None:
    messages = [rule.message for rule in Rule]
    assert len(set(messages)) == len(messages) == 18
    assert {rule.code for rule in Rule} == CODES
    assert all(m.endswith(".") and "{" not in m for m in messages)


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def test_definitions_declare_only_the_spec_types() -> None:
    definitions = ScheduleTools(MemoryLog(), FakeClock(NOW)).definitions()
    assert [d["function"]["name"] for d in definitions] == [
        "schedule_create",
        "schedule_list",
        "schedule_delete",
    ]
    assert all(d["type"] == "function" for d in definitions)
    create, listing, delete = (d["function"]["parameters"] for d in definitions)
    assert create["required"] == ["prompt"]
    assert create["properties"]["after_seconds"]["type"] == "number"
    assert create["properties"]["every_seconds"]["type"] == "number"
    string, local = create["properties"]["at"]["anyOf"]
    assert string == {"type": "string"}
    assert local["additionalProperties"] is False
    assert local["required"] == ["date", "time", "time_zone"]
    assert delete["required"] == ["id"]
    assert "required" not in listing
    for schema in (create, listing, delete):
        assert schema["type"] == "object"
        assert schema.get("additionalProperties", True) is not False
        keys = {key for key, _ in _walk(schema)}
        assert not keys & {"minimum", "maximum", "minLength", "pattern", "$ref", "$defs"}
        assert "integer" not in json.dumps(schema)


def test_descriptions_tell_the_model_the_rules() -> None:
    texts = {
        d["function"]["name"]: d["function"]["description"]
        for d in ScheduleTools(MemoryLog(), FakeClock(NOW)).definitions()
    }
    for word in ("prompt", "after_seconds", "at", "every_seconds", "300", "session", "time_zone"):
        assert word in texts["schedule_create"]
    assert "creation order" in texts["schedule_list"]
    assert "deleted: false" in texts["schedule_delete"]


def test_a_cancellation_the_caller_caught_earlier_does_not_stop_later_calls() -> None:
    async def scenario() -> Any:
        tools = ScheduleTools(MemoryLog(), FakeClock(NOW))
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):  # caught, never uncancelled
            await asyncio.sleep(0)
        return await tools.call("schedule_create", {"prompt": "p", "after_seconds": 60})

    assert asyncio.run(scenario())["id"] == "schedule-1"


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60) | st.just(10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.sampled_from('0123456789-:TZ." \\\u2028\u0085\ufeff😀'), max_size=12),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
ROOT_KEYS = st.sampled_from(["prompt", "after_seconds", "every_seconds", "at", "id", "x"])


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["schedule_create", "schedule_list", "schedule_delete"]),
    st.dictionaries(ROOT_KEYS, JSON_VALUES, max_size=4),
)
def test_any_json_arguments_give_an_argument_error_or_a_spec_shaped_value(
    name: str, arguments: dict[str, Any]
) -> None:
    rig = Rig()
    try:
        value = rig.call(name, arguments)
    except ToolArgumentError:
        assert rig.counts() == (0, 0)
        return
    if isinstance(value, list) or "deleted" in value or "kind" in value:
        assert rig.log.barriers >= 1
    else:
        assert value["code"] in CODES
        assert value["message"]
    assert len(rig.log.changes) <= 1


# §11.2 with the shared MemoryLog: (setup creates, call, outcomes, append refused) -> (barriers, appends)
BARRIER_TABLE = [
    ("create ok", 0, ("schedule_create", {"prompt": "p", "after_seconds": 60}), [], False, (2, 1), "kind"),
    ("create #1 fails", 0, ("schedule_create", {"prompt": "p", "after_seconds": 60}), [False], False, (1, 0), "persistence_uncertain"),
    ("create #2 fails", 0, ("schedule_create", {"prompt": "p", "after_seconds": 60}), [True, False], False, (2, 1), "persistence_uncertain"),
    ("create input error", 0, ("schedule_create", {"prompt": "p", "at": "2020-01-01T00:00:00Z"}), [], False, (1, 0), "not_future"),
    ("create append refused", 0, ("schedule_create", {"prompt": "p", "after_seconds": 60}), [], True, (1, 0), "internal_error"),
    ("create stage A", 0, ("schedule_create", {"prompt": "p", "after_seconds": 0}), [], False, (0, 0), "invalid_rule"),
    ("list ok", 1, ("schedule_list", {}), [], False, (1, 0), None),
    ("list #1 fails", 1, ("schedule_list", {}), [RuntimeError("io")], False, (1, 0), "persistence_uncertain"),
    ("delete ok", 1, ("schedule_delete", {"id": "schedule-1"}), [], False, (2, 1), "deleted"),
    ("delete #1 fails", 1, ("schedule_delete", {"id": "schedule-1"}), [False], False, (1, 0), "persistence_uncertain"),
    ("delete #2 fails", 1, ("schedule_delete", {"id": "schedule-1"}), [True, False], False, (2, 1), "persistence_uncertain"),
    ("delete not found", 1, ("schedule_delete", {"id": "schedule-7"}), [], False, (1, 0), "deleted"),
    ("delete append refused", 1, ("schedule_delete", {"id": "schedule-1"}), [], True, (1, 0), "internal_error"),
    ("delete stage A", 1, ("schedule_delete", {"id": ""}), [], False, (0, 0), "invalid_rule"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("creates", "call", "outcomes", "refuse", "counts", "marker"),
    [pytest.param(*row[1:], id=row[0]) for row in BARRIER_TABLE],
)
def test_barrier_and_append_counts_follow_the_table(
    creates: int,
    call: tuple[str, dict[str, Any]],
    outcomes: list[bool | BaseException],
    refuse: bool,
    counts: tuple[int, int],
    marker: str | None,
) -> None:
    log = MemoryLog()
    tools = ScheduleTools(log, FakeClock(NOW))
    for _ in range(creates):
        asyncio.run(tools.call("schedule_create", {"prompt": "p", "after_seconds": 60}))
    before = (log.barriers, len(log.changes))
    log.outcomes = list(outcomes)
    log.refuse_appends = refuse
    value = asyncio.run(tools.call(*call))
    assert (log.barriers - before[0], len(log.changes) - before[1]) == counts
    if marker is None:
        assert isinstance(value, list)
    elif isinstance(value, dict) and "code" in value and marker in CODES:
        assert value["code"] == marker
    else:
        assert isinstance(value, dict)
        assert marker in value
