"""The transcript view's parts (``ui.transcript_view``) driven through the real widget: a code
box's scroll bar dragged, the pointer's shapes and tooltips over buttons, links and text, the
mouse leaving, triple-click and Shift+click selection, the Menu key and Enter, the context menu
of a link, and Ctrl+C without a selection."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QHelpEvent
from PySide6.QtWidgets import QApplication, QMenu, QToolTip

from tests.ui.test_transcript_view import converse, drag, hover, point, row_of, window
from ui.main_window import MainWindow

__all__ = ["window"]  # the fixture, shared with the transcript's other window tests

LONG = "x = " + " + ".join(f"value_{n}" for n in range(60))


def test_dragging_a_code_boxs_bar_scrolls_the_code_sideways_until_released(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    answer = f"```python\n{LONG}\n```"
    converse(window, ("long", answer))
    row = row_of(view, answer)
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    [box] = layout.boxes
    assert box.scrollbar is not None
    uid = window.transcript_model.uid_at(row)
    start = box.scrollbar.center() + view.parts.hits.row_origin(row)
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(viewport, pos=start + QPoint(80, 0))
    moved = view.parts.code_scroll.offsets(uid)[0]
    assert moved > 0
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=start + QPoint(80, 0))
    qtbot.mouseMove(viewport, pos=start + QPoint(160, 0))
    assert view.parts.code_scroll.offsets(uid)[0] == moved  # released: the box no longer follows
    assert not view.parts.selection.has_selection()  # a drag of the bar selects nothing


def test_the_pointer_shows_what_is_under_it_and_forgets_it_when_it_leaves(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    answer = "See [the docs](https://example.com/docs) and some words."
    converse(window, ("where?", answer))
    row = row_of(view, answer)
    hovered: list[str] = []
    view.link_hovered.connect(hovered.append)
    hover(view, point(view, row, 6))
    assert view.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    hover(view, point(view, row, 30))
    assert view.viewport().cursor().shape() == Qt.CursorShape.IBeamCursor
    hover(view, point(view, row, 6))
    uid = window.transcript_model.uid_at(row)
    assert view.parts.hover.shows_actions(uid)
    QApplication.sendEvent(view, QEvent(QEvent.Type.Leave))
    assert hovered == ["https://example.com/docs", "", "https://example.com/docs", ""]
    view.clearFocus()
    assert not view.parts.hover.shows_actions(uid)


def test_a_buttons_tooltip_is_its_tip(qtbot, window: MainWindow) -> None:
    view = window.transcript
    converse(window, ("hi", "An answer."))
    row = row_of(view, "An answer.")
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    button = next(b for b in layout.footer_buttons if b.tip)
    at = button.rect.center() + view.parts.hits.row_origin(row)
    hover(view, at)
    viewport = view.viewport()
    event = QHelpEvent(QEvent.Type.ToolTip, at, viewport.mapToGlobal(at))
    QApplication.sendEvent(viewport, event)
    assert QToolTip.text() == button.tip


def test_a_triple_click_selects_the_text_block_and_shift_click_extends_a_selection(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    answer = "First paragraph here.\n\n```python\nx = 1\n```"
    converse(window, ("hi", answer))
    row = row_of(view, answer)
    viewport = view.viewport()
    at = point(view, row, 3)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=at)
    assert view.parts.selection.selected_text() == "First"
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at)
    assert view.parts.selection.selected_text() == "First paragraph here."
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=point(view, row, 30))
    drag(qtbot, view, point(view, row, 0), point(view, row, 2))
    assert view.parts.selection.selected_text() == "Fi"
    qtbot.mouseClick(
        viewport,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ShiftModifier,
        pos=point(view, row, 5),
    )
    assert view.parts.selection.selected_text() == "First"


@pytest.mark.parametrize("key", [Qt.Key.Key_Menu, Qt.Key.Key_F10])
def test_the_menu_key_opens_the_current_rows_menu(qtbot, window: MainWindow, key) -> None:
    view = window.transcript
    converse(window, ("hi", "An answer."))
    view.setFocus()
    view.select_last()
    shift = Qt.KeyboardModifier.ShiftModifier if key == Qt.Key.Key_F10 else Qt.KeyboardModifier(0)
    qtbot.keyClick(view, key, shift)
    menu = view.findChild(QMenu, "transcript-menu")
    assert menu is not None
    assert "&Copy message" in [action.text() for action in menu.actions()]
    menu.close()


def test_a_right_click_makes_the_row_current_and_opens_its_menu_there(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("first question", "An answer."), ("second", "Another answer."))
    row = row_of(view, "first question")
    at = point(view, row, 2)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.RightButton, pos=at)
    assert view.currentIndex().row() == row
    menu_event = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, at, view.viewport().mapToGlobal(at)
    )
    QApplication.sendEvent(view.viewport(), menu_event)
    menu = view.findChild(QMenu, "transcript-menu")
    assert menu is not None
    assert menu.isVisible()
    assert "&Copy message" in [action.text() for action in menu.actions()]
    menu.close()


def test_a_links_context_menu_opens_or_copies_it(qtbot, window: MainWindow) -> None:
    view = window.transcript
    answer = "See [the docs](https://example.com/docs) for more."
    converse(window, ("where?", answer))
    row = row_of(view, answer)
    menu = view.parts.menu.build(row, "https://example.com/docs")
    actions = {action.text(): action for action in menu.actions()}
    actions["Copy &link address"].trigger()
    assert QGuiApplication.clipboard().text() == "https://example.com/docs"
    asked: list[str] = []
    view.link_activated.connect(asked.append)
    actions["&Open link…"].trigger()
    assert asked == ["https://example.com/docs"]


def test_ctrl_c_without_a_selection_copies_the_current_message_as_written(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("hi", "Some *emphasis* here."))
    view.setFocus()
    view.select_last()
    QGuiApplication.clipboard().setText("before")
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "Some *emphasis* here."


def test_a_drag_past_the_last_row_selects_to_the_end_of_the_text(qtbot, window: MainWindow) -> None:
    view = window.transcript
    converse(window, ("hi", "The last words."))
    row = row_of(view, "The last words.")
    below = QPoint(view.viewport().width() // 2, view.viewport().height() - 20)
    assert view.indexAt(below).row() == -1  # under the rows: no row there
    drag(qtbot, view, point(view, row, 4), below)
    assert view.parts.selection.selected_text() == "last words."
