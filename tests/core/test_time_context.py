"""The time-context reading (agent.md §4): known zones, DST offsets, unknown and mixed zones."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, available_timezones

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.time_context import TimeReading, load_zone, sample_zone, time_reading

SUMMER = datetime(2026, 7, 15, 12, 0, 0, tzinfo=UTC)
WINTER = datetime(2026, 1, 15, 12, 0, 0, tzinfo=UTC)
LOCAL_LINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d\[[A-Za-z0-9_/+\-]+\]")


@pytest.mark.parametrize(
    ("zone", "now", "expected_local"),
    [
        ("Europe/Berlin", SUMMER, "2026-07-15T14:00:00+02:00[Europe/Berlin]"),
        ("Europe/Berlin", WINTER, "2026-01-15T13:00:00+01:00[Europe/Berlin]"),
        ("Asia/Kolkata", SUMMER, "2026-07-15T17:30:00+05:30[Asia/Kolkata]"),
        ("Australia/Lord_Howe", SUMMER, "2026-07-15T22:30:00+10:30[Australia/Lord_Howe]"),
        ("Australia/Lord_Howe", WINTER, "2026-01-15T23:00:00+11:00[Australia/Lord_Howe]"),
        ("America/St_Johns", SUMMER, "2026-07-15T09:30:00-02:30[America/St_Johns]"),
        ("America/St_Johns", WINTER, "2026-01-15T08:30:00-03:30[America/St_Johns]"),
        ("UTC", SUMMER, "2026-07-15T12:00:00+00:00[UTC]"),
        ("Etc/GMT+5", WINTER, "2026-01-15T07:00:00-05:00[Etc/GMT+5]"),
        ("Pacific/Kiritimati", WINTER, "2026-01-16T02:00:00+14:00[Pacific/Kiritimati]"),
    ],
)
def test_a_known_zone_gives_three_lines_with_local_time_zone_and_directive(
    zone: str, now: datetime, expected_local: str
) -> None:
    reading = time_reading(now, [zone])

    assert reading == TimeReading(text=reading.text, zone_name=zone, ambiguous=False)
    lines = reading.text.split("\n")
    assert len(lines) == 3
    assert lines[0].endswith(" " + expected_local)
    assert zone in lines[1]
    assert zone in lines[2]
    assert "schedule_create" in lines[2]
    assert "offset" in lines[2]
    assert "time_zone" in lines[2]


def test_the_local_time_drops_sub_second_digits() -> None:
    now = datetime(2026, 7, 15, 12, 0, 0, 999_999, tzinfo=UTC)

    first_line = time_reading(now, ["Europe/Berlin"]).text.split("\n")[0]

    assert first_line.endswith("2026-07-15T14:00:00+02:00[Europe/Berlin]")


def test_an_instant_in_another_offset_renders_the_same_local_time() -> None:
    in_tokyo = SUMMER.astimezone(ZoneInfo("Asia/Tokyo"))

    assert time_reading(in_tokyo, ["Europe/Berlin"]) == time_reading(SUMMER, ["Europe/Berlin"])


def test_a_naive_instant_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        time_reading(datetime(2026, 7, 15, 12, 0), ["UTC"])  # noqa: DTZ001 -- the naive value under test


@pytest.mark.parametrize(
    "zone",
    [
        None,
        "",
        "EST",
        "GMT",
        "EST5EDT",
        "utc",
        " UTC",
        "Europe/Berlin ",
        "Europe/Atlantis",
        "Mars/Olympus_Mons",
        "America/Argentina",
        "/etc/localtime",
        "../Europe/Berlin",
        "Europe//Berlin",
        "Europe/Berlin\x00",
        "Europe/Berlin\u2028",
        "Europe/\ufeffBerlin",
        "Europe/Berlin⏰",
        '"Europe/Berlin"',
        "Europe\\Berlin",
    ],
)
def test_an_unknown_or_invalid_zone_gives_the_ambiguous_directive(zone: str | None) -> None:
    reading = time_reading(SUMMER, [zone])

    assert reading.zone_name is None
    assert reading.ambiguous
    assert "ambiguous" in reading.text
    assert "ask the user" in reading.text
    assert "2026-07-15T12:00:00+00:00" in reading.text
    assert LOCAL_LINE.search(reading.text) is None


def test_no_sampled_zone_at_all_is_ambiguous() -> None:
    reading = time_reading(SUMMER, [])

    assert reading.ambiguous
    assert "unknown" in reading.text


def test_inputs_from_different_zones_are_ambiguous_and_say_so() -> None:
    reading = time_reading(SUMMER, ["Europe/Berlin", "America/New_York"])

    assert reading.zone_name is None
    assert reading.ambiguous
    assert "different time zones" in reading.text
    assert "ask the user" in reading.text


def test_one_unknown_input_among_known_ones_is_ambiguous() -> None:
    reading = time_reading(SUMMER, ["Europe/Berlin", None, "Europe/Berlin"])

    assert reading.ambiguous
    assert "unknown" in reading.text


def test_repeated_samples_of_one_zone_are_known() -> None:
    reading = time_reading(SUMMER, ["Asia/Kolkata", "Asia/Kolkata", "Asia/Kolkata"])

    assert reading.zone_name == "Asia/Kolkata"
    assert not reading.ambiguous


@pytest.mark.parametrize("name", ["UTC", "Etc/UTC", "Europe/Berlin", "US/Eastern"])
def test_load_zone_accepts_utc_and_area_location_names(name: str) -> None:
    zone = load_zone(name)

    assert zone is not None
    assert zone.key == name


def test_sample_zone_returns_what_the_source_says() -> None:
    assert sample_zone(lambda: "Europe/Berlin") == "Europe/Berlin"
    assert sample_zone(lambda: None) is None


def test_sample_zone_turns_a_failing_source_into_unknown() -> None:
    def broken() -> str | None:
        raise OSError("no /etc/localtime")

    assert sample_zone(broken) is None


def test_sample_zone_turns_a_non_string_answer_into_unknown() -> None:
    assert sample_zone(lambda: 42) is None  # type: ignore[arg-type,return-value]  # a foreign source misbehaving


VALID_ZONES = sorted(z for z in available_timezones() if load_zone(z) is not None)


@settings(max_examples=60)
@given(
    zone=st.sampled_from(VALID_ZONES),
    instant=st.datetimes(
        min_value=datetime(1900, 1, 1),  # noqa: DTZ001 -- hypothesis bounds are naive by API
        max_value=datetime(2200, 1, 1),  # noqa: DTZ001 -- hypothesis bounds are naive by API
        timezones=st.just(UTC),
    ),
)
def test_the_rendered_local_time_parses_back_to_the_same_instant(
    zone: str, instant: datetime
) -> None:
    reading = time_reading(instant, [zone])
    stamp = reading.text.split("\n")[0].split(" ")[-1]
    local, bracket = stamp.split("[")

    assert bracket == zone + "]"
    assert datetime.fromisoformat(local) == instant.replace(microsecond=0)
    assert (
        datetime.fromisoformat(local).utcoffset() == instant.astimezone(ZoneInfo(zone)).utcoffset()
    )


def test_every_offset_today_renders_as_hours_and_minutes() -> None:
    for zone in VALID_ZONES:
        stamp = time_reading(SUMMER + timedelta(days=1), [zone]).text.split("\n")[0]
        assert LOCAL_LINE.search(stamp) is not None, zone
