"""PromptLibraryDialog: the saved prompts, added, edited and removed, and the one new
conversations start with (Settings ▸ Saved prompts…). No I/O: it edits a copy and returns it.

The list is on the left; the chosen prompt's name, text, temperature and model on the right
(a model left empty keeps the conversation's; a temperature left unchecked keeps its own). A
prompt without a name, or two with the same name, say so and OK waits until they are fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.prompts import MAX_NAME, MAX_PROMPTS, MAX_TEXT, SavedPrompt
from ui.prompt_examples import library


@dataclass(slots=True)
class _Row:
    """A prompt being edited (its name may be empty for a while)."""

    name: str
    text: str
    temperature: float | None
    model: str

    def prompt(self) -> SavedPrompt:
        return SavedPrompt(self.name, self.text, self.temperature, self.model)


class PromptLibraryDialog(QDialog):
    """Edits a copy of the saved prompts (see the module docstring)."""

    def __init__(
        self, parent: QWidget | None, prompts: Sequence[SavedPrompt], default: str
    ) -> None:
        super().__init__(parent)
        self.setObjectName("prompt-library")
        self.setWindowTitle(self.tr("Saved prompts"))
        self._rows = [_Row(p.name, p.text, p.temperature, p.model) for p in prompts]
        self._loading = False
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Instructions you reuse. Choose one in a conversation's Instructions, or type "
                "“/” in an empty message box to insert one."
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        body = QHBoxLayout()
        body.addLayout(self._build_list(), 2)
        body.addLayout(self._build_editor(), 3)
        layout.addLayout(body, 1)
        row = QFormLayout()
        self.default = QComboBox(self)
        self.default.setAccessibleName(self.tr("Default for new conversations"))
        row.addRow(self.tr("New conversations start with:"), self.default)
        layout.addLayout(row)
        self.problem = QLabel("", self)
        self.problem.setObjectName("prompt-library-problem")
        layout.addWidget(self.problem)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.resize(640, 420)
        self._refill(0, default)

    def _build_list(self) -> QVBoxLayout:
        column = QVBoxLayout()
        self.names = QListWidget(self)
        self.names.setAccessibleName(self.tr("Saved prompts"))
        self.names.currentRowChanged.connect(self._show_row)
        column.addWidget(self.names, 1)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(self.tr("&Add"), self)
        self.add_button.clicked.connect(self.add)
        self.remove_button = QPushButton(self.tr("&Remove"), self)
        self.remove_button.clicked.connect(self.remove)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        column.addLayout(buttons)
        return column

    def _build_editor(self) -> QFormLayout:
        form = QFormLayout()
        self.name = QLineEdit(self)
        self.name.setMaxLength(MAX_NAME)
        form.addRow(self.tr("&Name:"), self.name)
        self.text = QPlainTextEdit(self)
        self.text.setTabChangesFocus(True)
        self.text.setAccessibleName(self.tr("Prompt text"))
        form.addRow(self.tr("&Text:"), self.text)
        self.use_temperature = QCheckBox(self.tr("Temperature"), self)
        self.temperature = QDoubleSpinBox(self)
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setAccessibleName(self.tr("Temperature value"))
        self.use_temperature.toggled.connect(self.temperature.setEnabled)
        form.addRow(self.use_temperature, self.temperature)
        self.model = QLineEdit(self)
        self.model.setPlaceholderText(self.tr("the conversation's own"))
        form.addRow(self.tr("&Model:"), self.model)
        for signal in (
            self.name.textEdited,
            self.text.textChanged,
            self.use_temperature.toggled,
            self.temperature.valueChanged,
            self.model.textEdited,
        ):
            signal.connect(self._edited)
        return form

    # -- the list --------------------------------------------------------------------------
    def value(self) -> tuple[tuple[SavedPrompt, ...], str]:
        """The edited prompts and the default's name ("": none)."""
        default = self.default.currentData()
        return tuple(r.prompt() for r in self._rows), default if isinstance(default, str) else ""

    def add(self) -> None:
        taken = {p.name for p in self._rows}
        name = self.tr("New prompt")
        n = 2
        while name in taken:
            name, n = self.tr("New prompt {n}").format(n=n), n + 1
        self._rows.append(_Row(name, "", None, ""))
        self._refill(len(self._rows) - 1, self._default_name())
        self.name.setFocus()
        self.name.selectAll()

    def remove(self) -> None:
        row = self.names.currentRow()
        if 0 <= row < len(self._rows):
            del self._rows[row]
            self._refill(min(row, len(self._rows) - 1), self._default_name())

    def _default_name(self) -> str:
        data = self.default.currentData()
        return data if isinstance(data, str) else ""

    def _refill(self, row: int, default: str) -> None:
        self._loading = True
        self.names.clear()
        self.names.addItems([p.name for p in self._rows])
        self.default.clear()
        self.default.addItem(self.tr("no saved prompt"), "")
        for prompt in self._rows:
            self.default.addItem(prompt.name, prompt.name)
        self.default.setCurrentIndex(max(0, self.default.findData(default)))
        self._loading = False
        self.names.setCurrentRow(row)
        self._show_row(row)
        self.add_button.setEnabled(len(self._rows) < MAX_PROMPTS)
        self._check()

    def _show_row(self, row: int) -> None:
        has = 0 <= row < len(self._rows)
        for widget in (self.name, self.text, self.use_temperature, self.model, self.remove_button):
            widget.setEnabled(has)
        if not has:
            return
        prompt = self._rows[row]
        self._loading = True
        self.name.setText(prompt.name)
        self.text.setPlainText(prompt.text)
        self.use_temperature.setChecked(prompt.temperature is not None)
        self.temperature.setValue(0.7 if prompt.temperature is None else prompt.temperature)
        self.temperature.setEnabled(prompt.temperature is not None)
        self.model.setText(prompt.model)
        self._loading = False

    def _edited(self, *_args: object) -> None:
        row = self.names.currentRow()
        if self._loading or not 0 <= row < len(self._rows):
            return
        old = self._rows[row]
        name = self.name.text().strip()
        temperature = self.temperature.value() if self.use_temperature.isChecked() else None
        text = self.text.toPlainText()[:MAX_TEXT]
        self._rows[row] = _Row(name, text, temperature, self.model.text().strip())
        if name != old.name:
            self.names.item(row).setText(name)
            index = self.default.findData(old.name)
            if index > 0:
                self.default.setItemText(index, name)
                self.default.setItemData(index, name)
        self._check()

    def _check(self) -> None:
        names = [p.name.strip().casefold() for p in self._rows]
        if "" in names:
            problem = self.tr("Each saved prompt needs a name.")
        elif len(set(names)) != len(names):
            problem = self.tr("Two saved prompts have the same name.")
        else:
            problem = ""
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)


