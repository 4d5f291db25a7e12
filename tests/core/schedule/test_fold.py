"""The fold: strict decoding (§8.2), transitions (§8.3), scope (§8.1), output (§8.4), ids (§3)."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any, overload

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.instant import MAX_MS, format_instant_ms, parse_instant_ms
from core.schedule import ScheduleFolder, ScheduleLogError, fold_schedule
from core.schedule.fold import allocate_schedule_id, decode_change, fold_reader
from core.schedule.records import (
    AfterRecord,
    AtRecord,
    CreateChange,
    DeleteChange,
    DispatchChange,
    EveryRecord,
    view,
)
from tests.core.schedule.fakes import change_event
from tests.fakes import MemoryLog, PlainLog

T0 = "2026-08-05T12:05:00.000Z"


def after(sid: str = "schedule-1", **extra: Any) -> dict[str, Any]:
    record = {"id": sid, "kind": "after", "prompt": "p", "afterSeconds": 30, "scheduledAt": T0}
    return {"version": 1, "operation": "create", "schedule": {**record, **extra}}


def at(sid: str = "schedule-1", when: str = T0) -> dict[str, Any]:
    record = {"id": sid, "kind": "at", "prompt": "p", "scheduledAt": when}
    return {"version": 1, "operation": "create", "schedule": record}


def every(sid: str = "schedule-1", seconds: Any = 300, when: str = T0) -> dict[str, Any]:
    record = {
        "id": sid,
        "kind": "every",
        "prompt": "p",
        "everySeconds": seconds,
        "scheduledAt": when,
    }
    return {"version": 1, "operation": "create", "schedule": record}


def delete(sid: str = "schedule-1") -> dict[str, Any]:
    return {"version": 1, "operation": "delete", "id": sid}


def dispatch(sid: str = "schedule-1", accepted: str | None = None) -> dict[str, Any]:
    change: dict[str, Any] = {"version": 1, "operation": "dispatch", "id": sid}
    if accepted is not None:
        change["acceptedAt"] = accepted
    return change


def fold_of(*payloads: Any) -> dict[str, Any]:
    return fold_schedule([change_event(p) for p in payloads]).to_json()


def _with(change: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    result = copy.deepcopy(change)
    target = result
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return result


def _without(change: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    result = copy.deepcopy(change)
    target = result
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return result


BAD_PAYLOADS = {
    "null": None,
    "list": [after()],
    "string": "create",
    "number": 1,
    "version true": _with(after(), ("version",), True),
    "version string": _with(after(), ("version",), "1"),
    "version 2": _with(after(), ("version",), 2),
    "version 1.5": _with(after(), ("version",), 1.5),
    "version missing": _without(after(), ("version",)),
    "unknown operation": _with(delete(), ("operation",), "remove"),
    "operation missing": _without(delete(), ("operation",)),
    "extra key": _with(delete(), ("extra",), True),
    "reason key": _with(delete(), ("reason",), "user"),
    "create without schedule": _without(after(), ("schedule",)),
    "schedule not a mapping": _with(after(), ("schedule",), "x"),
    "id number": _with(after(), ("schedule", "id"), 1),
    "id empty": _with(after(), ("schedule", "id"), ""),
    "id padded": _with(after(), ("schedule", "id"), " schedule-1"),
    "delete id number": _with(delete(), ("id",), 7),
    "prompt empty": _with(after(), ("schedule", "prompt"), ""),
    "prompt padded": _with(after(), ("schedule", "prompt"), "p\n"),
    "prompt not a string": _with(after(), ("schedule", "prompt"), 5),
    "kind cron": _with(after(), ("schedule", "kind"), "cron"),
    "kind missing": _without(after(), ("schedule", "kind")),
    "kind number": _with(after(), ("schedule", "kind"), 1),
    "at with afterSeconds": _with(at(), ("schedule", "afterSeconds"), 30),
    "every without everySeconds": _without(every(), ("schedule", "everySeconds")),
    "afterSeconds true": _with(after(), ("schedule", "afterSeconds"), True),
    "afterSeconds zero": _with(after(), ("schedule", "afterSeconds"), 0),
    "afterSeconds fraction": _with(after(), ("schedule", "afterSeconds"), 1.5),
    "afterSeconds above safe": _with(after(), ("schedule", "afterSeconds"), 2**53),
    "afterSeconds string": _with(after(), ("schedule", "afterSeconds"), "30"),
    "everySeconds 299": every(seconds=299),
    "everySeconds too large": every(seconds=9007199254741),
    "everySeconds fraction": every(seconds=300.5),
    "scheduledAt no millis": _with(after(), ("schedule", "scheduledAt"), "2026-08-05T12:05:00Z"),
    "scheduledAt two digits": _with(
        after(), ("schedule", "scheduledAt"), "2026-08-05T12:05:00.00Z"
    ),
    "scheduledAt offset": _with(
        after(), ("schedule", "scheduledAt"), "2026-08-05T12:05:00.000+00:00"
    ),
    "scheduledAt lowercase": _with(
        after(), ("schedule", "scheduledAt"), "2026-08-05t12:05:00.000z"
    ),
    "scheduledAt hour 24": _with(after(), ("schedule", "scheduledAt"), "2026-08-05T24:00:00.000Z"),
    "scheduledAt year 0": _with(after(), ("schedule", "scheduledAt"), "0000-08-05T12:00:00.000Z"),
    "scheduledAt five digits": _with(
        after(), ("schedule", "scheduledAt"), "12026-08-05T12:00:00.000Z"
    ),
    "scheduledAt feb 30": _with(after(), ("schedule", "scheduledAt"), "2026-02-30T12:00:00.000Z"),
    "scheduledAt number": _with(after(), ("schedule", "scheduledAt"), 0),
    "scheduledAt null": _with(after(), ("schedule", "scheduledAt"), None),
    "acceptedAt bad": dispatch(accepted="2026-08-05T12:05:00Z"),
    "acceptedAt null": _with(dispatch(), ("acceptedAt",), None),
    # Key sets of the right size holding a wrong key: the count alone must not pass them.
    "operation number": _with(delete(), ("operation",), 1),
    "create with id instead of schedule": {"version": 1, "operation": "create", "id": "a"},
    "delete with schedule instead of id": _with(_without(delete(), ("id",)), ("schedule",), "a"),
    "dispatch with extra instead of id": _with(_without(dispatch(), ("id",)), ("extra",), "a"),
    "every dispatch with extra instead of acceptedAt": _with(dispatch(), ("extra",), T0),
    "every dispatch with extra instead of id": _with(
        _without(dispatch(accepted=T0), ("id",)), ("extra",), "a"
    ),
    "delete with acceptedAt": _with(delete(), ("acceptedAt",), T0),
    "create with a fourth key": _with(after(), ("id",), "schedule-1"),
    "after with everySeconds for afterSeconds": _with(
        _without(after(), ("schedule", "afterSeconds")), ("schedule", "everySeconds"), 300
    ),
    "at with afterSeconds for prompt": _with(
        _without(at(), ("schedule", "prompt")), ("schedule", "afterSeconds"), 30
    ),
    "every with name for id": _with(
        _without(every(), ("schedule", "id")), ("schedule", "name"), "a"
    ),
    "record with an extra key": _with(at(), ("schedule", "extra"), True),
}


@pytest.mark.parametrize("payload", list(BAD_PAYLOADS.values()), ids=list(BAD_PAYLOADS))
def test_a_payload_violating_the_strict_decoder_fails_the_whole_fold(payload: Any) -> None:
    with pytest.raises(ScheduleLogError) as raised:
        fold_schedule([change_event(every("schedule-9")), change_event(payload)])
    assert raised.value.code == "corrupt_schedule_log"


def test_a_schedule_change_without_data_fails_the_fold() -> None:
    with pytest.raises(ScheduleLogError):
        fold_schedule([{"type": "schedule/change"}])


def test_integral_floats_are_accepted_and_normalised() -> None:
    payload = _with(_with(after(), ("version",), 1.0), ("schedule", "afterSeconds"), 30.0)
    state = fold_of(payload, every("e", seconds=600.0))
    assert state["active"][0]["afterSeconds"] == 30
    assert type(state["active"][0]["afterSeconds"]) is int
    assert type(state["active"][1]["everySeconds"]) is int


def test_every_seconds_at_the_safe_product_limit_is_accepted() -> None:
    assert fold_of(every(seconds=9007199254740))["active"][0]["everySeconds"] == 9007199254740


def test_prompts_keep_interior_control_characters_and_emoji() -> None:
    prompt = "a\u001f\tb\n😀\u0085"
    payload = _with(at(), ("schedule", "prompt"), prompt)
    assert fold_of(payload)["active"][0]["prompt"] == prompt


def test_decoding_ignores_key_order_and_records_are_written_in_spec_order() -> None:
    shuffled = {
        "schedule": {
            "scheduledAt": T0,
            "prompt": "p",
            "kind": "after",
            "afterSeconds": 30,
            "id": "x",
        },
        "operation": "create",
        "version": 1,
    }
    record = fold_of(shuffled)["active"][0]
    assert list(record) == ["id", "kind", "prompt", "afterSeconds", "scheduledAt"]


def test_only_exact_schedule_change_events_are_decoded() -> None:
    events: list[Any] = [
        {"type": "schedule/changes", "data": None},
        {"type": "Schedule/change", "data": None},
        {"type": "user/message", "data": {"text": "hi"}},
        "not even a mapping",
        change_event(at("a")),
    ]
    assert fold_schedule(events).to_json()["seenIds"] == ["a"]


def _frozen(value: Any) -> Any:
    """``value`` with every dict behind a read-only MappingProxyType (a mapping, not a dict)."""
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    return value


class EventSequence(Sequence[Any]):
    """A Sequence that is neither a list nor a tuple: folded through indexing."""

    def __init__(self, events: list[Any]) -> None:
        self._events = events

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self._events[index]

    def __len__(self) -> int:
        return len(self._events)


def _outcome(events: Any, seed: object) -> Any:
    try:
        return fold_schedule(events, seed).to_json()
    except ScheduleLogError:
        return "corrupt"


def test_any_sequence_of_any_mappings_folds_like_a_list_of_dicts() -> None:
    payloads = [every("e"), at("a"), dispatch("e", "2026-08-05T12:06:00.000Z"), delete("a")]
    events = [change_event(p) for p in payloads] + ["noise", {"type": "user/message"}]
    proxies = [_frozen(event) for event in events]
    outcomes = [_outcome(events, seed) for seed in range(len(events) + 1)]
    assert outcomes.count("corrupt") == 3  # seeds 1-3 cut a create off its later changes
    for seed, expected in enumerate(outcomes):
        assert _outcome(tuple(events), seed) == expected
        assert _outcome(EventSequence(proxies), seed) == expected
        assert _outcome(tuple(proxies), float(seed)) == expected


@pytest.mark.parametrize("payload", list(BAD_PAYLOADS.values()), ids=list(BAD_PAYLOADS))
def test_a_bad_payload_behind_a_non_dict_mapping_fails_too(payload: Any) -> None:
    events = EventSequence(
        [_frozen(change_event(every("schedule-9"))), _frozen(change_event(payload))]
    )
    with pytest.raises(ScheduleLogError):
        fold_schedule(events)


def test_ids_prompts_and_instants_may_be_str_subclasses_and_are_still_checked() -> None:
    class Text(str):
        pass

    record = {"id": Text("a"), "kind": "at", "prompt": Text("p"), "scheduledAt": Text(T0)}
    created = {"version": 1, "operation": "create", "schedule": record}
    assert fold_of(created)["active"] == [
        {"id": "a", "kind": "at", "prompt": "p", "scheduledAt": T0}
    ]
    assert fold_of(created, delete(Text("a")))["active"] == []
    for key, bad in (("id", Text(" a")), ("prompt", Text("")), ("scheduledAt", Text(T0 + " "))):
        with pytest.raises(ScheduleLogError):
            fold_of(_with(created, ("schedule", key), bad))


def test_records_and_changes_stay_frozen_value_objects() -> None:
    record = EveryRecord(id="e", prompt="p", every_seconds=300, scheduled_ms=0)
    with pytest.raises(FrozenInstanceError):
        record.prompt = "x"  # type: ignore[misc]  # the assignment a frozen record must refuse
    with pytest.raises(FrozenInstanceError):
        del record.id
    assert record == EveryRecord("e", "p", 300, 0)
    assert hash(record) == hash(EveryRecord("e", "p", 300, 0))
    other_kind: object = AtRecord("e", "p", 0)
    assert record != other_kind
    assert repr(record) == "EveryRecord(id='e', prompt='p', every_seconds=300, scheduled_ms=0)"
    assert DispatchChange("e").accepted_ms is None
    assert DispatchChange("e", accepted_ms=5) == DispatchChange(id="e", accepted_ms=5)
    assert CreateChange(record=record).record is record
    other_change: object = DispatchChange("e")
    assert DeleteChange("e") != other_change
    with pytest.raises(TypeError):
        AtRecord("a", "p")  # type: ignore[call-arg]  # the missing argument under test
    signature = inspect.signature(DispatchChange)
    assert str(signature) == "(id: 'str', accepted_ms: 'int | None' = None) -> None"
    assert DispatchChange.__init__.__qualname__ == "DispatchChange.__init__"


INVALID_SEQUENCES = {
    "reused id": [at("a"), at("a")],
    "reused id after delete": [at("a"), delete("a"), at("a")],
    "reused id under another kind": [at("a"), dispatch("a"), every("a")],
    "delete unknown": [delete("a")],
    "delete twice": [at("a"), delete("a"), delete("a")],
    "dispatch unknown": [dispatch("a")],
    "dispatch dispatched one-shot": [at("a"), dispatch("a"), dispatch("a")],
    "one-shot dispatch with acceptedAt": [at("a"), dispatch("a", T0)],
    "every dispatch without acceptedAt": [every("a"), dispatch("a")],
    "every dispatch before target": [every("a"), dispatch("a", "2026-08-05T12:04:59.999Z")],
    "every dispatch after termination": [
        every("a", when="9999-12-31T23:59:59.999Z"),
        dispatch("a", "9999-12-31T23:59:59.999Z"),
        dispatch("a", "9999-12-31T23:59:59.999Z"),
    ],
}


@pytest.mark.parametrize("changes", list(INVALID_SEQUENCES.values()), ids=list(INVALID_SEQUENCES))
def test_an_invalid_transition_fails_the_fold(changes: list[dict[str, Any]]) -> None:
    with pytest.raises(ScheduleLogError):
        fold_of(*changes)


def test_transitions_keep_creation_order_and_advance_every_records_in_place() -> None:
    state = fold_of(
        every("e"),
        at("a"),
        after("b"),
        dispatch("e", "2026-08-05T12:17:34.000Z"),
        delete("b"),
        at("c"),
        dispatch("a"),
    )
    assert [r["id"] for r in state["active"]] == ["e", "c"]
    assert state["active"][0]["scheduledAt"] == "2026-08-05T12:20:00.000Z"
    assert state["seenIds"] == ["e", "a", "b", "c"]


def test_an_every_record_whose_next_occurrence_passes_the_range_terminates() -> None:
    state = fold_of(
        every("e", 86400, "9999-12-31T00:00:00.000Z"), dispatch("e", "9999-12-31T12:00:00.000Z")
    )
    assert state == {"active": [], "seenIds": ["e"]}


def test_an_empty_log_folds_to_nothing() -> None:
    assert fold_schedule([]).to_json() == {"active": [], "seenIds": []}


@pytest.mark.parametrize("seed", [-1, 0.5, 3, True, None, "1", 2**53])
def test_a_seed_length_that_is_not_a_whole_number_within_the_log_fails(seed: object) -> None:
    with pytest.raises(ScheduleLogError):
        fold_schedule([change_event(at("a")), change_event(at("b"))], seed)


@pytest.mark.parametrize(("seed", "seen"), [(0, ["a", "b"]), (1, ["b"]), (1.0, ["b"]), (2, [])])
def test_only_events_from_the_seed_length_on_are_folded(seed: object, seen: list[str]) -> None:
    events = [change_event(at("a")), change_event(at("b"))]
    assert fold_schedule(events, seed).to_json()["seenIds"] == seen


def test_a_corrupt_event_in_an_inherited_prefix_is_never_decoded() -> None:
    events = [change_event({"version": 9}), change_event(at("schedule-1"))]
    assert fold_schedule(events, 1).to_json()["seenIds"] == ["schedule-1"]


def test_a_child_cannot_delete_or_dispatch_a_parent_id() -> None:
    events = [change_event(at("p")), change_event(delete("p"))]
    with pytest.raises(ScheduleLogError):
        fold_schedule(events, 1)


@pytest.mark.parametrize(
    ("seen", "expected"),
    [
        ([], "schedule-1"),
        (["schedule-1"], "schedule-2"),
        (["custom", "schedule-3"], "schedule-4"),
        (["one", "schedule-2"], "schedule-3"),
        (["schedule-5"], "schedule-2"),
        (["schedule-2", "schedule-3"], "schedule-4"),
    ],
)
def test_ids_are_allocated_by_count_skipping_taken_ones(seen: list[str], expected: str) -> None:
    assert allocate_schedule_id(seen) == expected


def test_deleted_and_dispatched_ids_are_never_reused() -> None:
    state = fold_of(at("schedule-1"), delete("schedule-1"))
    assert allocate_schedule_id(state["seenIds"]) == "schedule-2"


def test_a_forks_first_id_ignores_the_parents_ids() -> None:
    events = [change_event(at("schedule-1")), change_event(at("schedule-2"))]
    assert allocate_schedule_id(fold_schedule(events, 2).seen_ids) == "schedule-1"


def test_fold_records_and_views_expose_typed_values() -> None:
    fold = fold_schedule(
        [change_event(after("a")), change_event(at("b")), change_event(every("c"))]
    )
    a, b, c = fold.active
    assert isinstance(a, AfterRecord)
    assert a.after_seconds == 30
    assert isinstance(b, AtRecord)
    assert b.scheduled_at == T0
    assert isinstance(c, EveryRecord)
    assert c.every_seconds == 300
    assert format_instant_ms(c.scheduled_ms) == T0
    assert a.scheduled_datetime.isoformat() == "2026-08-05T12:05:00+00:00"
    assert b.scheduled_datetime == c.scheduled_datetime == a.scheduled_datetime
    assert fold.get("b") is b
    assert fold.get("zzz") is None
    assert view(a, a.scheduled_ms - 1)["state"] == "scheduled"
    assert view(a, a.scheduled_ms)["state"] == "overdue"


def test_decode_change_builds_the_typed_change() -> None:
    change = decode_change(dispatch("a", T0))
    assert change.to_json() == dispatch("a", T0)


# --- the incremental folder -------------------------------------------------------------------


def test_a_rejected_feed_leaves_the_folder_unchanged() -> None:
    folder = ScheduleFolder()
    folder.feed(at("a"))
    before = folder.fold()
    for bad in (at("a"), delete("b"), {"version": 2}, dispatch("a", T0)):
        with pytest.raises(ScheduleLogError):
            folder.feed(bad)
    assert folder.fold() == before


def test_a_copy_is_independent_of_its_original() -> None:
    folder = ScheduleFolder()
    folder.feed(every("e"))
    twin = folder.copy()
    twin.feed(dispatch("e", "2026-08-05T12:06:00.000Z"))
    twin.feed(at("x"))
    assert folder.fold().to_json() == fold_of(every("e"))
    assert twin.fold().seen_ids == ("e", "x")


def test_fold_snapshots_are_cached_until_the_next_feed() -> None:
    folder = ScheduleFolder()
    folder.feed(at("a"))
    first = folder.fold()
    assert folder.fold() is first
    folder.feed(at("b"))
    assert folder.fold() is not first


BAD_STATES = {
    "extra key": {"active": [], "seenIds": [], "x": 1},
    "missing key": {"active": []},
    "seen not a list": {"active": [], "seenIds": "a"},
    "active not a list": {"active": {}, "seenIds": []},
    "duplicate seen": {"active": [], "seenIds": ["a", "a"]},
    "bad seen id": {"active": [], "seenIds": [" a"]},
    "active not seen": {"active": [at("b")["schedule"]], "seenIds": ["a"]},
    "duplicate active": {"active": [at("a")["schedule"]] * 2, "seenIds": ["a"]},
    "active out of order": {
        "active": [at("b")["schedule"], at("a")["schedule"]],
        "seenIds": ["a", "b"],
    },
    "bad record": {"active": [{"id": "a"}], "seenIds": ["a"]},
}


@pytest.mark.parametrize("state", list(BAD_STATES.values()), ids=list(BAD_STATES))
def test_from_json_rejects_a_state_no_fold_can_produce(state: dict[str, Any]) -> None:
    with pytest.raises(ScheduleLogError):
        ScheduleFolder.from_json(state)


def test_the_fold_reader_prefers_the_logs_incremental_fold() -> None:
    class IncrementalLog(MemoryLog):
        def schedule_fold(self) -> Any:
            return fold_schedule([change_event(at("from-checkpoint"))])

    log = IncrementalLog([change_event(at("from-events"))])
    assert fold_reader(log)().seen_ids == ("from-checkpoint",)
    assert fold_reader(PlainLog(log))().seen_ids == ("from-events",)


# --- property tests: an independent model -----------------------------------------------------

IDS = ["a", "b", "schedule-1", "schedule-2"]
BASES = [1_785_931_200_000, MAX_MS - 3_000_000]
PROMPTS = st.text(alphabet=st.sampled_from('a"\\\u2028\u0085\ufeff😀 \n'), min_size=1, max_size=6)


@st.composite
def operations(draw: st.DrawFn) -> dict[str, Any]:
    sid = draw(st.sampled_from(IDS))
    op = draw(st.sampled_from(["after", "at", "every", "delete", "dispatch", "dispatch-every"]))
    base = draw(st.sampled_from(BASES))
    target = base + draw(st.integers(min_value=0, max_value=3_000_000))
    if op in ("after", "at", "every"):
        prompt = draw(PROMPTS).strip(" \n\ufeff\u2028") or "p"
        record: dict[str, Any] = {"id": sid, "kind": op, "prompt": prompt}
        if op == "after":
            record["afterSeconds"] = draw(st.integers(min_value=1, max_value=10**6))
        if op == "every":
            record["everySeconds"] = draw(st.integers(min_value=300, max_value=1200))
        record["scheduledAt"] = format_instant_ms(target)
        return {"version": 1, "operation": "create", "schedule": record}
    if op == "delete":
        return delete(sid)
    if op == "dispatch":
        return dispatch(sid)
    return dispatch(sid, format_instant_ms(target))


class Model:
    """A plain re-statement of §8.3 and §7: lists, linear scans and a stepping loop."""

    def __init__(self) -> None:
        self.active: list[dict[str, Any]] = []
        self.seen: list[str] = []

    def apply(self, change: dict[str, Any]) -> bool:
        if change["operation"] == "create":
            record = dict(change["schedule"])
            if record["id"] in self.seen:
                return False
            self.seen.append(record["id"])
            self.active.append(record)
            return True
        found = [r for r in self.active if r["id"] == change["id"]]
        if not found:
            return False
        record = found[0]
        if change["operation"] == "delete":
            self.active.remove(record)
            return True
        return self._dispatch(record, change.get("acceptedAt"))

    def _dispatch(self, record: dict[str, Any], accepted: str | None) -> bool:
        if (record["kind"] == "every") != (accepted is not None):
            return False
        if accepted is None:
            self.active.remove(record)
            return True
        if accepted < record["scheduledAt"]:
            return False
        step = record["everySeconds"] * 1000
        late = _ms(accepted) - _ms(record["scheduledAt"])
        occurrence = _ms(accepted) - late % step  # the latest aligned occurrence at or before A
        if occurrence + step > MAX_MS:
            self.active.remove(record)
        else:
            record["scheduledAt"] = format_instant_ms(occurrence + step)
        return True


def _ms(text: str) -> int:
    return parse_instant_ms(text)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(operations(), max_size=14))
def test_random_change_sequences_fold_like_the_independent_model(
    changes: list[dict[str, Any]],
) -> None:
    model = Model()
    folder = ScheduleFolder()
    all_valid = True
    for change in changes:
        valid = model.apply(change)
        all_valid = all_valid and valid
        if valid:
            folder.feed(change)
        else:
            with pytest.raises(ScheduleLogError):
                folder.feed(change)
        assert folder.fold().to_json() == {"active": model.active, "seenIds": model.seen}
        assert ScheduleFolder.from_json(folder.fold().to_json()).fold() == folder.fold()
    if all_valid:
        assert fold_of(*changes) == folder.fold().to_json()
    else:
        with pytest.raises(ScheduleLogError):
            fold_of(*changes)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(operations(), max_size=12), st.data())
def test_the_incremental_folder_agrees_with_fold_schedule_on_every_prefix(
    changes: list[dict[str, Any]], data: st.DataObject
) -> None:
    events: list[dict[str, Any]] = []
    for change in changes:
        events.append({"type": "user/message", "data": {"text": "hi"}})
        events.append(change_event(change))
    seed = data.draw(st.integers(min_value=0, max_value=len(events)))
    folder = ScheduleFolder()
    broken = False
    for end in range(seed, len(events) + 1):
        if end > seed and events[end - 1]["type"] == "schedule/change" and not broken:
            try:
                folder.feed(events[end - 1]["data"])
            except ScheduleLogError:
                broken = True
        if broken:
            with pytest.raises(ScheduleLogError):
                fold_schedule(events[:end], seed)
        else:
            assert fold_schedule(events[:end], seed) == folder.fold()
