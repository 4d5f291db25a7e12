"""Properties of the session folds: the input queue (agent.md §1) built the way the agent writes
a log, its checkpoint round trip at any point, and a fork's scope."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import Entry, Event, ScheduleChanged, TurnEnd, TurnStart, UserMessage, UserSource
from core.session.folds import SessionFolds

AT = "2026-08-05T12:00:00.000Z"
OPS = st.lists(
    st.sampled_from(["input", "run", "retry", "noise"])
    | st.tuples(
        st.just("end"), st.sampled_from(["completed", "failed", "cancelled", "interrupted"])
    ),
    max_size=20,
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
        if op == "input":
            add(UserMessage("m", "text", UserSource(None)))
        elif op == "noise":
            add(ScheduleChanged({"version": 1}))
        elif op in ("run", "retry") and state.open_turn is None:
            start = state.next_input(include_held=op == "retry")
            if start is not None:
                add(TurnStart(state.last_turn + 1, start))
        elif isinstance(op, tuple) and state.open_turn is not None:
            add(TurnEnd(state.open_turn.turn, op[1]))
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


def test_failed_input_is_held_until_the_next_input_arrives() -> None:
    state = fold(simulate(["input", "run", ("end", "failed")], []), 0).inputs()
    assert (state.pending, state.next_input(), state.next_input(include_held=True)) == (
        (0,),
        None,
        0,
    )
    state = fold(simulate(["input", "run", ("end", "failed"), "input"], []), 0).inputs()
    assert state.next_input() == 0
