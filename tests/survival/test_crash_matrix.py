"""Crash matrix (fast version): the engine in a child process on real files, SIGKILLed at random
points, and the session judged after every kill (tests/survival/crash_checks.py). The long
version is ``scripts/crash_matrix.py --kills 200``. Also: the judge's own detectors, on logs
built to break each rule, so a silent judge cannot pass the matrix."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.fakes import FakeClock
from tests.survival.crash_checks import (
    START,
    Host,
    Matrix,
    admission_violations,
    final_violations,
    group_violations,
    scan_log,
)

HEADER = b'{"type":"session","version":1,"id":"x","createdAt":"2026-08-05T12:00:00.000Z"}\n'
AT = "2026-08-05T12:00:00.000Z"


def line(seq: int, type: str, data: dict[str, Any], group: int | None = None) -> bytes:
    envelope: dict[str, Any] = {"seq": seq, "at": AT, "type": type, "data": data}
    if group is not None:
        envelope["group"] = group
    return json.dumps(envelope, separators=(",", ":")).encode() + b"\n"


def reminder(seq: int, group: int | None = 2) -> bytes:
    data = {"id": f"m{seq}", "text": "[SCHEDULE REMINDER]", "source": {"kind": "plugin"}}
    return line(seq, "user/message", data, group)


def dispatch(seq: int, schedule_id: str = "schedule-1", accepted: str | None = None) -> bytes:
    data: dict[str, Any] = {"version": 1, "operation": "dispatch", "id": schedule_id}
    if accepted is not None:
        data["acceptedAt"] = accepted
    return line(seq, "schedule/change", data)


def chat(seq: int) -> bytes:
    return line(seq, "user/message", {"id": f"u{seq}", "text": "hi", "source": {"kind": "user"}})


@pytest.mark.slow
def test_sessions_killed_at_random_keep_every_durable_event_and_admit_no_reminder_twice(
    tmp_path: Path,
) -> None:
    forced = [("partial", 40), ("before", 60), ("after", 25)]  # torn tails, at least three
    figures = Matrix(tmp_path, seed=20261130, forced=forced).run(kills=12)
    assert figures.violations == []
    assert figures.kills == 12
    assert figures.op_kills >= 3
    assert figures.durable_reported > 0
    assert figures.admissions_checked > 0
    assert figures.torn_tails >= 1
    assert figures.torn_files >= 1
    assert figures.reopens >= 1


@pytest.mark.slow
def test_the_matrix_catches_a_disk_that_acknowledges_writes_it_dropped(tmp_path: Path) -> None:
    figures = Matrix(tmp_path, seed=7, forced=[("after", 10_000)], child_options=["--lying-disk"])
    result = figures.run(kills=1)
    assert any("missing" in problem for problem in result.violations)


def test_a_log_cut_inside_a_line_keeps_the_complete_lines_and_tears_the_rest() -> None:
    raw = HEADER + chat(0) + chat(1)[:-7]
    scan = scan_log(raw)
    assert scan.lines == [chat(0)]
    assert scan.tail == chat(1)[:-7]
    assert scan.corrupt is None


def test_a_group_missing_its_last_line_is_torn_from_its_first_line() -> None:
    raw = HEADER + chat(0) + reminder(1)
    scan = scan_log(raw)
    assert scan.committed == len(HEADER + chat(0))
    assert scan.tail == reminder(1)


def test_a_bad_line_before_the_tail_is_corruption_not_a_tear() -> None:
    raw = HEADER + chat(0) + b"{nope\n" + chat(2)
    assert scan_log(raw).corrupt is not None


def test_reminder_inputs_and_dispatches_outside_their_group_are_flagged() -> None:
    lone = scan_log(HEADER + reminder(0, group=None) + dispatch(1)).envelopes
    grouped = scan_log(HEADER + reminder(0) + dispatch(1)).envelopes
    assert len(group_violations(lone)) == 2
    assert group_violations(grouped) == []


def test_a_one_shot_dispatched_twice_is_flagged_and_distinct_every_dispatches_are_not() -> None:
    twice = scan_log(HEADER + reminder(0) + dispatch(1) + reminder(2) + dispatch(3)).envelopes
    every = (
        HEADER
        + reminder(0)
        + dispatch(1, "e", AT)
        + reminder(2)
        + dispatch(3, "e", "2026-08-05T12:05:00.000Z")
    )
    assert admission_violations(twice) == ["('schedule-1', None) dispatched 2 times"]
    assert admission_violations(scan_log(every).envelopes) == []


def test_a_created_one_shot_never_dispatched_is_flagged_at_the_end() -> None:
    create = {
        "version": 1,
        "operation": "create",
        "schedule": {"id": "schedule-1", "kind": "after", "prompt": "p", "afterSeconds": 1},
    }
    events = scan_log(HEADER + line(0, "schedule/change", create)).envelopes
    assert final_violations(events) == ["one-shot schedule-1 ended 0 times"]


def test_the_matrix_notices_a_durable_event_whose_bytes_changed(tmp_path: Path) -> None:
    matrix = Matrix(tmp_path, seed=1)

    async def one_turn() -> None:
        await matrix._create()
        host = await Host(matrix.data, FakeClock(START), "t").open(matrix.session_id)
        host.submit("hello")
        await host.when_idle()
        await host.dispose()

    asyncio.run(one_turn())
    log = matrix.folder / "session.jsonl"
    raw = log.read_bytes()
    first = scan_log(raw).lines[0]
    matrix.durable[0] = hashlib.sha256(first).hexdigest()
    log.write_bytes(raw.replace(b'"hello"', b'"jello"'))
    matrix.check(reopen=False)
    assert [p for p in matrix.figures.violations if "durable event 0 changed" in p]
