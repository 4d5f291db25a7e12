"""The DST matrix's oracle checked on its own: hand-known transitions, the spec's §6.4 table, the
footer rule forms, and self-consistency over every bundled zone (plus agreement with zoneinfo)."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest

from tests.survival.dst_points import (
    bundled_zone_names,
    oracle_zone,
    transition_points,
    year_bounds,
)
from tests.survival.tzif_oracle import (
    Footer,
    Rule,
    canonical,
    footer_offset,
    footer_transitions,
    ms_from_fields,
    parse_footer,
    rule_day,
    transitions,
    wall_instants,
)

H = 3600


def _wall(zone: str, *fields: int) -> list[str]:
    year, month, day, hour, minute, second, *milli = fields
    local = ms_from_fields(year, month, day, hour, minute, second, milli[0] if milli else 0)
    valid, _out = wall_instants(oracle_zone(zone), local)
    return [canonical(ms) for ms in valid]


def _transitions_of_year(zone: str, year: int) -> list[tuple[str, float, float]]:
    lo, hi = year_bounds(year, year)
    return [
        (canonical(t.instant * 1000), t.before / H, t.after / H)
        for t in transitions(oracle_zone(zone), lo, hi)
    ]


def test_new_york_2026_springs_forward_at_0200_local_leaving_a_one_hour_gap() -> None:
    assert ("2026-03-08T07:00:00.000Z", -5.0, -4.0) in _transitions_of_year(
        "America/New_York", 2026
    )
    for minute, second, milli in ((0, 0, 0), (30, 0, 0), (59, 59, 999)):
        assert _wall("America/New_York", 2026, 3, 8, 2, minute, second, milli) == []
    assert _wall("America/New_York", 2026, 3, 8, 1, 59, 59, 999) == ["2026-03-08T06:59:59.999Z"]
    assert _wall("America/New_York", 2026, 3, 8, 3, 0, 0) == ["2026-03-08T07:00:00.000Z"]


def test_london_2026_falls_back_so_0130_local_names_two_instants_bst_first() -> None:
    assert ("2026-10-25T01:00:00.000Z", 1.0, 0.0) in _transitions_of_year("Europe/London", 2026)
    assert _wall("Europe/London", 2026, 10, 25, 1, 30, 0) == [
        "2026-10-25T00:30:00.000Z",
        "2026-10-25T01:30:00.000Z",
    ]


def test_lord_howe_shifts_by_thirty_minutes_both_ways() -> None:
    assert ("2026-10-03T15:30:00.000Z", 10.5, 11.0) in _transitions_of_year(
        "Australia/Lord_Howe", 2026
    )
    assert _wall("Australia/Lord_Howe", 2026, 10, 4, 2, 15, 0) == []
    assert _wall("Australia/Lord_Howe", 2026, 10, 4, 2, 30, 0) == ["2026-10-03T15:30:00.000Z"]
    assert _wall("Australia/Lord_Howe", 2027, 4, 4, 1, 45, 0)[0] == "2027-04-03T14:45:00.000Z"
    assert _wall("Australia/Lord_Howe", 2027, 4, 4, 2, 0, 0) == ["2027-04-03T15:30:00.000Z"]


@pytest.mark.parametrize(
    ("zone", "fields", "earliest"),
    [
        ("Australia/Sydney", (2026, 10, 4, 2, 30, 0), None),
        ("Australia/Sydney", (2027, 4, 4, 2, 30, 0), "2027-04-03T15:30:00.000Z"),
        ("Pacific/Chatham", (2026, 9, 27, 3, 0, 0), None),
        ("Pacific/Chatham", (2027, 4, 4, 3, 0, 0), "2027-04-03T13:15:00.000Z"),
        ("America/Santiago", (2026, 9, 6, 0, 30, 0), None),
        ("Antarctica/Troll", (2027, 3, 28, 1, 30, 0), None),
        ("Pacific/Apia", (2011, 12, 30, 12, 0, 0), None),
        ("Europe/London", (2027, 3, 28, 1, 30, 0), None),
        ("Europe/London", (2027, 3, 28, 2, 0, 0), "2027-03-28T01:00:00.000Z"),
        ("America/New_York", (2026, 11, 1, 1, 59, 59, 999), "2026-11-01T05:59:59.999Z"),
        ("America/New_York", (2026, 11, 1, 2, 0, 0), "2026-11-01T07:00:00.000Z"),
        ("Asia/Shanghai", (2026, 8, 6, 9, 0, 0, 250), "2026-08-06T01:00:00.250Z"),
        ("Etc/GMT+5", (2026, 8, 6, 9, 0, 0), "2026-08-06T14:00:00.000Z"),
        ("America/New_York", (9999, 12, 31, 18, 59, 59, 999), "9999-12-31T23:59:59.999Z"),
    ],
)
def test_oracle_reproduces_the_spec_table_of_gaps_and_overlaps(
    zone: str, fields: tuple[int, ...], earliest: str | None
) -> None:
    got = _wall(zone, *fields)
    assert (got[0] if got else None) == earliest


@pytest.mark.parametrize(
    ("zone", "fields"),
    [("America/New_York", (9999, 12, 31, 19, 0, 0, 0)), ("Asia/Tokyo", (1, 1, 1, 0, 0, 0, 0))],
)
def test_oracle_flags_wall_times_whose_instants_leave_the_supported_range(
    zone: str, fields: tuple[int, ...]
) -> None:
    valid, out_of_range = wall_instants(oracle_zone(zone), ms_from_fields(*fields))
    assert valid == []
    assert out_of_range


def test_footer_parser_reads_quoted_names_minute_offsets_and_default_dst() -> None:
    assert parse_footer("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45") == Footer(
        45900, 49500, Rule("M", (9, 5, 0), 9900), Rule("M", (4, 1, 0), 13500)
    )
    assert parse_footer("EST5EDT,M3.2.0,M11.1.0") == Footer(
        -5 * H, -4 * H, Rule("M", (3, 2, 0), 2 * H), Rule("M", (11, 1, 0), 2 * H)
    )
    assert parse_footer("<-05>5") == Footer(-5 * H, None, None, None)


def test_julian_rule_never_counts_february_29_but_zero_based_rule_does() -> None:
    march_1 = {y: ms_from_fields(y, 3, 1, 0, 0, 0, 0) // 86_400_000 for y in (2027, 2028)}
    assert rule_day(Rule("J", (60,), 0), 2027) == march_1[2027]
    assert rule_day(Rule("J", (60,), 0), 2028) == march_1[2028]
    assert rule_day(Rule("n", (59,), 0), 2027) == march_1[2027]
    assert rule_day(Rule("n", (59,), 0), 2028) == march_1[2028] - 1  # Feb 29


def test_rule_times_beyond_24_hours_and_below_zero_move_the_instant_across_days() -> None:
    israel = parse_footer("IST-2IDT,M3.4.4/26,M10.5.0")
    nuuk = parse_footer("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
    assert israel is not None
    assert nuuk is not None
    # 4th Thursday of March 2026 is the 26th; 26:00 IST is Friday 27th 02:00 = 00:00Z
    assert footer_transitions(israel, 2026)[0][0] == ms_from_fields(2026, 3, 27, 0, 0, 0, 0) // 1000
    # last Sunday of March 2026 is the 29th; -1:00 at -02 is 28th 23:00 local = 29th 01:00Z
    assert footer_transitions(nuuk, 2026)[0][0] == ms_from_fields(2026, 3, 29, 1, 0, 0, 0) // 1000


def test_dst_all_year_footer_stays_in_daylight_time_across_new_year() -> None:
    permanent = parse_footer("EST5EDT,0/0,J365/25")
    assert permanent is not None
    for year in (2027, 2028):
        new_year = ms_from_fields(year, 1, 1, 5, 0, 0, 0) // 1000
        for instant in (new_year - 1, new_year, new_year + 1, new_year + 180 * 86400):
            assert footer_offset(permanent, instant) == -4 * H


@pytest.mark.slow
def test_every_bundled_zone_yields_empty_gaps_double_overlaps_and_single_edges() -> None:
    lo, hi = year_bounds()
    counts = {"gap": 0, "overlap": 0, "edge": 0}
    for name in bundled_zone_names():
        zone = oracle_zone(name)
        for tr in transitions(zone, lo, hi):
            for point in transition_points(zone, tr):
                valid, _out = wall_instants(zone, point.local_ms)
                assert len(valid) == {"gap": 0, "overlap": 2, "edge": 1}[point.kind], point
                counts[point.kind] += 1
    assert min(counts.values()) > 1000


def test_oracle_offsets_agree_with_zoneinfo_on_both_sides_of_every_transition() -> None:
    lo, hi = year_bounds()
    checked = 0
    for name in bundled_zone_names():
        zone, reference = oracle_zone(name), zoneinfo.ZoneInfo(name)
        for tr in transitions(zone, lo, hi):
            for instant, offset in ((tr.instant - 1, tr.before), (tr.instant, tr.after)):
                moment = datetime.fromtimestamp(instant, UTC).astimezone(reference)
                assert moment.utcoffset() == timedelta(seconds=offset), (name, instant)
                checked += 1
    assert checked > 5000