def edit_prompts(
    parent: QWidget, prompts: Sequence[SavedPrompt], default: str
) -> tuple[tuple[SavedPrompt, ...], str] | None:
    """The edited library and default, or None when cancelled."""
    dialog = PromptLibraryDialog(parent, prompts, default)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.value()


class SavedPromptsBox(QGroupBox):
    """Settings' row for the library: how many prompts, the default, and Manage…; it keeps the
    edited copy until the settings are saved (``prompts`` stays None while it was not edited)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(self.tr("Saved prompts"), parent)
        self.setObjectName("settings-prompts")
        row = QHBoxLayout(self)
        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        row.addWidget(self.summary, 1)
        self.manage = QPushButton(self.tr("&Manage…"), self)
        self.manage.clicked.connect(self.edit)
        row.addWidget(self.manage)
        self.prompts: tuple[SavedPrompt, ...] | None = None
        self.default = ""

    def load(self, prompts: tuple[SavedPrompt, ...] | None, default: str) -> None:
        self.prompts, self.default = prompts, default
        self._say()

    def edit(self) -> None:
        edited = edit_prompts(self, library(self.prompts), self.default)
        if edited is not None:
            self.load(*edited)

    def _say(self) -> None:
        count = len(library(self.prompts))
        text = self.tr("%n saved prompt(s).", "", count)
        if self.default:
            text += " " + self.tr("New conversations start with “{name}”.").format(
                name=self.default
            )
        self.summary.setText(text)
