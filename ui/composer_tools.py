"""ComposerTools: the row under the message box: attach files, the session's model, its
instructions. No I/O: it only emits what the user asked for.

Choices where the spec is silent: the model picker sits here, under the message box beside the
paperclip (where Open WebUI, LM Studio and Jan keep what the next message goes to), so what will
answer is in sight while a message is written; the instructions button next to it says quietly
whether the session has instructions or a temperature of its own ("Instructions ✓ · 0.3"), its
tooltip shows them.

Signals:
    attach_requested(): the paperclip was clicked (the app asks which files).
    instructions_requested(): the instructions button was clicked.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from ui.icons import tinted
from ui.model_picker import ModelMenu, ModelPicker
from ui.untrusted import literal

GLYPH_SCALE = 1.4
"""The paperclip's size against the text's."""
INSTRUCTIONS_TIP_CHARS = 300
"""How much of the instructions the button's tooltip shows."""


class ComposerTools(QWidget):
    """Paperclip, model picker and instructions button (see the module docstring)."""

    attach_requested = Signal()
    instructions_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer-tools")
        self.attach_button = QToolButton(self)
        self.attach_button.setObjectName("composer-attach")
        self._draw_paperclip()
        self.attach_button.setAutoRaise(True)
        self.attach_button.setAccessibleName(self.tr("Attach files"))
        self.attach_button.setToolTip(
            self.tr(
                "Attach files (Ctrl+U): text files up to 256 KB, PNG, JPEG, GIF or WebP images "
                "up to 5 MB. You can also drop or paste them here."
            )
        )
        self.picker = ModelPicker(self)
        self.picker.setAutoRaise(True)
        self.instructions_button = QToolButton(self)
        self.instructions_button.setObjectName("composer-instructions")
        self.instructions_button.setAutoRaise(True)
        self.instructions_button.setAccessibleName(self.tr("Instructions for this session"))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(self.attach_button)
        row.addWidget(self.picker)
        row.addWidget(self.instructions_button)
        row.addStretch(1)
        self.attach_button.clicked.connect(self.attach_requested)
        self.instructions_button.clicked.connect(self.instructions_requested)
        self.set_instructions("", None)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange):
            self._draw_paperclip()  # the text size or the theme changed in Settings

    def _draw_paperclip(self) -> None:
        """The paperclip in the text's colour, a little larger than the text."""
        size = round(self.fontMetrics().height() * GLYPH_SCALE)
        color = self.palette().color(QPalette.ColorRole.WindowText)
        self.attach_button.setIcon(tinted("paperclip", color, size, self.devicePixelRatioF()))
        self.attach_button.setIconSize(QSize(size, size))

    def set_model_menu(self, menu: ModelMenu) -> None:
        """What the model picker shows for the session on screen."""
        self.picker.set_menu(menu)

    def set_instructions(self, text: str, temperature: float | None) -> None:
        """Say whether the session has instructions or a temperature of its own."""
        shown = self.tr("Instructions ✓") if text.strip() else self.tr("Instructions")
        if temperature is not None:
            shown += f" · {temperature:g}"
        self.instructions_button.setText(shown)
        lines = []
        if text.strip():
            clipped = text.strip()
            if len(clipped) > INSTRUCTIONS_TIP_CHARS:
                clipped = clipped[:INSTRUCTIONS_TIP_CHARS].rstrip() + "…"
            lines.append(self.tr("This session's instructions:") + "\n" + clipped)
        else:
            lines.append(self.tr("No instructions of its own: Chime's prompt only."))
        if temperature is not None:
            lines.append(self.tr("Temperature: {value:g}").format(value=temperature))
        lines.append(self.tr("Click to change them (Ctrl+I)."))
        self.instructions_button.setToolTip(literal("\n\n".join(lines)))

    def set_writable(self, writable: bool) -> None:
        """A read-only session takes no files, no model choice and no instructions."""
        for widget in (self.attach_button, self.picker, self.instructions_button):
            widget.setEnabled(writable)

    def open_model_menu(self) -> None:
        """Pop the picker's menu up above it (Ctrl+M), without waiting for it to close."""
        if not (self.picker.isEnabled() and self.picker.isVisible()):
            return
        self.picker.setFocus(Qt.FocusReason.ShortcutFocusReason)
        menu = self.picker.menu()
        above = QPoint(0, -menu.sizeHint().height())
        menu.popup(self.picker.mapToGlobal(above))
