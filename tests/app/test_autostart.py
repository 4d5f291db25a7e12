"""Start at login: the entry each platform documents, written and removed; the settings flow keeps
it in step with the setting; the freedesktop entry passes desktop-file-validate."""

from __future__ import annotations

import plistlib
import shutil
import subprocess
from pathlib import Path

import pytest

from app import autostart
from app.autostart import AutostartEntry, background_command, desktop_text, run_value
from app.background import apply_start_at_login
from app.settings import Settings

COMMAND = ["/opt/chime tools/bin/chime"]


class FakeRunKey:
    """The Windows ``Run`` key as a dict (winreg exists only on Windows)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def get(self, name: str) -> str | None:
        return self.values.get(name)

    def set(self, name: str, value: str) -> None:
        self.values[name] = value

    def delete(self, name: str) -> None:
        del self.values[name]


def linux(tmp_path: Path, **environ: str) -> AutostartEntry:
    return AutostartEntry("linux", tmp_path / "home", environ)


def test_the_linux_entry_goes_to_xdg_config_home_and_starts_chime_in_the_background(
    tmp_path: Path,
) -> None:
    entry = linux(tmp_path, XDG_CONFIG_HOME=str(tmp_path / "config"))
    assert entry.path == tmp_path / "config" / "autostart" / "chime.desktop"
    autostart.apply(entry, True, COMMAND)
    text = entry.path.read_text(encoding="utf-8")
    assert 'Exec="/opt/chime tools/bin/chime" --background\n' in text
    assert "X-GNOME-Autostart-enabled=true" in text
    assert entry.present()
    autostart.apply(entry, False)
    assert not entry.path.exists()
    assert not entry.present()


def test_a_relative_xdg_config_home_is_ignored_as_the_spec_says(tmp_path: Path) -> None:
    entry = linux(tmp_path, XDG_CONFIG_HOME="relative/config")
    assert entry.path == tmp_path / "home" / ".config" / "autostart" / "chime.desktop"


@pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None,
    reason="desktop-file-validate (Debian: desktop-file-utils) is not installed",
)
def test_the_written_entry_is_valid_for_desktop_file_validate(tmp_path: Path) -> None:
    entry = linux(tmp_path, XDG_CONFIG_HOME=str(tmp_path / "config"))
    entry.write(background_command(COMMAND))
    assert entry.path is not None
    checked = subprocess.run(
        ["desktop-file-validate", str(entry.path)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip() == ""


def test_the_macos_entry_is_a_launch_agent_that_runs_at_load(tmp_path: Path) -> None:
    entry = AutostartEntry("darwin", tmp_path, {})
    entry.write(background_command(COMMAND))
    assert entry.path == tmp_path / "Library" / "LaunchAgents" / "app.chime.autostart.plist"
    agent = plistlib.loads(entry.path.read_bytes())
    assert agent == {
        "Label": "app.chime.autostart",
        "ProgramArguments": ["/opt/chime tools/bin/chime", "--background"],
        "RunAtLoad": True,
        "ProcessType": "Interactive",
    }
    entry.remove()
    assert not entry.present()


def test_the_windows_entry_is_a_run_value_quoted_as_windows_parses_it(tmp_path: Path) -> None:
    key = FakeRunKey()
    entry = AutostartEntry("win32", tmp_path, {}, key)
    assert entry.path is None
    autostart.apply(entry, True, [r"C:\Program Files\Chime\chime.exe"])
    assert key.values == {"Chime": r'"C:\Program Files\Chime\chime.exe" --background'}
    assert entry.present()
    autostart.apply(entry, False)
    assert key.values == {}
    entry.remove()  # removing twice is fine
    assert run_value(["a b", "c"]) == '"a b" c'


def test_without_a_registry_windows_says_so_with_an_oserror(tmp_path: Path) -> None:
    entry = AutostartEntry("win32", tmp_path, {})
    with pytest.raises(OSError, match="registry"):
        entry.write(["chime"])


def test_the_entry_text_names_no_window_and_the_icon() -> None:
    text = desktop_text(["chime", "--background"])
    assert text.startswith("[Desktop Entry]\nType=Application\n")
    assert "NoDisplay=true" in text
    assert "Icon=chime" in text


class Notes:
    def __init__(self) -> None:
        self.said: list[str] = []

    def notify(self, text: str, _ms: int = 0) -> None:
        self.said.append(text)

    def tr(self, text: str) -> str:
        return text


def test_saving_the_setting_writes_the_entry_and_clearing_it_removes_it(tmp_path: Path) -> None:
    entry = linux(tmp_path, XDG_CONFIG_HOME=str(tmp_path / "config"))
    window = Notes()
    apply_start_at_login(Settings(start_at_login=True), window, entry)  # type: ignore[arg-type]
    assert entry.present()
    apply_start_at_login(Settings(start_at_login=True), window, entry)  # type: ignore[arg-type]
    apply_start_at_login(Settings(start_at_login=False), window, entry)  # type: ignore[arg-type]
    assert not entry.present()
    assert window.said == []


def test_an_entry_that_cannot_be_written_is_said_in_the_window(tmp_path: Path) -> None:
    blocked = tmp_path / "config"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    entry = linux(tmp_path, XDG_CONFIG_HOME=str(blocked))
    window = Notes()
    apply_start_at_login(Settings(start_at_login=True), window, entry)  # type: ignore[arg-type]
    [said] = window.said
    assert said.startswith("Start at login could not be changed: ")
