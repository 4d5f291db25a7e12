"""WindowActions: every user action of the main window, with its shortcut. No I/O, no logic.

The main window puts them into menus and the app connects their ``triggered`` signals. Help lists
them with their shortcuts, generated from this one table.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

# (attribute, menu, label, shortcut, checkable)
ACTION_TABLE: tuple[tuple[str, str, str, str, bool], ...] = (
    ("new_session", "Session", "&New session", "Ctrl+N", False),
    ("rename_session", "Session", "&Rename…", "F2", False),
    ("fork_session", "Session", "&Fork from last good turn", "Ctrl+Alt+F", False),
    ("export_markdown", "Session", "Export as &Markdown…", "Ctrl+E", False),
    ("export_jsonl", "Session", "Export as &JSONL…", "Ctrl+Shift+E", False),
    ("close_session", "Session", "&Close session", "Ctrl+W", False),
    ("delete_session", "Session", "&Delete session", "Ctrl+Shift+Backspace", False),
    ("undo_delete", "Session", "&Undo delete", "Ctrl+Shift+T", False),
    ("next_session", "Session", "Ne&xt session", "Ctrl+PgDown", False),
    ("previous_session", "Session", "Pre&vious session", "Ctrl+PgUp", False),
    ("quit", "Session", "&Quit", "Ctrl+Q", False),
    ("copy", "Edit", "&Copy message", "Ctrl+Shift+C", False),
    ("stop", "Edit", "&Stop answer", "Esc", False),
    ("retry", "Edit", "&Retry failed turn", "Ctrl+Shift+R", False),
    # -- the conversation verbs (agent.md §7) and find in conversation
    ("regenerate", "Edit", "Re&generate last answer", "Ctrl+Alt+R", False),
    ("undo_hide", "Edit", "&Undo hide", "", False),
    ("find", "Edit", "&Find in conversation…", "Ctrl+F", False),
    ("find_next", "Edit", "Find ne&xt", "F3", False),
    ("find_previous", "Edit", "Find pre&vious", "Shift+F3", False),
    ("settings", "Edit", "Se&ttings…", "Ctrl+,", False),
    ("focus_composer", "View", "Go to &message box", "Ctrl+L", False),
    ("focus_transcript", "View", "Go to &transcript", "Ctrl+J", False),
    ("focus_sessions", "View", "Go to &sessions", "Ctrl+K", False),
    ("search_sessions", "View", "Searc&h all sessions", "Ctrl+Shift+F", False),
    ("toggle_sessions", "View", "S&essions sidebar", "Ctrl+Shift+S", True),
    ("toggle_reminders", "View", "&Reminders panel", "Ctrl+R", True),
    ("show_context", "View", "Show time &context", "Ctrl+Shift+K", True),
    ("wrap_code", "View", "&Wrap long code lines", "Alt+Z", True),
    ("shortcuts", "Help", "&Keyboard shortcuts", "F1", False),
    ("about", "Help", "&About Chime", "", False),
)
MENUS = ("Session", "Edit", "View", "Help")


class WindowActions(QObject):
    """Holds one QAction per row of ``ACTION_TABLE`` as an attribute of the same name."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._by_menu: dict[str, list[QAction]] = {menu: [] for menu in MENUS}
        for name, menu, label, shortcut, checkable in ACTION_TABLE:
            action = QAction(self.tr(label), self)
            action.setObjectName(f"action-{name}")
            if shortcut:
                action.setShortcut(QKeySequence(shortcut))
            action.setCheckable(checkable)
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            setattr(self, name, action)
            self._by_menu[menu].append(action)

    def action(self, name: str) -> QAction:
        found = getattr(self, name)
        assert isinstance(found, QAction)
        return found

    def in_menu(self, menu: str) -> list[QAction]:
        return list(self._by_menu[menu])

    def shortcut_lines(self) -> list[tuple[str, str]]:
        """(label, shortcut) for every action that has a shortcut, in menu order."""
        lines = [
            (self.tr("Send message"), "Enter"),
            (self.tr("New line in a message"), "Shift+Enter"),
            (self.tr("Edit your last message"), self.tr("Up (in an empty message box)")),
            (self.tr("Cancel an edit"), self.tr("Esc (while editing)")),
            (self.tr("Next / previous match"), self.tr("Enter / Shift+Enter (in the find bar)")),
        ]
        for menu in MENUS:
            for action in self._by_menu[menu]:
                keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                if keys:
                    lines.append((action.text().replace("&", "").rstrip("…"), keys))
        in_transcript = self.tr("(in the transcript)")
        lines.append((self.tr("Expand a tool call / retry an error row"), f"Enter {in_transcript}"))
        lines.append((self.tr("Copy the selected text"), f"Ctrl+C {in_transcript}"))
        lines.append((self.tr("Select all loaded text"), f"Ctrl+A {in_transcript}"))
        lines.append(
            (self.tr("Actions of the current message"), f"Menu, Shift+F10 {in_transcript}")
        )
        return lines
