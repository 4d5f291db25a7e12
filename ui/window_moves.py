"""WindowMoves: the window's own keys, which move the focus and fold the side panels, and its tab
order. No I/O.

Ctrl+L goes to the message box, Ctrl+T to the transcript (its last row when none is current),
Ctrl+K to the sessions list and Ctrl+Shift+F to the sidebar's filter (revealing a folded sidebar),
Ctrl+R shows or hides the reminders panel and Ctrl+B the sidebar. A session chosen in the sidebar
while the filter holds words it was found by opens with them in the find bar (§1.2). The tab order
is chained by ``chain_tab_order``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from ui.actions import WindowActions
from ui.session_list import SessionListPanel
from ui.transcript_view import TranscriptView
from ui.window_find import FindInConversation
from ui.window_parts import SidePanels
from ui.window_reminders import RemindersDock


class WindowMoves(QObject):
    """Connects the focus, panel and find actions to the window's parts."""

    def __init__(
        self,
        actions: WindowActions,
        panels: SidePanels,
        sessions: SessionListPanel,
        transcript: TranscriptView,
        reminders: RemindersDock,
        find: FindInConversation,
    ) -> None:
        super().__init__(transcript)
        self._panels, self._sessions, self._transcript = panels, sessions, transcript
        self._reminders, self._find = reminders, find
        act = actions.action
        act("focus_transcript").triggered.connect(self.focus_transcript)
        act("focus_sessions").triggered.connect(self.focus_sessions)
        act("search_sessions").triggered.connect(self.search_sessions)
        act("toggle_reminders").toggled.connect(self.toggle_reminders)
        act("toggle_sessions").toggled.connect(self.toggle_sessions)
        act("find").triggered.connect(find.open)
        act("find_next").triggered.connect(find.step_next)
        act("find_previous").triggered.connect(find.step_previous)
        sessions.session_chosen.connect(self.session_chosen)

    def focus_transcript(self) -> None:
        self._transcript.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self._transcript.currentIndex().isValid():
            self._transcript.select_last()

    def focus_sessions(self) -> None:
        self._panels.reveal_sessions()
        self._sessions.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def search_sessions(self) -> None:
        self._panels.reveal_sessions()
        self._sessions.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self._sessions.filter.selectAll()

    def toggle_reminders(self, visible: bool) -> None:
        self._panels.reminders.set_shown(visible)
        if visible:
            self._reminders.focus()

    def toggle_sessions(self, visible: bool) -> None:
        self._panels.sessions.set_shown(visible)
        if visible:
            self._sessions.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def session_chosen(self, session_id: str) -> None:
        self._panels.session_chosen()
        typed = self._sessions.filter.text().strip()
        if typed and self._sessions.proxy.snippet(session_id):
            # found by its messages: it opens with the text in the find bar, which searches
            # once the session shows and goes to its match (§1.2)
            self._find.remember(typed)


def chain_tab_order(widgets: Sequence[QWidget]) -> None:
    """Tab goes from each widget to the next."""
    for first, second in pairwise(widgets):
        QWidget.setTabOrder(first, second)
