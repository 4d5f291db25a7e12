"""Settings: the provider and appearance choices, their file, what answers, where the key is kept.

``settings.json`` in the data directory holds everything except secrets (also whether to warn
before closing, quitting or deleting leaves reminders waiting). The API key lives in the
system keyring when one is available; otherwise in a ``0600`` file in the config directory, and the
settings dialog says so (agent.md §5.2). The key never reaches settings.json, logs or sessions.
A settings file that is not valid (not JSON, beyond the bounded decode's limits of
``core.jsonread.SETTINGS``, or values out of range) is set aside (``settings.json.bad-<n>``) and
defaults are used; ``read_settings`` also returns the sentence the window shows about it.
``effective_provider`` is the one place that decides what answers: the offline assistant, or an
endpoint (an endpoint without a base URL falls back to the offline assistant).

``Settings`` is a frozen dataclass validated by ``Settings.from_json`` rather than a pydantic model:
the settings are read before the window is shown, and importing pydantic there cost about half of
Chime's start-up time (bench/ui_bench.py). The rules are few and checked strictly here.
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from core.frozen import frozen
from core.jsonread import SETTINGS, parse_json
from core.prompts import SavedPrompt, read_prompts
from ui.i18n import QT_TRANSLATE_NOOP, Sentence

_log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
KEYRING_SERVICE = "Chime"
KEY_FILE = "api-key"
PROVIDERS = ("offline", "openai-compatible")
THEMES = ("system", "light", "dark")
LANGUAGES = ("system", "en", "de")
"""``system``: the desktop's locale (app/language.py); applies when Chime starts."""
TEXT_SIZES = range(8, 25)
MAX_CONTEXT_TOKENS = 10_000_000
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_FLAGS = (
    "warn_waiting_reminders",
    "keep_running",
    "start_at_login",
    "notifications",
    "notify_answers",
    "model_titles",
)


@dataclass(frozen=True, slots=True)
class Settings:
    """Provider and appearance choices. Changing the provider applies from the next turn."""

    provider: str = "offline"
    preset: str = "ollama"
    base_url: str = "http://localhost:11434/v1"
    model: str = ""
    theme: str = "system"
    text_size: int = 11
    warn_waiting_reminders: bool = True
    """Ask before closing, quitting or deleting leaves active reminders waiting ("Don't ask
    again" in that question turns it off)."""
    context_tokens: int = 0
    """The model's context length in tokens; 0: ask the server, else the preset's default."""
    language: str = "system"
    """The window's language (``LANGUAGES``), applied when Chime starts."""
    keep_running: bool = True
    """Closing the window keeps Chime running in the tray (where the desktop has one), so open
    conversations' reminders arrive on time; False: closing the window quits."""
    start_at_login: bool = False
    """An autostart entry starts Chime into the tray at login (``app.autostart``)."""
    notifications: bool = True
    """A desktop notification points to a reminder's turn while the window is not active."""
    notify_answers: bool = False
    """Also notify when a long answer (``app.presence.LONG_ANSWER``) finishes in the background."""
    model_titles: bool = True
    """A language model answering a conversation writes its short title after the first exchange
    (``app.title_flow``; never the offline assistant)."""
    mcp_servers: dict[str, Any] = field(default_factory=dict)
    """The MCP servers, in ``core.mcp.config.to_settings``'s form (names of secrets, never their
    values); an entry that is not valid is left out when read, with a warning in the log."""
    mcp_always_allow: tuple[tuple[str, str], ...] = ()
    """``(server, tool)`` pairs the person always allows (asked once: "Always allow"); revocable
    in Settings. Written as ``[["server", "tool"], ...]``."""
    prompts: tuple[SavedPrompt, ...] | None = None
    """The saved prompts (``core.prompts``); None: never edited, the examples of
    ``app.prompts_flow`` are offered."""
    default_prompt: str = ""
    """The name of the saved prompt every new conversation starts with ("": none)."""

    def __post_init__(self) -> None:
        for name in ("provider", "preset", "base_url", "model", "theme", "language"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise ValueError(f"{name} must be a string")
            if not value.isascii() and _LONE_SURROGATE.search(value):
                raise ValueError(f"{name} holds a lone surrogate, which is not text")
        if self.provider not in PROVIDERS:
            raise ValueError(f"provider must be one of {PROVIDERS}")
        if self.theme not in THEMES:
            raise ValueError(f"theme must be one of {THEMES}")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}")
        if isinstance(self.text_size, bool) or not isinstance(self.text_size, int):
            raise ValueError("text_size must be an integer")
        if self.text_size not in TEXT_SIZES:
            raise ValueError("text_size must be between 8 and 24")
        _check_flags(self)
        _check_mcp(self)
        if isinstance(self.context_tokens, bool) or not isinstance(self.context_tokens, int):
            raise ValueError("context_tokens must be an integer")
        if not 0 <= self.context_tokens <= MAX_CONTEXT_TOKENS:
            raise ValueError(f"context_tokens must be between 0 and {MAX_CONTEXT_TOKENS}")
        _check_prompts(self)

    @classmethod
    def from_json(cls, value: object) -> Settings:
        """Validate a settings.json object (unknown keys are ignored); ValueError when invalid."""
        if not isinstance(value, dict):
            raise ValueError("settings must be a JSON object")
        known = {f.name for f in fields(cls)}
        given = {k: v for k, v in value.items() if k in known}
        if given.get("prompts") is not None:
            given["prompts"] = read_prompts(given["prompts"])
        try:
            return cls(**given)
        except TypeError as error:
            raise ValueError(str(error)) from None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _check_mcp(settings: Settings) -> None:
    """The MCP fields' JSON types (entries are read leniently where they are used)."""
    servers: object = settings.mcp_servers
    if not isinstance(servers, dict):
        raise ValueError("mcp_servers must be an object of server names to servers")
    pairs: object = settings.mcp_always_allow
    if not isinstance(pairs, list | tuple) or not all(
        isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(x, str) for x in p)
        for p in pairs
    ):
        raise ValueError("mcp_always_allow must be a list of [server, tool] pairs")
    object.__setattr__(settings, "mcp_always_allow", tuple((p[0], p[1]) for p in pairs))


