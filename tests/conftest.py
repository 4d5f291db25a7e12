"""Shared fixtures: offscreen Qt, a fake clock, and the conformance cases' location."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs a fixed, reproducible sample of every property (a red CI must mean a real regression that
# reruns the same way); developers' runs keep exploring new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator  # noqa: E402

import shiboken6  # noqa: E402 -- after the Qt platform is chosen
from PySide6.QtCore import QCoreApplication, QEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.appearance import register_icons  # noqa: E402 -- after the Qt platform is chosen
from tests.fakes import FakeClock  # noqa: E402 -- after the Qt platform is chosen

OFFSCREEN_NOTES = (
    r"This plugin does not support propagateSizeHints\(\)",
    r"This plugin does not support raise\(\)",
    r"This plugin does not support grabbing the keyboard",
    r"No such signal QPlatformNativeInterface::systemTrayWindowChanged",
)
"""WORKAROUND(offscreen QPA): showing a window or a dialog logs the first, a popup menu the next
two, a tray icon the last (the offscreen platform has no tray window). They are the test platform's limitations, not faults of the app; every other Qt warning
still fails the test (``qt_log_level_fail`` in pyproject.toml)."""


def pytest_configure(config: pytest.Config) -> None:
    for note in OFFSCREEN_NOTES:
        config.addinivalue_line("qt_log_ignore", note)
    register_icons()  # what make_application does: widgets built alone find their icons too


ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
"""The worked protocol cases (docs/spec/README.md): data of this repository, carried over as given."""


@pytest.fixture(autouse=True)
def no_window_left_behind() -> Iterator[None]:
    """Every window a test made without a parent is deleted after it. Left alive, they pile up
    (about 80 widgets a window test): each theme switch of a later test repolishes all of them,
    which made the settings and look tests 15-20x slower late in a whole run than alone."""
    app = QApplication.instance()
    before = (
        {_address(w) for w in app.topLevelWidgets()} if isinstance(app, QApplication) else set()
    )
    yield
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    for widget in app.topLevelWidgets():
        if widget.parent() is None and _address(widget) not in before:
            widget.close()
            widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _address(widget: object) -> int:
    return int(shiboken6.getCppPointer(widget)[0])


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 8, 5, 12, 0, tzinfo=UTC))
