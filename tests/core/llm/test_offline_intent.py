"""The offline assistant's phrase parser: exact tool arguments for every supported phrasing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.llm.offline_intent import (
    Clarify,
    Create,
    DeleteById,
    DeleteMatching,
    Help,
    ListReminders,
    parse_intent,
    parse_reply,
    parse_snooze,
    zone_reply,
)
from core.llm.offline_when import parse_duration, parse_when

# Wednesday 2026-08-05 12:00 UTC = 14:00 in Berlin (CEST) = 08:00 in New York (EDT).
NOON = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"


@pytest.fixture(scope="module", autouse=True)
def _warm_dateparser() -> None:
    """dateparser is imported lazily and loads its English data on first use: pay that once."""
    assert parse_when("tomorrow", NOON, "UTC") is not None


def at(day: str, clock: str, zone: str) -> dict[str, Any]:
    return {"at": {"date": day, "time": clock, "time_zone": zone}}


# fmt: off
CREATE_CASES = [
    # (text, now, zone, expected arguments without the prompt, expected prompt)
    ("remind me in 10 minutes to stretch", NOON, BERLIN, {"after_seconds": 600}, "stretch"),
    ("In 2 hours remind me to call Ana.", NOON, BERLIN, {"after_seconds": 7200}, "call Ana"),
    ("in 2 hours, remind me to call Ana", NOON, None, {"after_seconds": 7200}, "call Ana"),
    ("Please remind me in half an hour to check the oven!", NOON, BERLIN, {"after_seconds": 1800}, "check the oven"),
    ("remind me in an hour to call mom please", NOON, BERLIN, {"after_seconds": 3600}, "call mom"),
    ("remind me in 45 seconds to breathe", NOON, "UTC", {"after_seconds": 45}, "breathe"),
    ("remind me in 3 days to renew the passport", NOON, BERLIN, {"after_seconds": 259200}, "renew the passport"),
    ("remind me in 1 hour and 30 minutes to leave", NOON, BERLIN, {"after_seconds": 5400}, "leave"),
    ("remind me in an hour and a half to leave", NOON, BERLIN, {"after_seconds": 5400}, "leave"),
    ("remind me in 2h 15m to leave", NOON, BERLIN, {"after_seconds": 8100}, "leave"),
    ("remind me to stretch in 10 minutes", NOON, BERLIN, {"after_seconds": 600}, "stretch"),
    ("remind me to look at the sky in 10 minutes", NOON, BERLIN, {"after_seconds": 600}, "look at the sky"),
    ("remind me to check the week plan in 10 minutes", NOON, BERLIN, {"after_seconds": 600}, "check the week plan"),
    ("remind me in 10 minutes to stretch to music", NOON, BERLIN, {"after_seconds": 600}, "stretch to music"),
    ("REMIND ME IN 10 MINUTES TO STRETCH", NOON, BERLIN, {"after_seconds": 600}, "STRETCH"),
    ("can you remind me in 5 min to check the tea?", NOON, BERLIN, {"after_seconds": 300}, "check the tea"),
    ("remind me at 5pm to leave", NOON, BERLIN, at("2026-08-05", "17:00:00", BERLIN), "leave"),
    ("remind me at 5pm to leave", NOON, NEW_YORK, at("2026-08-05", "17:00:00", NEW_YORK), "leave"),
    ("remind me at 5:30 p.m. to leave", NOON, "UTC", at("2026-08-05", "17:30:00", "UTC"), "leave"),
    ("remind me at 10am to leave", NOON, BERLIN, at("2026-08-06", "10:00:00", BERLIN), "leave"),
    ("remind me at 9 to call", NOON, BERLIN, at("2026-08-05", "21:00:00", BERLIN), "call"),
    ("remind me at 09:00 to call", NOON, BERLIN, at("2026-08-06", "09:00:00", BERLIN), "call"),
    ("remind me at noon to eat", NOON, NEW_YORK, at("2026-08-05", "12:00:00", NEW_YORK), "eat"),
    ("remind me tonight at 9 to lock up", NOON, BERLIN, at("2026-08-05", "21:00:00", BERLIN), "lock up"),
    ("remind me tomorrow at 9:30 to water the plants", NOON, BERLIN, at("2026-08-06", "09:30:00", BERLIN), "water the plants"),
    ("remind me at 9:30 tomorrow to water the plants", NOON, BERLIN, at("2026-08-06", "09:30:00", BERLIN), "water the plants"),
    ("remind me tomorrow to water the plants", NOON, BERLIN, at("2026-08-06", "14:00:00", BERLIN), "water the plants"),
    ("remind me to call mom tomorrow", NOON, BERLIN, at("2026-08-06", "14:00:00", BERLIN), "call mom"),
    ("remind me on 24 Dec at 18:00 to buy gifts", NOON, BERLIN, at("2026-12-24", "18:00:00", BERLIN), "buy gifts"),
    ("remind me on December 24 at 6pm to buy gifts", NOON, NEW_YORK, at("2026-12-24", "18:00:00", NEW_YORK), "buy gifts"),
    ("remind me on friday to pay rent", NOON, BERLIN, at("2026-08-07", "09:00:00", BERLIN), "pay rent"),
    ("remind me on 5 Aug at 18:00 to go", NOON, BERLIN, at("2026-08-05", "18:00:00", BERLIN), "go"),
    ("remind me at 17:00 America/New_York to call", NOON, BERLIN, at("2026-08-05", "17:00:00", NEW_YORK), "call"),
    ("remind me at 5pm UTC to call", NOON, None, at("2026-08-05", "17:00:00", "UTC"), "call"),
    ("set a reminder for 5pm to leave", NOON, BERLIN, at("2026-08-05", "17:00:00", BERLIN), "leave"),
    ("every 30 minutes remind me to drink water", NOON, BERLIN, {"every_seconds": 1800}, "drink water"),
    ("remind me every 30 minutes to drink water", NOON, None, {"every_seconds": 1800}, "drink water"),
    ("remind me every day to take my pills", NOON, BERLIN, {"every_seconds": 86400}, "take my pills"),
    ("remind me every hour to stand up", NOON, BERLIN, {"every_seconds": 3600}, "stand up"),
    ("remind me every 2 hours to stand up", NOON, BERLIN, {"every_seconds": 7200}, "stand up"),
    ("remind me every other day to water the cactus", NOON, BERLIN, {"every_seconds": 172800}, "water the cactus"),
    ("daily remind me to journal", NOON, BERLIN, {"every_seconds": 86400}, "journal"),
    ("remind me every 30 seconds to blink", NOON, BERLIN, {"every_seconds": 30}, "blink"),
]
# fmt: on


@pytest.mark.parametrize(
    ("text", "now", "zone", "selector", "prompt"),
    CREATE_CASES,
    ids=[f"{i:02d}-{c[0][:40]}" for i, c in enumerate(CREATE_CASES)],
)
def test_create_phrasings_produce_exact_tool_arguments(
    text: str, now: datetime, zone: str | None, selector: dict[str, Any], prompt: str
) -> None:
    intent = parse_intent(text, now, zone)
    assert isinstance(intent, Create)
    assert intent.arguments() == {"prompt": prompt, **selector}


def test_a_clock_time_already_passed_today_is_tomorrow_and_marked_as_rolled() -> None:
    intent = parse_intent("remind me at 10am to leave", NOON, BERLIN)  # 14:00 in Berlin
    assert isinstance(intent, Create)
    assert intent.arguments()["at"]["date"] == "2026-08-06"
    assert intent.when.rolled is True  # type: ignore[union-attr]  # the case is a LocalTime


def test_remind_me_about_is_remembered_for_the_confirmation() -> None:
    intent = parse_intent("remind me about the meeting in 5 minutes", NOON, BERLIN)
    assert intent == parse_intent("remind me about the meeting in 5 minutes", NOON, BERLIN)
    assert isinstance(intent, Create)
    assert intent.about is True
    assert intent.arguments() == {"prompt": "the meeting", "after_seconds": 300}


@pytest.mark.parametrize(
    ("now", "zone", "expected_date"),
    [
        (datetime(2026, 8, 5, 21, 30, tzinfo=UTC), BERLIN, "2026-08-06"),  # 23:30 in Berlin
        (datetime(2026, 8, 5, 22, 30, tzinfo=UTC), BERLIN, "2026-08-07"),  # 00:30 on the 6th
        (datetime(2026, 8, 5, 22, 30, tzinfo=UTC), "UTC", "2026-08-06"),
        (datetime(2026, 8, 6, 3, 30, tzinfo=UTC), NEW_YORK, "2026-08-06"),  # 23:30 on the 5th
    ],
    ids=["berlin-2330", "berlin-0030", "utc-2230", "new-york-2330"],
)
def test_tomorrow_near_midnight_follows_the_local_date(
    now: datetime, zone: str, expected_date: str
) -> None:
    intent = parse_intent("remind me tomorrow at 9 to go", now, zone)
    assert isinstance(intent, Create)
    assert intent.arguments()["at"] == {
        "date": expected_date,
        "time": "09:00:00",
        "time_zone": zone,
    }


def test_tomorrow_across_a_dst_change_keeps_the_local_wall_time() -> None:
    saturday = datetime(2026, 3, 7, 15, 0, tzinfo=UTC)  # 10:00 EST; clocks go forward on Sunday
    morning = parse_intent("remind me tomorrow at 9:30 to jog", saturday, NEW_YORK)
    gap = parse_intent("remind me tomorrow at 2:30am to jog", saturday, NEW_YORK)
    delay = parse_intent("remind me in 24 hours to jog", saturday, NEW_YORK)
    assert isinstance(morning, Create)
    assert isinstance(gap, Create)
    assert isinstance(delay, Create)
    assert morning.arguments()["at"] == {
        "date": "2026-03-08",
        "time": "09:30:00",
        "time_zone": NEW_YORK,
    }
    assert gap.arguments()["at"] == {
        "date": "2026-03-08",
        "time": "02:30:00",
        "time_zone": NEW_YORK,
    }
    assert delay.arguments()["after_seconds"] == 86400


@pytest.mark.parametrize(
    "text",
    [
        "what reminders do I have?",
        "list my reminders",
        "show reminders",
        "Show my reminders, please.",
        "which reminders are set",
        "do I have any reminders",
        "reminders",
    ],
)
def test_list_phrasings_ask_for_the_list(text: str) -> None:
    assert parse_intent(text, NOON, BERLIN) == ListReminders()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cancel reminder schedule-3", DeleteById("schedule-3")),
        ("delete schedule-3", DeleteById("schedule-3")),
        ("Delete Schedule-3.", DeleteById("schedule-3")),
        ("delete reminder 3", DeleteById("schedule-3")),
        ("remove #12", DeleteById("schedule-12")),
        ("delete the water reminder", DeleteMatching(("water",))),
        ("cancel my reminder to drink water", DeleteMatching(("drink", "water"))),
        ("stop reminding me to drink water", DeleteMatching(("drink", "water"))),
        ("cancel the reminder", DeleteMatching(())),
        ("cancel all reminders", DeleteMatching((), every=True)),
        ("delete all my reminders", DeleteMatching((), every=True)),
    ],
)
def test_delete_phrasings_name_an_id_or_words_to_match(text: str, expected: object) -> None:
    assert parse_intent(text, NOON, BERLIN) == expected


@pytest.mark.parametrize("text", ["hello", "what's the weather?", "", "   ", "tell me a joke"])
def test_anything_else_is_help(text: str) -> None:
    assert parse_intent(text, NOON, BERLIN) == Help()


@pytest.mark.parametrize(
    ("text", "zone", "says"),
    [
        ("remind me to stretch", BERLIN, "When should I remind you to stretch?"),
        ("remind me in 10 minutes", BERLIN, "What should I remind you about in 10 minutes?"),
        ("remind me at 5pm to leave", None, "Which time zone are you in?"),
        ("remind me tomorrow to leave", None, "Which time zone are you in?"),
        ("remind me every day at 9am to take pills", BERLIN, "fixed interval"),
        ("remind me every monday to call", BERLIN, "fixed interval"),
        ("remind me at 5pm Mars/Olympus to leave", BERLIN, "“Mars/Olympus”"),
        ("remind me at 25:00 to leave", BERLIN, "“25:00”"),
        ("remind me soonish to leave", BERLIN, "I didn't understand when “soonish” is"),
    ],
)
def test_requests_that_cannot_be_scheduled_ask_or_explain(
    text: str, zone: str | None, says: str
) -> None:
    intent = parse_intent(text, NOON, zone)
    assert isinstance(intent, Clarify)
    assert says in intent.text


def test_relative_delays_work_without_a_time_zone() -> None:
    intent = parse_intent("remind me in 5 minutes to leave", NOON, None)
    assert isinstance(intent, Create)
    assert intent.arguments() == {"prompt": "leave", "after_seconds": 300}


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("10 minutes", 600),
        ("half an hour", 1800),
        ("a couple of minutes", 120),
        ("1.5 hours", 5400),
        ("0.5 seconds", 0.5),
        ("1 hour and 30 minutes", 5400),
        ("and 5 minutes", None),
        ("5 minutes and", None),
        ("3 hand", None),
        ("soon", None),
    ],
)
def test_durations_are_read_whole_or_not_at_all(text: str, seconds: float | None) -> None:
    assert parse_duration(text) == seconds


PIECES = st.sampled_from(
    [
        *'"\\\u2028\u0085\ufeff😀 \n\t:/.-,?!0a9é\x00\ud800',
        *(
            "remind me ",
            " to ",
            "in ",
            "at ",
            "every ",
            "tomorrow",
            "5pm",
            "10 minutes",
            "on 24 Dec",
        ),
        *("delete ", "schedule-", "list ", "reminders", "please", "half an hour", "Europe/Berlin"),
    ]
)
BIASED = st.lists(PIECES, max_size=14).map("".join)


@settings(max_examples=35, deadline=None)  # a 20000-example run found nothing
@given(
    text=BIASED,
    zone=st.sampled_from([BERLIN, NEW_YORK, "UTC", None, "Not/AZone", "Pacific/Kiritimati"]),
    now=st.one_of(st.just(NOON), st.datetimes(timezones=st.just(UTC))),
)
def test_the_intent_parser_never_raises_on_arbitrary_text(
    text: str, zone: str | None, now: datetime
) -> None:
    intent = parse_intent(text, now, zone)
    assert isinstance(intent, Create | ListReminders | DeleteById | DeleteMatching | Clarify | Help)
    if isinstance(intent, Create):
        assert intent.prompt.strip() != ""


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("remind me", "What should I remind you about, and when?"),
        ("remind me to", "What should I remind you about, and when?"),
        ("remind me, to stretch", "When should I remind you to stretch?"),
        ("remind me to in 10 minutes", "What should I remind you about in 10 minutes?"),
        ("remind me every banana to eat", "I didn't understand when “every banana” is"),
        ("remind me on to eat", "I didn't understand when “on” is"),
        ("remind me soonish", "I didn't catch when to remind you."),
        ("remind me on 31 Feb to eat", "I couldn't work out which day “31 Feb” is."),
        ("remind me on the 45th to eat", "I didn't understand when “on the 45th” is"),
    ],
)
def test_incomplete_requests_ask_for_what_is_missing(text: str, says: str) -> None:
    intent = parse_intent(text, NOON, "UTC")
    assert isinstance(intent, Clarify)
    assert says in intent.text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "remind me at midnight to sleep",
            {"date": "2026-08-06", "time": "00:00:00", "time_zone": "UTC"},
        ),
        (
            "remind me tonight to lock up",
            {"date": "2026-08-05", "time": "20:00:00", "time_zone": "UTC"},
        ),
        (
            "remind me at 12:15:30 to eat",
            {"date": "2026-08-05", "time": "12:15:30", "time_zone": "UTC"},
        ),
    ],
)
def test_named_times_of_day(text: str, expected: dict[str, str]) -> None:
    intent = parse_intent(text, NOON, "UTC")
    assert isinstance(intent, Create)
    assert intent.arguments()["at"] == expected


def test_a_date_phrase_at_the_end_of_the_calendar_is_out_of_range_not_a_crash() -> None:
    last_day = datetime(9999, 12, 31, 12, 0, tzinfo=UTC)
    intent = parse_intent("remind me at 10am to go", last_day, "UTC")
    assert intent == Clarify("That date is outside the range I can work with.")


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("I'm in America/New_York.", "America/New_York"),
        ("my time zone is utc", "UTC"),
        ("Asia/Kolkata time zone", "Asia/Kolkata"),
        ("Berlin", None),
        ("remind me at 5pm Europe/Berlin to leave", None),
    ],
)
def test_a_message_that_only_names_a_zone_is_recognised(text: str, zone: str | None) -> None:
    assert zone_reply(text) == zone


def test_naming_a_zone_resumes_the_request_that_needed_one() -> None:
    earlier = "remind me at 5pm to leave"
    resumed = parse_reply("Europe/Berlin", earlier, NOON, None)
    assert isinstance(resumed, Create)
    assert resumed.arguments() == {"prompt": "leave", **at("2026-08-05", "17:00:00", BERLIN)}
    assert parse_reply("Europe/Berlin", "remind me in 5 minutes to go", NOON, None) == Help()
    assert parse_reply("Europe/Berlin", None, NOON, None) == Help()
    assert parse_reply("hello", earlier, NOON, None) == Help()


def test_huge_numbers_are_handled_as_text_not_crashes() -> None:
    digits = "9" * 5000  # int() refuses strings over 4300 digits
    assert parse_intent(f"delete reminder {digits}", NOON, "UTC") == DeleteById(
        f"schedule-{digits}"
    )
    assert parse_intent("delete reminder 007", NOON, "UTC") == DeleteById("schedule-7")
    clarify = parse_intent(f"remind me in {digits} minutes to x", NOON, "UTC")
    assert isinstance(clarify, Clarify)
    assert len(clarify.text) < 200
    big = parse_intent("remind me in 999999999999999999 minutes to x", NOON, "UTC")
    assert isinstance(big, Create)
    assert big.arguments()["after_seconds"] == 999999999999999999 * 60


@pytest.mark.parametrize("text", ["thanks", "Thank you!", "ok thanks a lot", "cheers"])
def test_thanks_gets_a_short_answer_not_the_help_text(text: str) -> None:
    assert parse_intent(text, NOON, BERLIN) == Clarify("You're welcome!")


@pytest.mark.parametrize(
    ("text", "selector"),
    [
        ("snooze 10 minutes", {"after_seconds": 600}),
        ("snooze it for an hour", {"after_seconds": 3600}),
        ("remind me again in 5 min", {"after_seconds": 300}),
        ("again at 5pm", at("2026-08-05", "17:00:00", BERLIN)),
    ],
)
def test_a_snooze_sets_the_delivered_reminder_again(text: str, selector: dict[str, Any]) -> None:
    intent = parse_snooze(text, "stretch", NOON, BERLIN)
    assert isinstance(intent, Create)
    assert intent.arguments() == {"prompt": "stretch", **selector}


def test_a_snooze_without_a_usable_time_asks_and_other_text_is_not_a_snooze() -> None:
    assert isinstance(
        parse_snooze("snooze until the cows come home", "stretch", NOON, BERLIN), Clarify
    )
    assert parse_snooze("list reminders", "stretch", NOON, BERLIN) is None
