"""The thumbnails of MCP rows: read in the background from the shown session's files, scaled,
cached; nothing is started while the asyncio loop does not run (a layout between runs)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QImage

from app.qtasync import TaskRunner
from app.tool_images import ToolImages
from core.events import Attachment
from tests.app.harness import run_loop
from ui.thumbnails import THUMBNAIL


def png(width: int, height: int) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.darkGreen)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "PNG")
    return bytes(data.data())


class _Session:
    def __init__(self, files: dict[str, bytes], id: str = "a") -> None:
        self.id = id
        self.files = files
        self.reads: list[str] = []

    async def read_attachment(self, sha256: str) -> bytes | None:
        self.reads.append(sha256)
        return self.files.get(sha256)


def test_a_picture_is_read_once_scaled_and_a_missing_or_broken_one_marked(qapp, loop) -> None:
    session = _Session({"big": png(900, 300), "junk": b"not a picture"})
    arrived: list[int] = []
    images = ToolImages(TaskRunner(), lambda: session, lambda: arrived.append(1))
    big = Attachment("big.png", "image/png", "big", 1)
    junk = Attachment("junk.png", "image/png", "junk", 1)
    gone = Attachment("gone.png", "image/png", "gone", 1)
    assert images(big) is None  # outside the loop: nothing started
    assert session.reads == []

    async def layouts() -> list[QImage | None]:
        for image in (big, junk, gone, big):
            assert images(image) is None  # not read yet: the row names it meanwhile
        while len(arrived) < 3:  # noqa: ASYNC110 -- the reads finish in their own tasks
            await asyncio.sleep(0.001)
        return [images(image) for image in (big, junk, gone)]

    shown = run_loop(loop, layouts())
    assert session.reads == ["big", "junk", "gone"]  # each once
    picture = shown[0]
    assert picture is not None
    assert (picture.width(), picture.height()) == (THUMBNAIL, THUMBNAIL // 3)
    assert [image is not None and image.isNull() for image in shown[1:]] == [True, True]


def test_a_file_one_session_lacks_is_asked_again_of_the_next_one_shown(qapp, loop) -> None:
    """A row laid out while the window switches may ask the session it leaves: the file is
    missing there only, so the session shown next is asked again."""
    before, after = _Session({}, "before"), _Session({"pic": png(10, 10)}, "after")
    shown = [before]
    arrived: list[int] = []
    images = ToolImages(TaskRunner(), lambda: shown[0], lambda: arrived.append(1))
    pic = Attachment("pic.png", "image/png", "pic", 1)

    async def ask_until_arrived(count: int) -> QImage | None:
        images(pic)
        while len(arrived) < count:  # noqa: ASYNC110 -- the read finishes in its own task
            await asyncio.sleep(0.001)
        return images(pic)

    missing = run_loop(loop, ask_until_arrived(1))
    assert missing is not None
    assert missing.isNull()  # marked in that session, and not read again there
    assert before.reads == ["pic"]
    shown[0] = after
    found = run_loop(loop, ask_until_arrived(2))
    assert found is not None
    assert (found.width(), found.height()) == (10, 10)
    assert after.reads == ["pic"]
