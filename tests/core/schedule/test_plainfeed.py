"""The compiled feed of plain changes (core/schedule/plainfeed.pyx) against ``ScheduleFolder.feed``
(differential): fed in bulk, any payloads end in the same fold, with records of the same types, or
fail with the same error after the same changes; its instant parse and trim set are the pure
code's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ScheduleLogError
from core.instant import MAX_MS, MIN_MS, format_instant_ms, parse_instant_text
from core.schedule import ScheduleFolder, fold
from core.schedule.wire import TRIM_CHARS
from tests.core.schedule.test_fold_fast import CHANGES, payloads, valid_payloads

compiled = fold.compiled_feed
needs_compiled = pytest.mark.skipif(compiled is None, reason="installed without a C compiler")


def _bulk(chunks: list[list[Any]], feed: Any) -> list[Any]:
    """What ``_fed`` finds with ``feed_many`` over the compiled feed ``feed`` (or None)."""
    with mock.patch.object(fold, "compiled_feed", feed):
        return _fed(chunks, ScheduleFolder.feed_many)


def _one_by_one(chunks: list[list[Any]]) -> list[Any]:
    return _fed(chunks, lambda folder, chunk: list(map(folder.feed, chunk)))


def _fed(chunks: list[list[Any]], feed: Callable[[ScheduleFolder, list[Any]], object]) -> list[Any]:
    """The error, if any, and the fold (with its records' types) after each chunk is fed (a
    chunk's error ends only that chunk: the fold goes on from its state, as it may)."""
    folder, found = ScheduleFolder(), []
    for chunk in chunks:
        try:
            feed(folder, chunk)
        except ScheduleLogError as refused:
            found.append(str(refused))
        state = folder.fold()
        found.append((state, [type(record) for record in state.active]))
    return found


T0 = 1_785_931_200_000


@st.composite
def plausible_logs(draw: st.DrawFn) -> list[Any]:
    """Long runs of changes a writer could append (fresh ids, deletes and dispatches of active
    ones, ``every`` dispatches before, at or after the target), with now and then one of any
    shape (``payloads``, ``valid_payloads``) or a plain change made odd."""
    log: list[Any] = []
    active: dict[str, str] = {}  # id -> kind, as a writer would know them
    for number in range(draw(st.integers(0, 60))):
        step = draw(st.sampled_from(["create"] * 3 + ["delete", "dispatch"] * 2 + ["odd"] * 2))
        if step != "create" and active:
            sid = draw(st.sampled_from(sorted(active)))
        else:
            step, sid = "create", f"s-{number}"
        if step == "create":
            kind = draw(st.sampled_from(["at", "after", "every"]))
            target = format_instant_ms(T0 + draw(st.integers(0, 10**7)))
            record = {"id": sid, "kind": kind, "prompt": "p", "scheduledAt": target}
            if kind != "at":
                record[f"{kind}Seconds"] = draw(st.sampled_from(SECONDS))
            payload: Any = {"version": 1, "operation": "create", "schedule": record}
            active[sid] = kind
        elif step == "delete" or (step == "dispatch" and active[sid] != "every"):
            payload = {"version": 1, "operation": step, "id": sid}
            del active[sid]
        elif step == "dispatch":
            accepted = format_instant_ms(T0 + draw(st.integers(-(10**6), 10**8)))
            payload = {"version": 1, "operation": "dispatch", "id": sid, "acceptedAt": accepted}
        else:
            payload = draw(st.one_of(_odd(sid), _odd(sid), payloads(), valid_payloads()))
        log.append(payload)
    return log


SECONDS = [0, 1, 299, 300, 7200, 10**12, 2**53 - 1, 2**53]


def _odd(sid: str) -> st.SearchStrategy[Any]:
    return st.sampled_from(odd_changes(sid))


def odd_changes(sid: str) -> list[Any]:
    """A plain change of ``sid`` made odd: each is ``feed``'s to judge (applied or refused)."""
    return [
        {"version": True, "operation": "delete", "id": sid},
        {"version": 1.0, "operation": "dispatch", "id": sid},
        {"version": 1, "operation": "dispatch", "id": sid, "acceptedAt": None},
        {"version": 1, "operation": "dispatch", "id": sid, "acceptedAt": format_instant_ms(0)},
        {"version": 1, "operation": "delete", "id": sid, "acceptedAt": format_instant_ms(T0)},
        {"version": 1, "operation": "delete", "id": f" {sid}"},
        {"version": 1, "operation": "dispatch", "id": sid, "acceptedAt": _LATE, "z": 1},
        {"version": 1, "operation": "dispatch", "id": sid, "z": _LATE},
        {"version": 1, "operation": "delete", "id": sid, "z": None},
        {"version": 1, "operation": "delete"},
        {"version": 1, "operation": "create", "id": sid},
    ]


LONG_RUNS = plausible_logs()
_LATE = format_instant_ms(T0 + 10**9)
_KINDS = {
    "at": {},
    "after": {"afterSeconds": 60},
    "every": {"everySeconds": 300},
}


@pytest.mark.parametrize("kind", sorted(_KINDS))
@pytest.mark.parametrize("odd", range(len(odd_changes("s"))))
def test_each_odd_change_after_plain_ones_is_feed_s_to_judge(kind: str, odd: int) -> None:
    """Every shape ``_odd`` makes, of each kind of active record, behind a run of plain
    changes: the bulk feed (compiled, then pure) ends as feeding one by one does."""
    record = {"id": "s", "kind": kind, "prompt": "p", "scheduledAt": format_instant_ms(T0)}
    plain = [
        {"version": 1, "operation": "create", "schedule": record | _KINDS[kind]},
        {"version": 1, "operation": "create", "schedule": record | {"id": "t", "kind": "at"}},
    ]
    changes = [*plain, odd_changes("s")[odd]]
    expected = _one_by_one([changes])
    assert _bulk([changes], None) == expected
    if compiled is not None:
        assert _bulk([changes], compiled) == expected


@settings(max_examples=200, deadline=None)
@given(st.one_of(LONG_RUNS, LONG_RUNS, CHANGES), st.lists(st.integers(1, 12), max_size=8))
def test_a_bulk_feed_folds_or_fails_as_feeding_one_by_one(
    changes: list[Any], sizes: list[int]
) -> None:
    chunks, rest = [], changes
    for size in sizes:
        chunks.append(rest[:size])
        rest = rest[size:]
    chunks.append(rest)
    expected = _one_by_one(chunks)
    assert _bulk(chunks, None) == expected
    if compiled is not None:
        assert _bulk(chunks, compiled) == expected


@needs_compiled
def test_a_bulk_feed_after_a_next_due_index_leaves_the_index_to_feed() -> None:
    folder = ScheduleFolder()
    index = folder.due_index()
    target = format_instant_ms(1_785_931_200_000)
    record = {"id": "schedule-1", "kind": "at", "prompt": "p", "scheduledAt": target}
    with mock.patch.object(fold, "compiled_feed", mock.Mock(side_effect=AssertionError)):
        folder.feed_many([{"version": 1, "operation": "create", "schedule": record}])
    assert index.earliest() == 1_785_931_200_000


INSTANT_LIKE = st.builds(
    lambda digits, text: "".join(d if s == "0" else s for d, s in zip(digits, text, strict=True)),
    st.lists(st.sampled_from("0123456789"), min_size=24, max_size=24),
    st.just("0000-00-00T00:00:00.000Z"),
)


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.integers(MIN_MS, MAX_MS).map(format_instant_ms),
        INSTANT_LIKE,
        st.text(max_size=26),
        st.sampled_from(["2024-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z"]),
    )
)
def test_the_compiled_instant_parse_is_the_pure_one(text: str) -> None:
    from core.schedule.plainfeed import parse_instant

    try:
        expected: int | None = parse_instant_text(text)
    except ValueError:
        expected = None
    assert parse_instant(text) == expected


@needs_compiled
def test_the_compiled_trim_set_is_the_pure_one() -> None:
    from core.schedule.plainfeed import trimmed

    found = {chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and trimmed(chr(c))}
    assert found == set(TRIM_CHARS)
