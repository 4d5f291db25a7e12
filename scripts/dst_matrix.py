"""Full DST matrix: every zone of the bundled tz database, every UTC-offset transition in a year
range (default 2020-2035), five probes per transition (each edge of the gap or overlap, its first,
middle and last millisecond), resolved by Chime's schedule_create and compared with an independent
TZif/POSIX-footer oracle (tests/survival/tzif_oracle.py). Prints the counts; exit 1 on a mismatch.

    .venv/bin/python scripts/dst_matrix.py [--first 2020] [--last 2035] [--source tzdata]

`--wide N` adds N random wall times per zone over years 1-9999 (gap, out-of-range, resolution).
`--source zoneinfo-order` (default) makes the oracle read the file zoneinfo itself loads (the
system database on TZPATH first, then the tzdata package); `--source tzdata` always reads the
tzdata package's copy, so zones whose rules differ between the two show up as mismatches.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.survival.chime_driver import (  # noqa: E402  # needs ROOT on sys.path
    check_points,
    check_rejected_zone,
    create_at,
    local_object,
    run,
)
from tests.survival.dst_points import (  # noqa: E402  # needs ROOT on sys.path
    Point,
    bundled_zone_names,
    oracle_zone,
    year_bounds,
    zone_is_accepted,
    zone_points,
)
from tests.survival.tzif_oracle import (  # noqa: E402  # needs ROOT on sys.path
    canonical,
    load_zone,
    ms_from_fields,
    transitions,
    wall_instants,
)

YEAR_ONE = datetime(1, 1, 1, tzinfo=UTC)


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


def _wide_points(names: list[str], per_zone: int, source: str) -> list[Point]:
    """`per_zone` random wall times per zone over years 1-9999 (fixed seed), oracle-resolved.

    Clock for these: FAR_PAST does not precede them all, so they are judged only on resolution
    (scheduledAt, gap or out of range), with the clock at 0001-01-01 (see _check_wide)."""
    rng = random.Random(20261130)
    points = []
    for name in names:
        zone = oracle_zone(name, source=source)
        for _ in range(per_zone):
            year = rng.choice([1, 9999, rng.randint(1, 1969), rng.randint(2036, 9999)])
            fields = (rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23))
            local = ms_from_fields(year, *fields, rng.randint(0, 59), rng.randint(0, 59), 0)
            valid, out_of_range = wall_instants(zone, local)
            kind = "wide" if valid or not out_of_range else "wide-out-of-range"
            points.append(Point(name, local, kind, valid[0] if valid else None))
    return points


async def _check_wide(points: list[Point]) -> list[str]:
    bad = []
    for point in points:
        result = await create_at(local_object(point.local_ms, point.zone), YEAR_ONE)
        if point.expected is not None:
            ok = isinstance(result, dict) and result.get("scheduledAt") == canonical(point.expected)
        else:
            code = "time_out_of_range" if point.kind == "wide-out-of-range" else "invalid_rule"
            ok = isinstance(result, dict) and result.get("code") == code
        if not ok:
            bad.append(
                f"{local_object(point.local_ms, point.zone)}: oracle {point.expected}, got {result!r}"
            )
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=2020)
    parser.add_argument("--last", type=int, default=2035)
    parser.add_argument("--source", choices=("zoneinfo-order", "tzdata"), default="zoneinfo-order")
    parser.add_argument("--show", type=int, default=20, help="mismatches to print")
    parser.add_argument(
        "--wide", type=int, default=20, help="random wall times per zone, years 1-9999"
    )
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
    wide = _wide_points(accepted, args.wide, args.source)
    wide_bad = run(_check_wide(wide))
    print(f"wide check (years 1-9999): {len(wide)} wall times, {len(wide_bad)} mismatches")
    for line in wide_bad[: args.show]:
        print("  " + line)
    print(f"elapsed: {time.perf_counter() - started:.1f} s")
    return 1 if mismatches or bad_refusals or wide_bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
