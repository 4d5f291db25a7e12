"""Full DST matrix: every zone of the bundled tz database, every UTC-offset transition in a year
range (default 2020-2035), five probes per transition (each edge of the gap or overlap, its first,
middle and last millisecond), resolved by Chime's schedule_create and compared with an independent
TZif/POSIX-footer oracle (tests/survival/tzif_oracle.py). Prints the counts; exit 1 on a mismatch.

    .venv/bin/python scripts/dst_matrix.py [--first 2020] [--last 2035] [--source tzdata]

`--source zoneinfo-order` (default) makes the oracle read the file zoneinfo itself loads (the
system database on TZPATH first, then the tzdata package); `--source tzdata` always reads the
tzdata package's copy, so zones whose rules differ between the two show up as mismatches.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.survival.chime_driver import check_points, check_rejected_zone, run  # noqa: E402  # needs ROOT on sys.path
from tests.survival.dst_points import (  # noqa: E402  # needs ROOT on sys.path
    Point,
    bundled_zone_names,
    oracle_zone,
    year_bounds,
    zone_is_accepted,
    zone_points,
)
from tests.survival.tzif_oracle import load_zone, transitions  # noqa: E402  # needs ROOT on sys.path


def _skewed_zones(names: list[str], lo: int, hi: int) -> list[str]:
    """Zones whose transitions in range differ between the system database and tzdata."""
    return [
        n for n in names if transitions(oracle_zone(n), lo, hi) != transitions(load_zone(n), lo, hi)
    ]


def _collect(names: list[str], lo: int, hi: int, source: str) -> tuple[Counter[str], list[Point]]:
    counts: Counter[str] = Counter()
    points: list[Point] = []
    for name in names:
        count, zone_pts = zone_points(oracle_zone(name, source=source), lo, hi)
        counts["transitions"] += count
        counts["zones with transitions"] += count > 0
        points += zone_pts
    counts.update(f"{p.kind} points" for p in points)
    return counts, points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=2020)
    parser.add_argument("--last", type=int, default=2035)
    parser.add_argument("--source", choices=("zoneinfo-order", "tzdata"), default="zoneinfo-order")
    parser.add_argument("--show", type=int, default=20, help="mismatches to print")
    args = parser.parse_args()
    started = time.perf_counter()
    lo, hi = year_bounds(args.first, args.last)
    names = bundled_zone_names()
    known = {n.lower() for n in names}
    accepted = [n for n in names if zone_is_accepted(n, known)]
    refused = [n for n in names if n not in accepted]
    counts, points = _collect(accepted, lo, hi, args.source)
    tried, mismatches = run(check_points(points))
    bad_refusals = {n: r for n in refused if (r := run(check_rejected_zone(n))) is not None}
    skew = _skewed_zones(accepted, lo, hi)
    print(
        f"tz database names: {len(names)} (accepted by §6.3: {len(accepted)}, refused: {len(refused)})"
    )
    print(f"years {args.first}-{args.last}, oracle source: {args.source}")
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    print(f"probes resolved through schedule_create: {tried}")
    print(
        f"refused names checked (must be invalid_time_zone): {len(refused)}, wrong: {len(bad_refusals)}"
    )
    print(f"zones whose rules differ between the system database and tzdata: {len(skew)} {skew}")
    bad_zones = sorted({m.point.zone for m in mismatches})
    print(f"mismatches: {len(mismatches)} in {len(bad_zones)} zones {bad_zones}")
    print(f"  of which in zones outside the database skew: {sum(z not in skew for z in bad_zones)}")
    for mismatch in mismatches[: args.show]:
        print("  " + mismatch.describe())
    for name, result in list(bad_refusals.items())[: args.show]:
        print(f"  refused name {name!r} gave {result!r}")
    print(f"elapsed: {time.perf_counter() - started:.1f} s")
    return 1 if mismatches or bad_refusals else 0


if __name__ == "__main__":
    raise SystemExit(main())
