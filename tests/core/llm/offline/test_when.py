"""The offline assistant's when phrases on a fake clock in several zones, DST days included:
durations, clock times, days and zones, with hypothesis generating the spellings people use."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.llm.offline.clock import Clock, find_clock
from core.llm.offline.dates import Day, PastDay, read_day
from core.llm.offline.duration import parse_duration, parse_number
from core.llm.offline.intent import parse_intent
from core.llm.offline.values import Ask, Create
from core.llm.offline.when import (
    AskZone,
    Delay,
    Interval,
    LocalTime,
    NeedTime,
    NeedZone,
    Problem,
    Reading,
    parse_when,
)
from core.llm.offline.zones import Offset, Said, ZoneQuestion, read_zone, settle, zone_label

WEDNESDAY = datetime(2026, 8, 5, 11, 21, 18, tzinfo=UTC)  # 13:21:18 in Berlin, 07:21 in New York
ZONES = (
    "Europe/Berlin",
    "America/New_York",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Australia/Sydney",
    "UTC",
)


@pytest.fixture(scope="module", autouse=True)
def _warm_dateparser() -> None:
    """dateparser is imported lazily and loads its English data on first use: pay that once."""
    assert parse_when("on 24 Dec", Reading(WEDNESDAY, "UTC")) is not None


def when(text: str, zone: str | None = "Europe/Berlin", now: datetime = WEDNESDAY) -> Any:
    return parse_when(text, Reading(now, zone))


# --- durations -----------------------------------------------------------------------------

UNITS = {
    1: ("s", "sec", "secs", "second", "seconds"),
    60: ("m", "min", "mins", "minute", "minutes"),
    3600: ("h", "hr", "hrs", "hour", "hours"),
    86400: ("d", "day", "days"),
}
WORDS = {1: "one", 2: "two", 5: "five", 10: "ten", 12: "twelve", 15: "fifteen", 20: "twenty",
         25: "twenty-five", 30: "thirty", 45: "forty five", 90: "ninety"}  # fmt: skip


@st.composite
def duration_parts(draw: st.DrawFn) -> tuple[str, int]:
    """A spoken duration of one to three parts and its exact seconds."""
    parts = draw(st.lists(st.sampled_from(sorted(UNITS)), min_size=1, max_size=3, unique=True))
    spoken, total = [], 0
    for size in sorted(parts, reverse=True):
        count = draw(st.sampled_from(sorted(WORDS)) | st.integers(1, 500))
        unit = draw(st.sampled_from(UNITS[size]))
        as_words = count in WORDS and len(unit) > 1 and draw(st.booleans())
        number = WORDS[count] if as_words else str(count)
        gap = (
            " "
            if as_words or (len(unit) > 1 and draw(st.booleans()))
            else draw(st.sampled_from(["", " "]))
        )
        spoken.append(f"{number}{gap}{unit}")
        total += count * size
    joiner = draw(st.sampled_from([" ", " and ", ", ", ""]))
    if joiner == "" and any(not part[-1:].isalpha() or " " in part for part in spoken):
        joiner = " "
    return joiner.join(spoken), total


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(duration_parts())
def test_a_spoken_duration_is_read_to_the_exact_second(spoken: tuple[str, int]) -> None:
    text, seconds = spoken
    assert parse_duration(text) == seconds
    assert when(f"in {text}") == Delay(seconds)
    assert when(f"{text} from now") == Delay(seconds)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1h30m", 5400), ("1h30", 5400), ("2h15", 8100), ("90s", 90), ("1.5 hours", 5400),
        ("1,5 hours", 5400), ("1 1/2 hours", 5400), ("1½ hours", 5400), ("an hour and a half", 5400),
        ("half an hour", 1800), ("a quarter of an hour", 900), ("three quarters of an hour", 2700),
        ("2 and a half hours", 9000), ("a couple of minutes", 120), ("a few minutes", 180),
        ("a fortnight", 1209600), ("10 mintues", 600), ("0.5 seconds", Fraction(1, 2)),
    ],
)  # fmt: skip
def test_compact_and_fractional_durations(text: str, seconds: Fraction | int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["and 5 minutes", "5 minutes and", "3 hand", "soon", "an d", ""])
def test_a_duration_is_read_whole_or_not_at_all(text: str) -> None:
    assert parse_duration(text) is None


def test_numbers_on_their_own() -> None:
    assert parse_number("twenty-five") == 25
    assert parse_number("a couple") == 2
    assert parse_number("1 1/2") == Fraction(3, 2)
    assert parse_number("seven hundred") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in 45", Delay(2700, ("I took “in 45” as 45 minutes.",))),
        ("in 1:30", Delay(5400)),
        ("in about 10 minutes", Delay(600)),
        ("an hour or so", None),
        ("in an hour or so", Delay(3600)),
        ("in 0 minutes", Problem("That's now, not later: give me a time in the future, like “in 5 minutes”.")),
        ("in -5 minutes", Problem("That time has already passed; pick a time in the future.")),
        ("10 minutes ago", Problem("That time has already passed; pick a time in the future.")),
    ],
)  # fmt: skip
def test_delays_people_type(text: str, expected: object) -> None:
    assert when(text) == expected


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("every 30 minutes", 1800), ("hourly", 3600), ("daily", 86400), ("every other day", 172800),
     ("twice a day", 43200), ("three times a day", 28800), ("every half hour", 1800),
     ("every 1.5 hours", 5400), ("once a week", 604800)],
)  # fmt: skip
def test_intervals(text: str, seconds: int) -> None:
    assert when(text) == Interval(seconds)


@pytest.mark.parametrize(
    "text", ["every day at 9am", "every monday", "every morning", "daily at 8", "at 8:30 every day"]
)
def test_calendar_rules_are_recognised_and_explained(text: str) -> None:
    result = when(text)
    assert isinstance(result, Problem)
    assert "fixed interval" in result.text


# --- clock times ---------------------------------------------------------------------------


@st.composite
def twelve_hour(draw: st.DrawFn) -> tuple[str, int, int]:
    hour, minute = draw(st.integers(1, 12)), draw(st.sampled_from([0, 5, 15, 30, 45, 59]))
    pm = draw(st.booleans())
    mark = draw(
        st.sampled_from(["pm", " pm", "p.m.", " PM", "p"] if pm else ["am", " am", "a.m.", " AM"])
    )
    sep = draw(st.sampled_from([":", "."]))
    text = f"{hour}{sep}{minute:02d}{mark}" if minute or draw(st.booleans()) else f"{hour}{mark}"
    return text, hour % 12 + (12 if pm else 0), minute


@settings(max_examples=120, deadline=None)
@given(twelve_hour())
def test_a_clock_time_with_am_or_pm_is_that_time(spoken: tuple[str, int, int]) -> None:
    text, hour, minute = spoken
    found = find_clock(text.lower())
    assert found is not None
    assert found.value == Clock(hour, minute, 0, found.value.text, found.value.meridiem)  # type: ignore[union-attr]  # a Clock, checked by the equality


@settings(max_examples=80, deadline=None)
@given(
    hour=st.integers(0, 9) | st.integers(13, 23),  # 10:00-12:59 are bare hours (ambiguous)
    minute=st.integers(0, 59),
    zone=st.sampled_from(ZONES),
)
def test_a_24_hour_time_today_or_tomorrow_is_its_next_occurrence(
    hour: int, minute: int, zone: str
) -> None:
    result = when(f"at {hour:02d}:{minute:02d}", zone)
    assert isinstance(result, LocalTime)
    now_local = WEDNESDAY.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    target = datetime.combine(result.date, result.time)
    assert result.time == time(hour, minute)
    assert now_local < target <= now_local + timedelta(days=1)


@pytest.mark.parametrize(
    ("text", "clock"),
    [("half past 5", (17, 30)), ("quarter to 6", (17, 45)), ("10 past 5", (17, 10)),
     ("at five thirty", (17, 30)), ("5 o'clock", (17, 0)), ("at 17h30", (17, 30)), ("at 1730", (17, 30)),
     ("7 tonight", (19, 0)), ("9 in the morning", (9, 0)), ("at 5ish", (17, 0)), ("noon", (12, 0)),
     ("around 5", (17, 0))],
)  # fmt: skip
def test_clock_times_people_say(text: str, clock: tuple[int, int]) -> None:
    result = when(text)
    assert isinstance(result, LocalTime)
    assert (result.time.hour, result.time.minute) == clock


def test_a_bare_hour_is_the_next_of_morning_and_evening_and_says_so() -> None:
    evening = when("at 9")  # 13:21 in Berlin: 21:00 comes first
    morning = when("at 9", now=datetime(2026, 8, 5, 5, 0, tzinfo=UTC))  # 07:00 in Berlin
    assert isinstance(evening, LocalTime)
    assert isinstance(morning, LocalTime)
    assert (evening.date, evening.time) == (date(2026, 8, 5), time(21))
    assert (morning.date, morning.time) == (date(2026, 8, 5), time(9))
    assert evening.notes == (
        "I took “9” as 21:00, the next 9 o'clock; say “9am” or “9pm” to choose.",
    )
    tomorrow = when("tomorrow at 5")
    assert isinstance(tomorrow, LocalTime)
    assert tomorrow.time == time(17)
    assert tomorrow.notes == ("I took “5” as 17:00; say “5am” for the morning.",)


def test_a_clock_time_that_is_not_one_is_said() -> None:
    assert when("at 25:00") == Problem(
        "“25:00” isn't a time of day I understand; try 17:00 or 5pm."
    )
    assert when("at 13pm") == Problem("“13pm” isn't a time of day I understand; try 17:00 or 5pm.")


# --- days ------------------------------------------------------------------------------------

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")  # fmt: skip


@st.composite
def calendar_days(draw: st.DrawFn) -> tuple[str, date]:
    day = WEDNESDAY.date() + timedelta(days=draw(st.integers(0, 360)))
    name = MONTH_NAMES[day.month - 1]
    short = name[:3]
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(day.day, "th")
    spelled = draw(st.sampled_from([
        f"{day.day} {short}", f"{short} {day.day}", f"{name} {day.day}", f"{day.day} {name}",
        f"the {day.day}{suffix} of {name}", f"{name} {day.day}{suffix}", f"{day.day}{suffix} {short}",
    ]))  # fmt: skip
    return spelled, day


@settings(max_examples=120, deadline=None)
@given(calendar_days())
def test_a_calendar_date_without_a_year_is_its_next_occurrence(spoken: tuple[str, date]) -> None:
    text, day = spoken
    assert read_day(text.lower(), WEDNESDAY.date()) == Day(day)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("tomorrow", date(2026, 8, 6)), ("tmrw", date(2026, 8, 6)), ("tommorow", date(2026, 8, 6)),
     ("day after tomorrow", date(2026, 8, 7)), ("friday", date(2026, 8, 7)),
     ("next friday", date(2026, 8, 7)), ("this wednesday", date(2026, 8, 5)),
     ("wednesday", date(2026, 8, 12)), ("friday next week", date(2026, 8, 14)),
     ("next week", date(2026, 8, 12)), ("next month", date(2026, 9, 5)), ("in 3 days", date(2026, 8, 8)),
     ("the 3rd", date(2026, 9, 3)), ("the 24th", date(2026, 8, 24)), ("24/12", date(2026, 12, 24)),
     ("24.12.", date(2026, 12, 24)), ("2026-12-24", date(2026, 12, 24)),
     ("christmas eve", date(2026, 12, 24)), ("this weekend", date(2026, 8, 8)),
     ("end of the month", date(2026, 8, 31))],
)  # fmt: skip
def test_day_words(text: str, expected: date) -> None:
    found = read_day(text, WEDNESDAY.date())
    assert isinstance(found, Day)
    assert found.day == expected


def test_a_numeric_date_is_day_first_except_in_the_americas_and_the_choice_is_said() -> None:
    assert read_day("5/8", WEDNESDAY.date()) == Day(date(2026, 8, 5), "I read 5/8 as 5 August.")
    assert read_day("5/8", WEDNESDAY.date(), month_first=True) == Day(
        date(2027, 5, 8), "I read 5/8 as 8 May."
    )
    assert read_day("12/24", WEDNESDAY.date()) == Day(date(2026, 12, 24))  # only one reading


@pytest.mark.parametrize("text", ["yesterday", "last friday", "3 days ago", "1 jan 2020"])
def test_days_that_have_passed(text: str) -> None:
    assert isinstance(read_day(text, WEDNESDAY.date()), PastDay)


@pytest.mark.parametrize("text", ["banana", "week plan", "31 feb", "the 45th", "may the force"])
def test_other_words_are_not_days(text: str) -> None:
    assert read_day(text, WEDNESDAY.date()) is None


def test_a_day_without_a_time_is_nine_and_today_without_one_asks() -> None:
    friday = when("on friday")
    assert friday == LocalTime(
        date(2026, 8, 7), time(9), "Europe/Berlin", ("You didn't say a time, so I picked 09:00.",)
    )
    assert when("today") == NeedTime(date(2026, 8, 5), "What time today?")
    late = datetime(2026, 8, 5, 19, 30, tzinfo=UTC)  # 21:30 in Berlin
    assert when("tonight", now=late) == NeedTime(
        date(2026, 8, 5), "It's already past 20:00. What time tonight?"
    )


# --- zones and DST days ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "zone"),
    [("Europe/Berlin", "Europe/Berlin"), ("america/new_york", "America/New_York"), ("UTC", "UTC"),
     ("Tokyo time", "Asia/Tokyo"), ("in London", "Europe/London"), ("New York time", "America/New_York"),
     ("the Paris time zone", "Europe/Paris"), ("Eastern", "America/New_York"), ("PT", "America/Los_Angeles"),
     ("Japan", "Asia/Tokyo"), ("UTC+2", Offset(120)), ("GMT-5", Offset(-300)), ("UTC+05:30", Offset(330)),
     ("+02:00", Offset(120)), ("UTC+0", "UTC")],
)  # fmt: skip
def test_zones_people_say_that_name_one_zone(text: str, zone: object) -> None:
    said = read_zone(text)
    assert said is not None
    assert said.zone == zone


@pytest.mark.parametrize("text", ["Springfield", "Mars/Olympus", "my time", "17", "us", ""])
def test_what_names_no_zone(text: str) -> None:
    assert read_zone(text) is None


def test_an_abbreviation_is_its_region_on_a_day_the_region_uses_it_and_asked_about_otherwise() -> (
    None
):
    est = read_zone("EST")
    assert est is not None
    assert settle(est, datetime.combine(date(2026, 1, 15), time(17))) == "America/New_York"
    summer = settle(est, datetime.combine(date(2026, 8, 5), time(17)))
    assert summer == ZoneQuestion(
        "On that day New York is at UTC-04:00, not EST (UTC-05:00). Did you mean New York time, "
        "or a fixed UTC-05:00?",
        ("America/New_York", Offset(-300)),
    )
    central = read_zone("CST")
    assert central is not None
    cst = settle(
        Said("cst", meanings=central.meanings), datetime.combine(date(2026, 1, 15), time(17))
    )
    assert isinstance(cst, ZoneQuestion)
    assert cst.options == ("America/Chicago", "Asia/Shanghai")


def test_a_time_in_a_named_zone_is_that_zone_or_its_offset() -> None:
    tokyo = when("at 9am Tokyo time")
    assert tokyo == LocalTime(
        date(2026, 8, 6),
        time(9),
        "Asia/Tokyo",
        ("09:00 had already passed today, so I set it for tomorrow.",),
    )
    assert when("17:00 UTC+2") == LocalTime(date(2026, 8, 5), time(17), Offset(120))
    assert when("at 17:00 UTC+2").to_json() == "2026-08-05T17:00:00+02:00"  # type: ignore[union-attr]  # a LocalTime
    assert isinstance(when("at 5pm EST"), AskZone)
    assert when("at 5pm", zone=None) == NeedZone(when("at 5pm", zone=None).text)  # type: ignore[union-attr]  # a NeedZone
    assert isinstance(when("at 5pm Mars/Olympus"), Problem)


def test_zone_labels_read_as_people_say_them() -> None:
    assert zone_label("Europe/Berlin") == "Berlin time"
    assert zone_label("America/Argentina/Buenos_Aires") == "Buenos Aires time"
    assert zone_label("Etc/GMT+5") == "UTC-05:00"
    assert zone_label(Offset(-90)) == "UTC-01:30"
    assert zone_label("UTC") == zone_label(None) == zone_label(Offset(0)) == "UTC"


DST_DAYS = [
    # (zone, a clock sample the day before the change)
    ("America/New_York", datetime(2026, 3, 7, 15, 0, tzinfo=UTC)),  # spring forward on Sunday 8 Mar
    ("America/New_York", datetime(2026, 10, 31, 15, 0, tzinfo=UTC)),  # fall back on Sunday 1 Nov
    ("Europe/Berlin", datetime(2026, 3, 28, 11, 0, tzinfo=UTC)),  # spring forward on 29 Mar
    ("Europe/Berlin", datetime(2026, 10, 24, 11, 0, tzinfo=UTC)),  # fall back on 25 Oct
    ("Australia/Sydney", datetime(2026, 10, 3, 1, 0, tzinfo=UTC)),  # spring forward on 4 Oct
]


@pytest.mark.parametrize(("zone", "now"), DST_DAYS, ids=[f"{z}-{n:%m%d}" for z, n in DST_DAYS])
def test_across_a_dst_change_a_wall_time_stays_a_wall_time_and_a_delay_stays_exact(
    zone: str, now: datetime
) -> None:
    tomorrow = when("tomorrow at 9:30", zone, now)
    assert isinstance(tomorrow, LocalTime)
    assert tomorrow.date == now.astimezone(ZoneInfo(zone)).date() + timedelta(days=1)
    assert tomorrow.time == time(9, 30)
    assert tomorrow.zone == zone
    assert when("in 24 hours", zone, now) == Delay(86400)
    morning = when("in the morning", zone, now)
    assert isinstance(morning, LocalTime)
    assert morning.time == time(9)


def test_a_wall_time_in_a_dst_gap_is_passed_to_the_tool_which_refuses_it() -> None:
    zone, now = DST_DAYS[0]
    gap = parse_intent("remind me tomorrow at 2:30am to jog", Reading(now, zone))
    assert isinstance(gap, Create)
    assert gap.arguments()["at"] == {"date": "2026-03-08", "time": "02:30:00", "time_zone": zone}


@settings(max_examples=60, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    now=st.datetimes(
        min_value=datetime(2026, 1, 1),  # noqa: DTZ001 -- hypothesis takes naive bounds
        max_value=datetime(2027, 12, 31),  # noqa: DTZ001 -- hypothesis takes naive bounds
        timezones=st.just(UTC),
    ),
    clock=st.sampled_from(
        ["at 5pm", "at 9", "tomorrow at 7:15", "on friday", "tonight", "at noon"]
    ),
)
def test_a_local_time_is_never_in_the_past_of_its_own_zone(
    zone: str, now: datetime, clock: str
) -> None:
    result = when(clock, zone, now)
    if isinstance(result, LocalTime):
        local_now = now.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
        assert datetime.combine(result.date, result.time) > local_now
    else:
        assert isinstance(result, NeedTime | Problem)


# --- fillers ---------------------------------------------------------------------------------

LEADS = ["", "ok so, ", "hey chime, ", "please ", "um, ", "can you ", "could you please ",
         "message number 2: ", "Hi! ", "so ", "alright, ", "quick one: "]  # fmt: skip
TAILS = ["", " please", "!", ".", "?", " thanks", " pls", ", thank you!", " for me"]


@settings(max_examples=120, deadline=None)
@given(
    lead=st.sampled_from(LEADS),
    tail=st.sampled_from(TAILS),
    request=st.sampled_from(
        [
            ("remind me in 10 minutes to stretch", {"prompt": "stretch", "after_seconds": 600}),
            (
                "remind me to call Ana at 5pm",
                {
                    "prompt": "call Ana",
                    "at": {"date": "2026-08-05", "time": "17:00:00", "time_zone": "Europe/Berlin"},
                },
            ),
            ("set a timer for 5 minutes", {"prompt": "Timer for 5 minutes", "after_seconds": 300}),
            (
                "every 30 minutes remind me to drink water",
                {"prompt": "drink water", "every_seconds": 1800},
            ),
        ]
    ),
)
def test_chatter_before_and_politeness_after_change_nothing(
    lead: str, tail: str, request: tuple[str, dict[str, Any]]
) -> None:
    text, arguments = request
    intent = parse_intent(f"{lead}{text}{tail}", Reading(WEDNESDAY, "Europe/Berlin"))
    assert isinstance(intent, Create), intent
    assert intent.arguments() == arguments


def test_a_question_is_not_a_request_without_a_verb() -> None:
    reading = Reading(WEDNESDAY, "Europe/Berlin")
    assert not isinstance(parse_intent("what happens at 5pm?", reading), Create)
    assert not isinstance(parse_intent("is the shop open tomorrow", reading), Create)
    asked = parse_intent("remind me at 5pm EST to call", reading)
    assert isinstance(asked, Ask)
