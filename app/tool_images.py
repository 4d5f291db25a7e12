"""The thumbnails of the images MCP tools returned: ``ToolImages`` is the transcript's
``ui.mcp_rows.Thumbnails``. It answers from its cache at once; a picture not read yet is read
from the shown session's stored files in the background (``LiveSession.read_attachment``,
bounded by the attachment store) and the transcript is laid out again when it arrives. Until
then, or when the file is missing or is no picture, the row names the image instead.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from app.qtasync import TaskRunner
from core.events import Attachment
from core.session.live import LiveSession
from ui.mcp_rows import THUMBNAIL

KEPT = 64
"""Thumbnails kept in memory (each at most ``THUMBNAIL`` pixels a side)."""


class ToolImages:
    """See the module docstring. ``session()`` is the shown session (None: none);
    ``arrived()`` lays the transcript out again."""

    def __init__(
        self,
        tasks: TaskRunner,
        session: Callable[[], LiveSession | None],
        arrived: Callable[[], None],
    ) -> None:
        self._tasks = tasks
        self._session = session
        self._arrived = arrived
        self._cache: OrderedDict[str, QImage | None] = OrderedDict()
        self._reading: set[str] = set()

    def __call__(self, image: Attachment) -> QImage | None:
        key = image.sha256
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        session = self._session()
        if session is not None and key not in self._reading and _loop_runs():
            self._reading.add(key)
            self._tasks.spawn(self._read(session, key))
        return None

    async def _read(self, session: LiveSession, key: str) -> None:
        try:
            data = await session.read_attachment(key)
        finally:
            self._reading.discard(key)
        picture = QImage.fromData(data) if data else QImage()
        self._cache[key] = None if picture.isNull() else thumbnail(picture)
        while len(self._cache) > KEPT:
            self._cache.popitem(last=False)
        self._arrived()


def _loop_runs() -> bool:
    """Whether the asyncio loop runs now: a row laid out while Qt processes events outside it
    (a test between two runs of the loop) asks again at its next layout."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def thumbnail(picture: QImage) -> QImage:
    """``picture`` no larger than ``THUMBNAIL`` a side (a smaller one as it is)."""
    if picture.width() <= THUMBNAIL and picture.height() <= THUMBNAIL:
        return picture
    return picture.scaled(
        THUMBNAIL,
        THUMBNAIL,
        Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.SmoothTransformation,
    )
