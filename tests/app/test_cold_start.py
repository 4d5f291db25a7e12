"""What a start loads and builds before the window's first paint (``app.main.run``): what is not
on screen then waits until it is needed. A subprocess runs Chime on an empty data folder and
reports at the main window's first paint."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from tests.app.probes import start_report

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, os, sys
from app.main import run
from PySide6.QtCore import QEvent, QObject
from PySide6 import QtCore, QtWidgets
from PySide6.QtWidgets import QMainWindow

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and isinstance(watched, QMainWindow):
            later = ("asyncio", "socket", "logging.handlers", "platformdirs", "zoneinfo", "qasync",
                     "orjson", "hashlib", "ui.turn_delegate", "ui.row_layout", "ui.row_hits",
                     "ui.row_files", "ui.mcp_rows", "ui.transcript_parts")
            from PySide6 import QtGui
            # Qt classes nothing on screen needs: each builds its enum classes when first named
            unused_qt = ("QGradient", "QImage", "QTextDocument", "QStyleOption", "QSocketNotifier",
                         "QWindow")
            modules = (QtCore, QtGui, QtWidgets)
            report = {
                "loaded": sorted(name for name in later if name in sys.modules),
                "transcript_parts": watched.transcript._parts is not None,
                "find_bar": watched.finder.tab_widgets() != (),
                "reminders_panel": watched.reminder_dock.tab_widgets() != (),
                "dock_shown": watched.reminders_dock.isVisible(),
                "every_widget_class": "QWizard" in vars(QtWidgets),
                "qt_classes": sorted(n for n in unused_qt if any(n in vars(m) for m in modules)),
            }
            sys.stdout.write(json.dumps(report) + "\\n")
            sys.stdout.flush()
            os._exit(0)
        return False

probe = FirstPaint()
show = QMainWindow.show
def watched_show(self):
    self.installEventFilter(probe)
    show(self)
QMainWindow.show = watched_show
sys.argv = ["chime", "--data-dir", sys.argv[1]]
run()
"""


def test_the_first_paint_waits_for_nothing_it_does_not_show(tmp_path: Path) -> None:
    report = start_report(PROBE, tmp_path / "data", timeout=120)
    assert report["loaded"] == []
    assert not report["transcript_parts"]  # no row yet: the painting parts wait for the first
    assert not report["find_bar"]
    # the offscreen screen is narrow: the dock is folded into a toggle, so its panel waits
    assert not report["dock_shown"]
    assert not report["reminders_panel"]
    # no widget C++ made was handed to Python: PySide6 would have loaded every QtWidgets class
    assert not report["every_widget_class"]
    assert report["qt_classes"] == []


PANEL = """
from datetime import UTC, datetime
from PySide6 import QtWidgets
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication
from ui.reminders_panel import RemindersPanel

app = QApplication([])
panel = RemindersPanel(lambda: datetime(2026, 1, 1, tzinfo=UTC), QIcon())
panel.show()
app.processEvents()
print("QWizard" in vars(QtWidgets))
"""


def test_the_reminders_panel_shown_at_a_wide_start_loads_no_other_widget_class() -> None:
    """On a wide screen the reminders dock shows at the first paint, so its panel is built then:
    its list takes a viewport made in Python (``ui.late_qt.own_viewport``); asking Qt for the one
    it made loaded every QtWidgets class (~60 enum classes, ~40 M instructions on X)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", PANEL], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["False"]


def test_what_is_logged_before_the_log_file_opens_is_written_to_it_first(tmp_path: Path) -> None:
    import logging

    from app.paths import LOG_FILE
    from app.run_log import EarlyRecords, setup_logging

    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    early = EarlyRecords()
    root.addHandler(early)
    root.setLevel(logging.INFO)
    try:
        logging.getLogger("app.test").warning("said before the first paint")
        assert setup_logging(tmp_path, early) is True
        assert early not in root.handlers
        logging.getLogger("app.test").warning("said after it")
        for handler in root.handlers:
            handler.flush()
        lines = (tmp_path / LOG_FILE).read_text(encoding="utf-8").splitlines()
        assert [line.split(": ", 1)[1] for line in lines] == [
            "said before the first paint",
            "said after it",
        ]
    finally:
        for added in root.handlers:
            if added not in before:
                added.close()
                root.removeHandler(added)
        root.setLevel(level)


def test_the_door_name_is_the_folder_paths_sha256_as_before(tmp_path: Path) -> None:
    """Qt's hash names the door (no OpenSSL before the first paint); a running Chime of an
    earlier version named it with hashlib's, and a second start must still find it."""
    import hashlib

    from app.single_instance import door_name

    folder = tmp_path / "données" / "chime"
    expected = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:24]
    assert door_name(folder) == f"chime-{expected}"


def test_a_start_draws_in_fusion_chosen_on_the_command_line_whatever_the_desktop_asks() -> None:
    """``make_application`` picks Fusion on ``QApplication``'s command line (not ``setStyle``,
    which hands QStyle to Python before the first paint); a desktop's style override loses."""
    code = (
        "from app.appearance import make_application\n"
        "app = make_application(['chime'])\n"
        "print(app.style().name(), app.applicationName())\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    env["QT_STYLE_OVERRIDE"] = "windows"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["fusion", "Chime"]


def test_a_start_waits_for_the_windows_expose_and_paint_before_loading_more(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On X a new window is exposed when the server and its window manager have mapped it: one
    ``processEvents`` right after ``show`` could come too early, leaving the window blank while
    the engine loaded. ``paint_first`` waits for the paint, and no longer than its bound for a
    window that is never exposed."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPaintEvent
    from PySide6.QtWidgets import QMainWindow

    from app import launch

    painted: list[bool] = []

    class Window(QMainWindow):
        def paintEvent(self, event: QPaintEvent) -> None:
            painted.append(True)
            super().paintEvent(event)

    window = Window()
    window.show()
    launch.paint_first(qapp, window)
    assert painted
    window.close()
    monkeypatch.setattr(launch, "FIRST_PAINT_WAIT_MS", 50)
    hidden = QMainWindow()
    hidden.show()
    qapp.processEvents()
    hidden.setAttribute(Qt.WidgetAttribute.WA_Mapped, False)  # as if never mapped: no expose comes
    started = time.monotonic()
    launch.paint_first(qapp, hidden)
    assert 0.04 <= time.monotonic() - started < 5
    hidden.close()
