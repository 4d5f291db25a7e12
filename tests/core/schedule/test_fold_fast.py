"""The fold's fast path against the strict decoder (differential): on any payload, valid or not,
``ScheduleFolder.feed`` (fast path first) ends in the same fold or raises the same error as
``apply(decode_change(...))`` (the strict decoder alone); ``fold_schedule``'s C filter agrees
with a plain loop over any event list."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ScheduleLogError
from core.instant import MAX_MS, format_instant_ms, ms_to_datetime
from core.schedule import ScheduleFolder, fold_schedule, plan_delivery
from core.schedule.fold import ScheduleFold, decode_change

IDS = ["schedule-1", "schedule-2", "schedule-3", "x"]
T0 = 1_785_931_200_000


class Text(str):
    """A str subclass: the fast path leaves it to the strict decoder."""


def _texts(valid: str) -> st.SearchStrategy[Any]:
    return st.sampled_from(
        [valid, valid, valid, Text(valid), "", f" {valid}", f"{valid}\u00a0", f"{valid}\u001c", 7]
    )


INSTANTS = st.one_of(
    st.integers(min_value=0, max_value=3_000_000).map(lambda ms: format_instant_ms(T0 + ms)),
    st.sampled_from(
        [
            "1970-01-01T00:00:00.000Z",  # 0 ms: the fast path tests it for truth
            format_instant_ms(MAX_MS),
            "2026-08-05T12:05:00Z",
            "2026-08-05T24:00:00.000Z",
            "2026-02-30T12:00:00.000Z",
            "0000-01-01T00:00:00.000Z",
            "2026-08-05t12:05:00.000z",
            "2026-08-05T12:05:00.000+00:00",
            "２026-08-05T12:05:00.000Z",
            Text(format_instant_ms(T0)),
            None,
            1_785_931_200_000,
        ]
    ),
)
NUMBERS = st.sampled_from(
    [30, 300, 301, 299, 0, -1, 30.0, 300.0, 30.5, True, False, "30", None, 2**53, 9_007_199_254_740]
)


@st.composite
def records(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["after", "at", "every", "cron", None, 3]))
    record: dict[str, Any] = {
        "id": draw(_texts(draw(st.sampled_from(IDS)))),
        "kind": kind,
        "prompt": draw(_texts("stretch")),
        "scheduledAt": draw(INSTANTS),
    }
    if kind == "after" or draw(st.integers(0, 9)) == 0:
        record["afterSeconds"] = draw(NUMBERS)
    if kind == "every" or draw(st.integers(0, 9)) == 0:
        record["everySeconds"] = draw(NUMBERS)
    return _mutated(draw, record)


def _mutated(draw: st.DrawFn, value: dict[str, Any]) -> Any:
    """Sometimes a key dropped or added, or another container for the same keys."""
    match draw(st.integers(0, 11)):
        case 0 if value:
            del value[draw(st.sampled_from(sorted(value)))]
        case 1:
            value["extra"] = True
        case 2:
            return MappingProxyType(value)
        case 3:
            return list(value.items())
    return value


@st.composite
def payloads(draw: st.DrawFn) -> Any:
    operation = draw(st.sampled_from(["create", "delete", "dispatch", "dispatch", "update", 1]))
    version = draw(st.sampled_from([1, 1, 1, 1, 1.0, True, 2, "1", None]))
    data: dict[str, Any] = {"version": version, "operation": operation}
    if operation == "create":
        data["schedule"] = draw(records())
    else:
        data["id"] = draw(_texts(draw(st.sampled_from(IDS))))
        if draw(st.booleans()):
            data["acceptedAt"] = draw(INSTANTS)
    return _mutated(draw, data)


@st.composite
def valid_payloads(draw: st.DrawFn) -> dict[str, Any]:
    """The shapes writers emit (a transition may still be invalid: an unknown id, say)."""
    sid = draw(st.sampled_from(IDS))
    target = format_instant_ms(T0 + draw(st.integers(min_value=0, max_value=3_000_000)))
    match draw(st.sampled_from(["after", "at", "every", "delete", "dispatch", "every-dispatch"])):
        case "after":
            record = {"id": sid, "kind": "after", "prompt": "p", "afterSeconds": 30}
        case "at":
            record = {"id": sid, "kind": "at", "prompt": "p"}
        case "every":
            record = {"id": sid, "kind": "every", "prompt": "p", "everySeconds": 300}
        case "delete" | "dispatch" as operation:
            return {"version": 1, "operation": operation, "id": sid}
        case _:
            return {"version": 1, "operation": "dispatch", "id": sid, "acceptedAt": target}
    return {"version": 1, "operation": "create", "schedule": record | {"scheduledAt": target}}


CHANGES = st.lists(st.one_of(valid_payloads(), payloads()), min_size=1, max_size=16)


def outcome(folder: ScheduleFolder, feed: Callable[[Any], None], payload: Any) -> Any:
    """The fold after feeding ``payload``, or the error's type and message (state unchanged)."""
    before = folder.fold()
    try:
        feed(payload)
    except ScheduleLogError as error:
        assert folder.fold() == before
        return ("error", str(error))
    fold = folder.fold()
    return ("fold", fold, [type(record) for record in fold.active])


