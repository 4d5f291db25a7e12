"""ToolApprovalDialog: the question asked before an MCP tool runs (Allow once / Always allow this
tool / Deny). No I/O, no asyncio: the app turns its ``decided`` signal into the engine's
``approve`` coroutine (``app.mcp_approval``).

Everything shown but the window's own words came from the model or the server: the tool's and
server's names, the arguments and the description are plain text (``ui.untrusted``), the arguments
in a read-only monospace box, bounded (``MAX_SHOWN_CHARS``) however long the engine's text is.

Safe defaults (desktop.md §MCP): **Deny** is the default button and has the focus, so Enter or a
stray key typed into the window as the question appears never runs a tool; Escape and closing the
window deny too. Allowing takes a deliberate choice: a click, Tab to the button, or its mnemonic
(Alt+A Allow once, Alt+W Always allow this tool).

Signals:
    decided(object): the person's ``core.mcp.types.Decision`` (emitted once).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QFontDatabase, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.mcp.types import ApprovalRequest, Decision
from ui.untrusted import plain

MAX_SHOWN_CHARS = 20_000
"""At most this much of the arguments or the description is shown (the rest: "…")."""


def bounded(text: str, limit: int = MAX_SHOWN_CHARS) -> str:
    """``text`` cut to ``limit`` characters, with "…" where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ToolApprovalDialog(QDialog):
    """Asks whether one tool call may run (see the module docstring)."""

    decided = Signal(object)

    def __init__(
        self, request: ApprovalRequest, parent: QWidget | None = None, conversation: str = ""
    ) -> None:
        super().__init__(parent)
        self.setObjectName("tool-approval")
        self.setWindowTitle(self.tr("Allow a tool? — Chime"))
        self.setMinimumWidth(520)
        self.request = request
        self.decision: Decision | None = None
        layout = QVBoxLayout(self)
        self.question = plain(QLabel(self._question(request, conversation), self))
        self.question.setObjectName("tool-approval-question")
        self.question.setWordWrap(True)
        layout.addWidget(self.question)
        layout.addWidget(QLabel(self.tr("Arguments:"), self))
        self.arguments = self._box(request.arguments_text or "{}", "tool-approval-arguments")
        self.arguments.setAccessibleName(self.tr("Arguments"))
        layout.addWidget(self.arguments, 2)
        heading = QLabel(self.tr("The tool's description, as its server wrote it:"), self)
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.description = self._box(
            request.description or self.tr("(The server gave no description.)"),
            "tool-approval-description",
        )
        self.description.setAccessibleName(self.tr("Description"))
        layout.addWidget(self.description, 1)
        self._build_buttons(layout)

    def _question(self, request: ApprovalRequest, conversation: str) -> str:
        text = self.tr("The model wants to use the tool “{tool}” from the server “{server}”.")
        text = text.format(tool=request.tool, server=request.server)
        if conversation:
            text += " " + self.tr("Conversation: {title}").format(title=conversation)
        return text + "\n" + self.tr("Allow it to run?")

    def _box(self, text: str, name: str) -> QPlainTextEdit:
        box = QPlainTextEdit(bounded(text), self)
        box.setObjectName(name)
        box.setReadOnly(True)
        box.setTabChangesFocus(True)
        box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        box.setMinimumHeight(box.fontMetrics().lineSpacing() * 4)
        return box

    def _build_buttons(self, layout: QVBoxLayout) -> None:
        self.buttons = QDialogButtonBox(self)
        role = QDialogButtonBox.ButtonRole
        self.allow_button = self._button(self.tr("&Allow once"), "tool-allow", role.AcceptRole)
        self.always_button = self._button(
            self.tr("Al&ways allow this tool"), "tool-always", role.AcceptRole
        )
        self.always_button.setToolTip(
            self.tr("Later calls of this tool run without asking (revocable in Settings)")
        )
        self.deny_button = self._button(self.tr("&Deny"), "tool-deny", role.RejectRole)
        for button in (self.allow_button, self.always_button):
            button.setAutoDefault(False)
        self.deny_button.setDefault(True)
        layout.addWidget(self.buttons)
        self.allow_button.clicked.connect(lambda: self.answer(Decision.ALLOW_ONCE))
        self.always_button.clicked.connect(lambda: self.answer(Decision.ALWAYS))
        self.deny_button.clicked.connect(lambda: self.answer(Decision.DENY))
        self.deny_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _button(self, text: str, name: str, role: QDialogButtonBox.ButtonRole) -> QPushButton:
        button = self.buttons.addButton(text, role)
        button.setObjectName(name)
        return button

    def answer(self, decision: Decision) -> None:
        """Record ``decision`` (the first one counts), tell it and close."""
        if self.decision is None:
            self.decision = decision
            self.decided.emit(decision)
        self.done(
            QDialog.DialogCode.Rejected
            if decision is Decision.DENY
            else QDialog.DialogCode.Accepted
        )

    def reject(self) -> None:
        """Escape, or the window closed by the app (Stop): the call is denied."""
        if self.decision is None:
            self.decision = Decision.DENY
            self.decided.emit(Decision.DENY)
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the window denies."""
        if self.decision is None:
            self.decision = Decision.DENY
            self.decided.emit(Decision.DENY)
        super().closeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        """Deny has the focus whenever the question shows."""
        super().showEvent(event)
        self.deny_button.setFocus(Qt.FocusReason.OtherFocusReason)
