"""RowMenu: a transcript row's verbs, from its context menu, its painted buttons and the keyboard.

The context menu (right click, the Menu key, Shift+F10) copies the selection or the message, a
code box's code or a link, opens each file attached to a message ("Open “photo.png”", as a
click on it does: ``link_activated`` with its ``ui.row_files`` link), and holds the row's actions (``ui.row_actions``) and its buttons'
verbs (Retry, Edit, Discard on an error row; Show on a hidden one; the version switcher's ‹ ›).
Enter on an error row retries it, on a hidden row shows it, on the safety net's line sets the
reminder (after asking), on a tool call or a time reading expands it, on an answer that thought
opens or closes its thinking. What the view does not do itself leaves as a signal. No I/O.

Signals:
    row_action(str, int): a row action for the app (name, the seq of the input whose exchange
        the row belongs to).
    settings_requested(): an error row asked for Settings.
    link_activated(str): the user chose to open a link (its target).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QContextMenuEvent, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QListView, QMenu

from core.transcript.verbs import Verb, offered, on_enter
from core.visible_text import visible_name
from ui.attachment_links import attachment_sha, attachment_url
from ui.hover_buttons import COPY_CODE
from ui.row_actions import ROW_ACTIONS, label
from ui.row_copy import RowCopy
from ui.row_hits import RowHits
from ui.row_layout import MARGIN
from ui.row_parts import THINKING
from ui.text_selection import TextSelection
from ui.transcript_model import TranscriptModel
from ui.transcript_rows import TranscriptRow
from ui.turn_delegate import TurnDelegate


class RowMenu(QObject):
    """The row verbs of one transcript view (see the module docstring). Its words keep the
    translation context ``TranscriptView``: they were the view's before it was split."""

    row_action = Signal(str, int)
    settings_requested = Signal()
    link_activated = Signal(str)

    def __init__(
        self,
        view: QListView,
        model: TranscriptModel,
        delegate: TurnDelegate,
        hits: RowHits,
        copying: RowCopy,
        selection: TextSelection,
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._delegate = delegate
        self._hits = hits
        self._copying = copying
        self._selection = selection
        self.copy_action = QAction(QCoreApplication.translate("TranscriptView", "&Copy"), view)
        self.select_all_action = QAction(
            QCoreApplication.translate("TranscriptView", "Select &all"), view
        )

    def run(self, row: int, name: str) -> None:
        """Do the verb ``name`` of the row at ``row`` (a button, a menu entry, a key)."""
        value = self._model.row_at(row)
        if value is None:
            return
        if name == Verb.COPY:
            self._copying.copy_row(row)
        elif name.startswith(COPY_CODE):
            self._copying.copy_code(row, int(name.removeprefix(COPY_CODE)))
        elif name == Verb.SETTINGS:
            self.settings_requested.emit()
        elif name == THINKING:
            self._model.toggle_expanded(row)
        else:
            self.row_action.emit(name, value.input if value.input >= 0 else value.seq)

    def key(self, event: QKeyEvent) -> bool:
        """Enter or Space on the current row, the Menu key or Shift+F10 (True: the key did
        something)."""
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
        if event.key() in keys and self.activate(self._view.currentIndex()):
            return True
        if event.key() == Qt.Key.Key_Menu or (
            event.key() == Qt.Key.Key_F10 and event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.popup_for_current()
            return True
        return False

    def context_menu(self, event: QContextMenuEvent) -> None:
        """The view's context menu event: the row under the mouse's menu, or the current row's
        (from the keyboard, or below the last row)."""
        hit = self._hits.hit(event.pos())
        if event.reason() == QContextMenuEvent.Reason.Keyboard or hit.row < 0:
            self.popup_for_current()
            return
        self.build(hit.row, self._hits.link_at(hit)).popup(event.globalPos())

    def activate(self, index: QModelIndex) -> bool:
        """Enter (or Space) on a row: True when the row did something with it."""
        row = self._model.row_at(index.row()) if index.isValid() else None
        if row is None:
            return False
        verb = on_enter(row.verbs, writable=self._delegate.layouts.writable)
        if verb is not None:
            self.run(index.row(), verb)
            return True
        if row.kind in ("tool", "mcp", "context") or row.reasoning:
            self._model.toggle_expanded(index.row())
            return True
        return False

    def popup_for_current(self) -> None:
        """The Menu key or Shift+F10: the current row's menu, at the row."""
        row = self._hits.current_row()
        if row < 0:
            return
        rect = self._view.visualRect(self._model.index(row))
        corner = rect.topLeft() + QPoint(MARGIN + self._delegate.column_left(), 12)
        self.build(row, "").popup(self._view.viewport().mapToGlobal(corner))

    def build(self, row: int, link: str) -> QMenu:
        """The context menu of a row: copy the selection or the message, its code, a link, the
        row's actions, Retry on an error."""
        menu = QMenu(self._view)
        menu.setObjectName("transcript-menu")
        if self._selection.has_selection():
            menu.addAction(self.copy_action)
            menu.addAction(
                QCoreApplication.translate("TranscriptView", "Copy as &Markdown"),
                self._copying.copy_selection_markdown,
            )
        else:
            menu.addAction(
                QCoreApplication.translate("TranscriptView", "&Copy message"),
                partial(self._copying.copy_row, row),
            )
        layout = self._delegate.layout_at(row)
        for number, box in enumerate(layout.boxes if layout is not None else []):
            text = QCoreApplication.translate("TranscriptView", "Copy code ({language})").format(
                language=box.label
            )
            menu.addAction(text, partial(self._copying.copy_code, row, number))
        self._add_files(menu, row)
        if link and not attachment_sha(link):
            menu.addSeparator()
            menu.addAction(
                QCoreApplication.translate("TranscriptView", "&Open link…"),
                partial(self.link_activated.emit, link),
            )
            clipboard = QGuiApplication.clipboard()
            menu.addAction(
                QCoreApplication.translate("TranscriptView", "Copy &link address"),
                partial(clipboard.setText, link),
            )
        self._add_thinking(menu, row)
        self._add_row_actions(menu, row)
        menu.addSeparator()
        menu.addAction(self.select_all_action)
        return menu

    def _add_files(self, menu: QMenu, row: int) -> None:
        """ "Open “photo.png”" for each file of a message (its click, for the keyboard)."""
        value = self._model.row_at(row)
        if value is None or not value.files:
            return
        menu.addSeparator()
        for file in value.files:
            text = QCoreApplication.translate("TranscriptView", "&Open “{name}”").format(
                name=visible_name(file.name).replace("&", "&&")  # a name's & is no shortcut
            )
            menu.addAction(text, partial(self.link_activated.emit, attachment_url(file)))

    def _add_thinking(self, menu: QMenu, row: int) -> None:
        """An answer's "Show thinking" / "Hide thinking" (its header's click, for the keyboard)."""
        value = self._model.row_at(row)
        if value is None or not value.reasoning:
            return
        menu.addSeparator()
        text = (
            QCoreApplication.translate("TranscriptView", "Hide &thinking")
            if self._model.is_expanded(row)
            else QCoreApplication.translate("TranscriptView", "Show &thinking")
        )
        menu.addAction(text, partial(self._model.toggle_expanded, row))

    def _add_row_actions(self, menu: QMenu, row: int) -> None:
        value = self._model.row_at(row)
        if value is None:
            return
        names = self._menu_words(value)
        for verb in offered(value.verbs, writable=self._delegate.layouts.writable):
            if verb in names:
                menu.addAction(names[verb], partial(self.run, row, verb))

    def _menu_words(self, value: TranscriptRow) -> dict[Verb, str]:
        """The context menu's words for the verbs a row offers (Copy and Settings are not
        there: Copy has the menu's own entries, Settings is the error card's button)."""
        words: dict[Verb, str] = {
            action.name: label(action) for action in ROW_ACTIONS if action.name != Verb.COPY
        }
        words |= {
            Verb.PREVIOUS_VERSION: QCoreApplication.translate(
                "TranscriptView", "&Previous version"
            ),
            Verb.NEXT_VERSION: QCoreApplication.translate("TranscriptView", "&Next version"),
            Verb.RETRY: QCoreApplication.translate("TranscriptView", "&Retry"),
            Verb.DISCARD: QCoreApplication.translate("TranscriptView", "&Discard"),
            Verb.SHOW: QCoreApplication.translate("TranscriptView", "&Show the hidden message"),
            Verb.SET_REMINDER: QCoreApplication.translate("TranscriptView", "Set the &reminder…"),
        }
        if value.kind == "error":
            words[Verb.EDIT] = QCoreApplication.translate("TranscriptView", "&Edit the message…")
        return words