def strict(folder: ScheduleFolder) -> Callable[[Any], None]:
    return lambda payload: folder.apply(decode_change(payload))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(CHANGES)
def test_the_fast_path_folds_or_fails_exactly_like_the_strict_decoder(
    changes: list[Any],
) -> None:
    fast, slow = ScheduleFolder(), ScheduleFolder()
    fast.due_index()  # the index rides along on one side: it must not change the fold
    for payload in changes:
        assert outcome(fast, fast.feed, payload) == outcome(slow, strict(slow), payload)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(CHANGES, st.data())
def test_fold_schedule_agrees_with_a_plain_strict_loop_over_any_events(
    changes: list[Any], data: st.DataObject
) -> None:
    events: list[Any] = []
    for payload in changes:
        events.append({"type": "user/message", "data": {"text": "hi"}})
        envelope = {"type": "schedule/change", "data": payload}
        events.append(data.draw(st.sampled_from([envelope, envelope, MappingProxyType(envelope)])))
    if data.draw(st.booleans()):
        events.insert(data.draw(st.integers(0, len(events))), data.draw(st.sampled_from([7, []])))
    seed = data.draw(st.integers(min_value=0, max_value=len(events)))
    folder = ScheduleFolder()
    try:
        for event in events[seed:]:
            if isinstance(event, dict | MappingProxyType) and event["type"] == "schedule/change":
                folder.apply(decode_change(event.get("data")))
    except ScheduleLogError as error:
        with pytest.raises(ScheduleLogError, match=str(error)):
            fold_schedule(events, seed)
        return
    assert fold_schedule(events, seed) == folder.fold()
    assert fold_schedule(tuple(events), seed) == folder.fold()


def test_a_valid_change_behind_a_non_dict_event_is_still_folded() -> None:
    create = {
        "version": 1,
        "operation": "create",
        "schedule": {"id": "a", "kind": "at", "prompt": "p", "scheduledAt": format_instant_ms(T0)},
    }
    events: list[Any] = [{"type": "schedule/change", "data": create}, "not an event"]
    assert [r.id for r in fold_schedule(events).active] == ["a"]
    events.append({"type": "schedule/change", "data": {**create, "operation": "nope"}})
    with pytest.raises(ScheduleLogError, match="unknown operation"):
        fold_schedule(events)


