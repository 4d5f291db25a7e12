"""Images and files in messages, in the real window: an attached image shows its picture on its
chip and under the sent message, a stored file that is no picture (or is gone) is named with a
mark, and a click on a file (or the row's menu) hands a read-only temporary copy of it to the
system's program: never the stored file. The program is the test's (``Answers.open_file``)."""

from __future__ import annotations

import asyncio
import stat
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import (
    QDesktopServices,
    QHelpEvent,
    QImage,
    QTextDocument,
    QTextImageFormat,
)
from PySide6.QtWidgets import QApplication, QToolButton, QToolTip

from app.attachment_open import AttachmentOpener, open_with_system, safe_name, write_copy
from app.qtasync import TaskRunner
from app.tool_images import ToolImages, decoded
from core.events import Attachment
from tests.app.harness import run_loop
from tests.app.test_session_verbs import answer, endpoint
from tests.app.verb_files import chips, write_note
from tests.app.window import RealApp, running
from tests.fakes import FakeClock
from tests.ui.test_transcript_view import hover
from ui.attachment_strip import size_text
from ui.row_files import SHOWN
from ui.thumbnails import THUMBNAIL

BROKEN = b"\x89PNG\r\n\x1a\n" + b"no picture after the signature" * 8


def write_photo(path: Path, width: int, height: int, kind: str = "PNG") -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.darkCyan)
    assert image.save(str(path), kind)  # type: ignore[call-overload]  # PySide6 wants str here, its stubs say bytes
    return path.read_bytes()


def pictures_in(doc: QTextDocument) -> list[tuple[str, int, int]]:
    """The message pictures of a files document: (its name, width, height)."""
    found = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            image = QTextImageFormat(fmt)
            if fmt.isImageFormat() and image.name().startswith("chime-picture:"):
                found.append((image.name(), round(image.width()), round(image.height())))
            it += 1
        block = block.next()
    return found


def chip_button(chime: RealApp, name: str) -> QToolButton:
    return next(
        button
        for button in chime.window.composer.attachments.findChildren(QToolButton)
        if button.accessibleName() == f"Open {name}"
    )


def stored(chime: RealApp, sha256: str) -> Path:
    opened = chime.controller.current_session()
    assert opened is not None
    return chime.chime.folder / "sessions" / opened.id / "attachments" / sha256


