"""DST matrix, fast version: Chime's local-time resolution (schedule_create with a local `at`
object) against the independent TZif oracle, for every 2020-2035 UTC-offset transition of a fixed
plus hashed sample of zones. The full matrix is `scripts/dst_matrix.py`."""

from __future__ import annotations

import pytest

from tests.survival.chime_driver import check_points, check_rejected_zone, create_at, run
from tests.survival.dst_points import (
    bundled_zone_names,
    oracle_zone,
    sampled_zone_names,
    year_bounds,
    zone_is_accepted,
    zone_points,
)

pytestmark = pytest.mark.slow


def test_sampled_zones_resolve_every_transition_edge_like_the_tzif_oracle() -> None:
    lo, hi = year_bounds()
    known = {n.lower() for n in bundled_zone_names()}
    points, transitions_seen = [], 0
    for name in sampled_zone_names():
        if not zone_is_accepted(name, known):
            continue
        count, zone_pts = zone_points(oracle_zone(name), lo, hi)
        transitions_seen += count
        points += zone_pts
    tried, mismatches = run(check_points(points))
    assert transitions_seen > 400
    assert tried == len(points)
    assert [m.describe() for m in mismatches[:10]] == []


def test_bundled_names_outside_the_zone_grammar_are_rejected_as_invalid_time_zone() -> None:
    known = {n.lower() for n in bundled_zone_names()}
    refused = [n for n in bundled_zone_names() if not zone_is_accepted(n, known)]
    assert "EST5EDT" in refused
    bad = {name: run(check_rejected_zone(name)) for name in refused}
    assert {name: result for name, result in bad.items() if result is not None} == {}


def test_a_local_time_in_a_gap_is_rejected_even_when_it_lies_in_the_past() -> None:
    result = run(create_at({"date": "2011-12-30", "time": "12:00:00", "time_zone": "Pacific/Apia"}))
    assert isinstance(result, dict)
    assert result.get("code") == "invalid_rule"
