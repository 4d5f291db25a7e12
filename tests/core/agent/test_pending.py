"""The pending-input fold read from the tail equals a full replay, and the history window."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.agent.history import MAX_OLD_MESSAGE_CHARS, fold_history
from core.agent.pending import PendingInputs, fold_pending
from core.session import vocabulary as v

OPS = st.lists(
    st.sampled_from(["input", "run", "retry", "noise"])
    | st.tuples(
        st.just("end"), st.sampled_from(["completed", "failed", "cancelled", "interrupted"])
    ),
    max_size=20,
)


def simulate(ops: list[Any], seed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Builds a log the way the agent writes it: turns consume the oldest runnable input."""
    events = list(seed)
    fold = PendingInputs(len(seed))
    for seq, event in enumerate(events):
        fold.feed(seq, event)

    def add(kind: str, data: dict[str, Any]) -> None:
        events.append({"type": kind, "data": data})
        fold.feed(len(events) - 1, events[-1])

    for op in ops:
        if op == "input":
            add(v.USER_MESSAGE, v.user_message("m", "text", v.user_source(None)))
        elif op == "noise":
            add(v.SCHEDULE_CHANGE, {"version": 1})
        elif op in ("run", "retry") and fold.open_turn is None:
            start = fold.next_input(include_held=op == "retry")
            if start is not None:
                add(v.TURN_START, v.turn_start(fold.last_turn + 1, start))
        elif isinstance(op, tuple) and fold.open_turn is not None:
            add(v.TURN_END, v.turn_end(fold.open_turn.turn, op[1]))
    return events


def full(events: list[dict[str, Any]], seed: int) -> PendingInputs:
    fold = PendingInputs(seed)
    for seq, event in enumerate(events):
        fold.feed(seq, event)
    return fold


@settings(max_examples=30, deadline=None)
@given(OPS, OPS)
def test_the_tail_fold_equals_a_full_replay(prefix_ops: list[Any], ops: list[Any]) -> None:
    prefix = simulate(prefix_ops, [])
    events = simulate(ops, prefix)
    tail, whole = fold_pending(events, len(prefix)), full(events, len(prefix))
    assert (tail.pending, tail.held, tail.last_turn) == (whole.pending, whole.held, whole.last_turn)
    assert all(seq >= len(prefix) for seq in tail.pending)


def test_a_fork_inherits_no_pending_input_but_continues_turn_numbers() -> None:
    parent = simulate(["input", "run", ("end", "completed"), "input"], [])
    fold = fold_pending(parent, len(parent))
    assert (fold.pending, fold.last_turn) == ((), 1)


def test_failed_input_is_held_until_the_next_input_arrives() -> None:
    events = simulate(["input", "run", ("end", "failed")], [])
    fold = fold_pending(events)
    assert (fold.pending, fold.next_input(), fold.next_input(include_held=True)) == ((0,), None, 0)
    events = simulate(["input", "run", ("end", "failed"), "input"], [])
    assert fold_pending(events).next_input() == 0


def turn(n: int, text: str) -> list[dict[str, Any]]:
    return [
        {"type": v.USER_MESSAGE, "data": v.user_message(f"u{n}", text, v.user_source(None))},
        {"type": v.TURN_START, "data": v.turn_start(n, 0)},
        {
            "type": v.ASSISTANT_MESSAGE,
            "data": v.assistant_message(f"a{n}", f"re {text}", [], {}, "stop"),
        },
        {"type": v.TURN_END, "data": v.turn_end(n, "completed")},
    ]


def test_the_history_window_keeps_only_the_most_recent_turns() -> None:
    events: list[dict[str, Any]] = []
    for n in range(1, 11):
        block = turn(n, f"m{n}")
        block[1]["data"]["input"] = len(events)
        events += block
    messages = fold_history(events, max_turns=3)
    assert [m.text for m in messages] == ["m8", "re m8", "m9", "re m9", "m10", "re m10"]
    capped = fold_history(events, max_turns=100, max_events=9)
    assert [m.text for m in capped] == ["m9", "re m9", "m10", "re m10"]


def test_a_plugin_input_is_marked_as_such_in_history() -> None:
    events = [
        {
            "type": v.USER_MESSAGE,
            "data": v.user_message("r", "[SCHEDULE REMINDER]", v.SCHEDULE_SOURCE),
        },
        {"type": v.TURN_START, "data": v.turn_start(1, 0)},
    ]
    (message,) = fold_history(events)
    assert (message.role, message.source_kind) == ("user", "plugin")


def _turns_with_answers(answers: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for n, answer in enumerate(answers, start=1):
        block = turn(n, f"m{n}")
        block[1]["data"]["input"] = len(events)
        block[2]["data"]["text"] = answer
        events += block
    return events


def test_older_turns_enter_the_history_only_while_their_text_fits_the_budget() -> None:
    events = _turns_with_answers(["x" * 5000, "y" * 5000, "z" * 10])

    messages = fold_history(events, max_chars=6000)

    assert [m.text[:1] for m in messages] == ["m", "y", "m", "z"]


def test_the_running_turn_is_kept_whole_however_large_it_is() -> None:
    huge = "h" * (MAX_OLD_MESSAGE_CHARS * 4)
    events = _turns_with_answers(["old", huge])

    messages = fold_history(events, max_chars=100)

    assert [m.text for m in messages] == ["m2", huge]


def test_a_huge_earlier_answer_is_shortened_to_head_and_tail_with_a_note() -> None:
    huge = "a" * 20_000 + "MIDDLE" + "b" * 20_000
    events = _turns_with_answers([huge, "short"])

    first_answer = fold_history(events)[1]

    assert len(first_answer.text) < MAX_OLD_MESSAGE_CHARS + 100
    assert first_answer.text.startswith("a" * 1000)
    assert first_answer.text.endswith("b" * 1000)
    assert "MIDDLE" not in first_answer.text
    assert "characters of this earlier message left out" in first_answer.text
