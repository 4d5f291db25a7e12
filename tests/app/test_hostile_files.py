"""Files that must not hurt Chime when attached (issue 24, point 1 and 7): a device that never
ends, a named pipe nobody writes, a socket, a file that gives more than it reports, a read that
hangs, and names whose direction controls or line breaks would disguise them."""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtWidgets import QLabel

from app.attach_read import CHUNK, _read_bounded, read_file, read_in_background
from core.events import Attachment
from core.session.attachments import IMAGE_LIMIT, classify
from core.session.refusal import Refused
from core.visible_text import has_hidden, visible_name
from tests.app.verb_files import chips
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.attachment_strip import AttachmentStrip

# WORKAROUND(offscreen QPA): showing a main window logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")

SPECIAL = "is not a regular file (a device, a pipe or a socket), so it cannot be attached."


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def settle(chime: RealApp) -> None:
    chime.until(lambda: chime.tasks.pending == 0)


def test_a_device_that_reports_size_zero_is_refused_without_reading() -> None:
    """/dev/zero reports 0 bytes and never ends: it was read until memory ran out."""
    assert read_file(Path("/dev/zero")) == Refused(f"“zero” {SPECIAL}")


def test_a_named_pipe_is_refused_at_once_instead_of_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert read_file(pipe) == Refused(f"“pipe” {SPECIAL}")


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        assert read_file(path) == Refused(f"“s.sock” {SPECIAL}")
    finally:
        server.close()


def test_a_regular_file_that_reports_no_size_is_read_by_its_bytes() -> None:
    """A /proc file is regular and reports size 0: what counts is what is read."""
    data = read_file(Path("/proc/self/status"))
    assert isinstance(data, bytes)
    assert b"Name:" in data


def test_more_bytes_than_an_attachment_may_have_are_refused_once_read() -> None:
    """A source that reports nothing and keeps giving (here a pipe fed by a thread) is read up to
    the limit and one byte more, then refused; the rest is never read."""
    reading, writing = os.pipe()
    sent = IMAGE_LIMIT + 3 * CHUNK

    def feed() -> None:
        with open(writing, "wb", closefd=True) as sink, contextlib.suppress(BrokenPipeError):
            sink.write(b"x" * sent)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        refused = _read_bounded(reading, "endless")
    finally:
        os.close(reading)
    feeder.join(5)
    assert isinstance(refused, Refused)
    assert refused.reason.startswith("“endless” is 5.0 MB: attachments are at most")


def test_a_read_that_hangs_is_given_up_and_its_thread_cannot_hold_the_process(loop) -> None:
    """A file on a hung mount: the attachment is refused after the time limit, and the thread
    left blocked is a daemon (Python does not wait for it at exit)."""
    release = threading.Event()
    started: list[threading.Thread] = []

    def hang() -> bytes:
        started.append(threading.current_thread())
        release.wait(10)
        return b"late"

    try:
        assert loop.run_until_complete(read_in_background(hang, 0.05)) is None
        assert started
        assert started[0].daemon
    finally:
        release.set()
    assert loop.run_until_complete(read_in_background(lambda: b"ok", 5)) == b"ok"
    with pytest.raises(PermissionError):
        loop.run_until_complete(read_in_background(_denied, 5))


def _denied() -> bytes:
    raise PermissionError("no")


def test_a_pipe_attached_in_the_window_says_why_and_quitting_still_ends(
    open_app: Opener, tmp_path: Path
) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with open_app() as chime:
        chime.answers.files.append([pipe])
        chime.trigger("attach_files")
        settle(chime)
        assert chime.window.message_bar.text() == f"“pipe” {SPECIAL}"
        assert chips(chime) == []
    # leaving the ``with`` quits the real app: it returned, nothing waits for the pipe
    assert not [t for t in threading.enumerate() if t.name == "chime-attach-read"]


def test_a_right_to_left_override_cannot_disguise_an_extension(qtbot) -> None:
    record = classify("invoice\u202efdp.exe", b"hello\n")
    assert isinstance(record, Attachment)
    assert record.name == "invoice[U+202E]fdp.exe"
    strip = AttachmentStrip()
    qtbot.addWidget(strip)
    old = Attachment("a\u202eb\nc.txt", "text/plain", "0" * 64, 3)  # a log from before the rule
    strip.add(old)
    texts = [label.text() for label in strip.findChildren(QLabel) if label.text()]
    assert texts == ["a[U+202E]b[U+000A]c.txt · 3 B"]


def test_a_refusal_names_the_file_visibly(tmp_path: Path) -> None:
    folder = tmp_path / "x\u202egpj.sh"
    folder.mkdir()
    refused = read_file(folder)
    assert isinstance(refused, Refused)
    assert "x[U+202E]gpj.sh" in refused.reason
    assert "\u202e" not in refused.reason


@given(st.text())
def test_a_visible_name_hides_nothing_and_changes_only_what_it_must(name: str) -> None:
    shown = visible_name(name)
    assert not has_hidden(shown)
    assert visible_name(shown) == shown
    if not has_hidden(name):
        assert shown == name
    assert "\n" not in shown
    assert "\u202e" not in shown


def test_a_file_that_takes_too_long_to_read_is_refused_with_a_sentence(
    open_app: Opener, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import attach_flow

    async def gave_up(_work: object, _seconds: float = 0) -> None:
        return None  # what read_in_background answers once its time is up

    monkeypatch.setattr(attach_flow, "read_in_background", gave_up)
    slow = tmp_path / "on-a-hung-mount\u202e.txt"
    slow.write_text("x", encoding="utf-8")
    with open_app() as chime:
        chime.answers.files.append([slow])
        chime.trigger("attach_files")
        settle(chime)
        assert chime.window.message_bar.text() == (
            "“on-a-hung-mount[U+202E].txt” was not added: reading it took longer than 20 seconds."
        )
        assert chips(chime) == []


HUNG_READ = """
import asyncio, sys
from app.attach_read import read_in_background

def hang():
    with open(sys.argv[1], "rb") as pipe:  # blocks until someone writes: nobody will
        return pipe.read()

print(asyncio.run(read_in_background(hang, 0.2)), flush=True)
"""


@pytest.mark.slow  # a real process: only its exit shows that nothing waits for the read
def test_a_read_that_never_returns_does_not_keep_the_process_from_exiting(tmp_path: Path) -> None:
    """A FIFO made Ctrl+Q never exit: the read sat in a thread that Python joins at exit."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", HUNG_READ, str(pipe)],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert done.returncode == 0
    assert done.stdout.strip() == "None"
