"""The model's history window as a fold of the session's entries (agent.md §2)."""

from __future__ import annotations

from core.agent.history import MAX_OLD_MESSAGE_CHARS, fold_history
from core.events import (
    SCHEDULE_SOURCE,
    AssistantMessage,
    Entry,
    Event,
    ModelRef,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("scripted", "m")


def entries(events: list[Event]) -> list[Entry]:
    return [Entry(seq, AT, event) for seq, event in enumerate(events)]


def turn(n: int, first: int, text: str, answer: str | None = None) -> list[Event]:
    """One completed turn whose input is at seq ``first``."""
    return [
        UserMessage(f"u{n}", text, UserSource(None)),
        TurnStart(n, first),
        AssistantMessage(f"a{n}", f"re {text}" if answer is None else answer, (), MODEL, "stop"),
        TurnEnd(n, "completed"),
    ]


def turns(answers: list[str | None]) -> list[Entry]:
    events: list[Event] = []
    for n, answer in enumerate(answers, start=1):
        events += turn(n, len(events), f"m{n}", answer)
    return entries(events)


def test_the_history_window_keeps_only_the_most_recent_turns() -> None:
    log = turns([None] * 10)
    messages = fold_history(log, max_turns=3)
    assert [m.text for m in messages] == ["m8", "re m8", "m9", "re m9", "m10", "re m10"]
    capped = fold_history(log, max_turns=100, max_events=9)
    assert [m.text for m in capped] == ["m9", "re m9", "m10", "re m10"]


def test_a_reminder_input_is_marked_as_a_plugin_message_in_history() -> None:
    log = entries([UserMessage("r", "[SCHEDULE REMINDER]", SCHEDULE_SOURCE), TurnStart(1, 0)])
    (message,) = fold_history(log)
    assert (message.role, message.source_kind) == ("user", "plugin")


def test_input_typed_during_a_turn_appears_with_the_turn_that_answers_it() -> None:
    log = entries(
        [
            UserMessage("u1", "first", UserSource(None)),
            TurnStart(1, 0),
            UserMessage("u2", "second", UserSource(None)),  # typed while turn 1 ran
            AssistantMessage("a1", "answer one", (), MODEL, "stop"),
            TurnEnd(1, "completed"),
            TurnStart(2, 2),
        ]
    )
    assert [m.text for m in fold_history(log)] == ["first", "answer one", "second"]


def test_older_turns_enter_the_history_only_while_their_text_fits_the_budget() -> None:
    messages = fold_history(turns(["x" * 5000, "y" * 5000, "z" * 10]), max_chars=6000)
    assert [m.text[:1] for m in messages] == ["m", "y", "m", "z"]


def test_the_running_turn_is_kept_whole_however_large_it_is() -> None:
    huge = "h" * (MAX_OLD_MESSAGE_CHARS * 4)
    messages = fold_history(turns(["old", huge]), max_chars=100)
    assert [m.text for m in messages] == ["m2", huge]


def test_a_huge_earlier_answer_is_shortened_to_head_and_tail_with_a_note() -> None:
    huge = "a" * 20_000 + "MIDDLE" + "b" * 20_000
    first_answer = fold_history(turns([huge, "short"]))[1]
    assert len(first_answer.text) < MAX_OLD_MESSAGE_CHARS + 100
    assert first_answer.text.startswith("a" * 1000)
    assert first_answer.text.endswith("b" * 1000)
    assert "MIDDLE" not in first_answer.text
    assert "characters of this earlier message left out" in first_answer.text
