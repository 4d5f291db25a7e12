"""Real disk faults under a live session (needs root and mount): the kernel, not an injected
seam, makes the writes fail. Prints one line per check; exit 1 if any fails, 2 if mounting is
not permitted here.

    sudo .venv/bin/python scripts/disk_faults.py

Scenarios:

- ``full``: the data folder is a 512 KiB tmpfs filled up by another file: barriers fail with a
  real ENOSPC, the tools answer ``persistence_uncertain``, the persistence observer hears False;
  the filler is removed and the retained events are written exactly once (reopen and compare).
- ``dying``: the data folder is an ext4 image shut down under the live session
  (``EXT4_IOC_SHUTDOWN``: every write and fsync fails with EIO, as a disk that dropped off the
  bus); after a remount the session holds exactly what was durable before the fault, opens live
  and runs a turn.
- ``read-only-open``: the tmpfs is remounted read-only while the session is closed: opening it
  gives a read-only session that says why; once it is writable again it opens live.
- ``remount-busy``: remounting read-only *while* the session is live is refused by Linux (EBUSY:
  a file is open for writing), so "turns read-only mid-session" can only be injected (see
  tests/survival/test_disk_faults.py); the script records that the kernel refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import json
import os
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.session.store import SessionStore  # noqa: E402  # needs ROOT on sys.path
from tests.fakes import FakeClock  # noqa: E402  # needs ROOT on sys.path
from tests.survival.disk_fault_kit import (  # noqa: E402  # needs ROOT on sys.path
    START,
    Rig,
    make_store,
    reopened_events,
    tool_values,
)

EXT4_IOC_SHUTDOWN = 0x8004587D
EXT4_GOING_FLAGS_NOLOGFLUSH = 2
RESULTS: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: object = "") -> None:
    RESULTS.append((name, ok, str(detail)[:300]))
    print(f"{'PASS' if ok else 'FAIL'} {name} {detail if not ok else ''}".rstrip(), flush=True)


def mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, check=False)


@contextlib.contextmanager
def mounted(kind: str, source: str, target: Path, options: str) -> Iterator[Path]:
    target.mkdir(parents=True, exist_ok=True)
    done = mount("-t", kind, "-o", options, source, str(target))
    if done.returncode != 0:
        raise PermissionError(done.stderr.strip())
    try:
        yield target
    finally:
        if subprocess.run(["umount", str(target)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(target)], check=False)


def uncertain(values: list[str]) -> list[str]:
    decoded = [json.loads(value) for value in values]
    return [d["operation"] for d in decoded if isinstance(d, dict) and "code" in d]


def fill(folder: Path) -> Path:
    """Fill the file system holding ``folder`` (unbuffered writes until ENOSPC)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 4096):
                pass
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0"):
                pass
    finally:
        os.close(fd)
    return filler


async def full_disk(base: Path) -> None:
    with mounted("tmpfs", "tmpfs", base / "full", "size=512k,mode=0700") as data:
        rig = await Rig.open(data)
        await rig.say("hello")
        filler = fill(data)
        for _ in range(100):  # the log's last page still has room: write until it is used up
            if False in rig.outcomes:
                break
            await rig.say("what can you do?")
        broken = await rig.say("remind me in 10 minutes to stretch")
        check(
            "full: create answered persistence_uncertain",
            uncertain(tool_values(broken)) == ["create"],
            tool_values(broken),
        )
        check("full: the observer heard the failure", False in rig.outcomes, rig.outcomes)
        check("full: flush reports failure", not await rig.session.flush())
        filler.unlink()
        healed = await rig.say("remind me in 10 minutes to stretch")
        check(
            "full: healed create succeeds",
            uncertain(tool_values(healed)) == [],
            tool_values(healed),
        )
        check("full: healed flush succeeds", await rig.session.flush())
        live = rig.snapshot()
        await rig.host.dispose()
        reopened = await reopened_events(data, rig.session.id)
        check(
            "full: reopened log equals the live one (nothing lost, nothing twice)",
            reopened == live,
            f"{len(reopened)} vs {len(live)}",
        )


def shutdown_fs(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack("I", EXT4_GOING_FLAGS_NOLOGFLUSH))
    finally:
        os.close(fd)


