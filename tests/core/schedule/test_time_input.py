"""Time input (§6): offset grammar, local object grammar, zone acceptance, gaps/overlaps, range."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.instant import MAX_MS, MIN_MS, format_instant_ms, parse_instant_ms
from core.schedule.messages import InputError, Rule
from core.schedule.time_input import accept_time_zone, check_target, parse_at, resolve_local


def rule_of(value: object) -> Rule:
    with pytest.raises(InputError) as raised:
        parse_at(value)  # type: ignore[arg-type]  # hypothesis/parametrize feed plain objects
    return raised.value.rule


def local(date: str, time: str, zone: str = "UTC") -> dict[str, str]:
    return {"date": date, "time": time, "time_zone": zone}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-08-06T09:00:00+08:00", "2026-08-06T01:00:00.000Z"),
        ("2026-08-05T20:30:00-05:30", "2026-08-06T02:00:00.000Z"),
        ("2026-08-06T01:00:00Z", "2026-08-06T01:00:00.000Z"),
        ("2026-08-06T01:00:00.1Z", "2026-08-06T01:00:00.100Z"),
        ("2026-08-06T01:00:00.12Z", "2026-08-06T01:00:00.120Z"),
        ("2026-08-06T01:00:00.05Z", "2026-08-06T01:00:00.050Z"),
        ("2026-08-06T01:00:00.123Z", "2026-08-06T01:00:00.123Z"),
        ("2026-08-06T01:00:00+00:00", "2026-08-06T01:00:00.000Z"),
        ("2026-08-06T01:00:00-23:59", "2026-08-07T00:59:00.000Z"),
        ("2026-08-06T01:00:00+23:59", "2026-08-05T01:01:00.000Z"),
        ("2028-02-29T00:00:00Z", "2028-02-29T00:00:00.000Z"),
        ("2400-02-29T00:00:00Z", "2400-02-29T00:00:00.000Z"),
        ("1500-01-01T00:00:00Z", "1500-01-01T00:00:00.000Z"),
    ],
)
def test_offset_strings_resolve_to_the_utc_instant(text: str, expected: str) -> None:
    assert format_instant_ms(parse_at(text)) == expected


E6_STRINGS = [
    "2026-08-06 09:00:00Z",
    "2026-08-06t09:00:00Z",
    "2026-08-06T09:00:00z",
    "2026-08-06T09:00Z",
    "2026-08-06T09:00:00.Z",
    "2026-08-06T09:00:00.1234Z",
    "2026-08-06T09:00:00,5Z",
    "2026-08-06T09:00:00+0800",
    "2026-08-06T09:00:00+08",
    "2026-08-06T09:00:00 UTC",
    "2026-08-06T09:00:00UTC",
    "2026-08-06T09:00:00Z[Europe/Berlin]",
    "2026-08-06T09:00:00\u221205:00",
    "2026-W32-4T09:00:00Z",
    "2026-218T09:00:00Z",
    "2026-08-06",
    "+2026-08-06T09:00:00Z",
    "-2026-08-06T09:00:00Z",
    "12026-08-06T09:00:00Z",
    " 2026-08-06T09:00:00Z",
    "2026-08-06T09:00:00Z ",
    "2026-08-06T09:00:00Z\n",
    "2026-08-06T0９:00:00Z",
    "2026-08-06T09:00:00",
    "",
]


@pytest.mark.parametrize("text", E6_STRINGS)
def test_strings_outside_the_offset_grammar_are_e6(text: str) -> None:
    assert rule_of(text) is Rule.E6


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("0000-08-06T09:00:00Z", Rule.E7),
        ("2026-08-06T24:00:00Z", Rule.E7),
        ("2026-08-06T23:60:00Z", Rule.E7),
        ("2026-08-06T23:59:60Z", Rule.E7),
        ("2026-02-30T01:00:00Z", Rule.E7),
        ("2027-02-29T01:00:00Z", Rule.E7),
        ("2100-02-29T01:00:00Z", Rule.E7),
        ("2026-13-01T01:00:00Z", Rule.E7),
        ("2026-00-01T01:00:00Z", Rule.E7),
        ("2026-04-31T01:00:00Z", Rule.E7),
        ("2026-02-30T01:00:00+24:00", Rule.E7),
        ("2026-08-06T25:00:00+24:00", Rule.E7),
        ("2026-08-06T09:00:00+24:00", Rule.E8),
        ("2026-08-06T09:00:00+05:60", Rule.E8),
        ("2026-08-06T09:00:00-00:00", Rule.E8),
    ],
)
def test_offset_strings_check_calendar_before_offset(text: str, rule: Rule) -> None:
    assert rule_of(text) is rule


@pytest.mark.parametrize(
    ("date", "time", "expected"),
    [
        ("2026-08-06", "09:00:00", "2026-08-06T09:00:00.000Z"),
        ("2026-08-06", "09:00:00.5", "2026-08-06T09:00:00.500Z"),
        ("2026-08-06", "09:00:00.25", "2026-08-06T09:00:00.250Z"),
        ("2026-08-06", "09:00:00.007", "2026-08-06T09:00:00.007Z"),
        ("1000-01-01", "00:00:00", "1000-01-01T00:00:00.000Z"),
    ],
)
def test_local_objects_in_utc_resolve_to_their_wall_time(
    date: str, time: str, expected: str
) -> None:
    assert format_instant_ms(parse_at(local(date, time))) == expected


@pytest.mark.parametrize(
    ("date", "time"),
    [
        ("2026-08-06", "9:00:00"),
        ("2026-08-06", "09:00"),
        ("2026-08-06", "09:00:00."),
        ("2026-08-06", "09:00:00.1234"),
        ("2026-08-06", "09:00:00Z"),
        ("2026-08-06", "09:00:00+01:00"),
        ("2026-8-06", "09:00:00"),
        ("2026/08/06", "09:00:00"),
        ("20260806", "09:00:00"),
        ("+2026-08-06", "09:00:00"),
        ("2026-08-06 ", "09:00:00"),
        ("2026-08-06", "09:00:00\n"),
        ("２026-08-06", "09:00:00"),
    ],
)
def test_local_fields_outside_their_grammars_are_e9(date: str, time: str) -> None:
    assert rule_of(local(date, time)) is Rule.E9
    assert rule_of(local(date, time, "Not/A_Zone")) is Rule.E9


@pytest.mark.parametrize(
    ("date", "time", "rule"),
    [
        ("0000-08-06", "09:00:00", Rule.E10),
        ("2026-08-06", "24:00:00", Rule.E10),
        ("2026-08-06", "23:60:00", Rule.E10),
        ("2026-08-06", "23:59:60", Rule.E10),
        ("2026-02-30", "09:00:00", Rule.E7),
        ("2027-02-29", "09:00:00", Rule.E7),
        ("2026-13-06", "09:00:00", Rule.E7),
    ],
)
def test_local_field_ranges_then_calendar_precede_the_zone(
    date: str, time: str, rule: Rule
) -> None:
    assert rule_of(local(date, time)) is rule
    assert rule_of(local(date, time, "bogus")) is rule


@pytest.mark.parametrize(
    ("zone", "canonical"),
    [
        ("UTC", "UTC"),
        ("Etc/UTC", "Etc/UTC"),
        ("etc/utc", "Etc/UTC"),
        ("Etc/GMT", "Etc/GMT"),
        ("America/New_York", "America/New_York"),
        ("america/new_york", "America/New_York"),
        ("US/Eastern", "US/Eastern"),
        ("Asia/Kolkata", "Asia/Kolkata"),
        ("Asia/Calcutta", "Asia/Calcutta"),
        ("Asia/Kathmandu", "Asia/Kathmandu"),
        ("Antarctica/Troll", "Antarctica/Troll"),
        ("Australia/Lord_Howe", "Australia/Lord_Howe"),
        ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("Etc/GMT+5", "Etc/GMT+5"),
    ],
)
def test_accepted_zone_names_map_case_insensitively_to_tz_keys(zone: str, canonical: str) -> None:
    assert accept_time_zone(zone).key == canonical


@pytest.mark.parametrize(
    "zone",
    [
        "utc",
        "GMT",
        "EST",
        "EST5EDT",
        "CST",
        "PST",
        "Z",
        "+08:00",
        "Not/A_Real_Zone",
        "America/New_York/Extra",
        " UTC",
        "America/New_York ",
        "",
        "America//New_York",
        "/America/New_York",
        "America/",
        "1America/New_York",
        "posix/Europe/Berlin",
        "right/UTC",
        "America/New_York\n",
    ],
)
def test_rejected_zone_names_are_e12(zone: str) -> None:
    with pytest.raises(InputError) as raised:
        accept_time_zone(zone)
    assert raised.value.rule is Rule.E12
    assert rule_of(local("2026-08-06", "09:00:00", zone)) is Rule.E12


def test_a_us_eastern_link_resolves_like_its_target_zone() -> None:
    wall = local("2026-08-06", "09:00:00", "US/Eastern")
    assert parse_at(wall) == parse_at(local("2026-08-06", "09:00:00", "America/New_York"))


DST_TABLE = [
    ("America/New_York", "2026-03-08", "02:00:00", None),
    ("America/New_York", "2026-03-08", "02:30:00", None),
    ("America/New_York", "2026-03-08", "02:59:59.999", None),
    ("America/New_York", "2026-03-08", "01:59:59.999", "2026-03-08T06:59:59.999Z"),
    ("America/New_York", "2026-03-08", "03:00:00", "2026-03-08T07:00:00.000Z"),
    ("America/New_York", "2026-11-01", "01:00:00", "2026-11-01T05:00:00.000Z"),
    ("America/New_York", "2026-11-01", "01:30:00", "2026-11-01T05:30:00.000Z"),
    ("America/New_York", "2026-11-01", "01:59:59.999", "2026-11-01T05:59:59.999Z"),
    ("America/New_York", "2026-11-01", "02:00:00", "2026-11-01T07:00:00.000Z"),
    ("Europe/London", "2027-03-28", "01:00:00", None),
    ("Europe/London", "2027-03-28", "01:30:00", None),
    ("Europe/London", "2027-03-28", "02:00:00", "2027-03-28T01:00:00.000Z"),
    ("Europe/London", "2026-10-25", "01:30:00", "2026-10-25T00:30:00.000Z"),
    ("Australia/Lord_Howe", "2026-10-04", "02:00:00", None),
    ("Australia/Lord_Howe", "2026-10-04", "02:15:00", None),
    ("Australia/Lord_Howe", "2026-10-04", "02:30:00", "2026-10-03T15:30:00.000Z"),
    ("Australia/Lord_Howe", "2027-04-04", "01:30:00", "2027-04-03T14:30:00.000Z"),
    ("Australia/Lord_Howe", "2027-04-04", "01:45:00", "2027-04-03T14:45:00.000Z"),
    ("Australia/Lord_Howe", "2027-04-04", "02:00:00", "2027-04-03T15:30:00.000Z"),
    ("Australia/Sydney", "2026-10-04", "02:30:00", None),
    ("Australia/Sydney", "2027-04-04", "02:30:00", "2027-04-03T15:30:00.000Z"),
    ("Pacific/Chatham", "2026-09-27", "03:00:00", None),
    ("Pacific/Chatham", "2027-04-04", "03:00:00", "2027-04-03T13:15:00.000Z"),
    ("America/Santiago", "2026-09-06", "00:30:00", None),
    ("Antarctica/Troll", "2027-03-28", "01:30:00", None),
    ("Pacific/Apia", "2011-12-30", "12:00:00", None),
    ("Asia/Shanghai", "2026-08-06", "09:00:00.25", "2026-08-06T01:00:00.250Z"),
    ("Etc/GMT+5", "2026-08-06", "09:00:00", "2026-08-06T14:00:00.000Z"),
    ("America/New_York", "9999-12-31", "18:59:59.999", "9999-12-31T23:59:59.999Z"),
]


@pytest.mark.parametrize(("zone", "date", "time", "expected"), DST_TABLE)
def test_local_wall_times_follow_the_gap_and_overlap_table(
    zone: str, date: str, time: str, expected: str | None
) -> None:
    if expected is None:
        assert rule_of(local(date, time, zone)) is Rule.E11
    else:
        assert format_instant_ms(parse_at(local(date, time, zone))) == expected


@pytest.mark.parametrize(
    ("zone", "date", "time"),
    [
        ("America/New_York", "9999-12-31", "19:00:00"),
        ("Asia/Tokyo", "0001-01-01", "00:00:00"),
        ("Asia/Kolkata", "0001-01-01", "00:00:00"),
        ("America/Los_Angeles", "9999-12-31", "23:59:59.999"),
    ],
)
def test_local_wall_times_whose_candidates_leave_the_range_are_e14(
    zone: str, date: str, time: str
) -> None:
    assert rule_of(local(date, time, zone)) is Rule.E14


def test_local_wall_times_at_the_range_edges_in_utc_are_valid() -> None:
    assert parse_at(local("0001-01-01", "00:00:00")) == MIN_MS
    assert parse_at(local("9999-12-31", "23:59:59.999")) == MAX_MS


@pytest.mark.parametrize(
    ("target", "now", "rule"),
    [
        (MIN_MS - 1, MIN_MS - 10, Rule.E14),
        (MAX_MS + 1, 0, Rule.E14),
        (1000, 1000, Rule.E13),
        (999, 1000, Rule.E13),
    ],
)
def test_range_is_checked_before_the_future_rule(target: int, now: int, rule: Rule) -> None:
    with pytest.raises(InputError) as raised:
        check_target(target, now)
    assert raised.value.rule is rule


def test_one_millisecond_in_the_future_is_accepted() -> None:
    assert check_target(1001, 1000) == 1001


@pytest.mark.parametrize(
    ("text", "rule"),
    [("0001-01-01T00:00:00+00:01", Rule.E14), ("9999-12-31T23:59:59-00:01", Rule.E14)],
)
def test_offsets_pushing_an_instant_out_of_range_are_e14(text: str, rule: Rule) -> None:
    with pytest.raises(InputError) as raised:
        check_target(parse_at(text), parse_instant_ms("2026-08-05T12:00:00.000Z"))
    assert raised.value.rule is rule


@settings(max_examples=40)
@given(
    st.integers(min_value=MIN_MS + 86_400_000, max_value=MAX_MS - 86_400_000),
    st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59),
)
def test_offset_strings_round_trip_through_any_offset(ms: int, offset_minutes: int) -> None:
    canonical = format_instant_ms(ms + offset_minutes * 60_000)
    sign = "-" if offset_minutes < 0 else "+"
    hours, minutes = divmod(abs(offset_minutes), 60)
    text = f"{canonical[:-1]}{sign}{hours:02d}:{minutes:02d}"
    if text.endswith("-00:00"):
        text = text[:-6] + "Z"
    assert parse_at(text) == ms


@settings(max_examples=40)
@given(st.text(alphabet=st.sampled_from('0123456789-:T.Z+ "\\\u2028\u0085\ufeff😀٣'), max_size=30))
def test_arbitrary_text_either_parses_or_raises_an_input_error(text: str) -> None:
    outcome: object
    try:
        outcome = parse_at(text)
    except InputError as error:
        outcome = error.rule
    assert outcome in {Rule.E6, Rule.E7, Rule.E8} or isinstance(outcome, int)


class _DriftingZone(tzinfo):
    """A zone whose forward conversion adds more than the offset it reports (as a buggy or exotic
    rule could): a candidate inside the range then converts back past year 9999."""

    def utcoffset(self, dt: datetime | None) -> timedelta:
        return timedelta(hours=1)

    def dst(self, dt: datetime | None) -> timedelta:
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        return "DRIFT"

    def fromutc(self, dt: datetime) -> datetime:
        return dt + timedelta(hours=2)


def test_a_candidate_whose_back_conversion_overflows_counts_as_out_of_range() -> None:
    fields = (9999, 12, 31, 23, 30, 0, 0)
    with pytest.raises(InputError) as raised:
        resolve_local(fields, MAX_MS - 30 * 60_000 + 1, _DriftingZone())
    assert raised.value.rule is Rule.E14