def _check_prompts(settings: Settings) -> None:
    if settings.prompts is not None and read_prompts(settings.prompts) != settings.prompts:
        raise ValueError("prompts must be a tuple of saved prompts")
    if not isinstance(settings.default_prompt, str):
        raise ValueError("default_prompt must be a string")


def _check_flags(settings: Settings) -> None:
    for flag in _FLAGS:
        if not isinstance(getattr(settings, flag), bool):
            raise ValueError(f"{flag} must be true or false")


@frozen
class Offline:
    """The built-in offline assistant answers."""

    def label(self) -> str:
        """The status bar's name for it."""
        return QCoreApplication.translate("Offline", "Offline assistant")


@frozen
class Endpoint:
    """An OpenAI-compatible endpoint answers (the API key is kept apart, in the ``KeyStore``).
    ``preset`` names the server family first guessed; ``context_tokens`` 0 asks the server."""

    base_url: str
    model: str
    preset: str = "custom"
    context_tokens: int = 0

    def label(self) -> str:
        """The status bar's name for it: ``model @ base URL`` (``?`` while no model is named)."""
        return f"{self.model or '?'} @ {self.base_url}"


def effective_provider(settings: Settings) -> Offline | Endpoint:
    """What answers with these settings: an endpoint without a base URL falls back to the
    offline assistant (and the status bar says so)."""
    if settings.provider == "offline" or not settings.base_url:
        return Offline()
    return Endpoint(settings.base_url, settings.model, settings.preset, settings.context_tokens)


@frozen
class ReadSettings:
    """The settings in effect at start, and the sentence saying why they are the defaults
    (None when the file was read, or there was none)."""

    settings: Settings
    sentences: tuple[Sentence, ...] = ()

    @property
    def problem(self) -> str | None:
        """What went wrong, in the language installed when it is asked for (the window asks once
        the translators are in)."""
        return " ".join(s.text() for s in self.sentences) or None


def load_settings(data_dir: Path) -> Settings:
    """The saved settings, or the defaults when the file is missing or unreadable."""
    return read_settings(data_dir).settings


