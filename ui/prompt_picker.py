"""PromptPicker: the saved prompts offered when ``/`` is typed into an empty message box. No I/O.

Typing ``/`` into the empty message box opens a list of the saved prompts above it; what is typed
after the ``/`` filters it (``core.prompts.matching``); Up and Down move the choice, Enter (or
Tab, or a click) puts the chosen prompt's text in the message box in place of ``/…``, and Esc
closes the list and leaves the text as typed. Removing the ``/``, or a line break, closes it too.
The list is a child of the window laid over it, never a popup window: the message box keeps the
keyboard focus, so typing goes on there. With nothing saved, or nothing matching, it says so and
Enter sends the message as usual.

Signals:
    inserted(str): the name of the prompt whose text was put in the message box.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from core.prompts import SavedPrompt, matching

_KEYS = {
    Qt.Key.Key_Up,
    Qt.Key.Key_Down,
    Qt.Key.Key_Return,
    Qt.Key.Key_Enter,
    Qt.Key.Key_Tab,
    Qt.Key.Key_Escape,
}
ROWS = 7


class PromptPicker(QFrame):
    """The ``/`` list over ``editor`` (see the module docstring)."""

    inserted = Signal(str)

    def __init__(self, window: QWidget, editor: QPlainTextEdit) -> None:
        super().__init__(window)
        self.setObjectName("prompt-picker")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self._editor = editor
        self._prompts: tuple[SavedPrompt, ...] = ()
        self._shown: list[SavedPrompt] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.heading = QLabel(self.tr("Saved prompts — Enter inserts, Esc closes"), self)
        self.heading.setObjectName("prompt-picker-heading")
        layout.addWidget(self.heading)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Saved prompts"))
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)  # a long line ends in "…"
        self.list.itemClicked.connect(lambda _item: self.insert())
        layout.addWidget(self.list)
        self.empty = QLabel("", self)
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)
        self.hide()
        editor.textChanged.connect(self._on_text)
        editor.installEventFilter(self)

    def set_prompts(self, prompts: tuple[SavedPrompt, ...]) -> None:
        self._prompts = prompts
        if self.isVisible():
            self._fill(self._editor.toPlainText()[1:])

    def shown_names(self) -> list[str]:
        return [p.name for p in self._shown]

    def insert(self) -> None:
        """Put the chosen prompt's text in the message box in place of ``/…``."""
        row = self.list.currentRow()
        if not 0 <= row < len(self._shown):
            return
        prompt = self._shown[row]
        self.hide()
        self._editor.setPlainText(prompt.text)
        self._editor.moveCursor(self._editor.textCursor().MoveOperation.End)
        self.inserted.emit(prompt.name)

    def _on_text(self) -> None:
        text = self._editor.toPlainText()
        if not self.isVisible():
            if text == "/" and self._editor.hasFocus():
                self._open()
            return
        if not text.startswith("/") or "\n" in text:
            self.hide()
            return
        self._fill(text[1:])

    def _open(self) -> None:
        self._fill("")
        self.show()
        self.raise_()
        self._place()

    def _fill(self, query: str) -> None:
        self._shown = matching(self._prompts, query)
        self.list.clear()
        for prompt in self._shown:
            item = QListWidgetItem(f"{prompt.name} — {_first_line(prompt.text)}")
            item.setToolTip(prompt.text[:500])
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        self.list.setVisible(bool(self._shown))
        self.empty.setVisible(not self._shown)
        self.empty.setText(
            self.tr("No saved prompt matches “{query}”.").format(query=query)
            if self._prompts
            else self.tr("No saved prompts yet: add them in Settings.")
        )
        self._place()

    def _place(self) -> None:
        """Just above the message box (below it when there is no room), as wide as it, up to
        ``ROWS`` rows high."""
        window = self.parentWidget()
        if window is None:  # pragma: no cover -- always made with a window
            return
        rows = max(1, min(ROWS, len(self._shown)))
        row_height = self.list.sizeHintForRow(0) if self._shown else self.fontMetrics().height()
        self.list.setFixedHeight(rows * max(row_height, 1) + 2 * self.list.frameWidth())
        self.adjustSize()
        top_left = self._editor.mapTo(window, QPoint(0, 0))
        width = self._editor.width()
        height = self.sizeHint().height()
        above = top_left.y() - height
        top = above if above >= 0 else top_left.y() + self._editor.height()  # else below it
        self.setGeometry(top_left.x(), top, width, height)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self._editor or not self.isVisible() or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        key = Qt.Key(event.key())
        if key not in _KEYS:
            return False
        if event.type() == QEvent.Type.ShortcutOverride:  # Esc is the window's Stop otherwise
            event.accept()
            return True
        if event.type() != QEvent.Type.KeyPress:
            return False
        return self._key(key)

    def _key(self, key: Qt.Key) -> bool:
        """Handle a key while the list is open; False lets the message box have it."""
        match key:
            case Qt.Key.Key_Escape:
                self.hide()
            case Qt.Key.Key_Up | Qt.Key.Key_Down:
                step = -1 if key == Qt.Key.Key_Up else 1
                if self._shown:
                    self.list.setCurrentRow((self.list.currentRow() + step) % len(self._shown))
            case _:  # Enter, Tab
                if not self._shown:
                    self.hide()
                    return False
                self.insert()
        return True


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= 80 else line[:79] + "…"
