"""The child process of the crash matrix: the whole engine on real files, killed at random.

Owns: one run of a ``SessionHost`` on a real ``SessionStore`` (offline assistant, a fake clock the
child moves itself, a recording waker it fires itself) doing a seeded random mix of chat turns,
reminder creates (one-shot and every), deletes, lists and deliveries, and the verbs of agent.md §7
(edit and regenerate an input on the shown path, hide and unhide, switch versions, retry a failed
input, the session's model and instructions, a message with a text attachment; a verb sometimes
lands while a turn runs), and the side channel that tells the parent what it may rely on. Must
not: decide anything about correctness (that is ``crash_checks``), or write to the session except
through the engine.

Side channel: a JSON-lines file opened ``O_APPEND``; every record is fsynced before the child goes
on, so a record is on disk before the engine acts on what it reports. Records:

- ``{"kind":"ready"}`` once the host has started (also printed as ``ready`` on stdout: the parent
  starts its random real-time kill delay then; ``opening`` is printed just before the open, for
  the parent's "early" kills that land in torn-tail repair and the closing of an open turn);
- ``{"kind":"durable","seq":n,"sha":h}`` for every event a successful barrier made durable,
  written from the persistence observer, i.e. before ``flush()`` returns True to anyone;
  ``h`` is the SHA-256 of the event's line as the log holds it (``encode_line`` of the envelope);
- ``{"kind":"admit","seq":n,"id":..,"acceptedAt":..}`` for every dispatch the owner appended
  (in memory: it is durable once a ``durable`` record covers its seq).

Kill points: ``--kill-at effect|result --kill-nth K`` SIGKILLs the child from the persistence
observer the K-th time a write makes durable a tool's effect (a ``schedule/change`` create or
delete: the tool has not returned, its ``tool/result`` is not appended yet) or a tool's result (a
``tool/result``: the turn has not ended), after the ``durable`` records of that write and a
``{"kind":"point","at":...}`` record are on the side channel. So kills land between a tool's
effect and the turn's end, where a resumed turn must not run the call again.

Failures: ``--fail P`` makes each model step fail (``ProviderError("bad_request")``) with chance P,
drawn from the run's seed, so some turns fail and retry has failed inputs to run again.

Kills: ``--kill-after-ops N`` counts the store's file-ops seam calls (pwrite, fsync, truncate);
at the N-th the child SIGKILLs itself ``before`` the call, ``after`` it, or (a write) after only a
random ``partial`` prefix of the bytes reached the file. Without it the parent kills the child
after a random real delay. A child that runs out of actions writes ``{"kind":"done"}`` and kills
itself at that quiet point. ``--lying-disk`` (the matrix's self-test) acknowledges writes it
drops, which the parent must catch. ``--flaky P`` makes each file-ops call (after the open)
fail with a transient EIO with chance P (a write may land partly first), ``--write-behind S``
turns on the real write-behind timer, ``--checkpoint-every K`` writes checkpoints often, so
kills also land in retries, timer flushes and checkpoint writes.

Usage: python -m tests.survival.crash_worker DATA SESSION CHANNEL SEED START_ISO
       [--kill-after-ops N --cut before|after|partial] [--kill-at effect|result --kill-nth K]
       [--actions M] [--tag T] [--fail P]
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import hashlib
import json
import os
import random
import signal
from collections.abc import AsyncGenerator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from core.errors import ProviderError
from core.events import Attachment, Entry, UserMessage
from core.host import SessionHost
from core.llm.messages import ModelInfo, ModelRequest, StreamChunk
from core.llm.offline import OfflineAssistant
from core.llm.provider import ModelProvider
from core.session.checkpointer import CHECKPOINT_EVERY
from core.session.jsonl_store import OsFileOps
from core.session.lines import encode_line
from core.session.live import LiveSession
from core.session.store import SessionStore, StoreOptions
from tests import wire as v
from tests.fakes import FakeClock, RecordingWaker

PROMPTS = ("stretch", "drink water", "call Ana", "check the oven", "water the plants")
VERBS = ("edit", "regenerate", "hide", "select", "retry", "model", "instructions", "attach")
VERB_WEIGHTS = (3, 2, 2, 2, 2, 1, 1, 2)
FAIL_CHANCE = 0.08


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class Channel:
    """The side channel: O_APPEND records, each batch fsynced before ``write`` returns."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def write(self, *records: dict[str, Any]) -> None:
        if not records:
            return
        data = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        os.write(self._fd, data.encode("utf-8"))
        os.fsync(self._fd)


