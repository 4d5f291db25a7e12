"""Composer: the message editor with Send and Stop. No I/O: it only emits what the user asked.

Enter sends, Shift+Enter adds a line. While a turn runs, Send becomes "Queue" (the agent appends
the input at once and answers it after the running turn, agent.md §1) and Stop (Esc) is enabled.
Above the editor, the files added to the message (``attachments``, chips); under it the tools row
(``tools``: paperclip, model picker, instructions). Files pasted into the editor or dropped on it
are offered to the app (``files_offered``; a pasted picture as ``image_pasted``), never inserted
as text; a message of files only can be sent.

Edit mode (agent.md §7 "Edit and resend"): ``begin_edit(seq, text)`` puts a sent message's text
in the editor and shows the edit bar ("Editing a message — Esc to cancel"); Send then emits
``edit_submitted`` instead of ``submitted``, and Esc or Cancel leave edit mode, giving back the
draft that was there before. Up in an empty editor asks to edit the last message.

Signals:
    submitted(str): the user sent this text (blank only when files are attached).
    stop_requested(): the user asked to stop the running turn.
    files_offered(object): local file paths (a list of str) pasted or dropped into the editor.
    image_pasted(str, object): a pasted picture: a file name and its PNG bytes.
    edit_submitted(int, str): the user sent the edit of the message at this seq.
    edit_last_requested(): Up was pressed in the empty editor (outside edit mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from core.events import Attachment
from ui.attachment_strip import AttachmentStrip
from ui.composer_tools import ComposerTools
from ui.edit_bar import EditBar

if TYPE_CHECKING:  # with the first pasted picture (its enums are built when first imported)
    from PySide6.QtGui import QImage

PASTED_IMAGE_NAME = "Pasted image.png"


def local_files(mime: QMimeData) -> list[str]:
    """The local file paths a drag or the clipboard carries (none for web links or text)."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


def png_bytes(image: QImage) -> bytes:
    """``image`` encoded as PNG, in memory."""
    from PySide6.QtCore import QBuffer, QIODevice  # with the first pasted picture

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # WORKAROUND(PySide6 6.11): the stubs type the format as bytes, the binding accepts only str.
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


class ComposerEdit(QPlainTextEdit):
    """A plain-text editor where Enter submits and Shift+Enter inserts a newline.

    Signals:
        enter_pressed(): Enter without Shift.
        font_changed(): its font changed (a new text size): the composer keeps three lines.
    """

    enter_pressed = Signal()
    font_changed = Signal()
    files_offered = Signal(object)
    image_pasted = Signal(str, object)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        if local_files(source) or source.hasImage():
            return True
        return super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Files and pictures become attachments (offered to the app); text is inserted."""
        paths = local_files(source)
        if paths:
            self.files_offered.emit(paths)
            return
        if source.hasImage() and not source.hasText():
            from PySide6.QtGui import QImage  # with the first pasted picture

            image = source.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.image_pasted.emit(PASTED_IMAGE_NAME, png_bytes(image))
                return
        super().insertFromMimeData(source)

    up_in_empty = Signal()
    escape_pressed = Signal()

    escape_takes_over = False
    """Esc goes to the editor (to cancel an edit) instead of the window's Stop shortcut."""

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and self.escape_takes_over
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            event.accept()
            return True
        return super().event(event)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.font_changed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.enter_pressed.emit()
            return
        if enter:
            self.insertPlainText("\n")
            return
        if event.key() == Qt.Key.Key_Escape and self.escape_takes_over:
            self.escape_pressed.emit()
            return
        plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if event.key() == Qt.Key.Key_Up and plain and not self.toPlainText():
            self.up_in_empty.emit()
            return
        super().keyPressEvent(event)


