"""The transcript's real widgets driven with the mouse and keyboard: selecting text in and across
messages and copying it, code boxes (Copy copies exactly the code, long lines scroll sideways),
links, row actions, and the streamed answer growing in its own row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from core.transcript.patch import Anchor
from tests.ui.events import EventScript
from tests.ui.windows import shown_window
from ui.main_window import MainWindow
from ui.transcript_view import TranscriptView

CODE = 'def greet(name):\n    return f"Hello, {name}!"  # a greeting'
ANSWER = (
    f"Here is **the function** you asked for:\n\n```python\n{CODE}\n```\n\nCall it with a name."
)


@pytest.fixture
def window(qtbot) -> MainWindow:
    return shown_window(qtbot, 1200, 800)


def converse(window: MainWindow, *turns: tuple[str, str]) -> EventScript:
    script = EventScript()
    for question, answer in turns:
        script.turn(question, answer)
    window.transcript_model.reset(script.events, "UTC")
    window.transcript.scroll_to_end()
    QApplication.processEvents()
    return script


def row_of(view: TranscriptView, text: str) -> int:
    model = view.model()
    return next(r for r in range(model.rowCount()) if model.index(r).data() == text)


def point(view: TranscriptView, row: int, position: int) -> QPoint:
    """The viewport point of a text position of a row."""
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    return (layout.point_of(position) + view.parts.hits.row_origin(row).toPointF()).toPoint()


def hover(view: TranscriptView, at: QPoint) -> None:
    """Move the mouse over the viewport with no button held.

    WORKAROUND(QTest offscreen): ``qtbot.mouseMove`` without a button moves the cursor, which the
    offscreen platform ignores; the move event is sent as the platform would deliver it."""
    viewport = view.viewport()
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(at),
        QPointF(viewport.mapToGlobal(at)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, event)


def drag(qtbot, view: TranscriptView, start: QPoint, end: QPoint) -> None:
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(viewport, pos=(start + end) / 2)
    qtbot.mouseMove(viewport, pos=end)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def test_dragging_over_part_of_an_answer_selects_it_and_ctrl_c_copies_that_text(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("hi", "The quick brown fox jumps over the lazy dog."))
    row = row_of(view, "The quick brown fox jumps over the lazy dog.")
    drag(qtbot, view, point(view, row, 4), point(view, row, 19))
    assert view.parts.selection.selected_text() == "quick brown fox"
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "quick brown fox"


def test_a_selection_can_run_across_messages_and_copies_as_plain_text_or_markdown(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("first question", "An answer with **bold** words."), ("second", "Last."))
    first = row_of(view, "first question")
    last = row_of(view, "Last.")
    drag(qtbot, view, point(view, first, 6), point(view, last, 4))
    assert (
        view.parts.selection.selected_text()
        == "question\n\nAn answer with bold words.\n\nsecond\n\nLast"
    )
    markdown = view.parts.selection.selected_text(markdown=True)
    assert "An answer with **bold** words." in markdown
    view.parts.copying.copy_selection()
    data = QGuiApplication.clipboard().mimeData()
    assert data.text() == view.parts.selection.selected_text()
    assert bytes(data.data("text/markdown").data()).decode() == markdown


def test_double_click_selects_a_word_and_a_click_clears_the_selection(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("hi", "Reminders come back as turns."))
    row = row_of(view, "Reminders come back as turns.")
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point(view, row, 12))
    assert view.parts.selection.selected_text() == "come"
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point(view, row, 2))
    assert not view.parts.selection.has_selection()


def test_the_code_box_copy_button_copies_exactly_the_code(qtbot, window: MainWindow) -> None:
    view = window.transcript
    converse(window, ("write a function", ANSWER))
    row = row_of(view, ANSWER)
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    [box] = layout.boxes
    assert box.label == "python"
    QGuiApplication.clipboard().setText("something else")
    qtbot.mouseClick(
        view.viewport(),
        Qt.MouseButton.LeftButton,
        pos=box.copy.center() + view.parts.hits.row_origin(row),
    )
    assert QGuiApplication.clipboard().text() == CODE
    assert view.parts.copying.copied_box(view.model().uid_at(row)) == 0  # the button says "Copied"


def test_code_is_highlighted_in_readable_colours_and_a_user_message_renders_markdown_too(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, (f"what does this do?\n\n```python\n{CODE}\n```", ANSWER))
    view.viewport().repaint()  # colours are applied on first paint
    for row in (
        row_of(view, f"what does this do?\n\n```python\n{CODE}\n```"),
        row_of(view, ANSWER),
    ):
        layout = view.parts.delegate.layout_at(row)
        assert layout is not None
        [box] = layout.boxes
        assert box.code == CODE  # the fence is a code box in a user message as in an answer
        piece = next(p for p in layout.pieces if p.box == 0)
        assert piece.doc.toPlainText() == CODE
        colours = {
            fragment.charFormat().foreground().color().name()
            for block in _blocks(piece.doc)
            for fragment in _fragments(block)
        }
        assert len(colours) >= 3  # keywords, strings, comments differ


def test_a_long_code_line_scrolls_sideways_with_shift_and_the_wheel(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    long_line = "x = " + " + ".join(f"value_{n}" for n in range(60))
    answer = f"```python\n{long_line}\n```"
    converse(window, ("long", answer))
    row = row_of(view, answer)
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    [box] = layout.boxes
    assert box.overflow > 0
    assert box.scrollbar is not None
    uid = view.model().uid_at(row)
    inside = box.body.center() + view.parts.hits.row_origin(row)
    event = QWheelEvent(
        QPointF(inside),
        QPointF(view.viewport().mapToGlobal(inside)),
        QPoint(0, 0),
        QPoint(0, -240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ShiftModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)
    assert view.parts.code_scroll.offsets(uid)[0] > 0
    window.window_actions.action("wrap_code").trigger()  # View > Wrap long code lines
    wrapped = view.parts.delegate.layout_at(row)
    assert wrapped is not None
    assert wrapped.boxes[0].overflow == 0
    assert wrapped.height > layout.height


def test_clicking_a_link_asks_before_opening_it_and_shows_its_target(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    answer = "See [the docs](https://example.com/docs) for more."
    converse(window, ("where?", answer))
    row = row_of(view, answer)
    link = point(view, row, 6)
    hover(view, link)
    assert window.statusBar().currentMessage() == "https://example.com/docs"
    opened: list[str] = []
    window.help.open_url_requested.connect(opened.append)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=link)
    question = window.findChild(QMessageBox, "open-link-question")
    assert question is not None
    assert question.isVisible()
    assert "https://example.com/docs" in question.informativeText()
    assert opened == []  # nothing opens before the answer
    open_button = next(b for b in question.buttons() if b.text() == "Open")
    qtbot.mouseClick(open_button, Qt.MouseButton.LeftButton)
    assert opened == ["https://example.com/docs"]


def test_a_link_that_is_not_web_or_mail_is_refused_in_words(qtbot, window: MainWindow) -> None:
    window.help.ask_open_link("file:///etc/passwd")
    assert "file:///etc/passwd" in window.message_bar.text()
    assert window.findChild(QMessageBox, "open-link-question") is None


def test_hovering_a_message_shows_its_copy_button_which_copies_the_message_as_written(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("hi", "Some *emphasis* here."))
    row = row_of(view, "Some *emphasis* here.")
    layout = view.parts.delegate.layout_at(row)
    assert layout is not None
    [copy] = [b for b in layout.footer_buttons if b.name == "copy"]
    uid = view.model().uid_at(row)
    assert not view.parts.hover.shows_actions(uid)
    at = copy.rect.center() + view.parts.hits.row_origin(row)
    hover(view, at)
    assert view.parts.hover.shows_actions(uid)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert QGuiApplication.clipboard().text() == "Some *emphasis* here."


def test_the_keyboard_reaches_a_messages_actions_through_its_menu(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    converse(window, ("hi", ANSWER))
    view.setFocus()
    view.select_last()
    menu = view.parts.menu.build(view.currentIndex().row(), "")
    texts = [action.text() for action in menu.actions()]
    assert "&Copy message" in texts
    assert "Copy code (python)" in texts
    assert view.parts.hover.shows_actions(view.model().uid_at(view.currentIndex().row()))
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert view.parts.selection.selected_text().startswith("hi")


def test_a_streamed_answer_grows_in_its_own_row_and_the_view_follows_it(
    qtbot, window: MainWindow
) -> None:
    view = window.transcript
    script = converse(window, *[(f"q{n}", f"a{n}") for n in range(30)])
    question = script.user("tell me more")
    window.add_entry(question)
    window.add_entry(script.start(question.seq))
    window.answers.append_stream("The answer ")
    model = window.transcript_model
    qtbot.waitUntil(lambda: model.row_at(model.rowCount() - 1).kind == "streaming")  # type: ignore[union-attr]
    rows = model.rowCount()
    uid = model.uid_at(rows - 1)
    height = view.visualRect(model.index(rows - 1)).height()
    window.answers.append_stream("grows as it arrives,\n\n```python\nprint('and')\n```\n\n" * 4)
    qtbot.waitUntil(lambda: view.visualRect(model.index(rows - 1)).height() > height)
    QApplication.processEvents()
    assert model.rowCount() == rows  # in place: no new row
    assert model.uid_at(rows - 1) == uid
    assert view.follow.is_following()
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum()
    layout = view.parts.delegate.layout_at(rows - 1)
    assert layout is not None
    assert len(layout.boxes) == 4  # rendered as Markdown while it streams
    bar.setValue(bar.maximum() // 2)  # the user scrolls up to read
    QApplication.processEvents()
    reading = bar.value()
    window.answers.append_stream("and still more " * 40)
    qtbot.waitUntil(lambda: bar.maximum() > reading * 2)
    QApplication.processEvents()
    assert bar.value() == reading  # not pulled down
    assert not view.follow.is_following()
    window.add_entry(script.answer("The answer, recorded."))
    assert model.rowCount() == rows
    assert model.index(rows - 1).data() == "The answer, recorded."


def _blocks(doc):  # type: ignore[no-untyped-def]
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()


def _fragments(block):  # type: ignore[no-untyped-def]
    iterator = block.begin()
    while not iterator.atEnd():
        yield iterator.fragment()
        iterator += 1


def test_a_tool_call_expands_on_click_and_an_error_row_offers_retry_and_settings(
    qtbot, window: MainWindow
) -> None:
    from tests.ui.events import create_call

    view = window.transcript
    script = EventScript()
    question = script.user("remind me")
    script.start(question.seq)
    script.answer("", [create_call("c1", "stretch", 60)])
    script.end("failed", "The server is down.")
    window.transcript_model.reset(script.events, "UTC")
    QApplication.processEvents()
    model = window.transcript_model
    tool = next(r for r in range(model.rowCount()) if model.row_at(r).kind == "tool")  # type: ignore[union-attr]
    layout = view.parts.delegate.layout_at(tool)
    assert layout is not None
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point(view, tool, 3))
    assert model.is_expanded(tool)
    expanded = view.parts.delegate.layout_at(tool)
    assert expanded is not None
    assert "Arguments:" in expanded.text(0, expanded.length)
    error = model.rowCount() - 1
    buttons = {b.name: b for b in view.parts.delegate.layout_at(error).buttons}  # type: ignore[union-attr]
    with qtbot.waitSignal(view.row_action) as retried:
        qtbot.mouseClick(
            view.viewport(),
            Qt.MouseButton.LeftButton,
            pos=buttons["retry"].rect.center() + view.parts.hits.row_origin(error),
        )
    assert retried.args == ["retry", question.seq]  # THAT input, not the newest failed one
    with qtbot.waitSignal(view.settings_requested):
        qtbot.mouseClick(
            view.viewport(),
            Qt.MouseButton.LeftButton,
            pos=buttons["settings"].rect.center() + view.parts.hits.row_origin(error),
        )
    view.setCurrentIndex(model.index(error))
    menu = view.parts.menu.build(error, "")
    assert "&Retry" in [action.text() for action in menu.actions()]
    with qtbot.waitSignal(view.row_action) as entered:
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert entered.args == ["retry", question.seq]


def test_a_version_switch_puts_the_other_version_where_the_reader_looked(window) -> None:
    """No call before the ``path/select`` says what to keep: the rebuild's anchor does."""
    script = EventScript()
    for n in range(12):
        script.turn(f"question {n}", f"answer {n}")
    edited = script.add(
        "user/message",
        {
            "id": "edited",
            "text": "question 5, edited",
            "source": {"kind": "user", "timeZone": "UTC"},
            "parent": 20,
            "revises": 25,
        },
    )
    script.start(edited.seq)
    script.answer("answer to the edit")
    script.end()
    for n in range(12, 20):
        script.turn(f"question {n}", f"answer {n}")
    view, model = window.transcript, window.transcript_model
    model.reset(script.events, "UTC", conversation=script.conversation())
    view.scroll_to_end()
    QApplication.processEvents()
    row = row_of(view, "question 5, edited")
    bar = view.verticalScrollBar()
    bar.setValue(bar.value() + view.visualRect(model.index(row)).top())  # at the top
    QApplication.processEvents()
    top = view.visualRect(model.index(row)).top()
    assert top == 0
    conversation = script.conversation()
    select = script.add("path/select", {"leaf": conversation.leaf_for(25)})
    view.apply_entry(select, script.conversation())
    QApplication.processEvents()
    assert model.last_anchor == Anchor(edited.seq, 25)  # the edited version gives way to the first
    row = row_of(view, "question 5")
    assert view.visualRect(model.index(row)).top() == top
    assert not view.follow.is_following()
