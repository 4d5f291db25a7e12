"""The parent side of the crash matrix: kill ``crash_worker`` children, then judge the session.

Owns: the kill loop (random real delay, or a random count of file-ops calls), an independent
reading of the raw log (its own line/group scanner, not core.session's), the invariants checked
after every kill, and the figures. Must not: repair or rewrite anything itself; the only writes
to the session are the engine's own (the reopen check runs one more turn through ``SessionHost``).

Checked after every kill (session-log.md §3-§4, schedule.md §10.3, §15):

1. every event the child reported durable (its barrier succeeded) is in the log, byte-identical;
2. the bytes that were committed at the previous check are still the log's prefix (never rewritten);
3. the log has no corruption before its tail; every group is a reminder ``user/message`` followed
   by its dispatches, every reminder input and every dispatch is in such a group (a new version of
   a reminder input keeps its source but is the user's verb, not an admission), no one-shot id
   is dispatched twice and no every record has two dispatches with the same ``acceptedAt``;
4. the schedule fold of the committed events does not fail;
5. on a reopen (every other kill, and always the last): a torn tail is saved byte for byte in a
   ``session.jsonl.torn-*`` file and cut off, the session opens live, and one more turn completes;
6. the verbs' references (tests/survival/verb_checks.py, naive reading of the envelopes): every
   ``user/message`` ``parent``/``revises`` names an earlier ``user/message`` (a parent may be -1),
   and so do every ``path/select`` leaf, ``exchange/hide`` input and ``turn/start`` input;
7. the tree the committed events fold to (a fresh ``SessionFolds`` fed them all) is the naive
   one: its leaf, each shown input's parent (``parent_of`` against the parents walked one by one),
   every input's versions, the hidden and the failed inputs;
8. ``shown`` of that fold yields exactly the shown path's inputs that are not hidden, in seq order,
   and for those the latest turn of each, no other;
9. ``fold_history`` for the shown path's last input, with its bounds lifted, is exactly the naive
   history: the exchanges of that input's path (walked parent by parent), each its input and its
   latest turn's steps, leaving out hidden ones, never-run ones, and those whose latest turn
   failed (but the input's own); with the real bounds it is whole exchanges of that list, in order,
   ending with the input's own;
10. every attachment a committed ``user/message`` names is in ``attachments/<sha256>`` holding
    bytes of that hash and size (the file is stored durably before the message is appended);
11. on a reopen, before the host starts and again after the one more turn: the folds the session
    reports (its fold state's ``to_json()``, ``conversation()``, ``inputs()``, ``choices()``) equal
    a fresh ``SessionFolds`` fed every entry from scratch (a checkpoint carrying wrong state, warm
    opens being frequent with ``--checkpoint-every``, would differ), and every attachment reads
    back through ``read_attachment`` with its hash.

"Never a mix" for the verbs: each verb writes exactly one event (an edit's or a retry's turn
follows like any input's), so after a kill the verb's event is either among the committed events
or absent. 2 (the durable prefix is never rewritten) and 1 (what was reported durable is there)
pin which; 7-9 then hold whichever it is: with the event, the fresh fold shows its effect, and
without it nothing of it, and 11 says the reopened engine agrees with that fresh fold, so no
checkpoint or recovery can show half a verb. tests/core/test_verbs_store.py kills a child on each
side of an edit's ``user/message`` reaching the disk and checks both states whole.

Kills: half at the N-th file-ops call (before it, after it, or mid-write), half after a random
real delay (one in five of those a few ms into the child's open, to land in its recovery). The
children vary their disk: sometimes transient EIO and short writes, a real write-behind timer,
checkpoints every few events (see crash_worker).

At the end, with the clock a day later, every one-shot ever created is either deleted or was
dispatched exactly once (nothing admitted twice, nothing lost).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from core.errors import ChimeError
from core.host import SessionHost
from core.llm.offline import OfflineAssistant
from core.schedule import fold_schedule
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.fakes import FakeClock, RecordingWaker
from tests.survival import verb_checks

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
LOG = "session.jsonl"
TORN = "session.jsonl.torn-"
CUTS = ("before", "after", "partial")


@dataclass
class Scan:
    """The raw log read independently: committed lines, the torn tail, and any corruption."""

    header: bytes
    lines: list[bytes]
    envelopes: list[dict[str, Any]]
    committed: int
    tail: bytes
    corrupt: str | None = None


def _parse(line: bytes, seq: int) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) and value.get("seq") == seq else None


def scan_log(raw: bytes) -> Scan:
    """session-log.md §4 from first principles: what a correct open keeps, cuts or refuses."""
    header_end = raw.index(b"\n") + 1
    pos, lines, envelopes = header_end, list[bytes](), list[dict[str, Any]]()
    corrupt = None
    while (newline := raw.find(b"\n", pos)) >= 0:
        envelope = _parse(raw[pos:newline], len(envelopes))
        if envelope is None:
            if raw.find(b"\n", newline + 1) >= 0 or newline + 1 < len(raw):
                corrupt = f"line {len(envelopes) + 2} does not parse before the tail"
            break
        lines.append(raw[pos : newline + 1])
        envelopes.append(envelope)
        pos = newline + 1
    keep = _complete_groups(envelopes)
    committed = header_end + sum(len(line) for line in lines[:keep])
    return Scan(
        raw[:header_end], lines[:keep], envelopes[:keep], committed, raw[committed:], corrupt
    )


def _complete_groups(envelopes: Sequence[Mapping[str, Any]]) -> int:
    """How many leading events form complete lines and complete groups."""
    index = 0
    while index < len(envelopes):
        size = envelopes[index].get("group", 1)
        if index + size > len(envelopes):
            return index
        index += size
    return index


def _is_reminder(envelope: Mapping[str, Any]) -> bool:
    source = envelope["data"].get("source", {}) if envelope["type"] == v.USER_MESSAGE else {}
    return isinstance(source, Mapping) and bool(source.get("kind") == "plugin")


def _is_admission(envelope: Mapping[str, Any]) -> bool:
    """A reminder input the owner admitted (a new version of one, an edit or a regenerate, keeps
    the reminder source but is the user's verb, not an admission)."""
    return _is_reminder(envelope) and "revises" not in envelope["data"]


def _is_dispatch(envelope: Mapping[str, Any]) -> bool:
    data = envelope["data"] if envelope["type"] == v.SCHEDULE_CHANGE else {}
    return isinstance(data, Mapping) and bool(data.get("operation") == "dispatch")


def group_violations(envelopes: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every group is one reminder input plus its dispatches; none of them stands alone."""
    found, index = [], 0
    while index < len(envelopes):
        first = envelopes[index]
        size = first.get("group", 1)
        members = envelopes[index + 1 : index + size]
        if size > 1 and not (_is_admission(first) and members and all(map(_is_dispatch, members))):
            found.append(f"seq {index}: group of {size} is not a reminder and its dispatches")
        if size == 1 and (_is_admission(first) or _is_dispatch(first)):
            found.append(f"seq {index}: {first['type']} outside a reminder group")
        found += [f"seq {m['seq']}: nested group" for m in members if "group" in m]
        index += size
    return found


def admission_violations(envelopes: Sequence[Mapping[str, Any]]) -> list[str]:
    """No one-shot dispatched twice; no every record dispatched twice for one ``acceptedAt``."""
    keys = Counter(
        (e["data"]["id"], e["data"].get("acceptedAt")) for e in envelopes if _is_dispatch(e)
    )
    return [f"{key} dispatched {n} times" for key, n in keys.items() if n > 1]


def fold_violation(envelopes: Sequence[Mapping[str, Any]], seed_length: int) -> str | None:
    try:
        fold_schedule(envelopes, seed_length)
    except ChimeError as error:
        return f"the schedule fold fails: {error}"
    return None


def torn_contents(folder: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted(folder.glob(TORN + "*"))]


def last_at(envelopes: Sequence[Mapping[str, Any]], created: str) -> datetime:
    text = envelopes[-1]["at"] if envelopes else created
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class Figures:
    kills: int = 0
    op_kills: int = 0
    delay_kills: int = 0
    early_kills: int = 0
    """Real-delay kills aimed at the open (a few ms after the child prints ``opening``)."""
    quiet_kills: int = 0
    events_checked: int = 0
    durable_reported: int = 0
    admissions_checked: int = 0
    reopens: int = 0
    torn_tails: int = 0
    """Torn tails the parent's own scan found after a kill (saved aside at the next open)."""
    torn_files: int = 0
    """``session.jsonl.torn-*`` files in the session folder at the last reopen."""
    verb_checks: int = 0
    """Kills after which the verbs' checks 6-10 ran on the committed events."""
    fold_checks: int = 0
    """Reopened sessions whose folds were compared with a fold from scratch (11)."""
    attachments_checked: int = 0
    """Attachments named by committed messages, checked on disk after a kill (10)."""
    edits: int = 0
    """The figures below count what the sessions' final logs hold: versions (edits and
    regenerates), ``path/select``, ``exchange/hide``, retries of a failed input, failed turns,
    ``session/model`` and ``session/instructions``, and attachments named by messages."""
    selects: int = 0
    hides: int = 0
    retries: int = 0
    failed_turns: int = 0
    choices: int = 0
    attachments: int = 0
    violations: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"kills={self.kills} (file-op {self.op_kills}, real-delay {self.delay_kills} of which "
            f"early {self.early_kills}, "
            f"quiet {self.quiet_kills}) events_checked={self.events_checked} "
            f"durable_reported={self.durable_reported} "
            f"admissions_checked={self.admissions_checked} reopens={self.reopens} "
            f"torn_tails={self.torn_tails} torn_files={self.torn_files} "
            f"verb_checks={self.verb_checks} fold_checks={self.fold_checks} "
            f"attachments_checked={self.attachments_checked} verbs(edits={self.edits} "
            f"selects={self.selects} hides={self.hides} retries={self.retries} "
            f"failed_turns={self.failed_turns} choices={self.choices} "
            f"attachments={self.attachments}) violations={len(self.violations)}"
        )


def read_channel(path: Path) -> list[dict[str, Any]]:
    """The child's records; a last line cut by the kill was never relied on and is ignored."""
    if not path.exists():
        return []
    text = path.read_bytes()
    return [json.loads(line) for line in text.split(b"\n")[:-1]]


class Host:
    """The parent's own run of the engine on the session (the reopen check, the final check)."""

    def __init__(self, data: Path, clock: FakeClock, tag: str) -> None:
        options = StoreOptions(scheduler=lambda _delay, _callback: None)
        self.store = SessionStore(data, clock, options=options)
        self.clock = clock
        self.tag = tag

    async def open(
        self, session_id: str, before_start: Callable[[LiveSession], None] | None = None
    ) -> SessionHost:
        """The host on the reopened session, started and settled; ``before_start`` sees the
        session as the open left it, before any turn runs."""
        session = await self.store.open(session_id)
        if before_start is not None:
            before_start(session)
        numbers = iter(range(1, 1 << 30))
        waker: Callable[[Callable[[], None]], Any] = RecordingWaker
        host = SessionHost(
            session,
            OfflineAssistant(self.clock),
            self.clock,
            lambda: "UTC",
            waker,
            system_prompt="You are Chime.",
            new_id=lambda: f"{self.tag}-{next(numbers)}",
        )
        host.start()
        await settle(host)
        return host


async def settle(host: SessionHost) -> None:
    for _ in range(4):
        for _ in range(5):
            await asyncio.sleep(0)
        await host.owner.drained()
        await host.when_idle()


class Matrix:
    """One session, killed ``kills`` times. ``run()`` returns the figures."""

    def __init__(
        self,
        root: Path,
        seed: int,
        *,
        actions: int = 40,
        max_ops: int = 300,
        forced: Sequence[tuple[str, int]] = (),
        child_options: Sequence[str] = (),
    ) -> None:
        """``forced``: (cut, op count) for the first kills; later kills are drawn at random.
        ``child_options``: extra worker flags (``--lying-disk`` for the self-test)."""
        self.root = root
        self.data = root / "data"
        self.rng = random.Random(seed)
        self.seed = seed
        self.actions = actions
        self.max_ops = max_ops
        self.figures = Figures()
        self.durable: dict[int, str] = {}
        self.prefix = b""
        self.pending_tails: list[bytes] = []
        self.admissions: list[dict[str, Any]] = []
        self.session_id = ""
        self.seed_length = 0
        self.cycle = 0
        self.forced = list(forced)
        self.child_options = list(child_options)

    @property
    def folder(self) -> Path:
        return self.data / "sessions" / self.session_id

    def violation(self, text: str) -> None:
        self.figures.violations.append(f"kill {self.figures.kills} (seed {self.seed}): {text}")

    def run(self, kills: int, progress: Callable[[Figures], None] | None = None) -> Figures:
        asyncio.run(self._create())
        for number in range(kills):
            self.cycle = number + 1
            self.kill_once()
            self.check(reopen=number == kills - 1 or self.rng.random() < 0.5)
            if progress is not None:
                progress(self.figures)
        asyncio.run(self._final())
        return self.figures

    async def _create(self) -> None:
        store = SessionStore(self.data, FakeClock(START))
        session = await store.create()
        self.session_id = session.id
        self.seed_length = session.seed_length
        await session.close()
        self.prefix = (self.folder / LOG).read_bytes()

    # -- one kill --------------------------------------------------------------------------

    def kill_once(self) -> None:
        scan = scan_log((self.folder / LOG).read_bytes())
        start = last_at(scan.envelopes, START.isoformat()) + timedelta(
            seconds=self.rng.choice((0, 1, 45, 600, 3 * 3600))
        )
        channel = self.root / f"channel-{self.cycle}.jsonl"
        command = [
            sys.executable,
            "-m",
            "tests.survival.crash_worker",
            str(self.data),
            self.session_id,
            str(channel),
            str(self.rng.randrange(1 << 32)),
            start.isoformat(),
            "--actions",
            str(self.actions),
            "--tag",
            f"k{self.cycle}",
            *self.child_options,
        ]
        command += self._draw_disk()
        by_ops = bool(self.forced) or self.rng.random() < 0.5
        if by_ops:
            cut, limit = self._draw_cut()
            command += ["--kill-after-ops", str(limit), "--cut", cut]
        self._spawn(command, channel, by_ops)

    def _draw_disk(self) -> list[str]:
        """Per child: sometimes transient I/O errors, a real write-behind timer, and
        checkpoints every few events (so kills land in retries and checkpoint writes too)."""
        rng, flags = self.rng, []
        if rng.random() < 0.3:
            flags += ["--flaky", str(rng.choice((0.02, 0.1)))]
        if rng.random() < 0.5:
            flags += ["--write-behind", str(rng.choice((0.001, 0.02)))]
        if rng.random() < 0.5:
            flags += ["--checkpoint-every", str(rng.choice((3, 20)))]
        return flags

    def _draw_cut(self) -> tuple[str, int]:
        if self.forced:
            return self.forced.pop(0)
        return self.rng.choice(CUTS), self.rng.randint(1, self.max_ops)

    def _spawn(self, command: list[str], channel: Path, by_ops: bool) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        child = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        if not by_ops:
            self._kill_after_delay(child)
        _, stderr = child.communicate(timeout=120)
        self.figures.kills += 1
        if child.returncode != -signal.SIGKILL:
            self.violation(f"child ended {child.returncode}: {stderr.decode()[-2000:]}")
            return
        records = read_channel(channel)
        if any(r["kind"] == "done" for r in records):
            self.figures.quiet_kills += 1
        elif by_ops:
            self.figures.op_kills += 1
        else:
            self.figures.delay_kills += 1
        self._absorb(records)

    def _kill_after_delay(self, child: subprocess.Popen[bytes]) -> None:
        """Wait for the child's ``ready`` line (or its end), then a random real delay; one kill
        in five is "early": a few milliseconds after ``opening`` (during recovery)."""
        assert child.stdout is not None
        early = self.rng.random() < 0.2
        self.figures.early_kills += early
        line = child.stdout.readline()
        if not early:
            while line and line.strip() != b"ready":
                line = child.stdout.readline()
        delay = self.rng.uniform(0.0, 0.03) if early else self.rng.uniform(0.0, 1.2)
        try:
            child.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)

    def _absorb(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            if record["kind"] == "durable":
                self.figures.durable_reported += 1
                self.durable[record["seq"]] = record["sha"]
            elif record["kind"] == "admit":
                self.admissions.append(record)

    # -- the checks ------------------------------------------------------------------------

    def check(self, *, reopen: bool) -> None:
        raw = (self.folder / LOG).read_bytes()
        scan = scan_log(raw)
        if not raw.startswith(self.prefix):
            self.violation("the previously committed bytes were rewritten")
        if scan.corrupt:
            self.violation(scan.corrupt)
        self._check_durable(scan)
        self._check_events(scan)
        if scan.tail:
            self.figures.torn_tails += 1
            self.pending_tails.append(scan.tail)
        if reopen:
            asyncio.run(self._reopen(scan))
        self.prefix = (self.folder / LOG).read_bytes() if reopen else raw[: scan.committed]

    def _check_durable(self, scan: Scan) -> None:
        for seq, sha in self.durable.items():
            self.figures.events_checked += 1
            if seq >= len(scan.lines):
                self.violation(f"durable event {seq} is missing (log has {len(scan.lines)})")
            elif hashlib.sha256(scan.lines[seq]).hexdigest() != sha:
                self.violation(f"durable event {seq} changed: {scan.lines[seq][:200]!r}")

    def _check_events(self, scan: Scan) -> None:
        for problem in group_violations(scan.envelopes) + admission_violations(scan.envelopes):
            self.violation(problem)
        fold = fold_violation(scan.envelopes, self.seed_length)
        if fold:
            self.violation(fold)
        for record in self.admissions:
            self.figures.admissions_checked += 1
            seq = record["seq"]
            if seq in self.durable and not (
                seq < len(scan.envelopes) and scan.envelopes[seq]["data"]["id"] == record["id"]
            ):
                self.violation(f"durable admission {record} is not in the log")
        self.admissions = []
        self._check_verbs(scan)

    def _check_verbs(self, scan: Scan) -> None:
        """6-10 on the committed events (see the module docstring)."""
        self.figures.verb_checks += 1
        envelopes = scan.envelopes
        entries = verb_checks.entries_of(envelopes)
        conversation = verb_checks.fresh_folds(entries, self.seed_length).snapshot()
        tree = verb_checks.read_tree(envelopes)
        for problem in (
            verb_checks.tree_violations(entries, conversation, tree)
            + verb_checks.shown_violations(entries, conversation, tree)
            + verb_checks.history_violations(entries, conversation, tree)
            + verb_checks.attachment_violations(self.folder, envelopes)
        ):
            self.violation(problem)
        self.figures.attachments_checked += len(verb_checks.named_files(envelopes))

    def _check_folds(self, session: LiveSession, when: str) -> None:
        """11: the reopened session's folds are a fold from scratch of its entries."""
        self.figures.fold_checks += 1
        for problem in verb_checks.folds_violations(session):
            self.violation(f"{when}: {problem}")

    async def _reopen(self, scan: Scan) -> None:
        self.figures.reopens += 1
        clock = FakeClock(last_at(scan.envelopes, START.isoformat()))
        before = set(self.folder.glob(TORN + "*"))
        host = await Host(self.data, clock, f"p{self.cycle}").open(
            self.session_id, lambda opened: self._check_folds(opened, "reopened")
        )
        session: Any = host.session
        new_torn = set(self.folder.glob(TORN + "*")) - before
        self.figures.torn_files = len(list(self.folder.glob(TORN + "*")))
        self._check_torn(scan, new_torn)
        if session.read_only:
            self.violation(f"reopened read-only: {session.read_only_reason}")
        try:
            session.schedule_fold()
        except ChimeError as error:
            self.violation(f"reopened with a failing schedule fold: {error}")
        for problem in await verb_checks.readback_violations(session):
            self.violation(problem)
        await self._one_more_turn(host)

    def _check_torn(self, scan: Scan, new_torn: set[Path]) -> None:
        if scan.tail and not new_torn:
            self.violation(f"a torn tail of {len(scan.tail)} bytes was not saved aside")
        saved = torn_contents(self.folder)
        for tail in self.pending_tails:
            if tail not in saved:
                self.violation(f"torn bytes {tail[:120]!r} are not preserved in a torn file")
        self.pending_tails = []

    async def _one_more_turn(self, host: SessionHost) -> None:
        turns = len([e for e in host.session.events if e["type"] == v.TURN_END])
        host.submit("what reminders do I have")
        await settle(host)
        ends = [e for e in host.session.events if e["type"] == v.TURN_END][turns:]
        assert isinstance(host.session, LiveSession)
        self._check_folds(host.session, "after one more turn")
        await host.dispose()
        if not ends or ends[-1]["data"]["status"] != "completed":
            self.violation(f"one more turn did not complete: {[e['data'] for e in ends]}")

    async def _final(self) -> None:
        """A day later every one-shot ever created was deleted or dispatched exactly once."""
        raw = (self.folder / LOG).read_bytes()
        clock = FakeClock(last_at(scan_log(raw).envelopes, START.isoformat()) + timedelta(days=1))
        host = await Host(self.data, clock, "final").open(self.session_id)
        for _ in range(200):  # one one-shot per turn: drive until nothing is due
            host.request_drive()
            await settle(host)
            if not _due_one_shots(host.session.events, self.seed_length, clock()):
                break
        await host.dispose()
        self.check(reopen=False)
        events = scan_log((self.folder / LOG).read_bytes()).envelopes
        for problem in final_violations(events):
            self.violation(problem)
        for name, count in verb_checks.verb_counts(events).items():
            setattr(self.figures, name, getattr(self.figures, name) + count)


def _due_one_shots(events: Sequence[Mapping[str, Any]], seed: int, now: datetime) -> list[str]:
    now_ms = int(now.timestamp() * 1000)
    active = fold_schedule(events, seed).active
    return [r.id for r in active if r.kind != "every" and r.scheduled_ms <= now_ms]


def final_violations(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every created one-shot ends deleted or dispatched exactly once; every reminder input
    was answered by a turn (at least once)."""
    answered = {e["data"]["input"] for e in events if e["type"] == v.TURN_START}
    unanswered = [e["seq"] for e in events if _is_reminder(e) and e["seq"] not in answered]
    found = [f"reminder input {seq} was never answered" for seq in unanswered]
    return found + _one_shot_outcomes(events)


def _one_shot_outcomes(events: Sequence[Mapping[str, Any]]) -> list[str]:
    outcome: Counter[str] = Counter()
    one_shots = []
    for event in events:
        data = event["data"]
        if event["type"] != v.SCHEDULE_CHANGE:
            continue
        if data["operation"] == "create" and data["schedule"]["kind"] != "every":
            one_shots.append(data["schedule"]["id"])
        elif data["operation"] in ("delete", "dispatch") and "acceptedAt" not in data:
            outcome[data["id"]] += 1
    return [f"one-shot {i} ended {outcome[i]} times" for i in one_shots if outcome[i] != 1]