class KillingOps(OsFileOps):
    """The store's file-ops seam, counting calls and dying at call number ``limit``."""

    def __init__(self, limit: int | None, cut: str, rng: random.Random) -> None:
        self.limit = limit
        self.cut = cut
        self.rng = rng
        self.calls = 0
        self.lose_writes = False
        self.flaky = 0.0
        self.flaky_rng = random.Random(rng.random())

    def _fail_now(self) -> bool:
        """A transient I/O error on this call (``flaky`` is its probability)."""
        return self.flaky > 0 and self.flaky_rng.random() < self.flaky

    def _transient(self) -> None:
        raise OSError(errno.EIO, "injected transient I/O error")

    def _at_limit(self) -> bool:
        """Counts a call; True when this call is the one to die at (a ``partial`` cut waits for
        the first write at or after the limit, so it always tears the bytes of a write)."""
        self.calls += 1
        if self.limit is None or self.calls < self.limit:
            return False
        if self.cut == "before":
            die()
        return True

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        if self.lose_writes:
            return len(data)  # a lying disk, for the matrix's self-test only
        if not self._at_limit():
            if self._fail_now():
                if len(data) > 1 and self.flaky_rng.random() < 0.5:  # a short write, then EIO
                    super().pwrite(fd, data[: self.torn_length(data)], offset)
                self._transient()
            return super().pwrite(fd, data, offset)
        if self.cut == "partial" and len(data) > 1:
            super().pwrite(fd, data[: self.torn_length(data)], offset)
        else:
            super().pwrite(fd, data, offset)
        die()
        raise AssertionError("unreachable")  # pragma: no cover -- SIGKILL does not return

    def torn_length(self, data: bytes) -> int:
        """A random cut inside ``data`` that never ends just after a newline (so it tears)."""
        cut = self.rng.randrange(1, len(data))
        while cut > 1 and data[cut - 1] == ord("\n"):
            cut -= 1
        return cut

    def sync(self, fd: int) -> None:
        last = self._at_limit() and self.cut != "partial"
        if not last and self._fail_now():
            self._transient()
        super().sync(fd)
        if last:
            die()

    def truncate(self, fd: int, length: int) -> None:
        last = self._at_limit() and self.cut != "partial"
        if not last and self._fail_now():
            self._transient()
        super().truncate(fd, length)
        if last:
            die()


class FailingModel:
    """The offline assistant, but a step fails (an endpoint refusing the request) with chance
    ``chance``, drawn from its own generator seeded by the run: some turns fail, reproducibly."""

    def __init__(self, inner: ModelProvider, chance: float, rng: random.Random) -> None:
        self.inner = inner
        self.chance = chance
        self.rng = rng

    @property
    def info(self) -> ModelInfo:
        return self.inner.info

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamChunk, None]:
        if self.chance > 0 and self.rng.random() < self.chance:
            raise ProviderError("bad_request", "The endpoint refused the request (injected).")
        async for chunk in self.inner.stream(request):
            yield chunk


def is_point(point: str | None, envelope: Any) -> bool:
    """True when ``envelope`` is the kind of event a ``--kill-at`` point waits for."""
    if point == "effect":
        data = envelope["data"]
        return envelope["type"] == v.SCHEDULE_CHANGE and data["operation"] in ("create", "delete")
    return point == "result" and envelope["type"] == v.TOOL_RESULT


