"""Fuzzing the tool argument layer (schedule.md §4.1, §4.2 stage A, §2.6): arbitrary JSON-like
arguments for the three tools and arbitrary tool names. Every outcome must be ToolArgumentError or
a §2.6 value with a code from the closed set; for known tools the argument verdict, the stage-A
code and the barrier/append counts must match an independent model of the spec."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleTools, ToolArgumentError
from tests.fakes import FakeClock, MemoryLog
from tests.survival.shapes import is_result_of
from tests.survival.strategies import JSON, NUMBERS, TEXT, mutate_from, optional_keys
from tests.survival.time_oracle import argument_error, stage_a_code, trim

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
TOOL_NAMES = ["schedule_create", "schedule_list", "schedule_delete"]

LOCAL = st.fixed_dictionaries(
    {"date": TEXT, "time": TEXT, "time_zone": TEXT},
    optional={"extra": JSON},
)
CREATE_ARGS = optional_keys(
    {
        "prompt": st.one_of(TEXT, JSON),
        "after_seconds": st.one_of(NUMBERS, JSON),
        "every_seconds": st.one_of(NUMBERS, JSON),
        "at": st.one_of(TEXT, LOCAL, JSON),
    }
)
DELETE_ARGS = optional_keys({"id": st.one_of(TEXT, st.sampled_from(["schedule-1", " x"]), JSON)})
ARGS = st.one_of(CREATE_ARGS, DELETE_ARGS, JSON)
NAMES = st.one_of(st.sampled_from(TOOL_NAMES), mutate_from(TOOL_NAMES), TEXT)


def _call(name: str, arguments: object) -> tuple[object, MemoryLog]:
    log = MemoryLog()
    tools = ScheduleTools(log, FakeClock(NOW))
    try:
        return asyncio.run(tools.call(name, arguments)), log
    except ToolArgumentError as error:
        return error, log


@FUZZ
@given(name=NAMES, arguments=ARGS)
def test_any_tool_call_ends_in_an_argument_error_or_a_closed_set_result(
    name: str, arguments: object
) -> None:
    outcome, log = _call(name, arguments)
    expected_error = argument_error(name, arguments)
    if isinstance(outcome, ToolArgumentError):
        assert str(outcome)
        assert expected_error is not False, f"§4.1 passes {arguments!r} but Chime refused it"
        assert (log.barriers, log.appended) == (0, [])
    else:
        assert expected_error is not True, f"§4.1 refuses {arguments!r} but Chime answered"
        assert is_result_of(name, outcome), outcome
        _assert_read_only_answer(name, arguments, outcome, log)


def _assert_read_only_answer(name: str, arguments: Any, outcome: object, log: MemoryLog) -> None:
    """On a fresh session list is [] (1 barrier) and delete is E15 (0) or not-found (1)."""
    if name == "schedule_list":
        assert (outcome, log.barriers) == ([], 1)
    elif name == "schedule_delete":
        rid = arguments["id"]
        if rid == "" or trim(rid) != rid:
            assert isinstance(outcome, dict)
            assert (outcome.get("code"), log.barriers) == ("invalid_rule", 0), (rid, outcome)
        else:
            expected = {"id": rid, "deleted": False, "code": "schedule_not_found"}
            assert (outcome, log.barriers) == (expected, 1)
    assert log.appended == [] or name == "schedule_create"


_MESSAGES: dict[str, str] = {}


def _remember(condition: str, message: str) -> None:
    """One constant message per §5 condition, distinct between conditions."""
    assert _MESSAGES.setdefault(condition, message) == message, condition
    owners = {c for c, m in _MESSAGES.items() if m == message}
    assert owners == {condition}, owners


@FUZZ
@given(arguments=CREATE_ARGS)
def test_create_stage_a_gives_the_first_failing_rule_with_no_barrier(
    arguments: dict[str, Any],
) -> None:
    if argument_error("schedule_create", arguments):
        return
    outcome, log = _call("schedule_create", arguments)
    expected = stage_a_code(arguments)
    if expected is None:
        assert log.barriers >= 1
        return
    code, condition = expected
    assert isinstance(outcome, dict)
    assert outcome.get("code") == code, (arguments, outcome)
    assert (log.barriers, log.appended) == (0, [])
    _remember(condition, outcome["message"])
