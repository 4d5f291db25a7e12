"""Start at login: the per-user entry that starts Chime into the tray when the person logs in.

One entry per platform, each the documented per-user mechanism:

- Linux and other freedesktop desktops: ``$XDG_CONFIG_HOME/autostart/chime.desktop`` (default
  ``~/.config``), the Desktop Application Autostart Specification's place;
- macOS: ``~/Library/LaunchAgents/app.chime.autostart.plist``, a launchd agent with ``RunAtLoad``;
- Windows: the ``Chime`` value under ``HKEY_CURRENT_USER\\…\\CurrentVersion\\Run``.

Each starts the same command that is running now (``app.desktop_entry.launch_command``) with
``--background``, so Chime comes up in the tray with the sessions that were open and their
reminders arrive. Removing the setting removes the entry. The entry's text is built by pure
functions (tested on every platform); only ``AutostartEntry.write``/``remove`` touch the system.
Must not need Qt: it is a file door like ``app.desktop_entry``.
"""

from __future__ import annotations

import os
import plistlib
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.desktop_entry import DESKTOP_ID, launch_command, quoted_exec

BACKGROUND_FLAG = "--background"
"""The argument an entry starts Chime with: into the tray, no window shown."""
LAUNCH_AGENT_LABEL = "app.chime.autostart"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
RUN_VALUE = "Chime"

_DESKTOP = """[Desktop Entry]
Type=Application
Version=1.4
Name=Chime
Comment=Keeps your reminders running after you log in
Exec={exec_line}
TryExec={try_exec}
Icon={icon}
Terminal=false
NoDisplay=true
X-GNOME-Autostart-enabled=true
X-GNOME-Autostart-Delay=5
X-KDE-autostart-after=panel
"""


def background_command(command: list[str] | None = None) -> list[str]:
    """The command an autostart entry runs: this Chime, started into the tray."""
    return [*(command or launch_command()), BACKGROUND_FLAG]


def desktop_text(command: list[str]) -> str:
    """The freedesktop autostart entry for ``command``."""
    exec_line = " ".join(quoted_exec(part) for part in command)
    return _DESKTOP.format(exec_line=exec_line, try_exec=command[0], icon=DESKTOP_ID)


def launch_agent_bytes(command: list[str]) -> bytes:
    """The macOS launchd agent for ``command`` (an XML property list)."""
    agent = {
        "Label": LAUNCH_AGENT_LABEL,
        "ProgramArguments": list(command),
        "RunAtLoad": True,
        "ProcessType": "Interactive",
    }
    return plistlib.dumps(agent, fmt=plistlib.FMT_XML, sort_keys=False)


def run_value(command: list[str]) -> str:
    """The Windows ``Run`` value for ``command``: one command line, quoted as Windows parses it."""
    return subprocess.list2cmdline(command)


class RunKey(Protocol):
    """The part of ``HKCU\\…\\Run`` that start-at-login uses (``winreg`` on Windows)."""

    def get(self, name: str) -> str | None: ...

    def set(self, name: str, value: str) -> None: ...

    def delete(self, name: str) -> None: ...


@dataclass(frozen=True)
class AutostartEntry:
    """Where this platform keeps the entry; ``write``/``remove``/``present`` act on it.

    ``platform`` is ``linux``, ``darwin`` or ``win32`` (``sys.platform``'s words; anything else is
    treated as a freedesktop desktop); ``home`` and ``environ`` locate the per-user folders;
    ``run_key`` is the Windows registry (injected so it can be tested anywhere)."""

    platform: str
    home: Path
    environ: Mapping[str, str]
    run_key: RunKey | None = None

    @property
    def path(self) -> Path | None:
        """The entry's file (None on Windows, where it is a registry value)."""
        if self.platform == "win32":
            return None
        if self.platform == "darwin":
            return self.home / "Library" / "LaunchAgents" / f"{LAUNCH_AGENT_LABEL}.plist"
        chosen = self.environ.get("XDG_CONFIG_HOME", "")
        config = Path(chosen) if os.path.isabs(chosen) else self.home / ".config"
        return config / "autostart" / f"{DESKTOP_ID}.desktop"

    def write(self, command: list[str]) -> None:
        """Create or replace the entry so that login runs ``command``. Raises OSError."""
        if self.platform == "win32":
            self._registry().set(RUN_VALUE, run_value(command))
            return
        path = self.path
        assert path is not None  # only Windows has no file
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.platform == "darwin":
            _write_atomically(path, launch_agent_bytes(command))
        else:
            _write_atomically(path, desktop_text(command).encode("utf-8"))

    def remove(self) -> None:
        """Remove the entry (nothing happens when there is none). Raises OSError."""
        if self.platform == "win32":
            if self._registry().get(RUN_VALUE) is not None:
                self._registry().delete(RUN_VALUE)
            return
        path = self.path
        assert path is not None
        path.unlink(missing_ok=True)

    def present(self) -> bool:
        """Whether an entry of Chime's is in place."""
        if self.platform == "win32":
            return self._registry().get(RUN_VALUE) is not None
        path = self.path
        return path is not None and path.is_file()

    def _registry(self) -> RunKey:
        if self.run_key is None:
            raise OSError("the Windows registry is not available here")
        return self.run_key


def this_machine() -> AutostartEntry:
    """The entry for the platform Chime runs on."""
    key = _WindowsRunKey() if sys.platform == "win32" else None
    return AutostartEntry(sys.platform, Path.home(), os.environ, key)


def apply(entry: AutostartEntry, wanted: bool, command: list[str] | None = None) -> None:
    """Make the entry match the setting: written (refreshed to this command) or removed."""
    if wanted:
        entry.write(background_command(command))
    else:
        entry.remove()


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


class _WindowsRunKey:  # pragma: no cover -- winreg exists only on Windows; RunKey's fake tests the logic
    """``HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run`` through winreg."""

    def get(self, name: str) -> str | None:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
                value, _kind = winreg.QueryValueEx(key, name)
        except FileNotFoundError:
            return None
        return str(value)

    def set(self, name: str, value: str) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
            winreg.SetValueEx(key, name, 0, winreg.REG_SZ, value)

    def delete(self, name: str) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY, 0, winreg.KEY_SET_VALUE) as key:
            winreg.DeleteValue(key, name)
