"""SettingsDialog: edits a copy of the settings (provider, endpoint, model, key, appearance). No I/O.

Three tabs (General: the assistant, its endpoint and the saved prompts; Window: appearance and
the reminders in the background; Tools (MCP)), each page scrolling when it is taller than the
room: the dialog stays within an 800×600 screen (at most 560 px tall at the default font).

Network work (listing models, testing the connection) is the app's: the dialog emits a request
with the current draft and shows the answer it is handed back (``set_models``, ``set_test_result``).
While a test runs it shows where the test is (``set_test_stage``, worded by ``ui.probe_wait``)
with the seconds counted, and a Cancel button.

Signals:
    models_requested(object): list the endpoint's models for this ``SettingsDraft``.
    test_requested(object): try this ``SettingsDraft``'s endpoint.
    test_cancelled(): the person cancelled the running test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication, QLocale, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.prompts import SavedPrompt
from ui.i18n import LANGUAGES, QT_TRANSLATE_NOOP, chosen_language
from ui.mcp_settings import McpDraft, McpPage
from ui.probe_wait import ProbeWait
from ui.prompt_library import SavedPromptsBox
from ui.untrusted import plain

THEMES = (
    ("system", QT_TRANSLATE_NOOP("SettingsDialog", "Follow the system")),
    ("light", QT_TRANSLATE_NOOP("SettingsDialog", "Light")),
    ("dark", QT_TRANSLATE_NOOP("SettingsDialog", "Dark")),
)


@dataclass(frozen=True, slots=True)
class PresetChoice:
    """An OpenAI-compatible endpoint preset offered in the dialog."""

    name: str
    label: str
    base_url: str
    default_model: str = ""
    needs_key: bool = False


@dataclass(frozen=True, slots=True)
class SettingsDraft:
    """The values the dialog edits. ``api_key`` is only carried, never shown in clear."""

    provider: str = "offline"
    preset: str = "ollama"
    base_url: str = ""
    model: str = ""
    api_key: str = ""
    theme: str = "system"
    text_size: int = 11
    key_note: str = ""
    context_tokens: int = 0
    """The model's context length in tokens; 0 asks the server (else the preset's default)."""
    language: str = "system"
    """``system``, ``en`` or ``de``: applies when Chime starts again."""
    keep_running: bool = True
    start_at_login: bool = False
    notifications: bool = True
    notify_answers: bool = False
    model_titles: bool = True
    tray_available: bool = True
    """Whether the desktop has a tray (without one, closing the window quits: said in the box)."""
    mcp: McpDraft = McpDraft()  # noqa: RUF009 -- a frozen value: one shared default is safe
    """The "Tools (MCP)" page's servers, pasted secrets and always-allowed tools."""
    prompts: tuple[SavedPrompt, ...] | None = None
    """The saved prompts (None: never edited, the examples are offered)."""
    default_prompt: str = ""


FIT_HEIGHT = 560
"""The tallest the dialog is (an 800×600 screen keeps room for its title bar and a panel)."""
TITLE_BAR = 40
PAGE_HEIGHT = 440
"""The most a tab's page asks for before it scrolls (the dialog then measures about 520 px)."""


def _page(parent: QWidget, *parts: QWidget) -> QScrollArea:
    """A tab's page: ``parts`` in a column that scrolls when the screen is too short for it
    (the dialog fits an 800×600 screen: a scroll area asks for at most 24 lines of height)."""
    page = QScrollArea(parent)
    page.setWidgetResizable(True)
    page.setFrameShape(QFrame.Shape.NoFrame)
    page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    inner = QWidget(page)
    column = QVBoxLayout(inner)
    column.setSpacing(12)
    for part in parts:
        column.addWidget(part)
    column.addStretch(1)
    page.setWidget(inner)
    page.setMinimumHeight(min(inner.sizeHint().height(), PAGE_HEIGHT))
    bar = page.verticalScrollBar().sizeHint().width()
    page.setMinimumWidth(inner.minimumSizeHint().width() + bar)  # never cut at the side
    return page


