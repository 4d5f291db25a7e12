"""SessionSettingsDialog: a session's own instructions, temperature and MCP servers (agent.md §7).
No I/O.

The instructions are appended to the stable system prompt of every later turn of this session
("Answer in French", "You are reviewing Rust code"); the temperature, when set, is sent with each
request instead of the endpoint's default; the checked MCP servers (its ``session/tools``) are the
ones whose tools this conversation offers the model. A server the session chose that is no longer
configured stays chosen (unchecking is the person's to do in a later visit, when it is back).
``ask_session_settings`` returns the edited values, or None when the user cancelled or changed
nothing.

"Use a saved prompt" (``core.prompts``, issue 21) fills the instructions with a saved prompt's text
and its temperature (when it names one); a model it names is returned as ``model``, for the app to
record as this conversation's model. The text can still be edited before OK.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from core.frozen import frozen
from core.prompts import SavedPrompt

MAX_INSTRUCTIONS_CHARS = 20_000


@frozen
class SessionSettings:
    """The session's instructions ("" for none) and temperature (None: the endpoint's default);
    ``model``: the model a chosen saved prompt names ("": the conversation's stays)."""

    instructions: str = ""
    temperature: float | None = None
    model: str = ""
    servers: tuple[str, ...] = ()
    """The MCP servers this conversation offers the model (its ``session/tools``), sorted."""


class SessionSettingsDialog(QDialog):
    """Edits a ``SessionSettings`` (see the module docstring)."""

    def __init__(
        self,
        parent: QWidget | None,
        current: SessionSettings,
        prompts: Sequence[SavedPrompt] = (),
        available: tuple[str, ...] = (),
    ) -> None:
        super().__init__(parent)
        self._current = current
        self._prompts = tuple(prompts)
        self._model = current.model
        self.setWindowTitle(self.tr("Session instructions"))
        self.setMinimumWidth(480)
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Instructions for this conversation only, added after Chime's own prompt "
                "(for example: “Answer in French” or “Be brief”)."
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.saved = QComboBox(self)
        self.saved.setAccessibleName(self.tr("Use a saved prompt"))
        self.saved.addItem(self.tr("Use a saved prompt…"), "")
        for prompt in self._prompts:
            self.saved.addItem(prompt.name, prompt.name)
        self.saved.setVisible(bool(self._prompts))
        self.saved.activated.connect(self._use_saved)
        layout.addWidget(self.saved)
        self.editor = QPlainTextEdit(current.instructions, self)
        self.editor.setAccessibleName(self.tr("Instructions"))
        self.editor.setTabChangesFocus(True)  # Tab goes on to the temperature, as in a form
        self.editor.setPlaceholderText(
            self.tr("No instructions: the model uses Chime's prompt only.")
        )
        layout.addWidget(self.editor, 1)
        self.limit_note = QLabel("", self)
        layout.addWidget(self.limit_note)
        row = QHBoxLayout()
        self.use_temperature = QCheckBox(self.tr("Temperature"), self)
        self.use_temperature.setToolTip(
            self.tr("Lower is steadier, higher is more varied; unchecked: the endpoint's default")
        )
        self.temperature = QDoubleSpinBox(self)
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        self.temperature.setAccessibleName(self.tr("Temperature value"))
        self.use_temperature.setChecked(current.temperature is not None)
        self.temperature.setValue(0.7 if current.temperature is None else current.temperature)
        self.temperature.setEnabled(current.temperature is not None)
        self.use_temperature.toggled.connect(self.temperature.setEnabled)
        row.addWidget(self.use_temperature)
        row.addWidget(self.temperature)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self._build_servers(current, available))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.editor.textChanged.connect(self._check_length)
        self._check_length()

    def _build_servers(self, current: SessionSettings, available: tuple[str, ...]) -> QGroupBox:
        box = QGroupBox(self.tr("Tools (MCP) this conversation offers the model"), self)
        box.setObjectName("session-servers")
        column = QVBoxLayout(box)
        self.server_checks: dict[str, QCheckBox] = {}
        self.servers_note = QLabel(
            self.tr("No MCP servers are configured: add them in Settings → Tools (MCP)."), box
        )
        self.servers_note.setWordWrap(True)
        self.servers_note.setVisible(not available)
        column.addWidget(self.servers_note)
        for name in available:
            check = QCheckBox(name, box)  # a name the person gave: Qt shows a check's text plain
            check.setObjectName(f"session-server-{name}")
            check.setChecked(name in current.servers)
            column.addWidget(check)
            self.server_checks[name] = check
        return box

    def value(self) -> SessionSettings:
        temperature = self.temperature.value() if self.use_temperature.isChecked() else None
        gone = tuple(n for n in self._current.servers if n not in self.server_checks)
        chosen = tuple(n for n, check in self.server_checks.items() if check.isChecked())
        servers = tuple(sorted(gone + chosen))
        text = self.editor.toPlainText().strip()
        return SessionSettings(text, temperature, self._model, servers)

    def _use_saved(self, index: int) -> None:
        """Fill the instructions (and temperature) from the saved prompt chosen."""
        if not 1 <= index <= len(self._prompts):
            return
        prompt = self._prompts[index - 1]
        self.editor.setPlainText(prompt.text)
        if prompt.temperature is not None:
            self.use_temperature.setChecked(True)
            self.temperature.setValue(prompt.temperature)
        self._model = prompt.model

    def _check_length(self) -> None:
        size = len(self.editor.toPlainText())
        over = size > MAX_INSTRUCTIONS_CHARS
        self.limit_note.setText(
            self.tr("{size} characters: at most {limit}.").format(
                size=size, limit=MAX_INSTRUCTIONS_CHARS
            )
            if over
            else ""
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not over)


def ask_session_settings(
    parent: QWidget,
    current: SessionSettings,
    prompts: Sequence[SavedPrompt] = (),
    available: tuple[str, ...] = (),
) -> SessionSettings | None:
    """The edited settings, or None when cancelled or unchanged; ``prompts`` are offered to fill
    the instructions, ``available`` (the configured MCP servers) as checkboxes."""
    dialog = SessionSettingsDialog(parent, current, prompts, available)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    edited = dialog.value()
    same = SessionSettings(
        current.instructions, current.temperature, current.model, tuple(sorted(current.servers))
    )
    return None if edited == same else edited