def test_a_one_off_fold_carries_no_index_and_a_folders_snapshot_only_while_current() -> None:
    create = {
        "version": 1,
        "operation": "create",
        "schedule": {"id": "a", "kind": "at", "prompt": "p", "scheduledAt": format_instant_ms(T0)},
    }
    assert fold_schedule([{"type": "schedule/change", "data": create}]).due_index() is None
    folder = ScheduleFolder()
    folder.feed(create)
    snapshot = folder.fold()
    assert snapshot.due_index() is folder.due_index()
    folder.feed({"version": 1, "operation": "delete", "id": "a"})
    assert snapshot.due_index() is None  # stale: plan_delivery scans it instead
    assert snapshot == ScheduleFold(snapshot.active, snapshot.seen_ids)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(CHANGES, CHANGES, st.booleans())
def test_a_group_is_fed_all_or_none(before: list[Any], group: list[Any], indexed: bool) -> None:
    folder = ScheduleFolder()
    for payload in before:
        with contextlib.suppress(ScheduleLogError):
            folder.feed(payload)
    if indexed:
        folder.due_index()
    expected, state = folder.copy(), folder.fold()
    try:
        for payload in group:
            expected.feed(payload)
    except ScheduleLogError as error:
        with pytest.raises(ScheduleLogError, match=re.escape(str(error))):
            folder.feed_all(group)
        assert folder.fold() == state
        assert [type(r) for r in folder.fold().active] == [type(r) for r in state.active]
    else:
        folder.feed_all(group)
        assert folder.fold() == expected.fold()
    now = ms_to_datetime(T0 + 1_500_000)
    assert plan_delivery(folder.fold(), now) == plan_delivery(
        ScheduleFold(folder.fold().active, folder.fold().seen_ids), now
    )


def _at(sid: str) -> dict[str, Any]:
    record = {"id": sid, "kind": "at", "prompt": "p", "scheduledAt": format_instant_ms(T0)}
    return {"version": 1, "operation": "create", "schedule": record}


def test_a_refused_group_puts_deleted_records_back_in_creation_order() -> None:
    folder = ScheduleFolder()
    folder.feed_all([_at("a"), _at("b"), _at("c")])
    folder.due_index()
    before = folder.fold()
    group = [
        {"version": 1, "operation": "delete", "id": "b"},
        {"version": 1, "operation": "dispatch", "id": "a"},
        _at("d"),
        {"version": 1, "operation": "delete", "id": "d"},
        {"version": 1, "operation": "delete", "id": "nope"},
    ]
    with pytest.raises(ScheduleLogError, match="not active"):
        folder.feed_all(group)
    assert folder.fold() == before
    assert [r.id for r in folder.fold().active] == ["a", "b", "c"]
    now = ms_to_datetime(T0)
    assert plan_delivery(folder.fold(), now).changes == [
        {"version": 1, "operation": "dispatch", "id": "a"}
    ]


def test_a_refused_group_puts_back_a_record_deleted_by_an_id_of_a_str_subclass() -> None:
    folder = ScheduleFolder()
    folder.feed(_at("schedule-1"))
    state = folder.fold()
    delete = MappingProxyType({"version": 1, "operation": "delete", "id": Text("schedule-1")})
    with pytest.raises(ScheduleLogError, match="version"):
        folder.feed_all([delete, {"version": True}])
    assert folder.fold() == state
    assert [type(sid) for sid in folder._active] == [str]


class _Defaulting(dict[str, Any]):
    """An event whose missing keys read as a default through its own ``get``."""

    def get(self, key: str, default: Any = None) -> Any:
        return super().get(key, {"version": 1, "operation": "delete", "id": "nope"})


def test_a_change_without_data_fails_among_plain_dicts_and_a_subclass_keeps_its_get() -> None:
    plain: list[Any] = [{"type": "user/message", "data": {}}, {"type": "schedule/change"}]
    with pytest.raises(ScheduleLogError, match="a schedule change must be an object"):
        fold_schedule(plain)
    with pytest.raises(ScheduleLogError, match="a delete names an id that is not active"):
        fold_schedule([plain[0], _Defaulting(type="schedule/change")])
