"""Fuzzing the change decoder and fold (schedule.md §8): valid logs built by a small model, then
mutated (keys dropped or added, values swapped for arbitrary JSON, version look-alikes, instants
edited character by character, events duplicated or reordered, look-alike types, odd seed
lengths). fold_schedule must return a ScheduleFold or raise ScheduleLogError, nothing else, and
must agree with an independent model of §8 on which it is and on `to_json()`."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.schedule import ScheduleLogError, fold_schedule
from tests.survival import fold_oracle
from tests.survival.strategies import JSON, TEXT, mutated
from tests.survival.time_oracle import trim
from tests.survival.tzif_oracle import MAX_MS, canonical

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TYPE = "schedule/change"

IDS = st.one_of(
    st.integers(1, 6).map(lambda n: f"schedule-{n}"),
    st.sampled_from(['schedule-"1', "x\u2028y", "\u0085id", "😀", "a b"]),
)
PROMPTS = st.one_of(
    st.sampled_from(["check logs", "\u001f", "\u0085x\u0085", "喝水\ttab"]),
    TEXT.map(lambda t: trim(t) or "p"),
    TEXT,
)
INSTANTS = st.integers(-62135596800000, MAX_MS).map(canonical)
NEAR_INSTANTS = st.integers(1_700_000_000_000, 1_900_000_000_000).map(canonical)


@st.composite
def record(draw: st.DrawFn, rid: str) -> dict[str, Any]:
    kind = draw(st.sampled_from(["after", "at", "every"]))
    rec: dict[str, Any] = {"id": rid, "kind": kind, "prompt": draw(PROMPTS)}
    if kind == "after":
        rec["afterSeconds"] = draw(st.one_of(st.integers(1, 10**6), st.just(30.0)))
    if kind == "every":
        rec["everySeconds"] = draw(st.sampled_from([300, 600.0, 86400, 9007199254740]))
    rec["scheduledAt"] = draw(st.one_of(NEAR_INSTANTS, INSTANTS))
    return rec


def _after(target: str) -> st.SearchStrategy[str]:
    """Decision times at or after `target` (what a correct owner writes), clipped to the range."""
    start = fold_oracle.instant(target)
    return st.integers(start, min(MAX_MS, start + 10**12)).map(canonical)


@st.composite
def model_log(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Mostly-valid logs: creates, deletes and dispatches of active ids, with noise events."""
    events: list[dict[str, Any]] = []
    active: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(["create", "create", "delete", "dispatch", "noise"]))
        data: Any
        if op == "create" or not active:
            rid = draw(IDS)
            rec = draw(record(rid if rid not in seen else f"{rid}-{len(seen)}"))
            seen.add(rec["id"])
            active[rec["id"]] = rec
            data = {"version": 1, "operation": "create", "schedule": rec}
        elif op == "noise":
            events.append({"type": draw(st.sampled_from(["user/message", "schedule/changes"])),
                           "data": draw(JSON)})  # fmt: skip
            continue
        else:
            rid = draw(st.sampled_from(sorted(active)))
            data = {"version": 1, "operation": op, "id": rid}
            if op == "dispatch" and active[rid]["kind"] == "every":
                data["acceptedAt"] = draw(st.one_of(INSTANTS, _after(active[rid]["scheduledAt"])))
            active.pop(rid)
        events.append({"seq": len(events), "type": TYPE, "data": data})
    return events


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [prefix] + [p for k, v in value.items() for p in _paths(v, (*prefix, k))]
    return [prefix]


@st.composite
def mutated_log(draw: st.DrawFn) -> list[dict[str, Any]]:
    events = copy.deepcopy(draw(model_log()))
    for _ in range(draw(st.integers(0, 2))):
        if not events:
            break
        i = draw(st.integers(0, len(events) - 1))
        how = draw(st.sampled_from(["value", "drop", "add", "text", "dup", "swap", "type"]))
        path = draw(st.sampled_from(_paths(events[i])))
        parent = events[i]
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1] if path else None
        if how == "dup":
            events.insert(i, copy.deepcopy(events[i]))
        elif how == "swap" and len(events) > 1:
            j = draw(st.integers(0, len(events) - 1))
            events[i], events[j] = events[j], events[i]
        elif how == "type":
            events[i]["type"] = draw(st.sampled_from(["schedule/changes", "Schedule/change", TYPE]))
        elif last is None:
            continue
        elif how == "drop":
            del parent[last]
        elif how == "add":
            parent[draw(TEXT)] = draw(JSON)
        elif how == "text" and isinstance(parent[last], str):
            parent[last] = draw(mutated(parent[last], 2))
        else:
            parent[last] = draw(st.one_of(JSON, st.sampled_from([1.0, True, "1", 2, 1.5, None])))
    return events


SEEDS = st.one_of(
    st.integers(0, 3), st.just(0), st.sampled_from([-1, 0.5, 1.0, True, None, "0", 10**20])
)


def _agree(events: list[dict[str, Any]], seed: object) -> bool:
    """Chime's fold against the model; returns whether the fold succeeded."""
    expected = fold_oracle.fold(events, seed)
    try:
        got = fold_schedule(events, seed).to_json()  # type: ignore[arg-type]  # fuzzing odd seeds
    except ScheduleLogError as error:
        failure: ScheduleLogError | None = error
    else:
        failure = None
    if failure is not None:
        assert failure.code == "corrupt_schedule_log"
        assert expected is None, (events, seed, failure)
        return False
    assert got == expected, (events, seed)
    assert [list(r) for r in got["active"]] == [list(r) for r in expected["active"]]
    return True


@FUZZ
@given(events=st.one_of(model_log(), mutated_log()), seed=SEEDS)
def test_fold_returns_what_the_independent_model_says_or_raises_schedule_log_error(
    events: list[dict[str, Any]], seed: object
) -> None:
    if isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= 3:
        seed = min(seed, len(events))
    _agree(events, seed)


@FUZZ
@given(payloads=st.lists(JSON, max_size=4), seed=st.integers(0, 1))
def test_fold_of_arbitrary_payloads_fails_cleanly_unless_the_model_accepts_them(
    payloads: list[Any], seed: int
) -> None:
    events = [{"type": TYPE, "data": p} for p in payloads]
    ok = _agree(events, min(seed, len(events)))
    assert ok == (fold_oracle.fold(events, min(seed, len(events))) is not None)