class Reporter:
    """Feeds the side channel from the session's observers (and dies at a ``--kill-at`` point)."""

    def __init__(
        self, session: LiveSession, channel: Channel, point: str | None = None, nth: int = 1
    ) -> None:
        self.session = session
        self.channel = channel
        self.reported = session.durable_count
        self.point = point
        self.left = nth
        session.subscribe_persistence(self.on_persistence)
        session.subscribe(self.on_event)

    def on_persistence(self, ok: bool) -> None:
        if not ok:
            return
        durable = self.session.durable_count
        envelopes = [self.session.events[seq] for seq in range(self.reported, durable)]
        records = [
            {"kind": "durable", "seq": seq, "sha": line_sha(envelope)}
            for seq, envelope in enumerate(envelopes, start=self.reported)
        ]
        self.channel.write(*records)
        self.reported = durable
        self.left -= sum(is_point(self.point, envelope) for envelope in envelopes)
        if self.point is not None and self.left <= 0:
            self.channel.write({"kind": "point", "at": self.point})
            die()

    def on_event(self, entry: Entry) -> None:
        envelope = entry.to_json()
        data = envelope["data"]
        if envelope["type"] == v.SCHEDULE_CHANGE and data.get("operation") == "dispatch":
            record = {"kind": "admit", "seq": envelope["seq"], "id": data["id"]}
            self.channel.write(record | {"acceptedAt": data.get("acceptedAt")})


def line_sha(envelope: Any) -> str:
    return hashlib.sha256(encode_line(envelope)).hexdigest()


class Worker:
    """One run: the host, the clock, the waker and the random actions."""

    def __init__(self, host: SessionHost, clock: FakeClock, rng: random.Random) -> None:
        self.host = host
        self.clock = clock
        self.rng = rng
        self.waker: RecordingWaker = host.waker  # type: ignore[assignment]  # built by our factory

    async def idle(self) -> None:
        for _ in range(3):
            for _ in range(5):
                await asyncio.sleep(0)
            await self.host.owner.drained()
            await self.host.when_idle()

    def seen_ids(self) -> list[str]:
        try:
            return list(self.host.session.schedule_fold().seen_ids)  # type: ignore[attr-defined]  # LiveSession
        except Exception:
            return []

    def text(self, action: str) -> str | None:
        """The next user input, or None for a delivery step."""
        rng = self.rng
        prompt = rng.choice(PROMPTS)
        if action == "chat":
            return rng.choice(("hello", "thanks!", "what can you do?"))
        if action == "after":
            return f"remind me in {rng.randint(1, 30)} minutes to {prompt}"
        if action == "every":
            return f"every {rng.randint(5, 60)} minutes remind me to {prompt}"
        if action == "delete":
            ids = self.seen_ids()
            return f"cancel reminder {rng.choice(ids)}" if ids else "list my reminders"
        if action == "list":
            return "what reminders do I have"
        if action == "wait":
            self.clock.advance(timedelta(seconds=rng.randint(1, 600)))
        return None

    def chat_text(self) -> str:
        """A user input that is a chat turn or a reminder create (what an edit says)."""
        return self.text(self.rng.choice(("chat", "after", "list"))) or "hello"

    async def step(self) -> None:
        action = self.rng.choices(
            ("chat", "after", "every", "delete", "list", "deliver", "wait", "verb"),
            (2, 3, 1, 1, 1, 3, 1, 3),
        )[0]
        if action == "verb":
            if self.rng.random() < 0.25:  # the verb lands while a turn runs
                self.host.submit(self.chat_text())
                for _ in range(self.rng.randint(0, 12)):
                    await asyncio.sleep(0)
            await self.verb(self.rng.choices(VERBS, VERB_WEIGHTS)[0])
            await self.idle()
            return
        text = self.text(action)
        if text is not None:
            self.host.submit(text)
        elif self.waker.armed is not None:
            self.clock.set(max(self.clock(), self.waker.armed))
            self.clock.advance(timedelta(seconds=self.rng.randint(0, 90)))
            self.waker.fire()
        else:
            self.host.request_drive()
        await self.idle()

    def path_inputs(self) -> list[int]:
        """The inputs on the shown path, oldest first."""
        session = self.host.session
        path = session.conversation().path
        entries = session.entries
        return [
            seq
            for seq in range(max(0, path.oldest), len(entries))
            if seq in path and isinstance(entries[seq].event, UserMessage)
        ]

    async def verb(self, verb: str) -> None:
        """One verb of agent.md §7 (each appends one event; edits and retries run a turn)."""
        rng, agent = self.rng, self.host.agent
        conversation = self.host.session.conversation()
        inputs = self.path_inputs()
        if verb == "retry" and agent.failed_inputs:
            self.host.retry(rng.choice(sorted(agent.failed_inputs)))
        elif verb == "select" and (switches := self.switches(inputs)):
            agent.select(conversation.leaf_for(rng.choice(switches)))
        elif verb == "hide" and conversation.hidden and rng.random() < 0.5:
            agent.hide(rng.choice(sorted(conversation.hidden)), hidden=False)
        elif verb == "hide" and inputs:
            agent.hide(rng.choice(inputs))
        elif verb == "edit" and inputs:
            agent.edit(rng.choice(inputs), self.chat_text(), "UTC")
        elif verb in ("regenerate", "select", "retry") and inputs:
            agent.regenerate(rng.choice(inputs))
        elif verb == "model":
            agent.choose_model(None, None, rng.choice((None, 0.2, 0.7, 1.3)))
        elif verb == "instructions":
            agent.set_instructions(rng.choice(("", "Answer briefly.", "Say hello first.")))
        else:  # attach, or a verb with nothing to act on yet
            await self.attach()

    def switches(self, inputs: list[int]) -> list[int]:
        """The other versions of inputs on the shown path (where a switch can go)."""
        conversation = self.host.session.conversation()
        return [v for seq in inputs for v in conversation.versions(seq) if v != seq]

    async def attach(self) -> None:
        """A message with a small text file (stored durably before the message is appended)."""
        name = self.rng.choice(("notes.txt", "plan.md"))
        data = f"note {self.rng.randint(0, 6)}\n".encode()
        record = await self.host.session.add_attachment(name, data)
        assert isinstance(record, Attachment), record
        self.host.submit(f"see {name}", attachments=[record])


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    clock = FakeClock(datetime.fromisoformat(args.start))
    channel = Channel(Path(args.channel))
    ops = KillingOps(args.kill_after_ops, args.cut, rng)
    ops.lose_writes = args.lying_disk
    print("opening", flush=True)  # an "early" real-time kill lands in the open's recovery
    session = await SessionStore(Path(args.data), clock, options=store_options(args, ops)).open(
        args.session
    )
    ops.flaky = args.flaky  # after the open: recovery on a failing disk is not this test's topic
    Reporter(session, channel, args.kill_at, args.kill_nth)
    numbers = iter(range(1, 1 << 30))
    failing = FailingModel(OfflineAssistant(clock), args.fail, random.Random(rng.random()))
    host = SessionHost(
        session,
        failing,
        clock,
        lambda: "UTC",
        RecordingWaker,
        system_prompt="You are Chime.",
        new_id=lambda: f"{args.tag}-{next(numbers)}",
    )
    worker = Worker(host, clock, rng)
    host.start()
    await worker.idle()
    channel.write({"kind": "ready"})
    print("ready", flush=True)  # the parent starts its random real-time kill delay now
    for _ in range(args.actions):
        await worker.step()
    channel.write({"kind": "done", "ops": ops.calls})
    die()  # a quiet-point kill: every action done, nothing in flight


