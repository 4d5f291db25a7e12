"""The transcript's scroll bar stands for the whole conversation, not the rows loaded: Ctrl+Home
shows the first message, Ctrl+End the newest, and the bar dragged to the top or into the middle
shows that part of a conversation far longer than the loaded window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.transcript.rows import message_seq
from tests.ui.events import EventScript
from tests.ui.windows import shown_window
from ui.main_window import MainWindow
from ui.transcript_view import TranscriptView

TURNS = 400
EVENTS = 5 * TURNS
"""A turn is a message, its start, a time reading, the answer and its end."""


@pytest.fixture
def window(qtbot) -> MainWindow:
    shown = shown_window(qtbot, 1000, 700)
    script = EventScript()
    for turn in range(TURNS):
        script.turn(f"question {turn}", f"answer {turn}")
    shown.transcript_model.reset(script.events, "UTC")
    shown.transcript.scroll_to_end()
    QApplication.processEvents()
    return shown


def shown_texts(view: TranscriptView) -> list[str]:
    """The texts of the rows at least partly inside the viewport, top to bottom."""
    model, height = view.model(), view.viewport().height()
    texts = []
    for row in range(model.rowCount()):
        rect = view.visualRect(model.index(row))
        if rect.bottom() >= 0 and rect.top() < height:
            texts.append(model.index(row).data())
    return texts


def test_the_bar_stands_for_the_whole_conversation_and_the_list_bar_is_hidden(
    window: MainWindow,
) -> None:
    view = window.transcript
    bar = view.position.bar
    first, stop, known = window.transcript_model.history.span()
    assert first > 0  # only the tail is loaded
    assert known == EVENTS
    assert view.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    assert bar.isVisible()
    assert bar.maximum() + bar.pageStep() == known
    assert bar.value() == bar.maximum()  # at the end
    assert bar.pageStep() < stop - first  # the screen is part of the loaded window


def test_ctrl_home_shows_the_first_message_and_ctrl_end_the_newest(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert "question 0" in shown_texts(view)
    assert view.position.bar.value() == 0
    assert view.follow.is_following() is False
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert f"answer {TURNS - 1}" in shown_texts(view)
    assert view.follow.is_following() is True
    assert view.position.bar.value() == view.position.bar.maximum()


def test_dragging_the_bar_to_the_top_shows_the_first_message(qtbot, window: MainWindow) -> None:
    view = window.transcript
    bar = view.position.bar
    bar.setSliderDown(True)
    bar.setValue(0)
    qtbot.waitUntil(lambda: "question 0" in shown_texts(view))
    bar.setSliderDown(False)
    assert window.transcript_model.history.span()[0] == 0
    assert bar.value() == 0


def test_moving_the_bar_to_the_middle_shows_the_middle(window: MainWindow) -> None:
    view = window.transcript
    bar = view.position.bar
    middle = EVENTS // 2  # the message of turn 200 of 400
    bar.setValue(middle)
    model = window.transcript_model
    seqs = [
        message_seq(value)
        for row in range(model.rowCount())
        if (value := model.row_at(row)) is not None
        and view.visualRect(model.index(row)).intersects(view.viewport().rect())
    ]
    shown = [seq for seq in seqs if seq >= 0]
    assert shown
    assert min(shown) <= middle + 10
    assert max(shown) >= middle - 10
    assert abs(bar.value() - middle) <= bar.pageStep()
    bar.setValue(bar.maximum())
    assert view.follow.is_following() is True
