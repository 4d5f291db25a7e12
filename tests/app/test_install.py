"""Installing like a desktop app: the missing-Qt-libraries sentence before Qt loads, the launcher
entry, the version, and one Chime per data folder."""

from __future__ import annotations

import configparser
import shutil
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMessageBox

import app.__main__ as entry_point
from app import __version__, qt_libraries
from app.desktop_entry import data_home, entry_text, launch_command, uninstall
from app.single_instance import InstanceGuard, claim, hand_over, server_name
from tests.app.window import running
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def ldd_lacking(*sonames: str):  # type: ignore[no-untyped-def]  # a fake ldd
    def ldd(library: Path) -> str:
        found = "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x7f)\n"
        return found + "".join(f"\t{name} => not found\n" for name in sonames)

    return ldd


# ---------------------------------------------------------------- Qt's system libraries


def test_a_missing_xcb_library_is_one_sentence_with_the_packages_for_debian_and_fedora() -> None:
    ldd = ldd_lacking("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1")

    problem = qt_libraries.start_problem({"DISPLAY": ":0"}, ldd=ldd)

    assert problem is not None
    assert "\n" not in problem
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in problem
    assert "sudo dnf install xcb-util-cursor xcb-util-keysyms xcb-util-wm" in problem
    assert "(libxcb-cursor.so.0, libxcb-icccm.so.4, libxcb-keysyms.so.1)" in problem


def test_nothing_missing_or_a_platform_without_a_display_starts_as_usual() -> None:
    lacking = ldd_lacking("libxcb-cursor.so.0")

    assert qt_libraries.start_problem({"DISPLAY": ":0"}, ldd=ldd_lacking()) is None
    assert qt_libraries.start_problem({"QT_QPA_PLATFORM": "offscreen"}, ldd=lacking) is None
    assert qt_libraries.start_problem({"QT_QPA_PLATFORM": "vnc:size=800x600"}, ldd=lacking) is None


def test_a_wayland_session_is_refused_only_when_xcb_cannot_stand_in_either() -> None:
    def xcb_only_lacks(library: Path) -> str:
        missing = "libxcb-cursor.so.0" if "xcb" in library.name else "libwayland-cursor.so.0"
        return f"\t{missing} => not found\n"

    def wayland_lacks(library: Path) -> str:
        return "\tlibwayland-cursor.so.0 => not found\n" if "wayland" in library.name else ""

    both = qt_libraries.start_problem({"WAYLAND_DISPLAY": "wayland-0"}, ldd=xcb_only_lacks)
    assert qt_libraries.start_problem({"WAYLAND_DISPLAY": "w"}, ldd=wayland_lacks) is None
    assert both is not None
    assert "libwayland-cursor0 libxcb-cursor0" in both


def test_a_library_outside_the_table_is_named_as_it_is() -> None:
    problem = qt_libraries.start_problem({}, ldd=ldd_lacking("libfancy.so.9"))

    assert problem is not None
    assert "apt install libfancy.so.9" in problem


def test_on_this_machine_ldd_finds_every_library_of_the_xcb_plugin() -> None:
    if shutil.which("ldd") is None:
        pytest.skip("no ldd on this machine")

    assert qt_libraries.start_problem({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}) is None


def test_chime_prints_the_sentence_and_exits_1_before_qt_is_asked_for_a_window(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(qt_libraries, "run_ldd", ldd_lacking("libxcb-cursor.so.0"))
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(sys, "argv", ["chime", "--data-dir", "/nonexistent/never-created"])

    code = entry_point.main()

    assert code == 1
    assert "sudo apt install libxcb-cursor0" in capsys.readouterr().err
    assert not Path("/nonexistent/never-created").exists()


# ---------------------------------------------------------------- the launcher entry


def test_install_desktop_entry_writes_a_valid_entry_and_the_icon_and_uninstall_removes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setattr(sys, "argv", ["chime", "--install-desktop-entry"])

    assert entry_point.main() == 0

    entry = tmp_path / "share" / "applications" / "chime.desktop"
    icon = tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "chime.svg"
    assert str(entry) in capsys.readouterr().out
    assert icon.read_bytes() == (ROOT / "resources" / "icons" / "chime.svg").read_bytes()
    parsed = configparser.ConfigParser(interpolation=None)
    parsed.read(entry, encoding="utf-8")
    desktop = parsed["Desktop Entry"]
    assert (desktop["Name"], desktop["Icon"], desktop["Type"]) == ("Chime", "chime", "Application")
    assert desktop["Exec"].endswith(" -m app %U")
    if shutil.which("desktop-file-validate"):
        checked = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True)
        assert checked.returncode == 0, checked.stdout
    uninstall({"XDG_DATA_HOME": str(tmp_path / "share")})
    assert not entry.exists()
    assert not icon.exists()


def test_the_entry_starts_the_command_that_runs_now_quoted_as_the_spec_asks(
    tmp_path: Path,
) -> None:
    script = tmp_path / "my tools" / "chime"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")

    assert launch_command(str(script), "/usr/bin/python3") == [str(script)]
    assert launch_command("/x/app/__main__.py", "/py") == ["/py", "-m", "app"]
    text = entry_text([str(script)], "chime")
    assert f'Exec="{script}" %U' in text
    assert entry_text(["/a/100%"], "chime").count('"/a/100%%"') == 1


