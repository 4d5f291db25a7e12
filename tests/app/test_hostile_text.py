"""Text from outside shown by the real window as written (issue 24, point 7): a ``--session``
argument that looks like HTML, quoted by the message bar, and the status bar and banner labels
that quote names and errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.app.window import RealApp
from tests.fakes import FakeClock

# WORKAROUND(offscreen QPA): showing a main window logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def test_a_session_argument_that_looks_like_html_is_quoted_as_written(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    asked = "<title>x</title><b>gone</b>"
    chime = RealApp(qtbot, qapp, loop, tmp_path, clock, session_arg=asked)
    try:
        bar = chime.window.message_bar
        assert bar.text().startswith("Could not open the session")
        assert asked in bar.text()
        assert bar.label.textFormat() == Qt.TextFormat.PlainText  # shown as the text above
        window = chime.window
        for label in (
            window.banner.label,
            window.status.zone_label,
            window.status.provider_label,
            window.status.state_label,
            window.status.persistence_label,
        ):
            assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
    finally:
        chime.close()
