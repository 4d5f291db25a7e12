"""Crash matrix (fast version): the engine in a child process on real files, SIGKILLed at random
points, and the session judged after every kill (tests/survival/crash_checks.py). The long
version is ``scripts/crash_matrix.py --kills 200``. Also: the judge's own detectors, on logs
built to break each rule, so a silent judge cannot pass the matrix."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from core.errors import ProviderError
from core.session.conversation import Conversation
from core.session.live import LiveSession
from core.session.store import SessionStore
from tests.core.agent.fakes import Reply
from tests.core.agent.test_agent import make_agent
from tests.core.session.test_pure import resealed
from tests.fakes import FakeClock, MemoryLog
from tests.survival import verb_checks
from tests.survival.crash_checks import (
    START,
    Host,
    Matrix,
    admission_violations,
    final_violations,
    group_violations,
    request_violations,
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
    assert figures.verb_checks == 13  # after every kill, and after the final drive
    assert figures.fold_checks == 2 * figures.reopens
    assert min(figures.edits, figures.selects, figures.hides, figures.retries) >= 1
    assert min(figures.choices, figures.attachments, figures.attachments_checked) >= 1


@pytest.mark.slow
def test_kills_between_a_tools_effect_and_the_turns_end_never_create_a_reminder_twice(
    tmp_path: Path,
) -> None:
    """Issue 24 point 3 on real files: a child is SIGKILLed once a reminder's create (or a tool's
    result) is durable and its turn has not ended; each reopen resumes that turn from the log,
    and no input ever creates two reminders (check 12)."""
    points = [("effect", 1), ("result", 2), ("effect", 2), ("result", 1)]
    figures = Matrix(tmp_path, seed=424242, points=points).run(kills=4)
    assert figures.violations == []
    assert figures.point_kills == 4
    assert figures.reopens >= 1
    assert figures.requests_checked > 0


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
    version = {"id": "v", "text": "[SCHEDULE REMINDER]", "source": {"kind": "plugin"}, "revises": 0}
    regenerated = HEADER + reminder(0) + dispatch(1) + line(2, "user/message", version)
    assert group_violations(scan_log(regenerated).envelopes) == []  # a verb, not an admission


def test_a_request_that_created_two_reminders_across_its_turns_is_flagged() -> None:
    create = {"version": 1, "operation": "create", "schedule": {"id": "s", "kind": "after"}}
    once = (
        HEADER
        + chat(0)
        + line(1, "turn/start", {"turn": 1, "input": 0})
        + line(2, "schedule/change", create)
        + line(3, "turn/end", {"turn": 1, "status": "interrupted"})
        + line(4, "turn/start", {"turn": 2, "input": 0})
        + line(5, "turn/end", {"turn": 2, "status": "completed"})
    )
    twice = (
        once + line(6, "turn/start", {"turn": 3, "input": 0}) + line(7, "schedule/change", create)
    )
    outside = once + line(6, "schedule/change", create)
    assert request_violations(scan_log(once).envelopes) == []
    assert request_violations(scan_log(twice).envelopes) == ["input 0 created 2 reminders"]
    assert len(request_violations(scan_log(outside).envelopes)) == 1


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


# -- the verbs' detectors (crash_checks 6-11) --------------------------------------------------


def verbs_in_memory() -> MemoryLog:
    """A failed input retried, a second one edited and its version hidden, and a last input whose
    turn failed: every rule of the checks has a case."""

    async def main() -> MemoryLog:
        refused = ProviderError("bad_request", "refused")
        script = [Reply(error=refused), Reply("B"), Reply("A at last"), Reply("B2")]
        agent, log, _, _ = make_agent([*script, Reply(error=refused)])
        for text in ("a", "b"):
            agent.submit(text, None)
            await agent.when_idle()
        assert agent.retry(0)
        await agent.when_idle()
        edited = agent.edit(seq_of(log, "b"), "b2", None)
        await agent.when_idle()
        agent.submit("c", None)  # its turn fails: the leaf's own exchange is a failed one
        await agent.when_idle()
        agent.hide(edited)
        assert edited in log.conversation().path
        return log

    return asyncio.run(main())


def seq_of(log: MemoryLog, text: str) -> int:
    return next(e["seq"] for e in log.events if e["data"].get("text") == text)


def judged(log: MemoryLog, conversation: Conversation) -> list[str]:
    tree = verb_checks.read_tree(log.events)
    return (
        verb_checks.tree_violations(log.entries, conversation, tree)
        + verb_checks.shown_violations(log.entries, conversation, tree)
        + verb_checks.history_violations(log.entries, conversation, tree)
    )


def test_the_verb_checks_pass_the_folds_of_a_log_the_engine_wrote() -> None:
    log = verbs_in_memory()
    fresh = verb_checks.fresh_folds(log.entries, 0).snapshot()
    assert fresh == log.conversation()
    assert judged(log, fresh) == []
    counts = verb_checks.verb_counts(log.events)
    kinds = ("edits", "hides", "retries", "failed_turns")
    assert [counts[kind] for kind in kinds] == [1, 1, 1, 2]


@pytest.mark.parametrize(
    ("wrong", "rule"),
    [
        ({"leaf": 0}, "the leaf is 0"),
        ({"hidden": frozenset()}, "hidden []"),
        ({"failed": frozenset()}, "failed []"),
        ({"latest_turn": {}}, "is not the latest turn"),
        ({"parents": {}, "explicit": ()}, "follows"),
        ({"groups": {}}, "has versions"),
    ],
)
def test_the_verb_checks_flag_a_fold_that_disagrees_with_the_log(
    wrong: dict[str, Any], rule: str
) -> None:
    log = verbs_in_memory()
    problems = judged(log, dataclasses.replace(log.conversation(), **wrong))
    assert any(rule in problem for problem in problems), problems


def test_the_history_check_flags_a_hidden_or_off_path_exchange_sent() -> None:
    log = verbs_in_memory()
    shown_everything = dataclasses.replace(log.conversation(), hidden=frozenset())
    tree = verb_checks.read_tree(log.events)
    problems = verb_checks.history_violations(log.entries, shown_everything, tree)
    assert any("the history of input" in problem for problem in problems)
    one_run = dataclasses.replace(log.conversation(), parents={}, explicit=())  # all in one run
    problems = verb_checks.history_violations(log.entries, one_run, tree)
    assert any("the history of input" in problem for problem in problems)


def test_references_to_anything_but_an_earlier_input_are_flagged() -> None:
    def message(seq: int, **extra: int) -> bytes:
        return line(
            seq,
            "user/message",
            {"id": f"u{seq}", "text": "hi", "source": {"kind": "user"}, **extra},
        )

    raw = (
        HEADER
        + chat(0)
        + message(1, parent=7)
        + message(2, revises=4)
        + line(3, "path/select", {"leaf": 3})
        + line(4, "exchange/hide", {"input": 3, "hidden": True})
        + line(5, "turn/start", {"turn": 1, "input": 4})
        + message(6, parent=-1, revises=0)  # the first input's version: fine
    )
    problems = verb_checks.read_tree(scan_log(raw).envelopes).problems
    assert [p.split(":")[0] for p in problems] == ["seq 1", "seq 2", "seq 3", "seq 4", "seq 5"]


def test_an_attachment_a_message_names_must_be_in_the_folder_whole(tmp_path: Path) -> None:
    data = b"notes\n"
    sha = hashlib.sha256(data).hexdigest()
    item = {"name": "n.txt", "mediaType": "text/plain", "sha256": sha, "size": len(data)}
    named = {"id": "u0", "text": "see", "source": {"kind": "user"}, "attachments": [item]}
    envelopes = scan_log(HEADER + line(0, "user/message", named)).envelopes
    assert "cannot be read" in verb_checks.attachment_violations(tmp_path, envelopes)[0]
    (tmp_path / "attachments").mkdir()
    (tmp_path / "attachments" / sha).write_bytes(b"other\n")
    assert "does not hold" in verb_checks.attachment_violations(tmp_path, envelopes)[0]
    (tmp_path / "attachments" / sha).write_bytes(data)
    assert verb_checks.attachment_violations(tmp_path, envelopes) == []


def test_the_fold_check_catches_a_checkpoint_that_carries_a_wrong_tree(tmp_path: Path) -> None:
    clock = FakeClock(START)

    async def reopened() -> list[str]:
        host = await Host(tmp_path, clock, "t").open(session_id)
        assert isinstance(host.session, LiveSession)
        problems = verb_checks.folds_violations(host.session)
        await host.dispose()
        return problems

    async def two_versions() -> str:
        session = await SessionStore(tmp_path, clock).create()
        await session.close()
        host = await Host(tmp_path, clock, "t").open(session.id)
        host.submit("hello")
        await host.when_idle()
        host.agent.regenerate(0)
        await host.when_idle()
        await host.dispose()
        return session.id

    session_id = asyncio.run(two_versions())
    assert asyncio.run(reopened()) == []  # the checkpoint written on close is right
    checkpoint = tmp_path / "sessions" / session_id / "checkpoint.json"
    raw = checkpoint.read_bytes()
    state = json.loads(raw)
    leaf = state["folds"]["conversation"]["leaf"]
    assert leaf != 0
    # the tree says the first version is shown, sealed again as the encoder seals (a careful
    # forger: an edit without the seal is ignored before anything is read from it)
    checkpoint.write_bytes(resealed(raw, b'"leaf":%d' % leaf, b'"leaf":0'))
    problems = asyncio.run(reopened())
    assert any("'conversation'" in problem for problem in problems), problems
