"""The "Waiting for the answer…" line: it appears only after its delay, counts the seconds since
the wait began, and goes away when the wait ends (also before it appeared)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ui.answer_wait import DELAY_MS, AnswerWait


def make(qtbot, elapsed: list[int]) -> tuple[QWidget, AnswerWait]:
    """The line in a shown parent (returned too: the caller keeps it alive)."""
    parent = QWidget()
    qtbot.addWidget(parent)
    wait = AnswerWait(parent, elapsed_ms=lambda: elapsed[0])
    parent.show()
    return parent, wait


def test_the_line_appears_after_its_delay_and_counts_the_seconds(qtbot) -> None:
    elapsed = [0]
    _parent, wait = make(qtbot, elapsed)
    assert wait.delay_ms == DELAY_MS
    wait.delay_ms = 0
    wait.begin()
    assert wait.waiting
    assert not wait.isVisible()
    qtbot.waitUntil(wait.isVisible)
    assert wait.text() == "Waiting for the answer…"
    elapsed[0] = 12_345
    wait.begin()  # a wait under way is not restarted
    wait._update_text()  # what the one-second tick does
    assert wait.text() == "Waiting for the answer… 12 s"
    assert wait.accessibleName() == wait.text()
    wait.end()
    assert not wait.isVisible()
    assert not wait.waiting


def test_a_wait_that_ends_within_the_delay_never_shows(qtbot) -> None:
    _parent, wait = make(qtbot, [0])
    wait.begin()
    assert wait.waiting
    wait.end()  # the offline assistant answered at once
    assert not wait.waiting  # its timer is stopped: it cannot appear later
    assert not wait.isVisible()


def test_thinking_turns_the_line_into_thinking_counted_from_its_first_piece(qtbot) -> None:
    elapsed = [5_000]
    _parent, wait = make(qtbot, elapsed)
    wait.begin()
    assert wait.thinking_ms() is None
    ticks: list[int] = []
    wait.thinking_ticked.connect(ticks.append)
    wait.think()  # shown at once, without the delay
    assert wait.isVisible()
    assert wait.text() == "Thinking…"
    elapsed[0] = 17_400
    wait.think()  # thinking under way: not restarted
    wait._update_text()
    assert wait.text() == "Thinking… 12 s"
    assert ticks == [0, 12_400]
    assert wait.thinking_ms() == 12_400
    wait.end()
    assert not wait.isVisible()
    assert wait.thinking_ms() is None


def test_thinking_without_a_wait_begun_starts_one(qtbot) -> None:
    _parent, wait = make(qtbot, [0])
    wait.think()
    assert wait.isVisible()
    assert wait.thinking_ms() == 0
