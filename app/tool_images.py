"""The thumbnails of the images MCP tools returned and of the images attached to messages (in
the transcript and on the message box's chips): ``ToolImages`` is their ``ui.thumbnails.Thumbnails``.
It answers from its cache at once; a picture not read yet is read from the shown session's
stored files in the background (``LiveSession.read_attachment``, bounded by the attachment
store), decoded and scaled in a thread (``QImageReader`` at the thumbnail's size: a large photo
never stalls the window and is scaled once), and the window is told when it arrives. Until then
the answer is None (the image is named); a file that is missing or is no picture answers a null
``QImage`` (it is named with a mark), never an error. Pictures are kept by their sha256 (the
same bytes in any session); a missing file only for the session that lacks it, so a row laid
out while the window switches sessions cannot leave a picture unread.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt
from PySide6.QtGui import QImage, QImageReader

from app.qtasync import TaskRunner
from core.events import Attachment
from core.session.live import LiveSession
from ui.thumbnails import THUMBNAIL

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
        self._cache: OrderedDict[str, QImage] = OrderedDict()
        self._missing: set[tuple[str, str]] = set()
        """(session id, sha256) of files a session did not have: asked again in another
        session (one shown while switching may have asked the wrong one)."""
        self._reading: set[str] = set()

    def __call__(self, image: Attachment) -> QImage | None:
        key = image.sha256
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        session = self._session()
        if session is None:
            return None
        if (session.id, key) in self._missing:
            return QImage()
        if key not in self._reading and _loop_runs():
            self._reading.add(key)
            self._tasks.spawn(self._read(session, key))
        return None

    async def _read(self, session: LiveSession, key: str) -> None:
        try:
            data = await session.read_attachment(key)
        finally:
            self._reading.discard(key)
        if data is None:
            if len(self._missing) >= KEPT * 16:
                self._missing.clear()
            self._missing.add((session.id, key))
        else:
            self._cache[key] = await asyncio.to_thread(decoded, data)
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


def decoded(data: bytes) -> QImage:
    """The picture in ``data`` no larger than ``THUMBNAIL`` a side (a null image when ``data``
    is no picture Qt reads). Blocking: run it in a thread (``QImage`` is safe there)."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setAutoTransform(True)  # a photo stands as it was taken
    size = reader.size()
    if size.isValid() and (size.width() > THUMBNAIL or size.height() > THUMBNAIL):
        reader.setScaledSize(
            size.scaled(QSize(THUMBNAIL, THUMBNAIL), Qt.AspectRatioMode.KeepAspectRatio)
        )
    picture = reader.read()
    buffer.close()
    return QImage() if picture.isNull() else thumbnail(picture)


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