def read_settings(data_dir: Path) -> ReadSettings:
    """The saved settings; an invalid file is set aside and the defaults are used."""
    path = data_dir / SETTINGS_FILE
    try:
        with path.open("rb") as handle:
            raw = handle.read(SETTINGS.max_size + 1)
    except FileNotFoundError:
        return ReadSettings(Settings())
    except OSError as error:
        _log.warning("cannot read %s: %s", path, error)
        reason = error.strerror or str(error)
        unread = _said(QT_TRANSLATE_NOOP("SavedFiles", "%1 could not be read: %2."), reason)
        return ReadSettings(Settings(), (unread, DEFAULTS))
    try:
        return ReadSettings(Settings.from_json(parse_json(raw, SETTINGS)))
    except ValueError as error:
        _log.warning("settings file %s is invalid, using defaults: %s", path, error)
        invalid = _said(QT_TRANSLATE_NOOP("SavedFiles", "%1 is not valid: %2."), str(error))
        return ReadSettings(Settings(), (invalid, _set_aside(path), DEFAULTS))


def _said(source: str, *values: str) -> Sentence:
    """A sentence about the settings file (its name is %1; ``values`` are %2 on)."""
    return Sentence("SavedFiles", source, (SETTINGS_FILE, *values))


DEFAULTS = _said(QT_TRANSLATE_NOOP("SavedFiles", "The default settings apply."))


def _set_aside(path: Path) -> Sentence:
    """Rename an invalid settings file out of the way (left in place when the folder cannot be
    written: the defaults are used all the same); says what became of it."""
    for n in range(1, 100):
        target = path.with_name(f"{path.name}.bad-{n}")
        if not target.exists():
            try:
                path.replace(target)
            except OSError as error:
                _log.warning("cannot set %s aside: %s", path, error)
                reason = str(error.strerror or error)
                return _said(
                    QT_TRANSLATE_NOOP("SavedFiles", "It could not be set aside (%2)."), reason
                )
            return _said(QT_TRANSLATE_NOOP("SavedFiles", "It was set aside as %2."), target.name)
    return _said(
        QT_TRANSLATE_NOOP("SavedFiles", "It was left in place (too many set aside already).")
    )


def save_settings(data_dir: Path, settings: Settings) -> None:
    """Writes settings.json atomically (temporary file, fsync, rename), mode 0600."""
    path = data_dir / SETTINGS_FILE
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps(settings.to_json(), indent=2, ensure_ascii=False) + "\n"
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

    def __init__(
        self,
        config_dir: Path,
        *,
        use_keyring: bool = True,
        user: str = "api-key",
        file_name: str = KEY_FILE,
    ) -> None:
        """``user`` names the secret in the keyring, ``file_name`` its file where there is none
        (an MCP server's token: ``app.mcp.secrets``)."""
        self._file = config_dir / file_name
        self._user = user
        self._use_keyring = use_keyring
        self._resolved = False
        self._backend: Any = None

    def sibling(self, user: str, file_name: str) -> KeyStore:
        """Another secret kept the same way (same keyring choice, same folder)."""
        store = KeyStore(
            self._file.parent, use_keyring=self._use_keyring, user=user, file_name=file_name
        )
        store._resolved, store._backend = self._resolved, self._backend
        return store

    @property
    def _keyring(self) -> Any:
        """The keyring module, looked up on first use (detecting backends takes ~0.3 s)."""
        if not self._resolved:
            self._resolved = True
            self._backend = _usable_keyring() if self._use_keyring else None
        return self._backend

    @property
    def note(self) -> str:
        if self._keyring is not None:
            return QCoreApplication.translate(
                "KeyStore", "The API key is kept in the system keyring."
            )
        return QCoreApplication.translate(
            "KeyStore",
            "No system keyring is available: the API key is kept in %1 (readable only by you).",
        ).replace("%1", str(self._file))

    def get(self) -> str:
        """The stored key, or "" when none is stored (or the store cannot be read)."""
        if self._keyring is not None:
            try:
                return str(self._keyring.get_password(KEYRING_SERVICE, self._user) or "")
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
                self._keyring.set_password(KEYRING_SERVICE, self._user, key)
            else:
                self._keyring.delete_password(KEYRING_SERVICE, self._user)
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
