"""The transcript's painting parts are built when the first row comes (``TranscriptView.parts``):
an empty transcript paints its first move without them, and what the window said before they
existed (read-only, wrapped code) holds once they do."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from tests.ui.events import EventScript
from tests.ui.windows import shown_window
from ui.main_window import MainWindow

LONG_CODE = "```python\nvalue = " + " + ".join(f"term_{n}" for n in range(60)) + "\n```"


@pytest.fixture
def window(qtbot) -> MainWindow:
    return shown_window(qtbot, 1000, 700)


def show_rows(window: MainWindow) -> None:
    script = EventScript()
    script.turn("show me a long line", LONG_CODE)
    window.transcript_model.reset(script.events, "UTC")
    QApplication.processEvents()


def code_row_height(window: MainWindow) -> int:
    view = window.transcript
    layout = view.parts.delegate.layout_at(view.model().rowCount() - 1)
    assert layout is not None
    return layout.height


def test_an_empty_transcript_paints_without_its_parts_which_come_with_the_first_row(
    window: MainWindow,
) -> None:
    view = window.transcript
    window.transcript_model.reset((), "UTC")
    view.repaint()
    assert view._parts is None
    show_rows(window)
    assert view._parts is not None
    assert view.itemDelegate() is view.parts.delegate
    shortcuts = {action.shortcut() for action in view.actions()}
    assert QKeySequence(QKeySequence.StandardKey.Copy) in shortcuts
    assert view.parts.delegate.layout_at(0) is not None


def test_what_the_window_said_before_the_first_row_holds_for_it(window: MainWindow) -> None:
    view = window.transcript
    view.set_writable(False)
    view.set_wrap_code(True)
    show_rows(window)
    assert view.parts.delegate.layouts.writable is False
    wrapped = code_row_height(window)
    view.set_wrap_code(False)
    QApplication.processEvents()
    assert code_row_height(window) < wrapped  # the long line scrolls sideways: one line
    view.set_wrap_code(True)
    QApplication.processEvents()
    assert code_row_height(window) == wrapped
