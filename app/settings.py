"""Settings: the provider and appearance choices, their file, and where the API key is kept.

``settings.json`` in the data directory holds everything except secrets. The API key lives in the
system keyring when one is available; otherwise in a ``0600`` file in the config directory, and the
settings dialog says so (agent.md §5.2). The key never reaches settings.json, logs or sessions.
An unreadable settings file is set aside (``settings.json.bad-<n>``) and defaults are used.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

_log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
KEYRING_SERVICE = "Chime"
KEY_FILE = "api-key"


class Settings(BaseModel):
    """Provider and appearance choices. Changing the provider applies from the next turn."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    provider: Literal["offline", "openai-compatible"] = "offline"
    preset: str = "ollama"
    base_url: str = "http://localhost:11434/v1"
    model: str = ""
    theme: Literal["system", "light", "dark"] = "system"
    text_size: int = Field(default=11, ge=8, le=24)


def load_settings(data_dir: Path) -> Settings:
    """The saved settings, or the defaults when the file is missing or unreadable."""
    path = data_dir / SETTINGS_FILE
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings()
    except OSError as error:
        _log.warning("cannot read %s: %s", path, error)
        return Settings()
    try:
        return Settings.model_validate(json.loads(raw))
    except (ValueError, ValidationError) as error:
        _log.warning("settings file %s is invalid, using defaults: %s", path, error)
        _set_aside(path)
        return Settings()


def _set_aside(path: Path) -> None:
    for n in range(1, 100):
        target = path.with_name(f"{path.name}.bad-{n}")
        if not target.exists():
            path.replace(target)
            return


def save_settings(data_dir: Path, settings: Settings) -> None:
    """Writes settings.json atomically (temporary file, fsync, rename), mode 0600."""
    path = data_dir / SETTINGS_FILE
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps(settings.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)


class KeyStore:
    """Where the API key lives: the system keyring when usable, else a 0600 file.

    ``note`` is the sentence the settings dialog shows about where the key is stored.
    ``use_keyring=False`` forces the file (tests, and machines whose keyring misbehaves).
    """

    def __init__(self, config_dir: Path, *, use_keyring: bool = True) -> None:
        self._file = config_dir / KEY_FILE
        self._keyring: Any = _usable_keyring() if use_keyring else None

    @property
    def note(self) -> str:
        if self._keyring is not None:
            return "The API key is kept in the system keyring."
        return (
            f"No system keyring is available: the API key is kept in {self._file} "
            "(readable only by you)."
        )

    def get(self) -> str:
        """The stored key, or "" when none is stored (or the store cannot be read)."""
        if self._keyring is not None:
            try:
                return str(self._keyring.get_password(KEYRING_SERVICE, "api-key") or "")
            except Exception as error:
                _log.warning("keyring read failed: %s", type(error).__name__)
                return ""
        try:
            return self._file.read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def set(self, key: str) -> None:
        """Stores ``key`` (an empty key deletes the stored one)."""
        if self._keyring is not None:
            self._set_keyring(key)
            return
        if not key:
            self._file.unlink(missing_ok=True)
            return
        self._file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self._file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key)
        os.chmod(self._file, 0o600)

    def _set_keyring(self, key: str) -> None:
        try:
            if key:
                self._keyring.set_password(KEYRING_SERVICE, "api-key", key)
            else:
                self._keyring.delete_password(KEYRING_SERVICE, "api-key")
        except Exception as error:
            _log.warning("keyring write failed: %s", type(error).__name__)


def _usable_keyring() -> Any:
    """The keyring module when its backend can really store secrets, else None."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:
        return None
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 1) <= 0:
        return None
    return keyring
