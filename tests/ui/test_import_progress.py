"""The import's progress dialog: what it shows, and Cancel by button, Esc or the close button
(once: the import is asked to stop, then the dialog waits for it to end)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ui.import_progress import ImportProgress

KEEP: list[QWidget] = []


def make(qtbot) -> tuple[ImportProgress, list[bool]]:
    parent = QWidget()
    KEEP[:] = [parent]  # the window the dialog belongs to lives as long as the test
    qtbot.addWidget(parent)
    dialog = ImportProgress(parent, "conversations.json")
    asked: list[bool] = []
    dialog.cancel_requested.connect(lambda: asked.append(True))
    dialog.show()
    return dialog, asked


def test_it_shows_the_bytes_and_conversations_read(qtbot) -> None:
    dialog, _asked = make(qtbot)
    assert dialog.label.text() == "Reading conversations.json…"
    dialog.set_progress(250, 1000, 0)
    assert dialog.bar.value() == 250
    assert dialog.count.text() == ""
    dialog.set_progress(5, 0, 3)  # an empty file, or one whose size is unknown
    assert dialog.bar.value() == 0
    assert dialog.count.text() != ""


def test_esc_and_the_close_button_cancel_once(qtbot) -> None:
    dialog, asked = make(qtbot)
    qtbot.keyClick(dialog, Qt.Key.Key_A)  # other keys do nothing
    assert asked == []
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert asked == [True]
    assert dialog.label.text() == "Cancelling… nothing is imported."
    dialog.close()  # already cancelling: it closes only when the import ends
    assert asked == [True]
    dialog.finish()
    assert not dialog.isVisible()


def test_the_close_button_cancels(qtbot) -> None:
    dialog, asked = make(qtbot)
    dialog.close()
    assert asked == [True]
    assert dialog.isVisible()
