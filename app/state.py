"""state.json: which sessions were open, the current one, the window geometry (session-log.md §1),
the model picker's recent choices (at most ``RECENT_MODELS``, each a provider and a model name),
what the person has read of each session (``readUpto``) and whether closing into the tray was
explained.

Written (atomically, mode 0600) whenever the set of open sessions or the current session changes,
and on quit; read once at start so the open sessions are reopened and their overdue reminders
caught up. A file that cannot be read, is not valid JSON or is beyond the bounded decode's limits
(``core.jsonread.SETTINGS``) is treated as "nothing was open"; a window geometry that is not
base64 text is dropped (the window opens at its default size). ``read_state_checked`` also
returns the sentence the window shows about either.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from core.frozen import frozen
from core.jsonread import SETTINGS, parse_json
from ui.i18n import QT_TRANSLATE_NOOP, Sentence

_log = logging.getLogger(__name__)

STATE_FILE = "state.json"
RECENT_MODELS = 6
RecentModel = tuple[str, str | None]
"""(provider, model name or None) of a recent choice in the model picker."""


@frozen
class AppState:
    """``open``: session ids in the order they were opened; ``geometry``: Qt's saved geometry
    and window state, base64."""

    open: tuple[str, ...] = ()
    current: str | None = None
    geometry: str = ""
    window_state: str = ""
    recent_models: tuple[RecentModel, ...] = ()
    read_upto: tuple[tuple[str, int], ...] = ()
    """Per session, the ``seq`` of the last entry the person has seen: what came after it in the
    background (reminder turns) is unread, after a restart too."""
    tray_explained: bool = False
    """The first close into the tray was explained (it is said once)."""
    drafts: tuple[tuple[str, str], ...] = ()
    """Per open session, the message typed but not sent (each conversation keeps its own)."""


FRESH = QT_TRANSLATE_NOOP("SavedFiles", "No sessions were reopened (they are all in the list).")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def read_state(data_dir: Path) -> AppState:
    """The last written state, or an empty one."""
    return read_state_checked(data_dir)[0]


def read_state_checked(data_dir: Path) -> tuple[AppState, str | None]:
    """The last written state and, when it could not all be used, the sentence saying so (in the
    installed language: the state is read once the translators are in)."""
    try:
        with (data_dir / STATE_FILE).open("rb") as handle:
            raw = parse_json(handle.read(SETTINGS.max_size + 1), SETTINGS)
    except FileNotFoundError:
        return AppState(), None
    except OSError as error:
        _log.warning("state.json unreadable, starting fresh: %s", error)
        reason = str(error.strerror or error)
        return AppState(), _said(
            QT_TRANSLATE_NOOP("SavedFiles", "%1 could not be read: %2."), reason
        )
    except ValueError as error:
        _log.warning("state.json invalid, starting fresh: %s", error)
        return AppState(), _said(
            QT_TRANSLATE_NOOP("SavedFiles", "%1 is not valid: %2."), str(error)
        )
    if not isinstance(raw, dict):
        return AppState(), _said(QT_TRANSLATE_NOOP("SavedFiles", "%1 is not a JSON object."))
    return _state_of(raw)


def _said(source: str, *values: str, fresh: bool = True) -> str:
    """A sentence about the state file (its name is %1, ``values`` are %2 on), followed by what
    that means for the sessions when none were reopened (``fresh``)."""
    said = Sentence("SavedFiles", source, (STATE_FILE, *values)).text()
    return f"{said} {Sentence('SavedFiles', FRESH).text()}" if fresh else said


def _state_of(raw: dict[str, Any]) -> tuple[AppState, str | None]:
    opened = raw.get("openSessions", [])
    current = raw.get("currentSession")
    geometry, window_state = raw.get("geometry", ""), raw.get("windowState", "")
    problem = None
    if not _is_base64(geometry) or not _is_base64(window_state):
        _log.warning("state.json: the window geometry is not base64 text; it is not restored")
        geometry = window_state = ""
        problem = _said(
            QT_TRANSLATE_NOOP(
                "SavedFiles", "%1 holds a window size Chime cannot read; the default size is used."
            ),
            fresh=False,
        )
    state = AppState(
        open=tuple(s for s in opened if isinstance(s, str)) if isinstance(opened, list) else (),
        current=current if isinstance(current, str) else None,
        geometry=geometry,
        window_state=window_state,
        recent_models=_recent_models(raw.get("recentModels")),
        read_upto=_read_upto(raw.get("readUpto")),
        tray_explained=raw.get("trayExplained") is True,
        drafts=_drafts(raw.get("drafts")),
    )
    return state, problem


def _is_base64(value: object) -> bool:
    return isinstance(value, str) and _BASE64.fullmatch(value) is not None


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


def _read_upto(raw: object) -> tuple[tuple[str, int], ...]:
    """The well-formed entries of ``readUpto`` (a session id to a seq; -1: nothing read)."""
    if not isinstance(raw, dict):
        return ()
    return tuple(
        (sid, seq)
        for sid, seq in raw.items()
        if isinstance(seq, int) and not isinstance(seq, bool) and seq >= -1
    )


def _drafts(raw: object) -> tuple[tuple[str, str], ...]:
    """The well-formed entries of ``drafts`` (a session id to its unsent text)."""
    if not isinstance(raw, dict):
        return ()
    return tuple((sid, text) for sid, text in raw.items() if isinstance(text, str) and text)


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
        "readUpto": dict(state.read_upto),
        "trayExplained": state.tray_explained,
        "drafts": dict(state.drafts),
    }
    path = data_dir / STATE_FILE
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(value, indent=2) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)