def store_options(args: argparse.Namespace, ops: KillingOps) -> StoreOptions:
    """The seam, plus (as asked) a real write-behind timer and frequent checkpoints."""
    if args.write_behind is None:
        return StoreOptions(
            file_ops=ops,
            scheduler=lambda _delay, _callback: None,
            checkpoint_every=args.checkpoint_every,
        )
    return StoreOptions(
        file_ops=ops,
        write_behind_seconds=args.write_behind,
        checkpoint_every=args.checkpoint_every,
    )


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    for name in ("data", "session", "channel"):
        parser.add_argument(name)
    parser.add_argument("seed", type=int)
    parser.add_argument("start")
    parser.add_argument("--kill-after-ops", type=int, default=None)
    parser.add_argument("--cut", choices=("before", "after", "partial"), default="after")
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--tag", default="w")
    parser.add_argument("--kill-at", choices=("effect", "result"), default=None)
    parser.add_argument("--kill-nth", type=int, default=1, help="which occurrence of the point")
    parser.add_argument("--lying-disk", action="store_true", help="drop writes, report success")
    parser.add_argument("--flaky", type=float, default=0.0, help="chance of a transient EIO")
    parser.add_argument("--write-behind", type=float, default=None, help="real timer, seconds")
    parser.add_argument("--checkpoint-every", type=int, default=CHECKPOINT_EVERY)
    parser.add_argument(
        "--fail", type=float, default=FAIL_CHANCE, help="a model step's failure chance"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(run(parse()))
