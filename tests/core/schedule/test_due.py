"""The next-due index (core.schedule.due) against the plain computation: on any sequence of
changes, ``plan_delivery`` on a folder's indexed snapshot decides exactly what it decides by
scanning the same records (schedule.md §10.4), at any ``now``."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ScheduleLogError
from core.instant import format_instant_ms, ms_to_datetime
from core.schedule import ScheduleFolder, plan_delivery
from core.schedule.due import DueIndex
from core.schedule.fold import ScheduleFold

T0 = 1_785_931_200_000
IDS = [f"schedule-{n}" for n in range(1, 9)]
STEP = 60_000


def create(sid: str, kind: str, offset: int) -> dict[str, Any]:
    record: dict[str, Any] = {"id": sid, "kind": kind, "prompt": f"p {sid}"}
    if kind == "after":
        record["afterSeconds"] = 60
    if kind == "every":
        record["everySeconds"] = 300
    record["scheduledAt"] = format_instant_ms(T0 + offset * STEP)
    return {"version": 1, "operation": "create", "schedule": record}


@st.composite
def changes(draw: st.DrawFn) -> dict[str, Any]:
    sid = draw(st.sampled_from(IDS))
    offset = draw(st.integers(min_value=0, max_value=6))  # few targets: many ties
    match draw(st.sampled_from(["after", "at", "every", "delete", "dispatch", "every-dispatch"])):
        case "after" | "at" | "every" as kind:
            return create(sid, kind, offset)
        case "delete" | "dispatch" as operation:
            return {"version": 1, "operation": operation, "id": sid}
        case _:
            accepted = format_instant_ms(T0 + offset * STEP + draw(st.integers(0, 900_000)))
            return {"version": 1, "operation": "dispatch", "id": sid, "acceptedAt": accepted}


def scanned(fold: ScheduleFold) -> ScheduleFold:
    """The same records without the folder: plan_delivery scans them."""
    return ScheduleFold(fold.active, fold.seen_ids)


def assert_same_decisions(folder: ScheduleFolder, nows: list[int]) -> None:
    fold = folder.fold()
    assert fold.due_index() is not None
    for now_ms in nows:
        now = ms_to_datetime(now_ms)
        assert plan_delivery(fold, now) == plan_delivery(scanned(fold), now)


NOWS = [T0 - 1, *(T0 + k * STEP // 2 for k in range(16)), T0 + 10**9]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(changes(), max_size=30), st.integers(min_value=0, max_value=30))
def test_the_indexed_decision_equals_the_scanned_one_after_every_change(
    sequence: list[dict[str, Any]], built_after: int
) -> None:
    folder = ScheduleFolder()
    for number, change in enumerate(sequence):
        if number == built_after:
            folder.due_index()  # the index is built from a state, then kept up to date
        try:
            folder.feed(change)
        except ScheduleLogError:
            continue
        if folder._due is not None:
            assert_same_decisions(folder, NOWS)
        twin = folder.copy()  # a trial copy carries its own index
        assert_same_decisions(twin, NOWS[::5])


def test_heavy_churn_rebuilds_the_heaps_and_keeps_every_decision() -> None:
    folder, rng, created = ScheduleFolder(), random.Random(23), 0
    folder.due_index()
    active: list[str] = []
    for _ in range(3000):
        if active and rng.random() < 0.5:
            sid = active.pop(rng.randrange(len(active)))
            folder.feed({"version": 1, "operation": "delete", "id": sid})
        else:
            created += 1
            kind = rng.choice(["after", "at", "every"])
            folder.feed(create(f"r{created}", kind, rng.randrange(50)))
            active.append(f"r{created}")
    index = folder.due_index()
    assert len(index._one_shots) + len(index._every) <= 2 * len(active) + 2 * 64
    assert_same_decisions(folder, [T0 + k * STEP for k in range(0, 52, 3)])


def test_dispatching_the_due_records_one_by_one_walks_the_heap_in_order() -> None:
    folder = ScheduleFolder()
    for number in range(200):
        folder.feed(create(f"r{number}", "at", number % 7))
    now = ms_to_datetime(T0 + 10 * STEP)
    order = []
    while (delivery := plan_delivery(folder.fold(), now)).kind == "one-shot":
        folder.feed(delivery.changes[0])
        order.append(delivery.changes[0]["id"])
    expected = sorted(
        (f"r{n}" for n in range(200)), key=lambda sid: (int(sid[1:]) % 7, int(sid[1:]))
    )
    assert order == expected
    assert delivery.kind == "wait"
    assert delivery.wake_at is None


def test_an_index_built_on_an_empty_fold_reports_nothing() -> None:
    index = DueIndex({}, {})
    assert index.first_due_one_shot(T0) is None
    assert index.due_every(T0) == []
    assert index.earliest() is None


def linear_next_due(fold: ScheduleFold, now_ms: int) -> tuple[Any, list[str], int | None]:
    """What the heaps answer, by a linear scan of ``active`` in creation order."""
    one_shots = [r for r in fold.active if r.kind != "every" and r.scheduled_ms <= now_ms]
    first = min(one_shots, key=lambda r: r.scheduled_ms, default=None)
    due_every = sorted(
        (r for r in fold.active if r.kind == "every" and r.scheduled_ms <= now_ms),
        key=lambda r: r.scheduled_ms,
    )
    earliest = min((r.scheduled_ms for r in fold.active), default=None)
    return first, [r.id for r in due_every], earliest


FAR = 10**9 * STEP  # offsets that reach before 1970 and far ahead: negative targets too


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(changes(), max_size=40),
    st.lists(st.integers(-FAR, FAR), min_size=1, max_size=8),
    st.integers(-3, 8),
)
def test_the_heaps_answer_what_a_linear_scan_of_the_active_records_answers(
    sequence: list[dict[str, Any]], shifts: list[int], now_step: int
) -> None:
    folder = ScheduleFolder()
    folder.due_index()  # kept up to date change by change
    for number, change in enumerate(sequence):
        if change["operation"] == "create":
            shift = shifts[number % len(shifts)] // STEP * STEP
            target = T0 + shift + (number % 7) * STEP
            record = change["schedule"] | {"scheduledAt": format_instant_ms(target)}
            change = change | {"schedule": record}
        with contextlib.suppress(ScheduleLogError):
            folder.feed(change)
    fold = folder.fold()
    reopened = ScheduleFolder.from_json(fold.to_json())  # the index a warm open builds
    rebuilt = DueIndex(dict(folder._active), dict(folder._seen))  # one built from a state
    for now_ms in (T0 + now_step * STEP, T0 - FAR, T0 + 2 * FAR):
        first, every, earliest = linear_next_due(fold, now_ms)
        for index in (folder.due_index(), reopened.due_index(), rebuilt):
            assert index.first_due_one_shot(now_ms) == first
            assert [r.id for r in index.due_every(now_ms)] == every
            assert index.earliest() == earliest


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(changes(), max_size=30), st.integers(-1, 7), st.integers(-2, 9))
def test_a_hold_answers_only_the_records_due_by_its_bound(
    sequence: list[dict[str, Any]], bound_step: int, now_step: int
) -> None:
    """Under ``hold_after(B)`` the index answers what a scan of the records due by B answers;
    the earliest only when it is by B (a warm open's staged check: the rest are not checked)."""
    folder = ScheduleFolder()
    folder.due_index()
    bound, now_ms = T0 + bound_step * STEP, T0 + now_step * STEP
    folder.hold_after(bound)
    for change in sequence:
        with contextlib.suppress(ScheduleLogError):
            folder.feed(change)
    fold, index = folder.fold(), folder.due_index()
    by_bound = ScheduleFold(tuple(r for r in fold.active if r.scheduled_ms <= bound))
    first, every, _ = linear_next_due(by_bound, now_ms)
    earliest = linear_next_due(fold, now_ms)[2]
    assert index.first_due_one_shot(now_ms) == first
    assert [r.id for r in index.due_every(now_ms)] == every
    assert index.earliest() == (earliest if earliest is not None and earliest <= bound else None)
    folder.hold_after(None)
    assert index.earliest() == earliest
    assert index.first_due_one_shot(now_ms) == linear_next_due(fold, now_ms)[0]


def test_a_hold_outlives_a_rebuilt_index_and_goes_with_a_copy() -> None:
    folder = ScheduleFolder()
    folder.feed(create("early", "at", 1))
    folder.feed(create("late", "at", 5))
    folder.hold_after(T0 + 2 * STEP)
    twin = folder.copy()
    with pytest.raises(ScheduleLogError):  # a refused group drops the index: rebuilt on demand
        folder.feed_all([{"version": 1, "operation": "delete", "id": "early"}, {"version": 2}])
    for held in (folder, twin):
        assert held.due_index().earliest() == T0 + STEP
        now_ms = T0 + 9 * STEP
        assert held.due_index().first_due_one_shot(now_ms).id == "early"  # type: ignore[union-attr]  # due
        held.feed({"version": 1, "operation": "dispatch", "id": "early"})
        assert held.due_index().first_due_one_shot(now_ms) is None  # "late" is held
        assert held.due_index().earliest() is None
        held.hold_after(None)
        assert held.due_index().first_due_one_shot(now_ms).id == "late"  # type: ignore[union-attr]  # due