class Composer(QWidget):
    """Editor plus Send/Stop buttons.

    Signals:
        submitted(str): text to send (already stripped of surrounding blank lines).
        stop_requested(): Stop pressed.
    """

    submitted = Signal(str)
    stop_requested = Signal()
    files_offered = Signal(object)
    image_pasted = Signal(str, object)
    edit_submitted = Signal(int, str)
    edit_last_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self._busy = False
        self._held = False
        self._send_waiting = False
        self.attachments = AttachmentStrip(self)
        self.tools = ComposerTools(self)
        self.edit_bar = EditBar(self)
        """Placed above the composer by the window; shown in edit mode."""
        self._editing: int | None = None
        self._draft_before_edit = ""
        self.editor = ComposerEdit(self)
        self.editor.setObjectName("composer-edit")
        self.editor.setAccessibleName(self.tr("Message"))
        self.editor.setPlaceholderText(self.tr("Message — try: remind me in 10 minutes to stretch"))
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(self._editor_height(3))
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setObjectName("composer-send")
        self.send_button.setAccessibleName(self.tr("Send message"))
        self.send_button.setDefault(False)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setObjectName("composer-stop")
        self.stop_button.setAccessibleName(self.tr("Stop the running answer"))
        self.stop_button.setToolTip(self.tr("Stop the running answer (Esc)"))
        self.stop_button.setEnabled(False)
        self._layout()
        self.editor.enter_pressed.connect(self.send)
        self.editor.font_changed.connect(self.set_text_height)
        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(self.stop_requested)
        self.editor.textChanged.connect(self._update_send)
        self.editor.files_offered.connect(self.files_offered)
        self.editor.image_pasted.connect(self.image_pasted)
        self.attachments.removed.connect(lambda _sha: self._update_send())
        self.editor.up_in_empty.connect(self._on_up_in_empty)
        self.editor.escape_pressed.connect(self.cancel_edit)
        self.edit_bar.cancel_button.clicked.connect(self.cancel_edit)
        self._update_send()

    def _editor_height(self, lines: int) -> int:
        metrics = self.editor.fontMetrics()
        return metrics.lineSpacing() * lines + 16

    def _layout(self) -> None:
        buttons = QVBoxLayout()
        buttons.setSpacing(6)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.editor, 1)
        row.addLayout(buttons)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 8, 12, 6)
        column.setSpacing(4)
        column.addWidget(self.attachments)
        column.addLayout(row)
        column.addWidget(self.tools)

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the draft (e.g. "Delete reminder schedule-3" from the reminders panel) and focus it."""
        self.editor.setPlainText(text)
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def replace_text(self, text: str) -> None:
        """Another conversation's unsent message into the editor, its cursor at the end, where
        the focus is left as it is."""
        self.editor.setPlainText(text)
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)

    def hold_sends(self) -> None:
        """Until ``release_sends``, a send keeps its words in the editor and waits (the window is
        shown before the engine runs: words typed then are never lost)."""
        self._held = True

    def release_sends(self) -> None:
        """The engine runs: a send made meanwhile goes now."""
        waiting, self._held, self._send_waiting = self._send_waiting, False, False
        if waiting:
            self.send()

    def send(self) -> None:
        """Submit the draft unless it is blank (and no file is attached) or the composer is
        disabled. While sends are held, the draft stays and is sent once they are released."""
        text = self.text().strip("\n ")
        if not (text.strip() or self.attachments.files) or not self.editor.isEnabled():
            return
        if self._held:
            self._send_waiting = True
            return
        editing = self._editing
        if editing is not None:
            self._end_edit("")
            self.edit_submitted.emit(editing, text)
            return
        self.editor.clear()
        self.submitted.emit(text)

    def show_attachments(self, files: Sequence[Attachment]) -> None:
        """The files waiting to be sent with the message (chips above the editor)."""
        self.attachments.take()
        for file in files:
            self.attachments.add(file)
        self._update_send()

    # -- edit mode ---------------------------------------------------------------------
    def begin_edit(self, seq: int, text: str) -> None:
        """Edit the sent message at ``seq``: its text in the editor, the edit bar shown (the
        draft typed so far comes back when the edit is cancelled)."""
        if self._editing is None:
            self._draft_before_edit = self.text()
        self._editing = seq
        self.edit_bar.show()
        self.editor.escape_takes_over = True
        self.set_text(text)

    def editing(self) -> int | None:
        """The seq of the message being edited (None: not in edit mode)."""
        return self._editing

    def cancel_edit(self) -> None:
        """Leave edit mode (Esc, Cancel): the earlier draft comes back."""
        if self._editing is not None:
            self._end_edit(self._draft_before_edit)

    def _end_edit(self, draft: str) -> None:
        self._editing = None
        self._draft_before_edit = ""
        self.edit_bar.hide()
        self.editor.escape_takes_over = False
        self.editor.setPlainText(draft)

    def _on_up_in_empty(self) -> None:
        if self._editing is None and self.editor.isEnabled():
            self.edit_last_requested.emit()

    @property
    def busy(self) -> bool:
        """A turn is running (``set_busy``)."""
        return self._busy

    def set_busy(self, busy: bool) -> None:
        """A turn is running: Send queues and Stop is enabled."""
        self._busy = busy
        self.stop_button.setEnabled(busy)
        self._update_send()

    def set_writable(self, writable: bool, reason: str = "") -> None:
        """Disable input for a read-only session (the reason becomes the placeholder)."""
        if not writable:
            self.cancel_edit()
        self.editor.setEnabled(writable)
        self.editor.setReadOnly(not writable)
        self.tools.set_writable(writable)
        if writable:
            self.editor.setPlaceholderText(
                self.tr("Message — try: remind me in 10 minutes to stretch")
            )
        else:
            self.editor.setPlaceholderText(reason or self.tr("This session is read-only."))
        self._update_send()

    def set_text_height(self) -> None:
        """Three lines of the editor's font fit (after a new text size)."""
        self.editor.setFixedHeight(self._editor_height(3))

    def _update_send(self) -> None:
        self.send_button.setText(self.tr("Queue") if self._busy else self.tr("Send"))
        has_content = bool(self.text().strip() or self.attachments.files)
        self.send_button.setEnabled(self.editor.isEnabled() and has_content)
