"""Before Qt starts on Linux: are the system libraries its window plugin needs installed?

Qt aborts a start without them with its own message ("could not load the Qt platform plugin xcb
... xcb-cursor0 or libxcb-cursor0 is needed") and a core dump. ``start_problem`` asks ``ldd``
about the plugin Qt will load (``QT_QPA_PLATFORM``, else Wayland when ``WAYLAND_DISPLAY`` is set,
else xcb; Qt falls back to xcb when Wayland fails, so a Wayland session is only refused when both
lack libraries) and returns one sentence naming the packages to install on Debian/Ubuntu and
Fedora, or None. Must not import Qt (it runs before Qt is loaded) or fail a start it cannot
judge: no ``ldd``, no plugin file, another OS, or a platform without a display of its own
(``offscreen``, ``minimal``, ``vnc``...) is no problem.

The package names cover the libraries ``ldd`` lists for PySide6 6.7-6.11's ``libqxcb.so`` and
``libqwayland.so``; a library not in the table is named as it is.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

PACKAGES: Mapping[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}
"""A library's soname → (its Debian/Ubuntu package, its Fedora package)."""

HEADLESS = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay"}
)
Ldd = Callable[[Path], str]


def start_problem(environ: Mapping[str, str], *, ldd: Ldd | None = None) -> str | None:
    """The sentence to print instead of starting Qt, or None when it may start."""
    if not sys.platform.startswith("linux"):
        return None
    plugins = _platform_plugins()
    if plugins is None:
        return None
    candidates = _candidates(environ)
    if not candidates:
        return None
    lacking = [missing_libraries(plugins / f"libq{name}.so", ldd or run_ldd) for name in candidates]
    if not all(lacking):
        return None
    return sentence(sorted({lib for libs in lacking for lib in libs}))


def _candidates(environ: Mapping[str, str]) -> list[str]:
    """The window plugins Qt will try, in order (none: it needs no display libraries)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return [] if chosen in HEADLESS else [chosen]
    return ["wayland", "xcb"] if environ.get("WAYLAND_DISPLAY") else ["xcb"]


def _platform_plugins() -> Path | None:
    """PySide6's ``Qt/plugins/platforms`` folder, found without importing PySide6."""
    spec = importlib.util.find_spec("PySide6")
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    folders = [Path(p) / "Qt" / "plugins" / "platforms" for p in places]
    return next((f for f in folders if f.is_dir()), None)


def run_ldd(library: Path) -> str:
    """``ldd``'s report of ``library`` ("" when ldd is missing or fails)."""
    try:
        done = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout


def missing_libraries(library: Path, ldd: Ldd) -> list[str]:
    """The sonames ``ldd`` reports "not found" for ``library`` (none when it is not there)."""
    if not library.is_file():
        return []
    found = [
        line.split("=>")[0].strip() for line in ldd(library).splitlines() if "not found" in line
    ]
    return sorted(set(found))


def sentence(missing: Sequence[str]) -> str:
    """One sentence: what is missing and the exact packages for Debian/Ubuntu and Fedora."""
    debian = sorted({PACKAGES.get(lib, (lib, lib))[0] for lib in missing})
    fedora = sorted({PACKAGES.get(lib, (lib, lib))[1] for lib in missing})
    return (
        f"Chime cannot open its window: the system libraries Qt needs for it are missing "
        f"({', '.join(missing)}); install them with `sudo apt install {' '.join(debian)}` on "
        f"Debian/Ubuntu or `sudo dnf install {' '.join(fedora)}` on Fedora, then start Chime again."
    )
