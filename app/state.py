"""state.json: which sessions were open, the current one, the window geometry (session-log.md §1)
and the model picker's recent choices (at most ``RECENT_MODELS``, each a provider and a model name).

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
RECENT_MODELS = 6
RecentModel = tuple[str, str | None]
"""(provider, model name or None) of a recent choice in the model picker."""


@dataclass(frozen=True)
class AppState:
    """``open``: session ids in the order they were opened; ``geometry``: Qt's saved geometry
    and window state, base64."""

    open: tuple[str, ...] = ()
    current: str | None = None
    geometry: str = ""
    window_state: str = ""
    recent_models: tuple[RecentModel, ...] = ()


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
        recent_models=_recent_models(raw.get("recentModels")),
    )


def _recent_models(raw: object) -> tuple[RecentModel, ...]:
    """The well-formed entries of ``recentModels`` (a malformed one is dropped)."""
    if not isinstance(raw, list):
        return ()
    found: list[RecentModel] = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        provider, model = item.get("provider"), item.get("model")
        if isinstance(provider, str) and (model is None or isinstance(model, str)):
            found.append((provider, model))
    return tuple(found[:RECENT_MODELS])


def write_state(data_dir: Path, state: AppState) -> None:
    """Replace state.json atomically (temporary file, fsync, rename)."""
    value = {
        "openSessions": list(state.open),
        "currentSession": state.current,
        "geometry": state.geometry,
        "windowState": state.window_state,
        "recentModels": [
            {"provider": provider, "model": model}
            for provider, model in state.recent_models[:RECENT_MODELS]
        ],
    }
    path = data_dir / STATE_FILE
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(value, indent=2) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)
