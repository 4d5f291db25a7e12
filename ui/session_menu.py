"""The sessions list's context menus: a conversation's (Pin, Move to folder, Archive, Rename
here), a folder heading's (Rename folder, Remove folder) and the empty list's (New folder). No
I/O: each entry changes the arrangement through the panel (``SessionListPanel.organise``) or
starts an edit in place.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from core.organise import Heading, Listed, Row

if TYPE_CHECKING:
    from ui.session_list import SessionListPanel


class SessionMenus(QObject):
    """Builds the menus of one panel's rows."""

    def __init__(self, panel: SessionListPanel) -> None:
        super().__init__(panel)
        self._panel = panel

    def menu(self, row: Row | None, index: QModelIndex) -> QMenu:
        """The menu of ``row`` (at ``index`` of the list's own model; None: no row there)."""
        panel = self._panel
        menu = QMenu(panel.list)
        menu.setObjectName("session-menu")
        match row:
            case Listed(id=sid):
                self._session_entries(menu, sid)
            case Heading(folder=folder) if folder is not None:
                rename = partial(panel.list.edit, index)
                _entry(menu, "rename-folder", self.tr("Rename folder"), rename)
                _entry(
                    menu,
                    "remove-folder",
                    self.tr("Remove folder (its conversations stay)"),
                    lambda: panel.organise(panel.organisation.remove_folder(folder.id)),
                )
            case _:
                _entry(menu, "new-folder", self.tr("New folder"), lambda: self.new_folder(None))
        return menu

    def _session_entries(self, menu: QMenu, sid: str) -> None:
        panel = self._panel
        org = panel.organisation
        pinned, archived = sid in org.pinned, sid in org.archived
        _entry(
            menu,
            "pin",
            self.tr("Unpin") if pinned else self.tr("Pin to the top"),
            lambda: panel.organise(org.pin(sid, not pinned)),
        ).setEnabled(not archived)
        self._move_menu(menu, sid)
        _entry(
            menu,
            "archive",
            self.tr("Restore from the archive") if archived else self.tr("Archive"),
            lambda: panel.organise(org.archive(sid, not archived)),
        )
        _entry(menu, "rename", self.tr("Rename here"), lambda: panel.edit_title(sid))

    def _move_menu(self, menu: QMenu, sid: str) -> None:
        org = self._panel.organisation
        move = menu.addMenu(self.tr("Move to folder"))
        move.setObjectName("move-menu")
        inside = org.folder_of(sid)
        for folder in sorted(org.folders, key=lambda f: f.name.casefold()):
            into = partial(self._move, sid, folder.id)
            entry = _entry(move, f"folder-{folder.id}", folder.name, into)
            entry.setCheckable(True)
            entry.setChecked(folder.id == inside)
        if org.folders:
            move.addSeparator()
        _entry(move, "new-folder", self.tr("New folder…"), lambda: self.new_folder(sid))
        if inside is not None:
            out = partial(self._move, sid, None)
            _entry(move, "out-of-folder", self.tr("Out of the folder"), out)

    def _move(self, session_id: str, folder_id: str | None) -> None:
        panel = self._panel
        panel.organise(panel.organisation.move(session_id, folder_id))

    def new_folder(self, session_id: str | None) -> None:
        """A folder named "New folder" (moving ``session_id`` into it), its name then edited in
        place."""
        panel = self._panel
        org = panel.organisation
        folder_id = org.new_folder_id()
        org = org.add_folder(folder_id, self.tr("New folder"))
        if session_id is not None:
            org = org.move(session_id, folder_id)
        panel.organise(org)
        panel.edit_folder(folder_id)


def _entry(menu: QMenu, name: str, text: str, act: Callable[[], object]) -> QAction:
    entry = menu.addAction(text)
    entry.setObjectName(name)
    entry.triggered.connect(lambda _checked=False: act())
    return entry
