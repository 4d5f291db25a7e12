"""Runs every public conformance case (tests/data/conformance/public-cases.json) against the public API.

One parametrized test per area, the case id as the test id. Values are compared as exact JSON
(key order, 30 not 30.0, true not 1); a "<any non-empty ...>" message matches any non-empty string.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from datetime import datetime
from typing import Any

import pytest

from core.instant import ms_to_datetime, parse_instant_ms
from core.schedule import (
    ScheduleLogError,
    ScheduleTools,
    ToolArgumentError,
    fold_schedule,
    plan_delivery,
)
from core.schedule.delivery import FOLLOWUP_SOURCE, timer_delay_ms
from tests.conftest import CONFORMANCE
from tests.core.schedule.fakes import same_json
from tests.fakes import FakeClock, MemoryLog, PlainLog

CASES: list[dict[str, Any]] = json.loads(
    (CONFORMANCE / "public-cases.json").read_text(encoding="utf-8")
)
BY_AREA: dict[str, list[dict[str, Any]]] = defaultdict(list)
for _case in CASES:
    BY_AREA[_case["area"]].append(_case)


def _instant(text: str) -> datetime:
    return ms_to_datetime(parse_instant_ms(text))


def _params(area: str) -> list[Any]:
    return [pytest.param(case, id=case["id"]) for case in BY_AREA[area]]


def _assert_json(actual: Any, expected: Any) -> None:
    assert same_json(actual, expected), f"{json.dumps(actual)}\n!=\n{json.dumps(expected)}"


LOGS = ["incremental", "plain"]
"""Each tool case runs twice: on the one fake log, whose own incremental fold the tools use (as
they use the on-disk session's), and on a plain api.md SessionLog view of it, whose events they
fold with ``fold_schedule`` (as they fold an embedder's log)."""


class Session:
    """A fresh session for one case: the fake log (or its plain view), fake clock, tools."""

    def __init__(self, case: dict[str, Any], kind: str = "incremental") -> None:
        self.case = case
        self.kind = kind
        self.clock = FakeClock(_instant(case["now"] or "2026-08-05T12:00:00.000Z"))
        self.log = MemoryLog(clock=self.clock)
        self.tools = ScheduleTools(self._facing(), self.clock)

    def _facing(self) -> MemoryLog | PlainLog:
        return self.log if self.kind == "incremental" else PlainLog(self.log)

    def call(self, name: str, arguments: Any, outcomes: list[str] | None = None) -> Any:
        self.log.outcomes = [o == "ok" for o in outcomes or []]
        return asyncio.run(self.tools.call(name, arguments))

    def apply_setup(self) -> None:
        for step in self.case["setup"]:
            if "fork_seed" in step:  # always the first step: the session starts as that fork
                events = step["fork_seed"]["events"]
                self.log = MemoryLog(events, seed_length=len(events), clock=self.clock)
                self.tools = ScheduleTools(self._facing(), self.clock)
            elif "session_header" in step:
                seed = step["session_header"]["seedLength"]
                events = list(self.log.events)
                self.log = MemoryLog(events, seed_length=seed, clock=self.clock)
                self.tools = ScheduleTools(self._facing(), self.clock)
            elif "event" in step:
                self.log.inject(step["event"]["type"], step["event"]["data"])
            else:
                self.clock.set(_instant(step.get("now") or self.case["now"]))
                tool = step["tool"]
                result = self.call(tool["name"], tool["arguments"], step.get("barriers"))
                _assert_json(result, step["result"])

    def run_tool_input(self) -> None:
        case, expect = self.case, self.case["expect"]
        self.clock.set(_instant(case["now"]))
        barriers_before, appended_before = self.log.barriers, len(self.log.changes)
        outcomes = case.get("barrier_outcomes")
        if case.get("persistence_listener") is False:
            self.log.default_outcome = False
        self.log.refuse_appends = bool(case.get("append_fails"))
        tool = case["input"]
        if expect.get("argument_error"):
            with pytest.raises(ToolArgumentError):
                self.call(tool["name"], tool["arguments"], outcomes)
        else:
            _assert_json(self.call(tool["name"], tool["arguments"], outcomes), expect["value"])
        assert self.log.barriers - barriers_before == expect["barriers"]
        _assert_json(self.log.changes[appended_before:], expect["appended"])
        if "then_list" in expect:
            self.log.default_outcome, self.log.refuse_appends = True, False
            _assert_json(self.call("schedule_list", {}), expect["then_list"])

    def run_owner_steps(self) -> None:
        for step, expected in zip(
            self.case["input"]["owner_steps"], self.case["expect"]["steps"], strict=True
        ):
            now = _instant(step["decision_now"])
            delivery = plan_delivery(fold_schedule(self.log.events, self.log.seed_length), now)
            assert delivery.kind == expected["decision"]
            if delivery.kind == "wait":
                self._check_wait(delivery.wake_at, now, expected)
                continue
            assert delivery.framing == expected["followup_text"]
            _assert_json(FOLLOWUP_SOURCE, expected["followup_source"])
            _assert_json(delivery.changes, expected["appended"])
            for change in delivery.changes:
                self.log.append("schedule/change", change)
            after = fold_schedule(self.log.events, self.log.seed_length).to_json()["active"]
            _assert_json(after, expected["active_after"])

    @staticmethod
    def _check_wait(wake_at: datetime | None, now: datetime, expected: dict[str, Any]) -> None:
        if wake_at is None:
            assert expected.get("next_target") is None
            assert "timer" in expected
            assert expected["timer"] is None
            return
        assert wake_at == _instant(expected["next_target"])
        assert timer_delay_ms(wake_at, now) == expected["timer_delay_ms"]


def run_case(case: dict[str, Any], kind: str = "incremental") -> None:
    session = Session(case, kind)
    session.apply_setup()
    source = case["input"]
    if "fold" in source:
        events, seed = source["fold"]["events"], source["fold"]["seedLength"]
        if "fold_error" in case["expect"]:
            with pytest.raises(ScheduleLogError) as raised:
                fold_schedule(events, seed)
            assert raised.value.code == case["expect"]["fold_error"]
        else:
            _assert_json(fold_schedule(events, seed).to_json(), case["expect"]["fold"])
    elif "owner_steps" in source:
        session.run_owner_steps()
    else:
        session.run_tool_input()


def test_the_public_cases_cover_every_area() -> None:
    assert len(CASES) == 182
    assert set(BY_AREA) == {"parse", "create", "list", "delete", "every", "fold", "fork", "owner"}


@pytest.mark.parametrize("kind", LOGS)
@pytest.mark.parametrize("case", _params("parse"))
def test_parse_case_gives_the_expected_value(case: dict[str, Any], kind: str) -> None:
    run_case(case, kind)


@pytest.mark.parametrize("kind", LOGS)
@pytest.mark.parametrize("case", _params("create"))
def test_create_case_gives_the_expected_value(case: dict[str, Any], kind: str) -> None:
    run_case(case, kind)


@pytest.mark.parametrize("kind", LOGS)
@pytest.mark.parametrize("case", _params("list"))
def test_list_case_gives_the_expected_value(case: dict[str, Any], kind: str) -> None:
    run_case(case, kind)


@pytest.mark.parametrize("kind", LOGS)
@pytest.mark.parametrize("case", _params("delete"))
def test_delete_case_gives_the_expected_value(case: dict[str, Any], kind: str) -> None:
    run_case(case, kind)


@pytest.mark.parametrize("kind", LOGS)
@pytest.mark.parametrize("case", _params("every"))
def test_every_case_gives_the_expected_value(case: dict[str, Any], kind: str) -> None:
    run_case(case, kind)


@pytest.mark.parametrize("case", _params("fold"))
def test_fold_case_gives_the_expected_fold(case: dict[str, Any]) -> None:
    run_case(case)


@pytest.mark.parametrize("kind", LOGS)
@pytest.mark.parametrize("case", _params("fork"))
def test_fork_case_gives_the_expected_value(case: dict[str, Any], kind: str) -> None:
    run_case(case, kind)


@pytest.mark.parametrize("case", _params("owner"))
def test_owner_case_gives_the_expected_decisions(case: dict[str, Any]) -> None:
    run_case(case)