def test_the_data_home_is_xdg_data_home_when_absolute_else_the_default() -> None:
    assert data_home({"XDG_DATA_HOME": "/srv/share"}) == Path("/srv/share")
    assert data_home({"XDG_DATA_HOME": "relative"}) == Path.home() / ".local" / "share"


def test_about_names_the_version(qapp, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from ui.main_window import MainWindow

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda _parent, _title, text: shown.append(text))
    qapp.setApplicationVersion(__version__)
    window = MainWindow(FakeClock(START), QIcon())
    window.window_actions.action("about").trigger()

    assert shown
    assert shown[0].startswith(f"Chime {__version__}\n")


# ---------------------------------------------------------------- one Chime per data folder


def test_two_data_folders_get_two_names_and_one_folder_one_name(tmp_path: Path) -> None:
    one, other = tmp_path / "one", tmp_path / "other"

    assert server_name(one) != server_name(other)
    assert server_name(one) == server_name(tmp_path / "x" / ".." / "one")


@pytest.mark.slow  # a second python process (it imports Qt): a start is another process
def test_a_second_start_on_the_folder_hands_its_session_to_the_running_one(
    qtbot, qapp, tmp_path: Path
) -> None:
    guard = InstanceGuard(tmp_path)
    try:
        assert guard.listening
        with qtbot.waitSignal(guard.requested, timeout=20_000) as handed:
            second = subprocess.Popen(
                [sys.executable, "-c", HAND_OVER, str(tmp_path), "session-7"],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                text=True,
            )
        out, _ = second.communicate(timeout=20)
    finally:
        guard.close()
    assert handed.args == ["session-7"]
    assert out.strip() == "True"


HAND_OVER = (
    "import sys; from pathlib import Path; from app.single_instance import hand_over; "
    "print(hand_over(Path(sys.argv[1]), sys.argv[2]))"
)


def test_a_start_that_sends_nonsense_is_answered_and_asks_for_no_session(
    qtbot, qapp, tmp_path: Path
) -> None:
    assert asked_for(qtbot, tmp_path, [b"not js", b"on\n"]) == [None]


@pytest.mark.parametrize(
    "line",
    [b"[" * 100_000 + b"\n", b'{"session": "\xff\xfe"}\n', b'{"session": 1e400}\n'],
    ids=["nested-100000-deep", "not-utf8", "number-out-of-range"],
)
def test_a_hostile_request_line_is_answered_and_asks_for_no_session(
    qtbot, qapp, tmp_path: Path, line: bytes
) -> None:
    """The request line is JSON that enters: read by the bounded decode (no RecursionError)."""
    assert asked_for(qtbot, tmp_path, [line]) == [None]


def asked_for(qtbot, folder: Path, pieces: list[bytes]) -> list[object]:  # type: ignore[no-untyped-def]
    """What the running instance was asked for when a start sent ``pieces``."""
    guard = InstanceGuard(folder)
    sent = threading.Thread(target=lambda: _send_raw(folder, pieces))
    try:
        with qtbot.waitSignal(guard.requested, timeout=10_000) as handed:
            sent.start()
    finally:
        sent.join(timeout=10)
        guard.close()
    return list(handed.args)


def _send_raw(folder: Path, pieces: list[bytes]) -> None:
    """A client that sends a line in pieces (the guard waits for the whole line)."""
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(str(Path("/tmp") / server_name(folder)))
        for piece in pieces:
            client.sendall(piece)
            time.sleep(0.05)
        client.recv(16)


def test_nobody_listening_means_no_hand_over_and_a_dead_socket_is_taken_over(
    qapp, tmp_path: Path
) -> None:
    assert hand_over(tmp_path, None) is False
    stale = Path("/tmp") / server_name(tmp_path)  # what a crashed instance leaves on Linux
    left = socket.socket(socket.AF_UNIX)
    left.bind(str(stale))
    left.close()

    guard = InstanceGuard(tmp_path)
    try:
        assert guard.listening
    finally:
        guard.close()


def test_bring_forward_opens_the_asked_session_in_the_running_window(
    qtbot, qapp, loop, tmp_path: Path
) -> None:
    clock = FakeClock(START)
    with running(qtbot, qapp, loop, tmp_path, clock) as chime:
        first = chime.controller.current
        chime.send("hello")  # an empty session would be reused by New session
        chime.run(chime.controller.new_session())
        assert chime.controller.current != first

        chime.inside(lambda: chime.chime.bring_forward(first))
        chime.until(lambda: chime.controller.current == first)
        chime.inside(lambda: chime.chime.bring_forward(None))  # only raises

        assert chime.controller.current == first


def test_claim_listens_when_no_chime_runs_on_the_folder(qapp, tmp_path: Path) -> None:
    guard = claim(tmp_path, None)

    assert guard is not None
    try:
        assert guard.listening
    finally:
        guard.close()


def test_the_check_judges_only_linux_and_only_what_it_can_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lacking = ldd_lacking("libxcb-cursor.so.0")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert qt_libraries.start_problem({}, ldd=lacking) is None
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(qt_libraries, "_platform_plugins", lambda: None)
    assert qt_libraries.start_problem({}, ldd=lacking) is None
    assert qt_libraries.missing_libraries(tmp_path / "libqnothing.so", lacking) == []
    monkeypatch.setenv("PATH", str(tmp_path))  # no ldd on it
    assert qt_libraries.run_ldd(tmp_path / "x.so") == ""
