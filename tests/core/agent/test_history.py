"""The model's history window as a fold of the session's entries (agent.md §2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.agent.history import MAX_OLD_MESSAGE_CHARS, fold_history
from core.events import (
    SCHEDULE_SOURCE,
    AssistantMessage,
    Attachment,
    Entry,
    Event,
    ModelRef,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.llm.budget import (
    IMAGE_TOKENS,
    TOOLS_OVERHEAD,
    budget_for,
    fixed_tokens,
    message_tokens,
    messages_tokens,
    text_tokens,
)
from core.llm.messages import Message

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


# ---------------------------------------------------------------- the token budget


def test_a_token_budget_drops_whole_older_turns_oldest_first() -> None:
    log = turns(["a" * 270] * 6)  # each turn: ~2 x (8 + 100) estimated tokens
    whole = fold_history(log)
    per_turn = messages_tokens(whole[:2])

    fitted = fold_history(log, max_tokens=3 * per_turn)

    assert fitted == whole[-6:]  # the three newest turns, each whole
    assert messages_tokens(fitted) <= 3 * per_turn


def test_the_running_turn_stays_even_when_it_alone_is_over_the_budget() -> None:
    log = turns([None, None, "z" * 5000])

    fitted = fold_history(log, max_tokens=-40)

    assert [m.text for m in fitted] == ["m3", "z" * 5000]


@given(
    sizes=st.lists(st.integers(0, 400), min_size=1, max_size=12),
    budget=st.integers(-10, 4000),
)
def test_any_budget_keeps_a_suffix_of_whole_turns_that_fits_or_only_the_last(
    sizes: list[int], budget: int
) -> None:
    whole = fold_history(turns(["x" * n for n in sizes]))

    fitted = fold_history(turns(["x" * n for n in sizes]), max_tokens=budget)

    assert whole[len(whole) - len(fitted) :] == fitted
    assert fitted[0].role == "user"
    assert len(fitted) == 2 or messages_tokens(fitted) <= budget
    if len(fitted) < len(whole):  # one more turn would not have fitted
        assert messages_tokens(whole[len(whole) - len(fitted) - 2 :]) > budget


def test_the_token_estimate_is_conservative_per_byte_and_counts_tools() -> None:
    assert text_tokens("") == 0
    assert text_tokens("abc") == 2  # 3 bytes / 2.7, rounded up
    assert text_tokens("日本語") == 4  # 9 bytes: CJK counted in full
    bare = fixed_tokens("system", [], None)
    with_tools = fixed_tokens("system", [{"type": "function", "function": {"name": "f"}}], "R")
    assert with_tools > bare + TOOLS_OVERHEAD


def test_attached_files_count_by_their_bytes_and_an_image_as_a_fixed_share() -> None:
    notes = Attachment("notes.md", "text/markdown", "a" * 64, 2700)
    photo = Attachment("photo.png", "image/png", "b" * 64, 4_000_000)
    bare = message_tokens(Message(role="user", text="see"))

    assert message_tokens(Message(role="user", text="see", attachments=(notes,))) == bare + 1000
    assert message_tokens(Message(role="user", text="see", attachments=(photo,))) == (
        bare + IMAGE_TOKENS
    )


def test_a_budget_keeps_a_quarter_for_the_answer_within_bounds() -> None:
    assert (budget_for(2048, "default").answer_tokens, budget_for(2048, "x").prompt_tokens) == (
        512,
        1536,
    )
    assert budget_for(1_000_000, "server").answer_tokens == 4096
    assert budget_for(300, "settings").answer_tokens == 150  # never more than half


@given(
    st.lists(
        st.tuples(st.sampled_from(["failed", "interrupted"]), st.integers(0, 30)),
        min_size=1,
        max_size=4,
    ),
    st.data(),
)
def test_a_retried_input_carries_its_earlier_turns_whatever_the_event_window(
    earlier: list[tuple[str, int]], data: st.DataObject
) -> None:
    """Each earlier turn of input 0 made a call and ended ``failed`` or ``interrupted``; other
    inputs' turns follow it; then input 0 runs again. However small the event window, the
    request is the one an unbounded window gives: every earlier call and result, once."""
    events: list[Event] = [UserMessage("u0", "go", UserSource(None))]
    number = 0
    for index, (ended, others) in enumerate(earlier):
        number += 1
        call = ToolCall(f"c{index}", "schedule_create", "{}")
        events += [
            TurnStart(number, 0),
            AssistantMessage(f"a{index}", "", (call,), MODEL, "tool_calls"),
            ToolResult(call.id, call.name, f"made {index}", False),
            TurnEnd(number, ended),  # type: ignore[arg-type]  # sampled from the statuses
        ]
        for _ in range(others):
            number += 1
            events += turn(number, len(events), "other")
    number += 1
    events.append(TurnStart(number, 0))
    log = entries(events)
    window = data.draw(st.integers(1, len(log)))
    unbounded = fold_history(log, input_seq=0, max_events=len(log) + 1)
    assert fold_history(log, input_seq=0, max_events=window) == unbounded
    assert [m.text for m in unbounded if m.role == "tool"] == [
        f"made {index}" for index in range(len(earlier))
    ]
