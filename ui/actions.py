"""WindowActions: every user action of the main window, with its shortcut. No I/O, no logic.

The main window puts them into menus and the app connects their ``triggered`` signals. Help lists
them with their shortcuts, generated from this one table.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from ui.i18n import QT_TR_NOOP

# (attribute, menu, label, shortcut, checkable). QT_TR_NOOP marks a label for pyside6-lupdate
# (scripts/translations.py); at module level its context is "": ``translated`` translates it.
ACTION_TABLE: tuple[tuple[str, str, str, str, bool], ...] = (
    ("new_session", "Session", QT_TR_NOOP("&New session"), "Ctrl+N", False),
    ("rename_session", "Session", QT_TR_NOOP("&Rename…"), "F2", False),
    ("choose_model", "Session", QT_TR_NOOP("Choose &model…"), "Ctrl+M", False),
    (
        "session_instructions",
        "Session",
        QT_TR_NOOP("&Instructions and temperature…"),
        "Ctrl+I",
        False,
    ),
    ("fork_session", "Session", QT_TR_NOOP("&Fork from last good turn"), "Ctrl+Shift+D", False),
    ("export_markdown", "Session", QT_TR_NOOP("Export as &Markdown…"), "Ctrl+E", False),
    ("export_jsonl", "Session", QT_TR_NOOP("Export as &JSONL…"), "Ctrl+Shift+E", False),
    ("import_conversations", "Session", QT_TR_NOOP("Im&port conversations…"), "", False),
    ("close_session", "Session", QT_TR_NOOP("&Close session"), "Ctrl+W", False),
    ("delete_session", "Session", QT_TR_NOOP("&Delete session"), "Ctrl+Shift+Backspace", False),
    ("undo_delete", "Session", QT_TR_NOOP("&Undo delete"), "Ctrl+Shift+T", False),
    ("next_session", "Session", QT_TR_NOOP("Ne&xt session"), "Ctrl+PgDown", False),
    ("previous_session", "Session", QT_TR_NOOP("Pre&vious session"), "Ctrl+PgUp", False),
    ("quit", "Session", QT_TR_NOOP("&Quit"), "Ctrl+Q", False),
    ("copy", "Edit", QT_TR_NOOP("&Copy message"), "Ctrl+Shift+C", False),
    ("stop", "Edit", QT_TR_NOOP("&Stop answer"), "Esc", False),
    ("retry", "Edit", QT_TR_NOOP("&Retry failed turn"), "Ctrl+Shift+R", False),
    # -- the conversation verbs (agent.md §7) and find in conversation
    ("regenerate", "Edit", QT_TR_NOOP("Re&generate last answer"), "Ctrl+Alt+R", False),
    ("continue_last", "Edit", QT_TR_NOOP("C&ontinue last answer"), "Ctrl+Alt+C", False),
    ("undo_hide", "Edit", QT_TR_NOOP("&Undo hide"), "", False),
    ("find", "Edit", QT_TR_NOOP("&Find in conversation…"), "Ctrl+F", False),
    ("find_next", "Edit", QT_TR_NOOP("Find ne&xt"), "F3", False),
    ("find_previous", "Edit", QT_TR_NOOP("Find pre&vious"), "Shift+F3", False),
    ("attach_files", "Edit", QT_TR_NOOP("&Attach files…"), "Ctrl+U", False),
    ("settings", "Edit", QT_TR_NOOP("Se&ttings…"), "Ctrl+,", False),
    ("saved_prompts", "Edit", QT_TR_NOOP("Saved &prompts…"), "", False),
    ("focus_composer", "View", QT_TR_NOOP("Go to &message box"), "Ctrl+L", False),
    ("focus_transcript", "View", QT_TR_NOOP("Go to &transcript"), "Ctrl+J", False),
    ("focus_sessions", "View", QT_TR_NOOP("Go to &sessions"), "Ctrl+K", False),
    ("search_sessions", "View", QT_TR_NOOP("Searc&h all sessions"), "Ctrl+Shift+F", False),
    ("toggle_sessions", "View", QT_TR_NOOP("S&essions sidebar"), "Ctrl+Shift+S", True),
    ("toggle_reminders", "View", QT_TR_NOOP("&Reminders panel"), "Ctrl+R", True),
    ("all_reminders", "View", QT_TR_NOOP("&All reminders…"), "Ctrl+Shift+A", False),
    ("show_context", "View", QT_TR_NOOP("Show time &context"), "Ctrl+Shift+K", True),
    ("wrap_code", "View", QT_TR_NOOP("&Wrap long code lines"), "Alt+Z", True),
    ("shortcuts", "Help", QT_TR_NOOP("&Keyboard shortcuts"), "F1", False),
    ("about", "Help", QT_TR_NOOP("&About Chime"), "", False),
)
MENUS = ("Session", "Edit", "View", "Help")
MENU_TITLES = {
    "Session": QT_TR_NOOP("&Session"),
    "Edit": QT_TR_NOOP("&Edit"),
    "View": QT_TR_NOOP("&View"),
    "Help": QT_TR_NOOP("&Help"),
}
"""Each menu's title, by the name ``ACTION_TABLE`` gives it."""


def translated(marked: str) -> str:
    """An action label or menu title of this module in the window's language."""
    return QCoreApplication.translate("", marked)


def native(keys: str) -> str:
    """``keys`` as the desktop names them, in the window's language ("Strg+C" in German)."""
    return QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)


class WindowActions(QObject):
    """Holds one QAction per row of ``ACTION_TABLE`` as an attribute of the same name."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._by_menu: dict[str, list[QAction]] = {menu: [] for menu in MENUS}
        for name, menu, label, shortcut, checkable in ACTION_TABLE:
            action = QAction(translated(label), self)
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
            (self.tr("Send message"), native("Enter")),
            (self.tr("New line in a message"), native("Shift+Enter")),
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
        for label, keys in (
            (self.tr("Expand a tool call / retry an error row"), "Enter"),
            (self.tr("Copy the selected text"), "Ctrl+C"),
            (self.tr("Select all loaded text"), "Ctrl+A"),
            (self.tr("Actions of the current message"), "Menu, Shift+F10"),
        ):
            lines.append((label, f"{native(keys)} {in_transcript}"))
        return lines
