"""Properties of the session folds: the input queue (agent.md §1, §7) built the way the agent
writes a log (with retries, versions, hides and choices), its checkpoint round trip at any point,
and a fork's scope."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import (
    SCHEDULE_SOURCE,
    Entry,
    Event,
    ExchangeHidden,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.folds import SessionFolds

AT = "2026-08-05T12:00:00.000Z"
OPS = st.lists(
    st.sampled_from(["input", "reminder", "run", "retry", "noise", "choice"])
    | st.tuples(
        st.just("end"), st.sampled_from(["completed", "failed", "cancelled", "interrupted"])
    )
    | st.tuples(st.sampled_from(["edit", "select", "hide", "show"]), st.integers(0, 40)),
    max_size=24,
)


def simulate(ops: list[Any], seed: list[Entry]) -> list[Entry]:
    """A log built the way the agent writes it: turns consume the oldest runnable input."""
    log = list(seed)
    folds = fold(log, len(seed))

    def add(event: Event) -> None:
        log.append(Entry(len(log), AT, event))
        folds.feed(log[-1])

    for op in ops:
        state = folds.inputs()
        inputs = [e.seq for e in log if isinstance(e.event, UserMessage)]
        if op in ("input", "reminder"):
            source = SCHEDULE_SOURCE if op == "reminder" else UserSource(None)
            add(UserMessage("m", "text", source, state.parent))
        elif op == "noise":
            add(ScheduleChanged({"version": 1}))
        elif op == "choice":
            add(SessionModel("offline", None, 0.5) if len(log) % 2 else SessionInstructions("be"))
        elif op in ("run", "retry") and state.open_turn is None:
            start = min(state.failed, default=None) if op == "retry" else state.next_input()
            if start is not None:
                add(TurnStart(state.last_turn + 1, start))
        elif isinstance(op, tuple) and op[0] == "end" and state.open_turn is not None:
            add(TurnEnd(state.open_turn.turn, op[1]))
        elif isinstance(op, tuple) and op[0] != "end" and inputs:
            target = inputs[op[1] % len(inputs)]
            if op[0] == "edit":
                parent = max((seq for seq in inputs if seq < target), default=-1)
                add(UserMessage("v", "again", UserSource(None), parent, target))
            elif op[0] == "select":
                add(PathSelected(target))
            else:
                add(ExchangeHidden(target, op[0] == "hide"))
    return log


def fold(
    log: list[Entry], seed: int, start: int = 0, folds: SessionFolds | None = None
) -> SessionFolds:
    folds = folds if folds is not None else SessionFolds(seed)
    for entry in log[start:]:
        folds.feed(entry)
    return folds


@settings(max_examples=40, deadline=None)
@given(OPS, OPS, st.integers(min_value=0))
def test_a_checkpointed_fold_continued_equals_a_whole_fold(
    prefix_ops: list[Any], ops: list[Any], cut: int
) -> None:
    prefix = simulate(prefix_ops, [])
    log = simulate(ops, prefix)
    cut %= len(log) + 1
    saved = fold(log[:cut], len(prefix)).to_json()
    resumed = fold(log, len(prefix), cut, SessionFolds.from_json(saved, SessionFolds().schedule))
    assert resumed.to_json() == fold(log, len(prefix)).to_json()
    assert all(seq >= len(prefix) for seq in resumed.pending)


def test_a_fork_inherits_no_pending_input_but_continues_turn_numbers() -> None:
    parent = simulate(["input", "run", ("end", "completed"), "input"], [])
    state = fold(parent, len(parent)).inputs()
    assert (state.pending, state.last_turn) == ((), 1)


def test_a_failed_input_neither_loops_nor_blocks_the_next_one() -> None:
    state = fold(simulate(["input", "run", ("end", "failed")], []), 0).inputs()
    assert (state.pending, state.next_input(), state.failed) == ((), None, {0})
    state = fold(simulate(["input", "run", ("end", "failed"), "input"], []), 0).inputs()
    assert (state.next_input(), state.failed) == (3, {0})
    retried = simulate(["input", "run", ("end", "failed"), "retry", ("end", "completed")], [])
    assert fold(retried, 0).inputs().failed == frozenset()


def test_a_failed_reminder_is_run_again_once_a_later_turn_completes() -> None:
    ops: list[Any] = ["reminder", "run", ("end", "failed"), "input", "run"]
    state = fold(simulate(ops, []), 0).inputs()
    assert state.pending == ()  # the user's input runs; the reminder waits for an answer
    state = fold(simulate([*ops, ("end", "failed")], []), 0).inputs()
    assert state.pending == ()  # the endpoint still fails: nothing loops
    state = fold(simulate([*ops, ("end", "completed")], []), 0).inputs()
    assert (state.pending, state.failed) == (
        (0,),
        {
            0,
        },
    )
    again = simulate([*ops, ("end", "completed"), "run", ("end", "completed")], [])
    assert fold(again, 0).inputs().failed == frozenset()


def test_an_interrupted_turn_gives_its_input_back() -> None:
    state = fold(simulate(["input", "run", ("end", "interrupted")], []), 0).inputs()
    assert (state.pending, state.failed) == ((0,), frozenset())
