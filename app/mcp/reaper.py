"""The process groups of the stdio servers Chime started, written down so the next start can
end the ones a crashed Chime left running. Linux only (it reads ``/proc``); elsewhere it records
nothing and reaps nothing, and a server left behind ends when it sees its stdin close, as the
protocol asks of it.

The SDK starts each stdio server as the leader of a new session (``start_new_session``), so its
process group id is its pid. ``record`` writes Chime's current such children, each with its start
time (field 22 of ``/proc/<pid>/stat``, so a pid the system reused for another process is never
touched), to ``mcp-servers.pids`` in the data folder; ``reap`` kills (SIGKILL to the group) every
recorded group whose leader still has that start time, then removes the file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
from pathlib import Path

PID_FILE = "mcp-servers.pids"
_PROC = Path("/proc")
_log = logging.getLogger(__name__)


def _stat(pid: int) -> tuple[int, int, int] | None:
    """``(parent pid, session id, start time)`` of ``pid``, or None when it is gone."""
    try:
        text = (_PROC / str(pid) / "stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    try:
        return int(fields[1]), int(fields[3]), int(fields[19])
    except (IndexError, ValueError):
        return None


def server_groups() -> dict[int, int]:
    """Chime's children that lead a session of their own (its stdio servers): pid -> start time."""
    if not _PROC.is_dir():
        return {}
    me, groups = os.getpid(), {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] == me and stat[1] == int(entry.name):
                groups[int(entry.name)] = stat[2]
    return groups


def record(data_dir: Path) -> None:
    """Writes the current server groups down (removes the file when there is none)."""
    path = data_dir / PID_FILE
    groups = server_groups()
    if not groups:
        path.unlink(missing_ok=True)
        return
    tmp = path.with_name(PID_FILE + ".tmp")
    tmp.write_text("".join(f"{pid} {start}\n" for pid, start in groups.items()), "ascii")
    tmp.replace(path)


def reap(data_dir: Path) -> int:
    """Kills the groups an earlier Chime recorded that still run; returns how many."""
    path = data_dir / PID_FILE
    try:
        lines = path.read_text("ascii", errors="replace").splitlines()
    except OSError:
        return 0
    killed = 0
    for line in lines:
        parts = line.split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            continue
        pid, start = int(parts[0]), int(parts[1])
        stat = _stat(pid)
        if stat is not None and stat[2] == start and stat[1] == pid and pid != os.getpid():
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
                killed += 1
    path.unlink(missing_ok=True)
    if killed:
        _log.warning("ended %d MCP server group(s) an earlier Chime left running", killed)
    return killed
