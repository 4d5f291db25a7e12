"""state.json: which sessions were open, the current one and the window geometry (session-log.md §1).

Written (atomically, mode 0600) whenever the set of open sessions or the current session changes,
and on quit; read once at start so the open sessions are reopened and their overdue reminders
caught up. An unreadable file is treated as "nothing was open".
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

_log = logging.getLogger(__name__)

STATE_FILE = "state.json"


@dataclass(frozen=True)
class AppState:
    """``open``: session ids in the order they were opened; ``geometry``: Qt's saved geometry
    and window state, base64."""

    open: tuple[str, ...] = ()
    current: str | None = None
    geometry: str = ""
    window_state: str = ""


def read_state(data_dir: Path) -> AppState:
    """The last written state, or an empty one."""
    try:
        raw = json.loads((data_dir / STATE_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return AppState()
    except (OSError, ValueError) as error:
        _log.warning("state.json unreadable, starting fresh: %s", error)
        return AppState()
    if not isinstance(raw, dict):
        return AppState()
    opened = raw.get("openSessions", [])
    current = raw.get("currentSession")
    return AppState(
        open=tuple(s for s in opened if isinstance(s, str)) if isinstance(opened, list) else (),
        current=current if isinstance(current, str) else None,
        geometry=str(raw.get("geometry", "")),
        window_state=str(raw.get("windowState", "")),
    )


def write_state(data_dir: Path, state: AppState) -> None:
    """Replace state.json atomically (temporary file, fsync, rename)."""
    value = {
        "openSessions": list(state.open),
        "currentSession": state.current,
        "geometry": state.geometry,
        "windowState": state.window_state,
    }
    path = data_dir / STATE_FILE
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(value, indent=2) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)