class SettingsDialog(QDialog):
    """Provider, endpoint, model list, API key, Test connection; theme and text size.

    Signals:
        models_requested(object): a ``SettingsDraft`` whose endpoint should list its models.
        test_requested(object): a ``SettingsDraft`` whose endpoint should be tried.
        test_cancelled(): the running test should stop (its answer will not come).
    """

    models_requested = Signal(object)
    test_requested = Signal(object)
    test_cancelled = Signal()

    def __init__(
        self, draft: SettingsDraft, presets: Sequence[PresetChoice], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("settings-dialog")
        self.setWindowTitle(self.tr("Settings — Chime"))
        self.setAccessibleName(self.tr("Settings"))
        self._presets = {p.name: p for p in presets}
        self._original = draft
        self._build(presets)
        self._load(draft)
        self._connect()

    # -- building ------------------------------------------------------------------------
    def _build(self, presets: Sequence[PresetChoice]) -> None:
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("settings-tabs")
        self.prompts_box = SavedPromptsBox(self)
        general = (self._build_provider(), self._build_endpoint(presets), self.prompts_box)
        self.tabs.addTab(_page(self.tabs, *general), self.tr("&General"))
        look = (self._build_appearance(), self._build_background())
        self.tabs.addTab(_page(self.tabs, *look), self.tr("&Window"))
        self.mcp_page = McpPage(self._original.mcp, self.tabs)
        self.tabs.addTab(_page(self.tabs, self.mcp_page), self.tr("T&ools (MCP)"))
        layout.addWidget(self.tabs)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)

    def _build_provider(self) -> QGroupBox:
        box = QGroupBox(self.tr("Assistant"), self)
        self.offline_radio = QRadioButton(self.tr("Built-in offline assistant (no network)"), box)
        self.offline_radio.setObjectName("settings-offline")
        self.remote_radio = QRadioButton(self.tr("OpenAI-compatible endpoint"), box)
        self.remote_radio.setObjectName("settings-remote")
        self._provider_group = QButtonGroup(self)
        self._provider_group.addButton(self.offline_radio)
        self._provider_group.addButton(self.remote_radio)
        column = QVBoxLayout(box)
        column.addWidget(self.offline_radio)
        column.addWidget(self.remote_radio)
        return box

    def _build_endpoint(self, presets: Sequence[PresetChoice]) -> QGroupBox:
        self.endpoint_box = QGroupBox(self.tr("Endpoint"), self)
        form = QFormLayout(self.endpoint_box)
        self.preset_combo = QComboBox(self.endpoint_box)
        self.preset_combo.setObjectName("settings-preset")
        self.preset_combo.setAccessibleName(self.tr("Preset"))
        for preset in presets:
            self.preset_combo.addItem(preset.label, preset.name)
        self.base_url_edit = QLineEdit(self.endpoint_box)
        self.base_url_edit.setObjectName("settings-base-url")
        self.base_url_edit.setAccessibleName(self.tr("Base URL"))
        self.model_combo = QComboBox(self.endpoint_box)
        self.model_combo.setObjectName("settings-model")
        self.model_combo.setAccessibleName(self.tr("Model"))
        self.model_combo.setEditable(True)
        self.refresh_button = QPushButton(self.tr("Load models"), self.endpoint_box)
        self.refresh_button.setObjectName("settings-load-models")
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_combo, 1)
        model_row.addWidget(self.refresh_button)
        self.key_edit = QLineEdit(self.endpoint_box)
        self.key_edit.setObjectName("settings-api-key")
        self.key_edit.setAccessibleName(self.tr("API key"))
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(self.tr("optional for local servers"))
        self.key_note = QLabel(self.endpoint_box)
        self.key_note.setObjectName("settings-key-note")
        self.key_note.setWordWrap(True)
        self.key_note.setMinimumHeight(self.key_note.fontMetrics().lineSpacing() * 3)
        self.context_spin = QSpinBox(self.endpoint_box)
        self.context_spin.setObjectName("settings-context")
        self.context_spin.setAccessibleName(self.tr("Context length in tokens"))
        self.context_spin.setRange(0, 10_000_000)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setSpecialValueText(self.tr("Ask the server"))
        self.context_spin.setSuffix(self.tr(" tokens"))
        self.context_spin.setToolTip(
            self.tr(
                "How many tokens the model's context holds. Ask the server: the size it reports, "
                "or the usual one of its kind when it does not say."
            )
        )
        self.test_button = QPushButton(self.tr("Test connection"), self.endpoint_box)
        self.test_button.setObjectName("settings-test")
        self.test_cancel = QPushButton(self.tr("Cancel test"), self.endpoint_box)
        self.test_cancel.setObjectName("settings-test-cancel")
        self.test_cancel.hide()
        self.test_wait = ProbeWait(self)
        self._test_cancelled = False
        self.test_result = plain(QLabel(self.endpoint_box))  # quotes the endpoint's errors
        self.test_result.setObjectName("settings-test-result")
        self.test_result.setWordWrap(True)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.test_result.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        form.addRow(self.tr("&Preset"), self.preset_combo)
        form.addRow(self.tr("&Base URL"), self.base_url_edit)
        model_label = QLabel(self.tr("&Model"), self.endpoint_box)
        model_label.setBuddy(self.model_combo)
        form.addRow(model_label, model_row)
        form.addRow(self.tr("API &key"), self.key_edit)
        form.addRow(self.key_note)
        form.addRow(self.tr("&Context"), self.context_spin)
        self.titles_check = QCheckBox(
            self.tr("Let the model title a new conversation after its first answer"),
            self.endpoint_box,
        )
        self.titles_check.setObjectName("settings-model-titles")
        form.addRow(self.titles_check)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_cancel)
        test_row.addStretch(1)
        form.addRow(test_row)
        form.addRow(self.test_result)  # the whole width: a sentence of three lines stays whole
        return self.endpoint_box

    def _build_appearance(self) -> QGroupBox:
        box = QGroupBox(self.tr("Appearance"), self)
        form = QFormLayout(box)
        self.theme_combo = QComboBox(box)
        self.theme_combo.setObjectName("settings-theme")
        self.theme_combo.setAccessibleName(self.tr("Theme"))
        for value, label in THEMES:
            self.theme_combo.addItem(QCoreApplication.translate("SettingsDialog", label), value)
        self.size_spin = QSpinBox(box)
        self.size_spin.setObjectName("settings-text-size")
        self.size_spin.setAccessibleName(self.tr("Text size in points"))
        self.size_spin.setRange(8, 24)
        self.size_spin.setSuffix(" pt")
        form.addRow(self.tr("&Theme"), self.theme_combo)
        form.addRow(self.tr("Text &size"), self.size_spin)
        self.language_combo = QComboBox(box)
        self.language_combo.setObjectName("settings-language")
        self.language_combo.setAccessibleName(self.tr("Language"))
        system = dict(LANGUAGES)[chosen_language("system", QLocale.system())]
        self.language_combo.addItem(self.tr("System (%1)").replace("%1", system), "system")
        for value, name in LANGUAGES:
            self.language_combo.addItem(name, value)
        self.language_note = QLabel(
            self.tr("Applies when Chime starts again (it offers to restart)"), box
        )
        self.language_note.setObjectName("settings-language-note")
        self.language_note.setWordWrap(True)
        form.addRow(self.tr("&Language"), self.language_combo)
        form.addRow("", self.language_note)
        return box

    def _build_background(self) -> QGroupBox:
        box = QGroupBox(self.tr("Reminders in the background"), self)
        column = QVBoxLayout(box)
        self.keep_running_check = QCheckBox(
            self.tr("Keep Chime running in the tray when its window is closed"), box
        )
        self.keep_running_check.setObjectName("settings-keep-running")
        self.login_check = QCheckBox(self.tr("Start Chime in the tray when I log in"), box)
        self.login_check.setObjectName("settings-start-at-login")
        self.notify_check = QCheckBox(
            self.tr("Show a notification when a reminder arrives and the window is not active"),
            box,
        )
        self.notify_check.setObjectName("settings-notifications")
        self.answers_check = QCheckBox(
            self.tr("Also when a long answer finishes in the background"), box
        )
        self.answers_check.setObjectName("settings-notify-answers")
        self.no_tray_note = QLabel(
            self.tr("This desktop shows no tray icons: closing the window quits Chime."), box
        )
        self.no_tray_note.setObjectName("settings-no-tray")
        self.no_tray_note.setWordWrap(True)
        for widget in (
            self.keep_running_check,
            self.login_check,
            self.notify_check,
            self.answers_check,
            self.no_tray_note,
        ):
            column.addWidget(widget)
        return box

    def _connect(self) -> None:
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.remote_radio.toggled.connect(self._update_enabled)
        self.notify_check.toggled.connect(self._update_enabled)
        self.preset_combo.activated.connect(self._on_preset_activated)
        self.refresh_button.clicked.connect(self._on_refresh_clicked)
        self.test_button.clicked.connect(self._on_test_clicked)
        self.test_cancel.clicked.connect(self._on_cancel_clicked)
        self.test_wait.text_changed.connect(self._show_result)

    # -- values --------------------------------------------------------------------------
    def _load(self, draft: SettingsDraft) -> None:
        (
            self.remote_radio if draft.provider == "openai-compatible" else self.offline_radio
        ).setChecked(True)
        self.preset_combo.setCurrentIndex(max(0, self.preset_combo.findData(draft.preset)))
        self.base_url_edit.setText(draft.base_url)
        self.model_combo.setEditText(draft.model)
        self.key_edit.setText(draft.api_key)
        self.key_note.setText(draft.key_note)
        self.key_note.setVisible(bool(draft.key_note))
        self.context_spin.setValue(draft.context_tokens)
        self.theme_combo.setCurrentIndex(max(0, self.theme_combo.findData(draft.theme)))
        self.size_spin.setValue(draft.text_size)
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(draft.language)))
        self.keep_running_check.setChecked(draft.keep_running)
        self.login_check.setChecked(draft.start_at_login)
        self.notify_check.setChecked(draft.notifications)
        self.answers_check.setChecked(draft.notify_answers)
        self.titles_check.setChecked(draft.model_titles)
        self.keep_running_check.setEnabled(draft.tray_available)
        self.no_tray_note.setVisible(not draft.tray_available)
        self.prompts_box.load(draft.prompts, draft.default_prompt)
        self._update_enabled()

    def draft(self) -> SettingsDraft:
        """The edited copy (the original is untouched until the app saves this)."""
        return replace(
            self._original,
            provider="openai-compatible" if self.remote_radio.isChecked() else "offline",
            preset=str(self.preset_combo.currentData() or "custom"),
            base_url=self.base_url_edit.text().strip(),
            model=self.model_combo.currentText().strip(),
            api_key=self.key_edit.text().strip(),
            theme=str(self.theme_combo.currentData() or "system"),
            text_size=self.size_spin.value(),
            context_tokens=self.context_spin.value(),
            language=str(self.language_combo.currentData() or "system"),
            keep_running=self.keep_running_check.isChecked(),
            start_at_login=self.login_check.isChecked(),
            notifications=self.notify_check.isChecked(),
            notify_answers=self.answers_check.isChecked(),
            model_titles=self.titles_check.isChecked(),
            prompts=self.prompts_box.prompts,
            default_prompt=self.prompts_box.default,
            mcp=self.mcp_page.draft(),
        )

    def set_models(self, names: Sequence[str], error: str = "") -> None:
        """Show the endpoint's model list, or why it could not be read. The typed name stays when
        the list has it (or no list came); otherwise the field follows the list's first model: a
        name kept from another server would only fail the next request."""
        typed = self.model_combo.currentText()
        self.model_combo.clear()
        self.model_combo.addItems(list(names))
        keep = typed if typed in names or not names else names[0]
        self.model_combo.setEditText(keep)
        self.refresh_button.setEnabled(True)
        self._show_result(error or self.tr("%n model(s) found.", "", len(names)))

    @property
    def testing(self) -> bool:
        """A test was asked for and has neither answered nor been cancelled."""
        return self.test_wait.waiting

    def set_test_stage(self, stage: str) -> None:
        """Where the running test is (``chat``, ``reading``, ``answering``): shown with the
        seconds since it began."""
        self.test_wait.stage(stage)

    def set_test_result(self, ok: bool, message: str) -> None:
        """Show the outcome of "Test connection" in words (not once the test was cancelled)."""
        if self._test_cancelled:
            return
        self._end_test()
        prefix = "✓ " if ok else "✗ "
        self._show_result(prefix + message)

    def _end_test(self) -> None:
        self.test_wait.end()
        self.test_cancel.hide()
        self.test_button.setEnabled(True)

    def _show_result(self, text: str) -> None:
        """Show ``text`` under Test connection, the label as tall as its wrapped lines (a
        word-wrapped label does not grow the dialog by itself: its last lines were cut)."""
        self.test_result.setText(text)
        width = self.test_result.width() or self.endpoint_box.width()
        self.test_result.setMinimumHeight(self.test_result.heightForWidth(max(1, width)))

    def showEvent(self, event: QShowEvent) -> None:
        """Once laid out, the key note asks for its whole wrapped height (a German note of three
        lines overlapped the row below) and the dialog grows to it, up to ``FIT_HEIGHT``."""
        super().showEvent(event)
        if self.key_note.isVisibleTo(self):
            width = max(1, self.key_note.width())
            self.key_note.setMinimumHeight(self.key_note.heightForWidth(width))
            self.resize(self.width(), max(self.height(), self.sizeHint().height()))
        self._fit()

    def _fit(self) -> None:
        """No taller than ``FIT_HEIGHT`` nor the screen (a larger text size, a long key note):
        the pages give up the difference, and scroll."""
        screen = self.screen()
        limit = FIT_HEIGHT
        if screen is not None:
            limit = min(limit, screen.availableGeometry().height() - TITLE_BAR)
        over = max(self.height(), self.sizeHint().height()) - limit
        if over <= 0:
            return
        for page in self.tabs.findChildren(QScrollArea):
            page.setMinimumHeight(max(0, page.minimumHeight() - over))
        self.resize(self.width(), limit)

    def _update_enabled(self) -> None:
        self.endpoint_box.setEnabled(self.remote_radio.isChecked())
        self.answers_check.setEnabled(self.notify_check.isChecked())

    def _on_preset_activated(self, _row: int) -> None:
        preset = self._presets.get(str(self.preset_combo.currentData()))
        if preset is None:
            return
        if preset.base_url:
            self.base_url_edit.setText(preset.base_url)
        if preset.default_model:
            self.model_combo.setEditText(preset.default_model)
        self.key_edit.setPlaceholderText(
            self.tr("required") if preset.needs_key else self.tr("optional for local servers")
        )

    def _on_refresh_clicked(self) -> None:
        self.refresh_button.setEnabled(False)
        self.test_result.setText(self.tr("Loading models…"))
        self.models_requested.emit(self.draft())

    def _on_test_clicked(self) -> None:
        self.test_button.setEnabled(False)
        self.test_cancel.show()
        self._test_cancelled = False
        self.test_wait.begin()
        self.test_requested.emit(self.draft())

    def _on_cancel_clicked(self) -> None:
        self._test_cancelled = True
        self._end_test()
        self._show_result(self.tr("Test cancelled."))
        self.test_cancelled.emit()
