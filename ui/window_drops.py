"""FileDrops: files dropped anywhere on the window are offered as attachments, like the message
box's paperclip. No I/O (the app reads the files it is offered).

The window hands its drag and drop events here (``MainWindow.dragEnterEvent`` ...: Qt delivers a
drop only to the widget whose own handler took the drag).

Signals:
    files_offered(list): the local paths of the files dropped.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QWidget

from ui.composer import local_files


class FileDrops(QObject):
    """A drag of local files is taken while ``accepting()`` (the session takes messages), and
    their drop is offered (``files_offered``)."""

    files_offered = Signal(object)

    def __init__(self, window: QWidget, accepting: Callable[[], bool]) -> None:
        super().__init__(window)
        self._accepting = accepting
        window.setAcceptDrops(True)

    def take(self, event: QDropEvent) -> bool:
        """Accept a drag (enter, move) of local files while the session takes messages; False:
        not taken (the window's own handling)."""
        if local_files(event.mimeData()) and self._accepting():
            event.acceptProposedAction()
            return True
        return False

    def drop(self, event: QDropEvent) -> bool:
        """Offer the dropped files; False: not taken."""
        if not self.take(event):
            return False
        self.files_offered.emit(local_files(event.mimeData()))
        return True
