"""ModelPicker: the session's model, chosen from the main window (agent.md §7). No I/O.

A tool button showing what answers this session ("Offline assistant", "llama3.2 · Ollama"); its
menu offers the app's setting, the offline assistant, the endpoint's models (listed by the app
when the menu first opens: ``models_wanted``), and the recent choices. Choosing one emits
``chosen`` with a ``ModelOption`` (``None``: back to the app's setting); the app records it in
the session's log as ``session/model``. Without an endpoint in the settings, the menu's last
entry leads to Settings, where one is set up.

Signals:
    chosen(object): a ``ModelOption``, or None for the app's setting.
    models_wanted(): the menu is about to show and the endpoint's models are not known yet.
    settings_wanted(): the user asked to set up a model endpoint (open Settings).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from core.frozen import frozen
from ui.untrusted import literal

OFFLINE = "offline"
ENDPOINT = "openai-compatible"


@frozen
class ModelOption:
    """One model a session can use: ``provider`` ``offline`` or ``openai-compatible``, and the
    model's name (None for the offline assistant)."""

    provider: str
    model: str | None = None


@frozen
class ModelMenu:
    """What the picker shows. ``current`` is the session's choice (None: the app's setting, which
    ``setting_label`` names); ``models`` the endpoint's list (None while unknown), ``error`` why it
    could not be listed; ``endpoint`` names the endpoint ("" when none is set up)."""

    current: ModelOption | None
    setting_label: str
    endpoint: str = ""
    models: tuple[str, ...] | None = None
    error: str = ""
    recent: tuple[ModelOption, ...] = ()


class ModelPicker(QToolButton):
    """The model button of the main window (see the module docstring)."""

    chosen = Signal(object)
    models_wanted = Signal()
    settings_wanted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelPicker")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAccessibleName(self.tr("Model for this session"))
        self.setToolTip(self.tr("Choose the model that answers in this session"))
        self._menu = QMenu(self)
        self._menu.aboutToShow.connect(self._about_to_show)
        self.setMenu(self._menu)
        self._state = ModelMenu(None, "")
        self._group = QActionGroup(self)
        self._arrow = (
            self._probe(QToolButton.ToolButtonPopupMode.InstantPopup),
            self._probe(QToolButton.ToolButtonPopupMode.MenuButtonPopup),
        )
        self._rebuild()

    def _probe(self, mode: QToolButton.ToolButtonPopupMode) -> QToolButton:
        """A hidden button styled as this one, whose size measures the menu's arrow."""
        probe = QToolButton(self)
        probe.setPopupMode(mode)
        probe.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        probe.setText("M")
        probe.hide()
        return probe

    def sizeHint(self) -> QSize:
        """Room for the whole label beside the menu's arrow (the style takes the arrow's width
        from the label's, which would otherwise be elided). The arrow's width is what the style
        adds to a button whose arrow has a place of its own: asking the style itself
        (``self.style()``) would make PySide6 build ``QStyle``'s enum classes before the first
        paint (~49 M instructions)."""
        hint = super().sizeHint()
        plain, with_arrow = self._arrow
        arrow = with_arrow.sizeHint().width() - plain.sizeHint().width()
        return QSize(hint.width() + arrow + 4, hint.height())

    @property
    def state(self) -> ModelMenu:
        return self._state

    def set_menu(self, state: ModelMenu) -> None:
        self._state = state
        self.setText(self.label_of(state.current) if state.current else state.setting_label)
        self.setToolTip(
            literal(  # a model's name is the endpoint's words
                self.tr("Answers this session: {label}. Choose another model (Ctrl+M).").format(
                    label=self.text()
                )
            )
        )
        self._rebuild()

    def label_of(self, option: ModelOption) -> str:
        if option.provider == OFFLINE:
            return self.tr("Offline assistant")
        name = option.model or self.tr("default model")
        return f"{name} · {self._state.endpoint}" if self._state.endpoint else name

    def actions_shown(self) -> list[QAction]:
        """The menu's entries (separators and section labels included), for tests and a11y."""
        return list(self._menu.actions())

    def _about_to_show(self) -> None:
        if self._state.models is None and self._state.endpoint and not self._state.error:
            self.models_wanted.emit()

    def _rebuild(self) -> None:
        menu, state = self._menu, self._state
        above = menu.isVisible() and menu.geometry().bottom() <= self.mapToGlobal(QPoint(0, 0)).y()
        self._fill(menu, state)
        if above:  # opened above the button: grow upwards, never over the button
            menu.adjustSize()
            menu.move(menu.x(), self.mapToGlobal(QPoint(0, 0)).y() - menu.height())

    def _fill(self, menu: QMenu, state: ModelMenu) -> None:
        menu.clear()
        self._group = QActionGroup(self)
        self._add(self.tr("App setting: {label}").format(label=state.setting_label), None)
        menu.addSection(self.tr("Offline"))
        self._add(self.tr("Offline assistant"), ModelOption(OFFLINE))
        if state.endpoint:
            menu.addSection(state.endpoint)
            self._add_models(state)
        shown = {ModelOption(ENDPOINT, name) for name in state.models or ()}
        recent = [
            option
            for option in state.recent
            if option not in shown and option != ModelOption(OFFLINE)
        ]
        if recent:
            menu.addSection(self.tr("Recent"))
            for option in recent:
                self._add(self.label_of(option), option)
        if not state.endpoint:
            menu.addSeparator()
            setup = menu.addAction(self.tr("Connect a model endpoint in Settings…"))
            setup.triggered.connect(self.settings_wanted)

    def _add_models(self, state: ModelMenu) -> None:
        if state.error:
            self._note(state.error)
        elif state.models is None:
            self._note(self.tr("Loading models…"))
        elif not state.models:
            self._note(self.tr("The endpoint lists no models."))
        for name in state.models or ():
            self._add(name, ModelOption(ENDPOINT, name))

    def _add(self, text: str, option: ModelOption | None) -> None:
        action = self._menu.addAction(text)
        action.setCheckable(True)
        action.setChecked(option == self._state.current)
        action.setData(option)
        self._group.addAction(action)
        action.triggered.connect(lambda _checked=False, o=option: self.chosen.emit(o))

    def _note(self, text: str) -> None:
        action = self._menu.addAction(text)
        action.setEnabled(False)


def recent_choices(
    recent: Sequence[ModelOption], chosen: ModelOption, *, keep: int = 6
) -> tuple[ModelOption, ...]:
    """The recent list after ``chosen``: it first, no duplicates, at most ``keep``."""
    return (chosen, *[option for option in recent if option != chosen])[:keep]
