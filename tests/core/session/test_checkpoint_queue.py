"""The transcript's queue (which inputs a turn has taken, the newest turn) rides in the session's
folds and their checkpoint: the incremental fold equals a scan of the log on random logs, survives
a checkpoint round trip at any cut, and a checkpoint of the format before it (version 4, without
the queue) is never misread: a real reopen ignores it, folds the log once and writes version 5."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import Entry, Event, SessionTitle, TurnEnd, TurnStart, UserMessage, UserSource
from core.session.checkpoint import CHECKPOINT_VERSION
from core.session.folds import SessionFolds
from core.transcript.queue import NO_TURN, Queue, TurnQueue
from tests import wire as v
from tests.core.session.helpers import add_turn, log_path, make_store, user
from tests.core.transcript.session_model import ACTIONS, play
from tests.fakes import FakeClock

ACTION_LISTS = st.lists(
    st.tuples(st.sampled_from(ACTIONS), st.integers(0, 40)), min_size=0, max_size=120
)
PROPERTY = settings(max_examples=150, deadline=None)


def scanned(entries: Sequence[Entry]) -> Queue:
    """The queue found by reading the whole log (the reference the fold must equal)."""
    taken = {
        entry.event.input
        for entry in entries
        if isinstance(entry.event, TurnStart) and entry.event.input < entry.seq
    }
    untaken = tuple(
        entry.seq
        for entry in entries
        if isinstance(entry.event, UserMessage) and entry.seq not in taken
    )
    starts = [entry for entry in entries if isinstance(entry.event, TurnStart)]
    if not starts:
        return Queue(untaken, NO_TURN, False, len(entries))
    newest = starts[-1]
    assert isinstance(newest.event, TurnStart)
    ended = any(isinstance(e.event, TurnEnd) for e in entries[newest.seq + 1 :])
    return Queue(untaken, (newest.event.input, newest.seq), not ended, len(entries))


def folded(entries: Sequence[Entry], cut: int | None = None) -> SessionFolds:
    """The session's folds over ``entries``; with ``cut``, through a checkpoint's JSON there."""
    folds = SessionFolds()
    for entry in entries[:cut] if cut is not None else entries:
        folds.feed(entry)
    if cut is None:
        return folds
    folds = SessionFolds.from_json(json.loads(json.dumps(folds.to_json())), folds.schedule)
    for entry in entries[cut:]:
        folds.feed(entry)
    return folds


@PROPERTY
@given(ACTION_LISTS, st.integers(0, 200))
def test_the_folded_queue_equals_a_scan_of_the_log_through_any_checkpoint(
    actions: list[tuple[str, int]], cut: int
) -> None:
    entries = play(actions).entries
    expected = scanned(entries)
    assert folded(entries).snapshot().queue == expected
    assert folded(entries, min(cut, len(entries))).snapshot().queue == expected
    caught_up = TurnQueue()
    caught_up.catch_up(len(entries), entries.__getitem__)
    assert caught_up.snapshot(len(entries)) == expected


RAW_EVENTS = st.lists(
    st.one_of(
        st.just("message"),
        # turn/start: any turn, any input seq (a negative one makes the folds' other sets refuse
        # their checkpoint: that log is rescanned at each open, which this test does not cover)
        st.tuples(st.integers(0, 9), st.integers(0, 60)),
        st.sampled_from(["completed", "failed", "interrupted", "cancelled"]),
        st.just("title"),
    ),
    max_size=80,
)


def raw_entries(steps: list[object]) -> list[Entry]:
    """A log of events in any order, not only the agent's: a turn/start may name a seq that is
    no message, is later than itself or was taken before; a turn/end may name no open turn."""
    entries: list[Entry] = []
    for seq, step in enumerate(steps):
        event: Event
        match step:
            case "message":
                event = UserMessage(f"u{seq}", f"m{seq}", UserSource("UTC"))
            case (turn, input_seq):
                event = TurnStart(turn, input_seq)
            case "title":
                event = SessionTitle("t")
            case status:
                event = TurnEnd(seq % 3, status)
        entries.append(Entry(seq, "2026-08-05T12:00:00.000Z", event))
    return entries


@PROPERTY
@given(RAW_EVENTS, st.integers(0, 80))
def test_on_logs_in_any_order_the_fold_still_equals_the_scan(steps: list[object], cut: int) -> None:
    entries = raw_entries(steps)
    expected = scanned(entries)
    assert folded(entries).snapshot().queue == expected
    assert folded(entries, min(cut, len(entries))).snapshot().queue == expected


def test_a_queue_of_another_shape_does_not_decode() -> None:
    good = TurnQueue(Queue((3, 5), (1, 2), True)).to_json()
    assert TurnQueue.from_json(good).snapshot(0) == Queue((3, 5), (1, 2), True)
    for bad in (
        {**good, "untaken": [5, 3]},
        {**good, "untaken": [-1]},
        {**good, "newest": [1, "2"]},
        {**good, "newest": [1, 2.0]},
        {**good, "open": 1},
    ):
        try:
            TurnQueue.from_json(bad)
        except ValueError:
            continue
        raise AssertionError(f"decoded {bad}")


def as_version_4(raw: bytes) -> bytes:
    """A checkpoint as the version before wrote it: no queue, version 4, sealed as it sealed."""
    value = json.loads(raw)
    del value["seal"]
    del value["folds"]["conversation"]["queue"]
    value["version"] = 4
    head = json.dumps(value, separators=(",", ":")).encode()[:-1]
    return head + b',"seal":"' + xxhash.xxh3_128_hexdigest(head).encode() + b'"}'


def test_a_version_4_checkpoint_is_rebuilt_from_the_log_never_misread(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await store.create()
        add_turn(session, 1, "q1")
        session.append(v.USER_MESSAGE, user("typed while closed", "m9"))  # waits for a turn
        waiting = len(session.events) - 1
        await session.close()
        checkpoint = log_path(tmp_path, session.id).parent / "checkpoint.json"
        assert json.loads(checkpoint.read_bytes())["version"] == CHECKPOINT_VERSION == 5
        checkpoint.write_bytes(as_version_4(checkpoint.read_bytes()))
        reopened = await store.open(session.id)
        queue = reopened.conversation().queue
        assert queue == scanned(reopened.entries)
        assert queue is not None
        assert queue.untaken == (waiting,)
        assert not queue.open
        await reopened.close()
        rewritten = json.loads(checkpoint.read_bytes())
        assert rewritten["version"] == 5
        assert rewritten["folds"]["conversation"]["queue"]["untaken"] == [waiting]
        warm = await store.open(session.id)  # and the version 5 it wrote is read as it is
        assert warm.conversation().queue == queue
        await warm.close()

    asyncio.run(scenario())
