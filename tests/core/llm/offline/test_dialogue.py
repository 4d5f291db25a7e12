"""Follow-ups: the offline assistant reads a message as the answer to what it asked, in real
conversations with the real reminder tools on a fake clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.events import ToolCall
from core.llm.messages import Message
from core.llm.offline.dialogue import (
    TURNS_READ_BACK,
    ConfirmAll,
    Created,
    Delivered,
    Exchange,
    Which,
    interpret,
    parse_snooze,
    split_turns,
    state_before,
)
from core.llm.offline.values import Ask, Create, DeleteMatching, ListReminders, NeedWhen, Reply
from core.llm.offline.when import Reading
from tests.core.llm.conversation import Conversation

WEDNESDAY = datetime(2026, 8, 5, 11, 21, 18, tzinfo=UTC)  # 13:21:18 in Berlin
BERLIN = "Europe/Berlin"
READING = Reading(WEDNESDAY, BERLIN)


def at(day: str, clock: str, zone: str = BERLIN) -> dict[str, Any]:
    return {"at": {"date": day, "time": clock, "time_zone": zone}}


def create(prompt: str, **selector: Any) -> list[tuple[str, Any]]:
    return [("schedule_create", {"prompt": prompt, **selector})]


def talk(*turns: str, zone: str | None = BERLIN) -> Conversation:
    """A conversation after ``turns`` ("+N" moves the clock N minutes, "!deliver" delivers)."""
    conversation = Conversation(WEDNESDAY, zone)
    conversation.play(turns)
    return conversation


def test_a_question_for_both_is_answered_in_one_message_or_in_two() -> None:
    c = talk("remind me")
    assert c.say("stretch") == (
        "When should I remind you to stretch? For example “in 20 minutes”, “at 17:00” or "
        "“tomorrow at 9:30”."
    )
    assert c.say("in 10 minutes").startswith("I'll remind you to stretch at 13:31")
    assert c.calls == create("stretch", after_seconds=600)


def test_an_answer_that_cannot_be_read_keeps_the_question_open() -> None:
    c = talk("remind me to stretch")
    assert c.say("banana").startswith("I didn't understand when “banana” is.")
    assert c.say("whenever you like").startswith("I didn't understand when")
    c.say("at 5pm")
    assert c.calls == create("stretch", **at("2026-08-05", "17:00:00"))


def test_two_halves_of_a_request_make_one_reminder() -> None:
    c = talk("remind me to stretch")
    c.say("remind me at 5pm")
    assert c.calls == create("stretch", **at("2026-08-05", "17:00:00"))
    c = talk("remind me at 6pm")
    c.say("remind me to eat")
    assert c.calls == create("eat", **at("2026-08-05", "18:00:00"))


def test_a_what_answer_may_bring_its_own_time() -> None:
    c = talk("remind me at noon")
    c.say("lunch at 3pm")
    assert c.calls == create("lunch", **at("2026-08-05", "15:00:00"))


@pytest.mark.parametrize("answer", ["never mind", "no", "cancel", "forget it", "nvm"])
def test_never_mind_drops_the_question(answer: str) -> None:
    c = talk("remind me to stretch")
    assert c.say(answer) == "Okay, I won't set it."
    assert c.calls == []
    assert c.say("in 5 minutes") == "What should I remind you about in 5 minutes?"


def test_a_what_answer_names_a_thing_or_a_task() -> None:
    assert (
        talk("remind me at 5pm").say("dentist").startswith("I'll remind you about dentist at 17:00")
    )
    assert (
        talk("remind me at 5pm")
        .say("call the dentist")
        .startswith("I'll remind you to call the dentist at 17:00")
    )


def test_what_time_today_is_answered_with_a_clock_time() -> None:
    c = talk("remind me today to call the bank")
    c.say("4pm")
    assert c.calls == create("call the bank", **at("2026-08-05", "16:00:00"))


def test_a_timer_asked_how_long_takes_a_bare_duration() -> None:
    c = talk("set a timer")
    assert (
        c.say("90 seconds")
        == "Timer set for 1 minute 30 seconds: I'll tell you at 13:22 *(schedule-1)*."
    )
    assert c.calls == create("Timer for 1 minute 30 seconds", after_seconds=90)


def test_the_zone_question_takes_a_city_and_asks_again_for_what_it_does_not_know() -> None:
    c = talk("remind me at 5pm to leave", zone=None)
    assert c.say("Narnia") == (
        "I don't recognise “Narnia” as a time zone. Tell me a city such as Berlin or a zone name "
        "such as Europe/Berlin or UTC."
    )
    assert c.calls == []
    c.say("my time zone is Asia/Tokyo")  # 20:21 in Tokyo: 17:00 is tomorrow there
    assert c.calls == create("leave", **at("2026-08-06", "17:00:00", "Asia/Tokyo"))


@pytest.mark.parametrize(
    ("answer", "selector"),
    [
        ("the first one", at("2026-08-05", "17:00:00", "America/New_York")),
        ("Eastern", at("2026-08-05", "17:00:00", "America/New_York")),
        ("EDT", at("2026-08-05", "17:00:00", "America/New_York")),
        ("the second", {"at": "2026-08-05T17:00:00-05:00"}),
        ("UTC-5", {"at": "2026-08-05T17:00:00-05:00"}),
        ("EST", {"at": "2026-08-05T17:00:00-05:00"}),
        ("fixed", {"at": "2026-08-05T17:00:00-05:00"}),
    ],
)
def test_an_ambiguous_zone_is_settled_by_the_answer(answer: str, selector: dict[str, Any]) -> None:
    c = talk("remind me at 5pm EST to call Bob")
    c.say(answer)
    assert c.calls == create("call Bob", **selector)


def test_an_answer_that_picks_no_zone_asks_again_naming_both() -> None:
    c = talk("remind me at 5pm EST to call Bob")
    assert c.say("the fourth one") == "Please say which one: “New York time” or “UTC-05:00”."
    assert c.say("Mars") == "Please say which one: “New York time” or “UTC-05:00”."
    c.say("New York")
    assert c.calls == create("call Bob", **at("2026-08-05", "17:00:00", "America/New_York"))


WATER = ("remind me in 1 hour to water the plants", "remind me in 2 hours to drink water")


@pytest.mark.parametrize(
    ("answer", "deleted"),
    [
        ("1", ["schedule-2"]),  # a position: schedule-1 is not among those it asked about
        ("the last one", ["schedule-3"]),
        ("delete the second one", ["schedule-3"]),
        ("all of them", ["schedule-2", "schedule-3"]),
        ("the plants one", ["schedule-2"]),
    ],
)
def test_which_one_is_answered_among_the_reminders_it_named(
    answer: str, deleted: list[str]
) -> None:
    c = talk("remind me in 30 minutes to stretch", *WATER, "delete the water reminder")
    c.say(answer)
    assert c.calls == [("schedule_list", {})] + [("schedule_delete", {"id": i}) for i in deleted]


def test_a_which_answer_that_names_none_of_them_deletes_nothing() -> None:
    c = talk(*WATER, "delete the water reminder")
    assert c.say("the piano one").startswith("I couldn't find a reminder matching “piano”.")
    assert c.calls == [("schedule_list", {})]
    c = talk(*WATER, "delete the water reminder")
    assert c.say("#7").startswith("I couldn't find a reminder")
    c = talk(*WATER, "delete the water reminder")
    c.say("list my reminders")
    assert c.calls == [("schedule_list", {})]


def test_a_reminder_gone_meanwhile_is_not_deleted_twice() -> None:
    c = talk(
        "remind me in 1 minute to water the plants",
        "remind me in 2 hours to drink water",
        "delete the water reminder",
        "+1",
        "!deliver",  # the first one fires before the answer
    )
    assert c.say("the first one") == (
        "That reminder is no longer active (it may have fired or been deleted), so I deleted nothing."
    )


def test_a_yes_or_no_question_takes_a_new_request_or_asks_again() -> None:
    c = talk(*WATER, "clear all my reminders")
    assert c.say("hmm what") == (
        "Should I delete all 2 reminders? Say “yes” to delete them or “no” to keep them."
    )
    c = talk(*WATER, "clear all my reminders")
    c.say("what reminders do I have")
    assert c.calls == [("schedule_list", {})]


def test_cancel_that_means_the_reminder_just_set_and_nothing_older() -> None:
    c = talk("remind me in 1 hour to a", "remind me in 2 hours to b")
    assert c.say("oops, cancel that") == "Deleted “b” *(schedule-2)*."
    assert c.say("cancel that").startswith("Which reminder should I delete?")


def test_a_snooze_comes_right_after_the_reminder() -> None:
    for answer, seconds in (("5 more minutes", 300), ("in 10 minutes", 600), ("snooze", 600),
                            ("another 15 minutes", 900)):  # fmt: skip
        c = talk("remind me in 1 minute to stretch", "+1", "!deliver")
        c.say(answer)
        assert c.calls == create("stretch", after_seconds=seconds), answer
    c = talk("remind me in 1 minute to stretch", "+1", "!deliver")
    assert c.say("again").startswith("When should I remind you to stretch again?")
    c = talk("remind me in 1 minute to stretch", "+1", "!deliver")
    assert c.say("snooze until the cows come home").startswith("I didn't understand when")


def test_a_reminder_arriving_between_a_question_and_its_answer_keeps_the_question() -> None:
    c = talk("remind me in 1 minute to drink", "remind me at 6pm", "+1", "!deliver")
    c.say("call the plumber")
    assert c.calls == create("call the plumber", **at("2026-08-05", "18:00:00"))
    c = talk("remind me in 1 minute to drink", "remind me to stretch", "+1", "!deliver")
    c.say("in 10 minutes")  # right after a reminder arrived, a time alone is a snooze
    assert c.calls == create("drink", after_seconds=600)


def test_only_the_last_turns_are_read_back() -> None:
    c = talk("remind me to stretch", *["hello"] * TURNS_READ_BACK)
    assert c.say("in 10 minutes") == "What should I remind you about in 10 minutes?"


def test_states_are_read_from_the_history_the_assistant_wrote() -> None:
    c = talk(*WATER, "delete the water reminder")
    turns = split_turns([*c.history, Message(role="user", text="x")])
    assert state_before(turns, READING) == Which(("schedule-1", "schedule-2"))
    c = talk(*WATER, "clear all my reminders")
    turns = split_turns([*c.history, Message(role="user", text="x")])
    assert state_before(turns, READING) == ConfirmAll(("schedule-1", "schedule-2"))
    c = talk("remind me in 5 minutes to go")
    turns = split_turns([*c.history, Message(role="user", text="x")])
    assert state_before(turns, READING) == Created("schedule-1")


def test_a_create_that_failed_or_a_result_that_is_not_json_leaves_nothing_to_cancel() -> None:
    call = ToolCall("c1", "schedule_create", "{}")
    failed = Message(role="tool", text='{"code":"not_future","message":"m"}', tool_call_id="c1")
    garbled = Message(role="tool", text="{oops", tool_call_id="c1")
    for result in (failed, garbled):
        history = [
            Message(role="user", text="remind me in 5 minutes to go"),
            Message(role="assistant", tool_calls=(call,)),
            result,
            Message(role="user", text="cancel that"),
        ]
        assert state_before(split_turns(history), READING) is None
    assert Exchange(call, garbled).json() is None
    assert Exchange(ToolCall("c2", "x", "[1]"), None).arguments() == {}


def test_interpreting_in_each_state_directly() -> None:
    delivered = Delivered("stretch", NeedWhen("call mom"))
    assert interpret("in 5 minutes", delivered, READING) == Create(
        "stretch",
        interpret("in 5 minutes", delivered, READING).when,  # type: ignore[union-attr]  # a Create
    )
    assert isinstance(interpret("list my reminders", Delivered(None), READING), ListReminders)
    assert interpret("yes", ConfirmAll(("schedule-1",)), READING) == DeleteMatching(
        among=("schedule-1",), every=True, confirmed=True
    )
    assert interpret("no", Which(("schedule-1",)), READING) == Reply(
        "Okay, I didn't delete anything."
    )
    assert isinstance(parse_snooze("again", "stretch", READING), Ask)
    assert parse_snooze("list my reminders", "stretch", READING) is None


def test_a_what_answer_with_a_time_that_passed_asks_for_another() -> None:
    c = talk("remind me at noon")
    assert c.say("lunch yesterday").startswith("That day has already passed")
    assert c.calls == []


def test_what_time_tonight_is_answered_with_an_hour() -> None:
    c = talk("remind me tonight to lock up", "+480")  # 21:21: tonight's 20:00 has passed
    c.clock.advance(-timedelta(minutes=480))
    late = Conversation(datetime(2026, 8, 5, 19, 30, tzinfo=UTC), BERLIN)
    assert late.say("remind me tonight to lock up") == "It's already past 20:00. What time tonight?"
    late.say("11")
    assert late.calls == create("lock up", **at("2026-08-05", "23:00:00"))
    assert c.calls == create("lock up", **at("2026-08-05", "20:00:00"))
