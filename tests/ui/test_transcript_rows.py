"""Transcript rows built from typed entries: kinds, tool summaries, reminder cards."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from core.events import AssistantMessage, ModelRef, TokenUsage, UserMessage
from core.framing import parse_framing
from core.readable import tool_summary
from tests.ui.events import T0, EventScript, create_call, view
from ui.transcript_rows import (
    TurnUsage,
    first_text_wait,
    merge_tool_result,
    reminder_caption,
    row_for_event,
    usage_numbers,
)

TRICKY = st.text(
    alphabet=st.sampled_from(['"', "\\", "\u2028", "\u0085", "\ufeff", "😀", "a", "\n", " "]),
    min_size=1,
)


def test_a_user_message_is_a_user_row_and_a_follow_up_is_a_reminder_row() -> None:
    script = EventScript()
    user = script.user("hello")
    reminder = script.reminder("schedule-1", "stretch", T0, T0)
    assert [r.kind for r in row_for_event(user, "UTC")] == ["user"]
    [row] = row_for_event(reminder, "UTC")
    assert row.kind == "reminder"
    assert [(i.schedule_id, i.prompt, i.occurrence_at) for i in row.reminders] == [
        ("schedule-1", "stretch", T0)
    ]


def test_a_reminder_delivered_late_says_when_it_was_due_and_delivered() -> None:
    script = EventScript()
    event = script.reminder("schedule-1", "stretch", T0, T0 + timedelta(minutes=30))
    [row] = row_for_event(event, "Europe/Berlin")
    assert row.late
    assert reminder_caption(row, "Europe/Berlin") == "Reminder · due 14:00 · delivered 14:30 (late)"


def test_a_reminder_on_time_is_not_late() -> None:
    script = EventScript()
    [row] = row_for_event(script.reminder("schedule-1", "x", T0, T0 + timedelta(seconds=2)), "UTC")
    assert not row.late
    assert reminder_caption(row, "UTC") == "Reminder · due 12:00"


@given(TRICKY, TRICKY)
def test_reminder_framing_round_trips_any_id_and_prompt(schedule_id: str, prompt: str) -> None:
    script = EventScript()
    message = script.reminder(schedule_id, prompt, T0, T0).event
    assert isinstance(message, UserMessage)
    items = message.reminders or ()
    assert [(i.schedule_id, i.prompt) for i in items] == [(schedule_id, prompt)]


def test_a_batch_framing_lists_every_reminder() -> None:
    text = (
        "[SCHEDULE REMINDER BATCH]\nRecurring reminders ...\nreminders_json: "
        '[{"schedule_id":"schedule-fast","occurrence_at":"2026-08-05T12:00:00.000Z","reminder_prompt":"fast"},'
        '{"schedule_id":"schedule-slow","occurrence_at":"2026-08-05T11:59:00.000Z","reminder_prompt":"slow"}]'
    )
    assert [i.prompt for i in parse_framing(text) or ()] == ["fast", "slow"]


def test_a_create_call_with_its_result_reads_like_the_spec_card() -> None:
    script = EventScript()
    call = script.answer("", [create_call("c1", "stretch", 120)])
    [row] = row_for_event(call, "Europe/Berlin")
    assert row.title == "Create reminder — stretch"
    result = script.result(
        "c1", "schedule_create", view("schedule-3", "stretch", "2026-08-05T08:45:00.000Z")
    )
    merged = merge_tool_result(row, result.event, "Europe/Berlin")  # type: ignore[arg-type]
    assert merged.title == "Create reminder — stretch, 10:45 · schedule-3"
    assert '"after_seconds": 120' in merged.detail
    assert '"id": "schedule-3"' in merged.detail


def test_tool_errors_and_deletes_are_summarised_in_words() -> None:
    failed = tool_summary("schedule_create", "{}", '{"code":"not_future","message":"m"}', "UTC")
    assert failed == "Create reminder — not done: that time has already passed"
    often = tool_summary(
        "schedule_create", "{}", '{"code":"frequency_too_high","message":"m"}', "UTC"
    )
    assert often == "Create reminder — not done: it can repeat at most every 5 minutes"
    refused = tool_summary("schedule_create", "{}", "prompt must be a string", "UTC", is_error=True)
    assert refused == "Create reminder — not done: it was refused"
    novel = tool_summary("schedule_list", "{}", '{"code":"new_code","message":"m"}', "UTC")
    assert novel == "List reminders — not done: it failed"
    deleted = tool_summary(
        "schedule_delete", '{"id":"schedule-3"}', '{"id":"schedule-3","deleted":true}', "UTC"
    )
    assert deleted == "Delete reminder — schedule-3 · deleted"
    missing = tool_summary(
        "schedule_delete",
        '{"id":"x"}',
        '{"id":"x","deleted":false,"code":"schedule_not_found"}',
        "UTC",
    )
    assert missing == "Delete reminder — x · not found"
    assert tool_summary("schedule_list", "{}", "[1,2]", "UTC") == "List reminders — 2 active"


def test_an_empty_answer_says_so_unless_it_called_tools_or_was_stopped() -> None:
    script = EventScript()
    [row] = row_for_event(script.answer("  \n"), "UTC")
    assert (row.kind, row.text) == ("assistant", "*The model sent an empty answer.*")
    [tool] = row_for_event(script.answer("", [create_call("c1", "x", 60)]), "UTC")
    assert tool.kind == "tool"
    stopped = script.add(
        "assistant/message",
        {
            "id": "a-stopped",
            "text": "",
            "toolCalls": [],
            "model": {"provider": "offline", "name": "offline"},
            "finish": "interrupted",
        },
    )
    assert row_for_event(stopped, "UTC") == []


def test_a_failed_turn_is_an_error_row_and_a_completed_one_makes_none() -> None:
    script = EventScript()
    failed = script.add(
        "turn/end",
        {"turn": 1, "status": "failed", "error": {"kind": "connection", "message": "No route"}},
    )
    done = script.add("turn/end", {"turn": 2, "status": "completed"})
    [row] = row_for_event(failed, "UTC")
    assert (row.kind, row.text) == ("error", "No route")
    assert row_for_event(done, "UTC") == []


def test_bookkeeping_events_make_no_rows() -> None:
    script = EventScript()
    for kind in ("turn/start", "schedule/change", "session/title", "something/new"):
        assert row_for_event(script.add(kind, {}), "UTC") == []


def step(completion: int, duration: int | None, first_text: int | None) -> AssistantMessage:
    return AssistantMessage(
        "a", "x", (), ModelRef("m", "m"), "stop", TokenUsage(100, completion), duration, first_text
    )


def test_the_rate_is_over_the_writing_and_the_wait_for_the_first_word_is_said() -> None:
    usage = TurnUsage().plus(step(60, 15_000, 12_000))  # 12 s reading, 3 s writing
    assert usage_numbers(usage) == ("100", "60", "20")
    assert first_text_wait(usage) == "12"
    both = usage.plus(step(30, 2_000, 500))  # a second step: its wait is not the turn's
    assert usage_numbers(both) == ("200", "90", "20")  # 90 tokens over 4.5 s of writing
    assert first_text_wait(both) == "12"


def test_an_answer_that_came_whole_or_without_words_has_no_rate() -> None:
    whole = TurnUsage().plus(step(40, 9_000, 8_990))  # unstreamed: its text came at the end
    assert usage_numbers(whole) == ("100", "40", "")
    assert first_text_wait(whole) == "9.0"
    wordless = TurnUsage().plus(step(6, 15_000, None))  # an empty answer, or a tool call alone
    assert usage_numbers(wordless) == ("100", "6", "")
    assert first_text_wait(wordless) == ""
    then = wordless.plus(step(20, 6_000, 4_000))  # the words came in the next step
    assert usage_numbers(then) == ("200", "26", "10")  # its 20 tokens over 2 s of writing
    assert first_text_wait(then) == "19"  # 15 s of the tool step, then 4 s
    unreported = AssistantMessage("a", "", (), ModelRef("m", "m"), "tool_calls", None, 5_000)
    after_it = TurnUsage().plus(unreported).plus(step(20, 6_000, 4_000))
    assert not TurnUsage().plus(unreported).reported
    assert first_text_wait(after_it) == "9.0"  # the step without usage is waited for too
    quick = TurnUsage().plus(step(10, 1_200, 300))
    assert first_text_wait(quick) == ""  # under a second: not worth a word
    assert TurnUsage().plus(step(5, None, None)).per_second is None
