"""``chime --install-desktop-entry``: a freedesktop ``.desktop`` file and the icon, per user.

Writes ``$XDG_DATA_HOME/applications/chime.desktop`` (default ``~/.local/share``) and the icon as
``$XDG_DATA_HOME/icons/hicolor/scalable/apps/chime.svg``, so Chime appears in the desktop's app
launcher; ``Exec`` is the command that is running now (the ``chime`` script of a pipx or uv tool
install, a bundle's executable, else this python with ``-m app``), so the entry starts the same
Chime. The application sets the same desktop file name (``app.appearance``), so the desktop groups it
under the entry. Must not need Qt or a display: it runs before Qt is loaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from app import __version__
from app.paths import resource

DESKTOP_ID = "chime"
ENTRY = """[Desktop Entry]
Type=Application
Version=1.4
Name=Chime
GenericName=Chat with reminders
Comment=Chat with an assistant that can set reminders that come back in the conversation
Exec={exec_line} %U
TryExec={try_exec}
Icon={icon}
Terminal=false
Categories=Utility;
Keywords=chat;reminder;assistant;llm;
StartupNotify=true
StartupWMClass=chime
X-Chime-Version={version}
"""


def data_home(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME``, else ``~/.local/share``."""
    chosen = environ.get("XDG_DATA_HOME", "")
    return Path(chosen) if os.path.isabs(chosen) else Path.home() / ".local" / "share"


def launch_command(argv0: str = sys.argv[0], executable: str = sys.executable) -> list[str]:
    """The command that starts this Chime: its own executable when it was started as one."""
    started_as = Path(argv0)
    if started_as.name != "__main__.py" and started_as.suffix != ".py" and started_as.exists():
        return [str(started_as.absolute())]
    if getattr(sys, "frozen", False):  # a bundle: the executable is Chime
        return [executable]
    return [executable, "-m", "app"]


def entry_text(command: list[str], icon: str) -> str:
    """The ``.desktop`` file for ``command`` (quoted as the Desktop Entry spec asks)."""
    exec_line = " ".join(quoted_exec(part) for part in command)
    return ENTRY.format(exec_line=exec_line, try_exec=command[0], icon=icon, version=__version__)


def install(environ: Mapping[str, str] = os.environ, command: list[str] | None = None) -> str:
    """Writes the entry and the icon; returns a sentence saying where."""
    home = data_home(environ)
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg"
    entry = home / "applications" / f"{DESKTOP_ID}.desktop"
    icon.parent.mkdir(parents=True, exist_ok=True)
    entry.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(resource("icons", "chime.svg"), icon)
    entry.write_text(entry_text(command or launch_command(), DESKTOP_ID), encoding="utf-8")
    _refresh(entry.parent)
    return f"Chime is in the app launcher: {entry} (icon {icon})."


def uninstall(environ: Mapping[str, str] = os.environ) -> str:
    """Removes the entry and the icon that ``install`` wrote."""
    home = data_home(environ)
    entry = home / "applications" / f"{DESKTOP_ID}.desktop"
    entry.unlink(missing_ok=True)
    (home / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg").unlink(missing_ok=True)
    _refresh(entry.parent)
    return f"Chime's launcher entry is removed ({entry})."


def quoted_exec(part: str) -> str:
    """One Exec argument: quoted when it holds a space or a reserved character (also used by
    ``app.autostart``)."""
    if part and not any(c in part for c in " \t\n\"'\\><~|&;$*?#()`%"):
        return part
    escaped = part.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return '"' + escaped.replace("%", "%%") + '"'


def _refresh(applications: Path) -> None:
    """Tells the desktop's menu cache, where the tool for it is installed (optional)."""
    tool = shutil.which("update-desktop-database")
    if tool is not None:
        subprocess.run([tool, str(applications)], capture_output=True, timeout=30, check=False)