async def dying_disk(base: Path) -> None:
    image = base / "disk.ext4"
    with image.open("wb") as handle:
        handle.truncate(16 << 20)
    await asyncio.to_thread(subprocess.run, ["mkfs.ext4", "-q", "-F", str(image)], check=True)
    target = base / "ext4"
    with mounted("ext4", str(image), target, "loop") as data:
        rig = await Rig.open(data)
        await rig.say("remind me in 30 minutes to stretch")
        check("dying: flush before the fault", await rig.session.flush())
        durable = rig.snapshot()
        shutdown_fs(data)
        broken = await rig.say("remind me in 10 minutes to call Ana")
        check(
            "dying: create answered persistence_uncertain",
            uncertain(tool_values(broken)) == ["create"],
            tool_values(broken),
        )
        check("dying: the observer heard the failure", rig.outcomes[-1] is False, rig.outcomes)
        await rig.host.dispose()
        session_id = rig.session.id
    with mounted("ext4", str(image), target, "loop") as data:
        reopened = await reopened_events(data, session_id)
        check(
            "dying: after remount the log holds exactly what was durable",
            reopened == durable,
            f"{len(reopened)} vs {len(durable)}",
        )
        rig = await Rig.open(data, session_id)
        turn = await rig.say("what reminders do I have")
        check(
            "dying: the session opens live and lists the durable reminder",
            "schedule-1" in "".join(tool_values(turn)),
            tool_values(turn),
        )
        live = rig.snapshot()
        await rig.host.dispose()
        check("dying: and that turn is durable", await reopened_events(data, session_id) == live)


async def read_only_open(base: Path) -> None:
    with mounted("tmpfs", "tmpfs", base / "ro", "size=4m,mode=0700") as data:
        rig = await Rig.open(data)
        await rig.say("hello")
        live = rig.snapshot()
        await rig.host.dispose()
        done = mount("-o", "remount,ro", str(data))
        check(
            "read-only-open: remount read-only (session closed)", done.returncode == 0, done.stderr
        )
        store = make_store(data, FakeClock(START))
        session = await store.open(rig.session.id)
        check("read-only-open: opens read-only", session.read_only, session.read_only_reason)
        check(
            "read-only-open: says why",
            "Read-only file system" in (session.read_only_reason or ""),
            session.read_only_reason,
        )
        check("read-only-open: shows every event", [dict(e) for e in session.events] == live)
        await session.close()
        await new_session_on_read_only(store)
        mount("-o", "remount,rw", str(data))
        rig = await Rig.open(data, rig.session.id)
        turn = await rig.say("thanks!")
        check(
            "read-only-open: writable again, opens live and answers",
            bool(turn) and not rig.session.read_only,
        )
        await rig.host.dispose()


async def new_session_on_read_only(store: SessionStore) -> None:
    try:
        await store.create()
    except OSError as error:
        check(
            "read-only-open: creating a session fails with the OS error (app shows it)",
            error.errno == errno.EROFS,
            error,
        )
    else:
        check("read-only-open: creating a session fails", False, "it succeeded")


async def remount_busy(base: Path) -> None:
    with mounted("tmpfs", "tmpfs", base / "busy", "size=4m,mode=0700") as data:
        rig = await Rig.open(data)
        await rig.say("hello")
        done = mount("-o", "remount,ro", str(data))
        check(
            "remount-busy: Linux refuses a read-only remount under a live session",
            done.returncode != 0,
            done.stderr.strip(),
        )
        await rig.host.dispose()


SCENARIOS: list[Callable[[Path], Any]] = [full_disk, dying_disk, read_only_open, remount_busy]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="chime-disk-") as temp:
        probe = Path(temp) / "probe"
        try:
            with mounted("tmpfs", "tmpfs", probe, "size=64k"):
                pass
        except PermissionError as error:
            print(f"mounting is not permitted here ({error}); only the injected tests apply")
            return 2
        for scenario in SCENARIOS:
            asyncio.run(scenario(Path(temp)))
    failed = [r for r in RESULTS if not r[1]]
    print(f"{len(RESULTS)} checks, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