@pytest.mark.slow  # HTTP round trips on the loopback interface
def test_an_image_shows_on_its_chip_and_under_the_message_and_opens_as_a_copy(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    files = tmp_path / "files"
    files.mkdir()
    photo_bytes = write_photo(files / "photo.png", 600, 400)
    (files / "broken.png").write_bytes(BROKEN)
    note = write_note(files, "plan.md", "- pack the tent")
    data = tmp_path / "data"
    with (
        endpoint(loop, data, [answer("A cyan square.")]),
        running(qtbot, qapp, loop, data, clock) as chime,
    ):
        chime.answers.files.append([files / "photo.png", files / "broken.png", note])
        chime.trigger("attach_files")
        chime.until(lambda: chips(chime) == ["photo.png", "broken.png", "plan.md"])
        photo, broken = chip_button(chime, "photo.png"), chip_button(chime, "broken.png")
        chime.until(lambda: photo.iconSize().width() == 40)  # the picture, read in a thread
        assert (photo.iconSize().width(), photo.iconSize().height()) == (40, 26)
        chime.until(lambda: "missing or damaged" in broken.toolTip())
        assert broken.iconSize().width() < 40  # the paperclip stays
        chime.inside(photo.click)  # a chip opens its file too
        chime.until(lambda: len(chime.answers.opened_files) == 1)
        photo.setFocus()
        chime.inside(lambda: qtbot.keyClick(photo, Qt.Key.Key_Space))  # and from the keyboard
        chime.until(lambda: len(chime.answers.opened_files) == 2)
        assert chime.answers.opened_files[1][1] == photo_bytes

        chime.send("what is this?")
        view = chime.window.transcript
        at = chime.kinds().index("user")
        chime.until(lambda: bool(pictures_in(view.parts.delegate.layout_at(at).pieces[-1].doc)))  # type: ignore[union-attr]
        layout = view.parts.delegate.layout_at(at)
        assert layout is not None
        files_piece = layout.pieces[-1]
        sha = next(f.sha256 for f in chime.window.transcript_model.row_at(at).files)  # type: ignore[union-attr]
        [(name, width, height)] = pictures_in(files_piece.doc)
        assert (name, width) == (f"chime-picture:{sha}", SHOWN)
        assert height in (106, 107)  # 600 × 400 at SHOWN wide
        copied = layout.text(0, layout.length)
        size = size_text(len(photo_bytes))
        named = [item for line in copied.split("\n")[2:] for item in line.split("   ")]
        assert named == [  # the lines break between files only
            f"photo.png · {size}",
            "broken.png · 248 B (missing or damaged)",
            "plan.md · 15 B",
        ]

        # A click on the picture: the system's program gets a read-only copy, not the stored file.
        local = QPoint(
            files_piece.x + files_piece.doc.size().toSize().width() - 20, files_piece.y + 20
        )
        assert layout.anchor_at(local.x(), local.y(), {}) == f"chime-attachment:{sha}"
        point = view.parts.hits.row_origin(at) + local
        chime.inside(lambda: hover(view, point))
        assert chime.window.statusBar().currentMessage() == "Click to open this file"
        help_event = QHelpEvent(QEvent.Type.ToolTip, point, view.viewport().mapToGlobal(point))
        chime.inside(lambda: QApplication.sendEvent(view.viewport(), help_event))
        assert QToolTip.text() == "Open photo.png"  # its name, not the link's inner address
        chime.inside(
            lambda: qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
        )
        chime.until(lambda: len(chime.answers.opened_files) == 3)
        path, given_bytes = chime.answers.opened_files[-1]
        assert given_bytes == photo_bytes
        assert path.name == "photo.png"
        assert path != stored(chime, sha)
        assert not path.is_relative_to(data)
        assert not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        assert stored(chime, sha).read_bytes() == photo_bytes


def test_the_rows_menu_opens_each_file_and_says_when_it_cannot(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    note = write_note(tmp_path, "plan.md", "- pack the tent")
    with running(qtbot, qapp, loop, tmp_path / "data", clock) as chime:
        chime.answers.files.append([note])
        chime.trigger("attach_files")
        chime.until(lambda: chips(chime) == ["plan.md"])
        chime.send("my plan")
        at = chime.kinds().index("user")
        menu = chime.window.transcript.parts.menu.build(at, "")
        entry = next(a for a in menu.actions() if a.text() == "&Open “plan.md”")
        chime.answers.open_results.append(False)  # no program for it
        chime.inside(entry.trigger)
        chime.until(
            lambda: "no program on this computer opens it" in chime.window.message_bar.text()
        )
        assert chime.answers.opened_files[-1][1] == b"- pack the tent"
        sha = chime.window.transcript_model.row_at(at).files[0].sha256  # type: ignore[union-attr]
        stored(chime, sha).unlink()  # the stored file is gone
        chime.window.message_bar.dismiss()
        chime.inside(entry.trigger)
        chime.until(lambda: "stored copy is missing or damaged" in chime.window.message_bar.text())
        assert len(chime.answers.opened_files) == 1  # nothing more was opened
        link_entries = [a.text() for a in menu.actions() if "link" in a.text().lower()]
        assert link_entries == []


@pytest.mark.qt_log_ignore("JPEG")  # Qt's JPEG reader warns of the broken one, as it should
def test_a_large_photo_is_decoded_scaled_in_a_thread(
    qapp, loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jpeg = write_photo(tmp_path / "big.jpg", 4000, 3000, "JPEG")
    threads: list[str] = []

    def recorded(data: bytes) -> QImage:
        threads.append(threading.current_thread().name)
        return decoded(data)

    class Session:
        id = "s"

        async def read_attachment(self, sha256: str) -> bytes | None:
            return jpeg

    arrived: list[int] = []
    images = ToolImages(TaskRunner(), lambda: Session(), lambda: arrived.append(1))  # type: ignore[arg-type, return-value]
    big = Attachment("big.jpg", "image/jpeg", "big", len(jpeg))
    monkeypatch.setattr("app.tool_images.decoded", recorded)

    async def wait() -> QImage | None:
        assert images(big) is None  # not read yet
        while not arrived:  # noqa: ASYNC110 -- the read finishes in its own task
            await asyncio.sleep(0.001)
        return images(big)

    picture = run_loop(loop, wait())
    assert picture is not None
    assert (picture.width(), picture.height()) == (THUMBNAIL, THUMBNAIL * 3 // 4)
    assert threads
    assert threads[0] != threading.main_thread().name
    assert decoded(b"\xff\xd8\xff\xe0 not a jpeg").isNull()


@given(st.text(max_size=300), st.sampled_from(["image/png", "text/plain", "application/x-y"]))
def test_a_copys_name_is_one_safe_file_name(name: str, media_type: str) -> None:
    safe = safe_name(Attachment(name, media_type, "sha", 1))
    assert safe
    assert len(safe) <= 130
    assert "/" not in safe
    assert "\\" not in safe
    assert "\x00" not in safe
    assert not safe.startswith(".")
    assert Path(safe).name == safe


def test_a_copy_is_read_only_private_and_written_again_from_the_stored_bytes(
    tmp_path: Path,
) -> None:
    file = Attachment("../notes:draft", "text/plain", "ab" * 32, 5)
    first = write_copy(None, file, b"first")
    assert first.name == "_notes_draft.txt"  # no folder parts, no leading dot
    assert first.read_bytes() == b"first"
    assert stat.S_IMODE(first.stat().st_mode) == stat.S_IRUSR
    assert stat.S_IMODE(first.parent.parent.stat().st_mode) == 0o700  # mkdtemp: the user only

    again = write_copy(first.parent.parent, file, b"second")  # the read-only copy is replaced
    assert (again, again.read_bytes()) == (first, b"second")
    moved = write_copy(tmp_path / "gone", file, b"third")  # a folder the system cleared
    assert moved.parent.parent != tmp_path / "gone"
    assert moved.read_bytes() == b"third"


def test_a_long_name_keeps_its_suffix() -> None:
    name = safe_name(Attachment("x" * 300 + ".tar", "application/x-tar", "sha", 1))
    assert (len(name), name[-4:]) == (120, ".tar")
    assert safe_name(Attachment("y" * 300, "application/x-y", "sha", 1)) == "y" * 120


class _Window:
    """What the opener needs of the window: its request signal and the message bar."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.attachment_open_requested = self

    def connect(self, _slot: object) -> None:
        pass

    def notify(self, text: str, _milliseconds: int, *, conversation: bool) -> None:
        assert conversation
        self.said.append(text)


def test_a_copy_that_cannot_be_written_is_said_and_nothing_opens(
    qapp, loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder would be", encoding="utf-8")
    monkeypatch.setattr("app.attachment_open.tempfile.mkdtemp", lambda prefix: str(blocker))
    window, opened = _Window(), []

    async def read(_sha256: str) -> bytes | None:
        return b"- pack the tent"

    opener = AttachmentOpener(window, None, TaskRunner(), opened.append)  # type: ignore[arg-type]
    file = Attachment("plan.md", "text/markdown", "0" * 64, 15)
    run_loop(loop, opener._open(read, file))
    assert opened == []
    assert window.said == ["“plan.md” could not be opened (Not a directory)."]


def test_the_system_opener_hands_the_copy_to_the_desktop(qapp, tmp_path: Path) -> None:
    """``open_with_system`` asks Qt's desktop services; a handler registered for ``file`` URLs
    stands for the desktop's program here (no real viewer starts)."""
    copy = tmp_path / "photo.png"
    copy.write_bytes(b"picture")
    handler = _Handler()
    QDesktopServices.setUrlHandler("file", handler, "take")
    try:
        assert open_with_system(copy)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert handler.urls == [QUrl.fromLocalFile(str(copy))]


class _Handler(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def take(self, url: QUrl) -> None:
        self.urls.append(url)
