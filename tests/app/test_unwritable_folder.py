"""A data folder Chime cannot write: the window still starts and says why in words, existing
sessions open read-only, and a new session that cannot be created says exactly why.

We run as root, so chmod stops nothing: the folder is made unusable by putting it under a regular
file (mkdir fails with ENOTDIR), or the disk calls are made to fail through the store's module
seam (``core.session.jsonl_store``) and the start-up probe."""

from __future__ import annotations

import dataclasses
import errno
import logging
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from app.run_log import LOG_FILE, setup_logging
from tests.app.harness import Chime
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parent.parent.parent
FIX = "choose another folder with --data-dir or fix its permissions"


def under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "plain-file").write_text("not a folder")
    return tmp_path / "plain-file" / "data"


def fail_with(code: int):  # type: ignore[no-untyped-def]  # any signature: it only raises
    def failing(*_args: object, **_kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return failing


def test_logging_falls_back_to_stderr_when_the_log_file_cannot_be_opened(tmp_path: Path) -> None:
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    try:
        assert setup_logging(under_a_file(tmp_path)) is False
        added = root.handlers[len(before) :]
        assert [type(h) for h in added] == [logging.StreamHandler]
    finally:
        for handler in root.handlers[len(before) :]:
            root.removeHandler(handler)
        root.setLevel(level)
    assert not (tmp_path / "plain-file" / "data" / LOG_FILE).exists()


def test_a_data_folder_under_a_file_starts_with_a_banner_that_says_why_and_how_to_fix_it(
    qtbot, loop, tmp_path: Path, clock: FakeClock
) -> None:
    folder = under_a_file(tmp_path)
    chime = Chime(qtbot, loop, folder, clock)
    chime.run(chime.controller.start([], None))
    chime.window.show()
    text = chime.window.banner.label.text()
    assert chime.window.banner.isVisible()
    assert f"Chime cannot write to {folder}: Not a directory" in text
    assert FIX in text
    assert not chime.window.banner.button.isVisible()  # forking cannot help here
    assert not chime.window.composer.editor.isEnabled()
    assert chime.controller.current is None
    assert chime.window.findChildren(QMessageBox) == []  # no "unexpected error" box
    chime.quit()


def test_a_new_session_on_a_full_disk_says_so_and_keeps_the_current_one(
    qtbot, loop, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    chime = Chime(qtbot, loop, tmp_path, clock)
    chime.run(chime.controller.start([], None))
    chime.window.show()
    first = chime.controller.current
    assert first is not None
    chime.run(chime.controller.submit("hello"))  # not empty: Ctrl+N makes a new session
    chime.until(chime.idle)
    monkeypatch.setattr("core.session.jsonl_store.publish_session", fail_with(errno.ENOSPC))

    async def press_ctrl_n() -> None:  # the action's slot starts its task on the running loop
        chime.window.window_actions.action("new_session").trigger()

    chime.run(press_ctrl_n())
    chime.until(lambda: chime.window.banner.isVisible())
    text = chime.window.banner.label.text()
    assert text.startswith("Could not create a new session. ")
    assert f"Chime cannot write to {tmp_path}: No space left on device" in text
    assert "saved" not in text.replace(
        "cannot be saved", ""
    )  # never "your conversations are saved"
    assert chime.controller.current == first
    assert chime.window.composer.editor.isEnabled()  # the shown session is still live
    assert chime.window.findChildren(QMessageBox) == []
    chime.quit()


def test_existing_sessions_open_read_only_when_the_folder_became_read_only(
    qtbot, loop, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Chime(qtbot, loop, tmp_path, clock)
    first.run(first.controller.start([], None))
    session_id = first.controller.current
    assert session_id is not None
    first.run(first.controller.submit("hello there"))
    first.until(first.idle)
    first.quit()
    log = tmp_path / "sessions" / session_id / "session.jsonl"
    size = log.stat().st_size
    read_only = fail_with(errno.EROFS)
    monkeypatch.setattr("core.session.jsonl_store.try_lock", read_only)
    monkeypatch.setattr("core.session.jsonl_store.publish_session", read_only)
    monkeypatch.setattr(
        "app.controller.writable_problem", lambda _f: OSError(errno.EROFS, "Read-only file system")
    )
    again = Chime(qtbot, loop, tmp_path, clock)
    again.run(again.controller.start([session_id], session_id))
    again.window.show()
    opened = again.controller.current_session()
    assert opened is not None
    assert opened.session.read_only
    assert not opened.live
    assert again.transcript_texts()[0] == "hello there"
    text = again.window.banner.label.text()
    assert f"Chime cannot write to {tmp_path}: Read-only file system" in text
    assert FIX in text
    assert not again.window.composer.editor.isEnabled()
    again.quit()
    assert log.stat().st_size == size


def read_until(process: subprocess.Popen[bytes], marker: bytes, seconds: float) -> bytes:
    """stderr of ``process`` until ``marker`` shows (or the deadline, or the process ends)."""
    assert process.stderr is not None
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stderr], [], [], 0.1)
        if ready:
            seen += os.read(process.stderr.fileno(), 65536)
    return seen


@pytest.mark.slow
def test_the_real_app_starts_on_a_folder_under_a_file_and_quits_cleanly_on_sigterm(
    tmp_path: Path,
) -> None:
    folder = under_a_file(tmp_path)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    env.pop("CHIME_DATA_DIR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "--data-dir", str(folder)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        seen = read_until(process, b"Chime cannot write to", 20.0)
        assert process.poll() is None, seen.decode(errors="replace")  # still running: a window
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    errors = (seen + rest).decode(errors="replace")
    assert process.returncode == 0, errors
    assert "Traceback" not in errors
    assert f"Chime cannot write to {folder}: Not a directory" in errors
    assert "Chime exited cleanly" in errors


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """A tiny tmpfs (writable while the test fills it); skipped where mounting is not allowed."""
    point = tmp_path / "mnt"
    point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(point)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs is not allowed here")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True, check=False)


@pytest.mark.slow
def test_the_real_app_shows_an_existing_session_on_a_read_only_disk_and_writes_nothing(
    qtbot, loop, tmp_path: Path, clock: FakeClock, read_only_mount: Path
) -> None:
    folder = read_only_mount / "data"
    maker = Chime(qtbot, loop, folder, clock)
    maker.run(maker.controller.start([], None))
    session_id = maker.controller.current
    assert session_id is not None
    maker.run(maker.controller.submit("hello from a read-only disk"))
    maker.until(maker.idle)
    maker.quit()
    log = folder / "sessions" / session_id / "session.jsonl"
    before = log.read_bytes()
    remount = ["mount", "-o", "remount,ro", str(read_only_mount)]
    subprocess.run(remount, capture_output=True, check=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    env.pop("CHIME_DATA_DIR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "--data-dir", str(folder), "--session", session_id],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        seen = read_until(process, b"Chime cannot write to", 20.0)
        assert process.poll() is None, seen.decode(errors="replace")
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    errors = (seen + rest).decode(errors="replace")
    assert process.returncode == 0, errors
    assert "Traceback" not in errors
    assert f"Chime cannot write to {folder}: Read-only file system" in errors
    assert "cannot open session" not in errors  # it was shown (read-only), not refused
    assert log.read_bytes() == before


def test_closing_the_last_session_when_no_new_one_can_be_made_leaves_an_empty_window_saying_why(
    qtbot, loop, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    chime = Chime(qtbot, loop, tmp_path, clock)
    chime.run(chime.controller.start([], None))
    chime.run(chime.controller.submit("hello"))
    chime.until(chime.idle)
    assert chime.transcript_texts()
    monkeypatch.setattr("core.session.jsonl_store.publish_session", fail_with(errno.EROFS))
    chime.run(chime.controller.actions.close_session())
    assert chime.controller.current is None
    assert chime.transcript_texts() == []  # nothing left of the closed session
    assert "Read-only file system" in chime.window.banner.label.text()
    assert not chime.window.composer.editor.isEnabled()
    chime.quit()


def test_an_unexpected_disk_error_says_what_failed_and_never_that_everything_is_saved(
    qtbot, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtGui import QIcon

    from app.run_log import install_excepthook
    from ui.main_window import MainWindow

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    install_excepthook([window], logged_to_file=False)
    error = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    sys.excepthook(type(error), error, None)
    boxes = window.findChildren(QMessageBox)
    assert len(boxes) == 1
    text = boxes[0].text()
    assert text.startswith("Chime could not use the disk: No space left on device.")
    assert "may not be saved" in text
    assert "stderr" in text  # where the details went, since chime.log could not be opened
    boxes[0].close()


def test_an_invalid_settings_file_that_cannot_be_set_aside_still_gives_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.settings import Settings, load_settings, read_settings

    (tmp_path / "settings.json").write_text("{not json")
    monkeypatch.setattr(Path, "replace", fail_with(errno.EROFS))
    assert load_settings(tmp_path) == Settings()
    problem = read_settings(tmp_path).problem
    assert problem is not None
    assert "It could not be set aside (" in problem
    assert (tmp_path / "settings.json").read_text() == "{not json"  # left where it was


def test_settings_that_cannot_be_saved_still_apply_and_the_window_says_why(
    qtbot, qapp, tmp_path: Path, clock: FakeClock
) -> None:
    from PySide6.QtGui import QIcon

    from app.qtasync import TaskRunner
    from app.settings import KeyStore, Settings
    from app.settings_flow import SettingsFlow, settings_draft
    from ui.main_window import MainWindow

    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    flow = SettingsFlow(
        Settings(),
        app=qapp,
        window=window,
        folder=under_a_file(tmp_path),
        keys=KeyStore(tmp_path / "config", use_keyring=False),
        clock=clock,
        tasks=TaskRunner(),
        use_provider=lambda *_factories: None,  # no sessions are open
    )
    draft = dataclasses.replace(settings_draft(Settings(), "", ""), text_size=13)
    flow.apply(draft)
    assert flow.settings.text_size == 13
    assert "could not be saved: Not a directory" in window.message_bar.text()
    qapp.setFont(qapp.font())
