"""Real desktop services for tests: an X server (Xvfb), a D-Bus session bus, the dunst
notification daemon and, optionally, a tray host (trayer). Started per use, stopped after.

``desktop_services()`` yields a ``Desktop`` or skips the test with the reason (a missing program:
Debian's xvfb, dbus-x11 or dbus-daemon, dunst, trayer); ``.ci/run`` installs them.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

START_S = 10.0


@dataclass
class Desktop:
    """The running services; ``env`` is what a client needs to reach them."""

    env: dict[str, str]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def notifications(self) -> list[dict[str, str]]:
        """Every notification dunst received so far, newest first (summary, body, id): the ones
        on screen are closed first, which moves them into its history."""
        subprocess.run(["dunstctl", "close-all"], env=self.env, timeout=10, check=True)
        run = subprocess.run(
            ["dunstctl", "history"], env=self.env, capture_output=True, timeout=10, check=True
        )
        return [_plain(n) for n in json.loads(run.stdout)["data"][0]]

    def click_newest(self) -> None:
        """What a click on the newest notification does: invoke its default action."""
        subprocess.run(["dunstctl", "action", "0"], env=self.env, timeout=10, check=True)


def _plain(notification: dict[str, dict[str, object]]) -> dict[str, str]:
    return {key: str(notification[key]["data"]) for key in ("summary", "body", "id")}


def _need(*programs: str) -> None:
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (Debian: xvfb, dbus-daemon, dunst, trayer)")


def _wait(condition: object, what: str) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise TimeoutError(f"{what} did not start within {START_S} s")


@contextlib.contextmanager
def desktop_services(tmp_path: Path, *, tray: bool = False) -> Iterator[Desktop]:
    """Xvfb on a display it picks, a session bus, dunst (and trayer when ``tray``)."""
    _need("Xvfb", "dbus-daemon", "dunst", "dunstctl", *(["trayer"] if tray else []))
    desktop = Desktop(dict(os.environ))
    try:
        _start_x(desktop, tmp_path)
        _start_bus(desktop)
        _start(desktop, ["dunst"], "dunst", lambda: _dunst_answers(desktop))
        if tray:
            _start(desktop, ["trayer", "--edge", "top"], "trayer", lambda: _tray_owned(desktop))
        yield desktop
    finally:
        for process in reversed(desktop.processes):
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
            if process.poll() is None:
                process.kill()
                process.wait(5)


def start_x_server(
    env: dict[str, str], *, screen: str = "1024x768x24", window_manager: bool = False
) -> list[subprocess.Popen[bytes]]:
    """Xvfb on a display it picks itself (``-displayfd``), set as ``env["DISPLAY"]``; openbox on it
    too when ``window_manager`` and installed (without one no window is ever active). Returns the
    processes to stop; also used by ``bench/start_bench.py`` and ``scripts/window_kills.py``."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        xvfb.kill()
        xvfb.wait(5)
        raise RuntimeError("Xvfb did not say its display")
    env["DISPLAY"] = f":{number}"
    started = [xvfb]
    if window_manager and shutil.which("openbox"):
        manager = subprocess.Popen(
            ["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        started.append(manager)
        time.sleep(0.5)  # it takes the display before the first window maps
    return started


def read_text(path: Path) -> str:
    """The file's text, or "" while it does not exist (a trace the process under test writes)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _start_x(desktop: Desktop, tmp_path: Path) -> None:
    desktop.processes += start_x_server(desktop.env)
    desktop.env["XDG_RUNTIME_DIR"] = str(tmp_path)


def _start_bus(desktop: Desktop) -> None:
    bus = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=desktop.env,
    )
    desktop.processes.append(bus)
    assert bus.stdout is not None
    address = bus.stdout.readline().decode().strip()
    bus.stdout.close()  # it prints the address once
    if not address:
        raise RuntimeError("dbus-daemon did not say its address")
    desktop.env["DBUS_SESSION_BUS_ADDRESS"] = address


def _start(desktop: Desktop, command: list[str], name: str, ready: object) -> None:
    process = subprocess.Popen(
        command, env=desktop.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    desktop.processes.append(process)
    _wait(ready, name)


def _dunst_answers(desktop: Desktop) -> bool:
    run = subprocess.run(
        ["dunstctl", "is-paused"], env=desktop.env, capture_output=True, timeout=10
    )
    return run.returncode == 0


def _tray_owned(desktop: Desktop) -> bool:
    """Whether a tray host owns the screen's system tray selection (what Qt asks before it shows
    an icon): trayer takes it a moment after it starts, and a Chime started before that finds no
    tray."""
    name = ctypes.util.find_library("X11")
    if name is None:
        raise RuntimeError("no libX11 to ask the X server with")
    x11 = ctypes.CDLL(name)
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XGetSelectionOwner.restype = ctypes.c_ulong
    x11.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(desktop.env["DISPLAY"].encode())
    if not display:
        return False
    try:
        selection = x11.XInternAtom(display, b"_NET_SYSTEM_TRAY_S0", 0)
        return bool(x11.XGetSelectionOwner(display, selection))
    finally:
        x11.XCloseDisplay(display)
