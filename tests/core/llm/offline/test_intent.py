"""The offline assistant's phrase parser: exact tool arguments for every supported phrasing, on a
fake clock in several zones."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.llm.offline.duration import parse_duration
from core.llm.offline.intent import parse_intent as parse_in_reading
from core.llm.offline.values import (
    Ask,
    Create,
    DeleteById,
    DeleteMatching,
    Help,
    Intent,
    ListReminders,
    NeedWhat,
    NeedWhen,
    Reply,
    TellTime,
    Unknown,
)
from core.llm.offline.when import Reading, parse_when

# Wednesday 2026-08-05 12:00 UTC = 14:00 in Berlin (CEST) = 08:00 in New York (EDT).
NOON = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"


@pytest.fixture(scope="module", autouse=True)
def _warm_dateparser() -> None:
    """dateparser is imported lazily and loads its English data on first use: pay that once."""
    assert parse_when("on 24 Dec", Reading(NOON, "UTC")) is not None


def parse_intent(text: str, now: datetime, zone: str | None) -> Intent:
    return parse_in_reading(text, Reading(now, zone))


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
    ("remind me tomorrow to water the plants", NOON, BERLIN, at("2026-08-06", "09:00:00", BERLIN), "water the plants"),
    ("remind me to call mom tomorrow", NOON, BERLIN, at("2026-08-06", "09:00:00", BERLIN), "call mom"),
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


def test_a_clock_time_already_passed_today_is_tomorrow_and_says_so() -> None:
    intent = parse_intent("remind me at 10am to leave", NOON, BERLIN)  # 14:00 in Berlin
    assert isinstance(intent, Create)
    assert intent.arguments()["at"]["date"] == "2026-08-06"
    assert intent.notes == ("10:00 had already passed today, so I set it for tomorrow.",)


def test_remind_me_about_is_remembered_for_the_confirmation() -> None:
    intent = parse_intent("remind me about the meeting in 5 minutes", NOON, BERLIN)
    assert intent == parse_intent("remind me about the meeting in 5 minutes", NOON, BERLIN)
    assert isinstance(intent, Create)
    assert intent.link == "about"
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


@pytest.mark.parametrize("text", ["what's the weather?", "", "   ", "tell me a joke", "asdfgh"])
def test_anything_else_is_not_understood(text: str) -> None:
    assert parse_intent(text, NOON, BERLIN) == Unknown()


@pytest.mark.parametrize("text", ["help", "what can you do?", "How does this work", "?"])
def test_asking_for_help_gets_the_help(text: str) -> None:
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
        (
            "remind me at 5pm Mars/Olympus to leave",
            BERLIN,
            "I don't recognise the time zone “mars/olympus”",
        ),
        ("remind me at 25:00 to leave", BERLIN, "“25:00”"),
        ("remind me soonish to leave", BERLIN, "When exactly should I remind you to leave?"),
        ("remind me yesterday to leave", BERLIN, "That day has already passed"),
        ("remind me in -5 minutes to leave", BERLIN, "That time has already passed"),
        ("remind me 10 minutes ago to leave", BERLIN, "That time has already passed"),
        ("remind me today at 9am to leave", BERLIN, "09:00 today has already passed"),
        ("remind me on 1 Jan 2020 to leave", BERLIN, "That day (1 Jan 2020) has already passed"),
        ("remind me today to leave", BERLIN, "What time today?"),
    ],
)
def test_requests_that_cannot_be_scheduled_ask_or_explain(
    text: str, zone: str | None, says: str
) -> None:
    intent = parse_intent(text, NOON, zone)
    assert isinstance(intent, Ask)
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
    assert isinstance(
        intent,
        Create
        | ListReminders
        | DeleteById
        | DeleteMatching
        | Ask
        | Reply
        | TellTime
        | Help
        | Unknown,
    )
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
        ("remind me soonish", "What should I remind you about, and when?"),
        ("remind me on 31 Feb to eat", "I didn't understand when “on 31 Feb” is"),
        ("remind me on the 45th to eat", "I didn't understand when “on the 45th” is"),
        ("remind me later to call mom", "When exactly should I remind you to call mom?"),
    ],
)
def test_incomplete_requests_ask_for_what_is_missing(text: str, says: str) -> None:
    intent = parse_intent(text, NOON, "UTC")
    assert isinstance(intent, Ask)
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
    assert isinstance(intent, Ask)
    assert intent.text.startswith("That date is outside the range I can work with.")


def test_huge_numbers_are_handled_as_text_not_crashes() -> None:
    digits = "9" * 5000  # int() refuses strings over 4300 digits
    assert parse_intent(f"delete reminder {digits}", NOON, "UTC") == DeleteById(
        f"schedule-{digits}"
    )
    assert parse_intent("delete reminder 007", NOON, "UTC") == DeleteById("schedule-7")
    asked = parse_intent(f"remind me in {digits} minutes to x", NOON, "UTC")
    assert isinstance(asked, Ask)
    assert len(asked.text) < 250
    big = parse_intent("remind me in 999999999999999999 minutes to x", NOON, "UTC")
    assert isinstance(big, Create)
    assert big.arguments()["after_seconds"] == 999999999999999999 * 60


@pytest.mark.parametrize("text", ["thanks", "Thank you!", "ok thanks a lot", "cheers"])
def test_thanks_gets_a_short_answer_not_the_help_text(text: str) -> None:
    assert parse_intent(text, NOON, BERLIN) == Reply("You're welcome!")


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("hello", "Hi! I'm Chime's built-in offline assistant"),
        ("good morning!", "Hi!"),
        ("how are you?", "I'm fine, thanks"),
        ("bye", "Bye!"),
        ("ok", "Okay."),
    ],
)
def test_greetings_and_small_talk_get_a_short_friendly_answer(text: str, starts: str) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    assert isinstance(intent, Reply)
    assert intent.text.startswith(starts)
    assert len(intent.text) < 200


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("what time is it?", None),
        ("What's the time", None),
        ("what's the date today", None),
        ("what time is it in Tokyo?", "Asia/Tokyo"),
        ("what time is it in New York", "America/New_York"),
    ],
)
def test_asking_for_the_time_tells_it(text: str, zone: str | None) -> None:
    assert parse_intent(text, NOON, BERLIN) == TellTime(zone)


@pytest.mark.parametrize(
    ("text", "prompt", "selector"),
    [
        ("set a timer for 10 minutes", "Timer for 10 minutes", {"after_seconds": 600}),
        ("timer 10 min", "Timer for 10 minutes", {"after_seconds": 600}),
        ("10 minute timer", "Timer for 10 minutes", {"after_seconds": 600}),
        ("start a timer for 1h30m", "Timer for 1 hour 30 minutes", {"after_seconds": 5400}),
        ("set a 5-minute timer for the pasta", "the pasta", {"after_seconds": 300}),
        ("timer for 90s", "Timer for 1 minute 30 seconds", {"after_seconds": 90}),
    ],
)
def test_timers_are_reminders_after_their_duration(
    text: str, prompt: str, selector: dict[str, Any]
) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    assert isinstance(intent, Create)
    assert intent.link == "timer"
    assert intent.arguments() == {"prompt": prompt, **selector}


@pytest.mark.parametrize(
    ("text", "prompt", "selector"),
    [
        ("ping me in 5 minutes to check the oven", "check the oven", {"after_seconds": 300}),
        ("nudge me in an hour about the report", "the report", {"after_seconds": 3600}),
        ("wake me up at 7am", "Wake up", at("2026-08-06", "07:00:00", BERLIN)),
        ("set an alarm for 6:30am", "Alarm", at("2026-08-06", "06:30:00", BERLIN)),
        ("don't let me forget to buy milk in 2 hours", "buy milk", {"after_seconds": 7200}),
        ("tell me to drink water in 20 minutes", "drink water", {"after_seconds": 1200}),
        ("make sure I call the vet in 3 hours", "call the vet", {"after_seconds": 10800}),
        ("in an hour, call Ana", "call Ana", {"after_seconds": 3600}),
        ("remind me in 15 mins: stand up", "stand up", {"after_seconds": 900}),
        ("note: dentist at 10am tomorrow", "dentist", at("2026-08-06", "10:00:00", BERLIN)),
        ("call mom at 5pm", "call mom", at("2026-08-05", "17:00:00", BERLIN)),
        ("ok so, remind me in 5 minutes to check the tea", "check the tea", {"after_seconds": 300}),
        ("hey chime, can you remind me in 20 min to check the laundry?", "check the laundry", {"after_seconds": 1200}),
        ("remind me in 1h30m to leave", "leave", {"after_seconds": 5400}),
        ("remind me in 90s to breathe", "breathe", {"after_seconds": 90}),
        ("remind me in 1.5 hours to go", "go", {"after_seconds": 5400}),
        ("remind me in 2h to stretch", "stretch", {"after_seconds": 7200}),
        ("remind me this evening to read", "read", at("2026-08-05", "18:00:00", BERLIN)),
        ("remind me in the morning to call the bank", "call the bank", at("2026-08-06", "09:00:00", BERLIN)),
        ("remind me at lunchtime to eat", "eat", at("2026-08-06", "12:00:00", BERLIN)),
        ("remind me tomorrow to call mom at 5", "call mom", at("2026-08-06", "17:00:00", BERLIN)),
        ("tomorrow remind me to call at 5", "call", at("2026-08-06", "17:00:00", BERLIN)),
        ("remind me at 9am Tokyo time to call Ken", "call Ken", {"at": {"date": "2026-08-06", "time": "09:00:00", "time_zone": "Asia/Tokyo"}}),
        ("remind me at 17:00 UTC+2 to join the call", "join the call", {"at": "2026-08-05T17:00:00+02:00"}),
    ],
)  # fmt: skip
def test_other_verbs_and_orders_are_reminders_too(
    text: str, prompt: str, selector: dict[str, Any]
) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    assert isinstance(intent, Create), intent
    assert intent.arguments() == {"prompt": prompt, **selector}


def test_a_bare_hour_is_its_next_occurrence_and_the_answer_will_say_so() -> None:
    afternoon = datetime(2026, 8, 5, 11, 21, tzinfo=UTC)  # 13:21 in Berlin
    intent = parse_intent("remind me at 9 to call", afternoon, BERLIN)
    assert isinstance(intent, Create)
    assert intent.arguments()["at"] == {
        "date": "2026-08-05",
        "time": "21:00:00",
        "time_zone": BERLIN,
    }
    assert intent.notes == (
        "I took “9” as 21:00, the next 9 o'clock; say “9am” or “9pm” to choose.",
    )


def test_a_day_without_a_time_is_nine_in_the_morning_and_the_answer_will_say_so() -> None:
    for text in ("remind me tomorrow to water the plants", "remind me on friday to pay rent"):
        intent = parse_intent(text, NOON, BERLIN)
        assert isinstance(intent, Create)
        assert intent.arguments()["at"]["time"] == "09:00:00"
        assert intent.notes == ("You didn't say a time, so I picked 09:00.",)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("remind me at 5pm EST to call Bob", "Did you mean New York time, or a fixed UTC-05:00?"),
        ("remind me at 5pm CST to call Bob", "“CST” can mean US Central time (Chicago) or China time (Shanghai)."),
        ("remind me at 9am IST to call", "India time (Kolkata), Israel time (Jerusalem) or Irish time (Dublin)"),
    ],
)  # fmt: skip
def test_an_ambiguous_zone_is_asked_about_not_guessed(text: str, asks: str) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    assert isinstance(intent, Ask)
    assert asks in intent.text


def test_a_zone_abbreviation_on_a_day_its_region_uses_it_is_that_region() -> None:
    january = datetime(2026, 1, 14, 12, 0, tzinfo=UTC)
    intent = parse_intent("remind me at 5pm EST to call Bob", january, BERLIN)
    assert isinstance(intent, Create)
    assert intent.arguments()["at"] == {
        "date": "2026-01-14",
        "time": "17:00:00",
        "time_zone": NEW_YORK,
    }


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("remind me at noon", NeedWhat("at noon")),
        ("remind me in 20 minutes", NeedWhat("in 20 minutes")),
        ("remind me to stretch", NeedWhen("stretch")),
        ("remind me about the dentist", NeedWhen("the dentist", "about")),
    ],
)
def test_a_question_says_what_kind_of_answer_completes_the_request(text: str, need: object) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    assert isinstance(intent, Ask)
    assert intent.need == need


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cancel the eat reminder", DeleteMatching(("eat",))),
        ("delete the drink water one", DeleteMatching(("drink", "water"))),
        ("clear all my reminders", DeleteMatching((), every=True)),
        ("remove all the water reminders", DeleteMatching(("water",), every=True)),
        ("delete my last reminder", DeleteMatching((), pick=-1)),
        ("cancel the first one", DeleteMatching((), pick=0)),
        ("delete the next reminder", DeleteMatching((), pick="next")),
        ("don't remind me to drink water anymore", DeleteMatching(("drink", "water"))),
        ("forget about the dentist", DeleteMatching(("dentist",))),
    ],
)
def test_more_delete_phrasings(text: str, expected: object) -> None:
    assert parse_intent(text, NOON, BERLIN) == expected


@pytest.mark.parametrize("text", ["cancel", "delete that", "remove it"])
def test_a_delete_that_names_no_reminder_asks_which(text: str) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    assert isinstance(intent, Reply)
    assert intent.text.startswith("Which reminder should I delete?")


@pytest.mark.parametrize(
    "text",
    [
        "message number 1: what reminders do I have",
        "ok so, what reminders do I have?",
        "what's next",
        "any reminders?",
        "show me all my reminders please",
    ],
)
def test_list_requests_with_chatter_around_them(text: str) -> None:
    assert parse_intent(text, NOON, BERLIN) == ListReminders()


def test_the_task_is_turned_to_the_second_person_and_nothing_else() -> None:
    from core.llm.offline.text import second_person

    assert second_person("take my pills") == "take your pills"
    assert second_person("I am late, call me") == "you are late, call you"
    assert second_person("My keys and Im home") == "Your keys and you're home"
    assert second_person("email the US team about us") == "email the US team about you"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("foo bar: list my reminders", ListReminders()),
        ("nope", Reply("Okay, nothing to do then.")),
        ("great!", Reply("Okay.")),
        ("what time is it in Narnia", Reply("I don't know which time zone “Narnia” is; try a city such as Tokyo or a zone name such as Asia/Tokyo.")),
    ],
)  # fmt: skip
def test_short_answers_and_a_label_before_a_command(text: str, expected: object) -> None:
    assert parse_intent(text, NOON, BERLIN) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("set a 0 second timer", "A timer needs at least a second."),
        ("set a timer until 5pm", None),
        ("in 10 minutes: 123", None),
    ],
)
def test_odd_timers_and_bare_requests(text: str, says: str | None) -> None:
    intent = parse_intent(text, NOON, BERLIN)
    if says is not None:
        assert intent == Reply(says)
    elif text.startswith("set a timer"):
        assert isinstance(intent, Create)
        assert intent.arguments()["at"]["time"] == "17:00:00"
    else:
        assert not isinstance(intent, Create)
