"""Find in conversation (core.session.find): the shown path's messages, a slice at a time."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from core.events import (
    AssistantMessage,
    Entry,
    Event,
    ExchangeHidden,
    ModelRef,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.find import FindJob, Hit
from core.session.folds import SessionFolds

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("scripted", "m")


def log_of(
    exchanges: list[tuple[str, str]], extra: Sequence[Event] = ()
) -> tuple[list[Entry], SessionFolds]:
    events: list[Event] = []
    for turn, (question, answer) in enumerate(exchanges, start=1):
        first = len(events)
        events += [
            UserMessage(f"u{turn}", question, UserSource(None)),
            TurnStart(turn, first),
            AssistantMessage(f"a{turn}", answer, (), MODEL, "stop"),
            TurnEnd(turn, "completed"),
        ]
    events += list(extra)
    entries = [Entry(seq, AT, event) for seq, event in enumerate(events)]
    folds = SessionFolds()
    for entry in entries:
        folds.feed(entry)
    return entries, folds


def test_matches_are_counted_case_insensitively_in_questions_and_answers() -> None:
    entries, folds = log_of(
        [("Where is the Oven?", "The oven is in the kitchen. OVEN!"), ("hi", "hello")]
    )
    job = FindJob(entries, folds.snapshot(), "oven")
    assert job.advance() is True
    assert job.hits == [Hit(0, 1), Hit(2, 2)]
    assert job.total == 3
    assert FindJob(entries, folds.snapshot(), "   ").advance() is True
    assert FindJob(entries, folds.snapshot(), "a.b").advance() is True  # not a pattern


def test_hidden_exchanges_are_not_searched() -> None:
    entries, folds = log_of([("secret plan", "ok"), ("other", "fine")], [ExchangeHidden(0, True)])
    job = FindJob(entries, folds.snapshot(), "plan")
    job.advance()
    assert job.hits == []


@given(
    st.lists(st.tuples(st.text(max_size=8), st.text(max_size=8)), max_size=12), st.integers(1, 7)
)
def test_searching_in_slices_finds_what_one_pass_finds(
    exchanges: list[tuple[str, str]], budget: int
) -> None:
    entries, folds = log_of(exchanges)
    whole = FindJob(entries, folds.snapshot(), "a")
    whole.advance(10**6)
    sliced = FindJob(entries, folds.snapshot(), "a")
    rounds = 0
    while not sliced.advance(budget):
        rounds += 1
        assert rounds <= len(entries)
    assert sliced.hits == whole.hits


def test_entries_appended_later_are_searched_without_starting_over() -> None:
    entries, folds = log_of([("first apple", "ok")])
    job = FindJob(entries, folds.snapshot(), "apple")
    job.advance()
    more, more_folds = log_of([("first apple", "ok"), ("second apple", "apple pie")])
    entries.extend(more[len(entries) :])
    job.extend(more_folds.snapshot())
    assert job.done is False
    job.advance()
    assert job.hits == [Hit(0, 1), Hit(4, 1), Hit(6, 1)]
