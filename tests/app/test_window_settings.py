"""The real window's Settings dialog (Ctrl+,) against a real loopback OpenAI-compatible server,
the appearance it applies, Help's shortcut list, and the in-process pieces of ``app.main``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.app.window import RealApp
from tests.fakes import FakeClock
from ui.settings_dialog import SettingsDialog

# WORKAROUND(offscreen QPA): showing a window logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")

CTRL = Qt.KeyboardModifier.ControlModifier
KEY = "sk-test-not-a-real-key"


@pytest.fixture
def chime(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Iterator[RealApp]:
    app = RealApp(qtbot, qapp, loop, tmp_path, clock)
    yield app
    app.close()


def models_body(*ids: str) -> dict[str, object]:
    return {"object": "list", "data": [{"id": i, "object": "model"} for i in ids]}


def open_settings(chime: RealApp) -> SettingsDialog:
    """Ctrl+, on the active window; the dialog it opened."""
    chime.activate()
    chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_Comma, CTRL))
    dialogs = chime.window.findChildren(SettingsDialog)
    assert len(dialogs) == 1
    assert dialogs[0].isVisible()
    return dialogs[0]


def test_a_closed_settings_dialog_goes_away_instead_of_piling_up(chime: RealApp) -> None:
    for close in ("accept", "reject", "accept"):
        dialog = open_settings(chime)
        chime.inside(getattr(dialog, close))
        chime.until(lambda: chime.window.findChildren(SettingsDialog) == [])
