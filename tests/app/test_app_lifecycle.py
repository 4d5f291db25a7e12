"""``app.main``'s run of the app in-process: ``run()`` until SIGTERM, a quit asked while the
sessions are still opening, ``--session``, and re-driving reminders when the app becomes active,
the wall clock jumps or the system colour scheme changes; the keyring side of the key store."""

from __future__ import annotations

import asyncio
import errno
import functools
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QMessageBox

import app.__main__ as entry_point
from app import settings as settings_module
from app.launch import restart_command
from app.main import Application, run
from app.run_log import LOG_FILE
from app.settings import KeyStore, Settings
from app.single_instance import socket_path
from app.state import read_state
from core.events import AssistantMessage
from core.session.jsonl_store import try_lock
from tests.app.window import Opener, RealApp, disconnect_application, running
from tests.fakes import FakeClock
from ui.theme import palette_for


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


class Restore:
    """Everything ``run()`` changes for the whole process, put back afterwards."""

    def __init__(self, qapp: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.qapp, self.loop = qapp, loop
        self.handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
        self.wakeup = signal.set_wakeup_fd(-1)
        signal.set_wakeup_fd(self.wakeup)
        root = logging.getLogger()
        self.log_handlers, self.level = list(root.handlers), root.level
        self.style = qapp.styleSheet()
        self.palette, self.font = QPalette(qapp.palette()), qapp.font()

    def undo(self) -> None:
        for signum, handler in self.handlers.items():
            signal.signal(signum, handler)
        signal.set_wakeup_fd(self.wakeup)
        root = logging.getLogger()
        for handler in root.handlers[len(self.log_handlers) :]:
            handler.close()
            root.removeHandler(handler)
        root.setLevel(self.level)
        asyncio.set_event_loop(self.loop)
        self.qapp.setStyleSheet(self.style)
        self.qapp.setPalette(self.palette)
        self.qapp.setFont(self.font)


def run_starting_with(
    qapp: Any,
    loop: asyncio.AbstractEventLoop,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    start: Callable[[Application], Coroutine[Any, Any, None]],
) -> int:
    """``run()`` over ``folder`` with ``start`` as ``Application.start``; what it changes for
    the whole process is put back afterwards."""
    monkeypatch.setattr(Application, "start", start)
    restore = Restore(qapp, loop)
    try:
        return run(["--data-dir", str(folder)])
    finally:
        restore.undo()


def test_run_shows_the_window_and_sigterm_flushes_records_the_open_session_and_exits_0(
    qapp, loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    seen: dict[str, Any] = {}
    real_start = Application.start

    async def start_then_sigterm(self: Application) -> None:
        await real_start(self)
        seen["app"], seen["current"] = self, self.started and self.started.controller.current
        seen["visible"] = self.window.isVisible()
        signal.raise_signal(signal.SIGTERM)  # as a logout would send it

    try:
        code = run_starting_with(qapp, loop, tmp_path, monkeypatch, start_then_sigterm)
    finally:
        if "app" in seen:
            disconnect_application(qapp, seen["app"])
    assert code == 0
    assert seen["visible"]
    assert seen["current"] is not None
    assert read_state(tmp_path).open == (seen["current"],)
    assert (tmp_path / "sessions" / seen["current"] / "session.jsonl").is_file()
    assert not seen["app"].window.isVisible()
    assert "Chime exited cleanly" in (tmp_path / LOG_FILE).read_text(encoding="utf-8")


class Replaced(BaseException):
    """The process image was replaced: nothing after ``os.execv`` runs."""


@pytest.mark.parametrize("exec_fails", [False, True])
def test_a_restart_quits_flushed_then_replaces_the_process_with_a_new_start(
    qapp,
    loop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    exec_fails: bool,
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    seen: dict[str, Any] = {}
    real_start = Application.start

    def execv(path: str, argv: list[str]) -> None:
        seen["exec"] = (path, argv)
        seen["state_at_exec"] = read_state(tmp_path).open
        seen["lock_free_at_exec"] = try_lock(tmp_path / "sessions" / seen["current"])
        if exec_fails:
            raise OSError(errno.ENOEXEC, "Exec format error")
        raise Replaced

    async def start_then_restart(self: Application) -> None:
        await real_start(self)
        seen["app"], seen["current"] = self, self.started and self.started.controller.current
        self.restart_wanted = True  # what "Restart now" sets before quitting
        await self.quit()

    monkeypatch.setattr(os, "execv", execv)
    try:
        if exec_fails:
            assert run_starting_with(qapp, loop, tmp_path, monkeypatch, start_then_restart) == 1
        else:
            with pytest.raises(Replaced):
                run_starting_with(qapp, loop, tmp_path, monkeypatch, start_then_restart)
    finally:
        if "app" in seen:
            disconnect_application(qapp, seen["app"])
        if seen.get("lock_free_at_exec"):
            seen["lock_free_at_exec"].release()
    assert seen["exec"] == (sys.executable, restart_command(tmp_path))
    assert seen["state_at_exec"] == (seen["current"],)  # recorded before the new start
    assert seen["lock_free_at_exec"] is not None  # the session was closed and its lock released
    log = (tmp_path / LOG_FILE).read_text(encoding="utf-8")
    assert "Chime starts again" in log  # flushed before the exec
    assert "Chime exited cleanly" not in log
    said = capsys.readouterr().err
    if exec_fails:
        assert "could not start again (Exec format error); start Chime yourself." in said
    else:
        assert "could not start again" not in said


def test_a_start_that_fails_is_shown_in_one_sentence_and_sigterm_still_exits_cleanly(
    qapp, loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # run() installs its own
    seen: dict[str, Any] = {}

    async def failing_start(self: Application) -> None:
        seen["app"] = self
        signal.raise_signal(signal.SIGTERM)  # the user gives up on the broken window
        raise RuntimeError("the engine could not be composed")

    code = run_starting_with(qapp, loop, tmp_path, monkeypatch, failing_start)
    assert code == 0
    window = seen["app"].window
    boxes = window.findChildren(QMessageBox)
    assert [box.text() for box in boxes] == [
        f"Something unexpected went wrong; details are in {LOG_FILE} in the data folder."
    ]
    boxes[0].close()
    logged = (tmp_path / LOG_FILE).read_text(encoding="utf-8")
    assert "RuntimeError: the engine could not be composed" in logged
    assert "Chime exited cleanly" in logged
    assert not window.isVisible()


def test_a_quit_asked_while_sessions_are_opening_runs_once_they_are_open(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    chime = RealApp(qtbot, qapp, loop, tmp_path, clock, start=False)
    try:

        async def start_and_quit_at_once() -> None:
            starting = asyncio.ensure_future(chime.chime.start())
            await asyncio.sleep(0)  # start is now opening the sessions
            await chime.chime.quit()  # deferred: nothing may be left half-open
            assert not chime.window.isHidden()
            await starting
            await chime.chime.wait_done()

        chime.run(start_and_quit_at_once())
        assert chime.window.isHidden()
        assert chime.controller.open == {}
        assert len(read_state(tmp_path).open) == 1  # the new session is recorded as open
        chime.run(chime.chime.wait_done())  # already done: returns at once
    finally:
        chime.close()


def test_an_unknown_session_argument_says_it_could_not_open_and_starts_a_new_one(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    chime = RealApp(qtbot, qapp, loop, tmp_path, clock, session_arg="no-such-session")
    try:
        assert chime.window.message_bar.text().startswith("Could not open the session")
        assert chime.controller.current is not None
        assert chime.controller.current != "no-such-session"
        assert chime.window.composer.editor.isEnabled()
    finally:
        chime.close()


def remind_in_two_minutes(chime: RealApp) -> None:
    chime.send("remind me in 2 minutes to stretch")
    assert chime.window.reminders.model.rowCount() == 1
    opened = chime.controller.current_session()
    assert opened is not None
    waker = opened.waker
    assert waker is not None
    due = chime.clock() + timedelta(minutes=2)
    chime.until(lambda: waker.wake_at == due)  # the owner has armed its timer for it
    chime.clock.advance(timedelta(minutes=2))  # due now; its 2-minute Qt timer has not run


def wait_for_the_reminder_turn(chime: RealApp) -> None:
    chime.until(lambda: "reminder" in chime.kinds() and chime.idle())
    assert chime.window.reminders.model.rowCount() == 0


def test_becoming_the_active_application_fires_a_reminder_that_fell_due(
    open_app: Opener, qapp
) -> None:
    with open_app() as chime:
        chime.activate()  # the real activation is over before the reminder falls due
        remind_in_two_minutes(chime)
        chime.inside(
            lambda: qapp.applicationStateChanged.emit(Qt.ApplicationState.ApplicationInactive)
        )
        assert "reminder" not in chime.kinds()  # going to the background re-drives nothing
        chime.inside(
            lambda: qapp.applicationStateChanged.emit(Qt.ApplicationState.ApplicationActive)
        )
        wait_for_the_reminder_turn(chime)


def test_a_wall_clock_jump_fires_a_reminder_that_fell_due(open_app: Opener) -> None:
    with open_app() as chime:
        remind_in_two_minutes(chime)  # the wall clock moved 2 minutes, the monotonic one did not
        chime.inside(chime.chime.jumps.check)
        wait_for_the_reminder_turn(chime)


def test_a_system_colour_scheme_change_reapplies_only_the_system_theme(
    open_app: Opener, qapp
) -> None:
    with open_app() as chime:
        window = QPalette.ColorRole.Window
        light, dark = palette_for("light").color(window), palette_for("dark").color(window)
        qapp.setPalette(palette_for("dark"))
        chime.inside(lambda: qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light))
        assert qapp.palette().color(window) == light  # the desktop's scheme (offscreen: light)
        chime.settings_flow.settings = Settings(theme="dark", text_size=12)
        qapp.setPalette(palette_for("dark"))
        chime.inside(lambda: qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light))
        assert qapp.palette().color(window) == dark  # a chosen theme stays


def test_retry_without_a_failed_turn_and_undo_without_a_deleted_session_say_or_change_nothing(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        current = chime.controller.current
        chime.trigger("retry")
        assert chime.window.message_bar.text() == "There is no failed turn to retry."
        chime.trigger("undo_delete")
        chime.run(asyncio.sleep(0))
        assert chime.controller.current == current
        assert [sid for sid, _ in chime.sidebar()] == [current]


class FakeKeyring:
    """A system keyring holding passwords in memory; ``broken`` makes every call fail."""

    def __init__(self) -> None:
        self.saved: dict[tuple[str, str], str] = {}
        self.broken = False

    def _check(self) -> None:
        if self.broken:
            raise RuntimeError("the keyring daemon went away")

    def get_password(self, service: str, name: str) -> str | None:
        self._check()
        return self.saved.get((service, name))

    def set_password(self, service: str, name: str, value: str) -> None:
        self._check()
        self.saved[(service, name)] = value

    def delete_password(self, service: str, name: str) -> None:
        self._check()
        del self.saved[(service, name)]


def test_with_a_keyring_the_key_lives_there_and_a_failing_keyring_is_only_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ring = FakeKeyring()
    monkeypatch.setattr(settings_module, "_usable_keyring", lambda: ring)
    keys = KeyStore(tmp_path)
    assert keys.note == "The API key is kept in the system keyring."
    assert keys.get() == ""
    keys.set("sk-secret")
    assert ring.saved == {("Chime", "api-key"): "sk-secret"}
    assert keys.get() == "sk-secret"
    assert list(tmp_path.iterdir()) == []  # never in a file
    ring.broken = True
    keys.set("sk-other")
    assert keys.get() == ""
    assert "sk-" not in caplog.text  # the failures are logged without the key
    assert "keyring write failed: RuntimeError" in caplog.text
    ring.broken = False
    keys.set("")
    assert ring.saved == {}


def test_a_keyring_backend_that_cannot_store_secrets_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring, "get_keyring", fail.Keyring)
    assert settings_module._usable_keyring() is None

    class Usable:
        priority = 5

    monkeypatch.setattr(keyring, "get_keyring", Usable)
    assert settings_module._usable_keyring() is keyring

    def broken() -> None:
        raise RuntimeError("no backend")

    monkeypatch.setattr(keyring, "get_keyring", broken)
    assert settings_module._usable_keyring() is None


def test_closing_the_window_flushes_once_and_the_next_start_reopens_the_session_and_size(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    with running(qtbot, qapp, loop, tmp_path, clock) as first:
        first.send("remember me after a restart")
        session_id = first.controller.current
        first.window.resize(760, 540)

        async def close_then_ctrl_q() -> None:
            first.window.close()  # the title bar's close button: the app decides how to quit
            first.window.window_actions.action("quit").trigger()  # a second quit is ignored
            await first.chime.wait_done()

        first.run(close_then_ctrl_q())
        assert first.window.isHidden()
        assert read_state(tmp_path).open == (session_id,)
    with running(qtbot, qapp, loop, tmp_path, clock) as again:
        assert again.controller.current == session_id
        assert again.transcript_texts()[0] == "remember me after a restart"
        assert (again.window.width(), again.window.height()) == (760, 540)


class Hanging:
    """A provider that streams a few words, then waits until the turn is cancelled."""

    @property
    def info(self) -> Any:
        from core.llm.messages import ModelInfo

        return ModelInfo("test", "hanging")

    async def stream(self, request: object) -> Any:
        from core.llm.messages import TextDelta

        yield TextDelta("Thinking about")
        await asyncio.Event().wait()


def test_ctrl_q_during_a_streaming_answer_keeps_the_partial_answer_and_the_restart_answers_it(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    with running(qtbot, qapp, loop, tmp_path, clock) as chime:
        chime.controller.set_provider(Hanging)
        chime.window.composer.editor.setPlainText("hello")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.kinds()[-1:] == ["streaming"])
        session_id = chime.controller.current

        async def ctrl_q() -> None:
            chime.window.window_actions.action("quit").trigger()
            await chime.chime.wait_done()

        chime.run(ctrl_q())
        assert chime.window.isHidden()
    with running(qtbot, qapp, loop, tmp_path, clock) as again:
        assert again.controller.current == session_id
        again.until(lambda: again.idle() and again.kinds()[-1] == "assistant")
        texts = again.transcript_texts()
        # The interrupted input is answered once more (agent.md §3); the transcript shows its
        # answer, the latest turn (§7), and the log keeps the partial one.
        assert texts[0] == "hello"
        assert len(texts) == 2
        opened = again.controller.current_session()
        assert opened is not None
        partial = [
            e.event
            for e in opened.session.entries
            if isinstance(e.event, AssistantMessage) and e.event.finish == "interrupted"
        ]
        assert [answer.text for answer in partial] == ["Thinking about"]


def test_quitting_while_a_session_is_closing_waits_for_that_close_to_finish(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:

    with running(qtbot, qapp, loop, tmp_path, clock) as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("hello")
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first)
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(first))
        chime.until(lambda: chime.controller.current == first)

        async def ctrl_w_then_ctrl_q() -> None:
            chime.window.window_actions.action("close_session").trigger()
            chime.window.window_actions.action("quit").trigger()
            await chime.chime.wait_done()

        chime.run(ctrl_w_then_ctrl_q())
        lock = try_lock(tmp_path / "sessions" / first)  # the loop is not run again: as at exit
        assert lock is not None  # the close finished: flushed and its lock released
        lock.release()


@pytest.mark.slow  # a second process plays the running instance
def test_a_start_on_a_folder_whose_chime_runs_hands_over_and_exits_0_without_a_window(
    qapp, loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The running instance is a plain socket at Qt's local-socket path that answers ok, in a
    process of its own (a start blocks on its socket while it waits for the answer)."""
    path = socket_path(tmp_path, os.getuid())
    assert path is not None
    instance = subprocess.Popen(
        [sys.executable, "-c", RUNNING_INSTANCE, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert instance.stdout is not None
    assert instance.stdout.readline().strip() == "listening"
    monkeypatch.setattr(sys, "argv", ["chime", "--data-dir", str(tmp_path), "--session", "s-1"])
    restore = Restore(qapp, loop)
    try:
        code = entry_point.main()
    finally:
        restore.undo()
        heard, _ = instance.communicate(timeout=10)
        path.unlink(missing_ok=True)

    assert code == 0
    assert json.loads(heard) == {"session": "s-1"}
    assert "its window was brought forward" in capsys.readouterr().out
    assert not (tmp_path / "sessions").exists()  # nothing was opened here


RUNNING_INSTANCE = """
import socket, sys
listener = socket.socket(socket.AF_UNIX)
listener.bind(sys.argv[1])
listener.listen(1)
print("listening", flush=True)
client, _ = listener.accept()
line = client.recv(4096)
client.sendall(b"ok\\n")
client.close()
print(line.decode().strip(), flush=True)
"""


def test_ctrl_q_with_messages_a_full_disk_kept_from_saving_asks_before_losing_them(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.session import jsonl_store

    real_pwrite = jsonl_store.OsFileOps.pwrite
    full = {"now": False}

    def pwrite(ops: Any, fd: int, data: bytes, offset: int) -> int:
        if full["now"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_pwrite(ops, fd, data, offset)

    monkeypatch.setattr(jsonl_store.OsFileOps, "pwrite", pwrite)
    with running(qtbot, qapp, loop, tmp_path, clock) as chime:
        chime.send("saved before the disk filled")
        full["now"] = True
        chime.send("typed on a full disk")
        chime.answers.lose = [False]
        chime.trigger("quit")
        chime.until(lambda: chime.answers.lose == [])
        assert chime.window.isVisible()  # kept open: nothing lost yet
        assert "could not be saved" in chime.answers.asked[-1]
        chime.until(lambda: "Chime stays open" in chime.window.message_bar.text())
        full["now"] = False  # space returned: the quit asks nothing more
        chime.trigger("quit")
        chime.run(chime.chime.wait_done())
        assert chime.answers.lose == []
        # Asked from the Qt loop, not inside a task: a real dialog's nested loop runs there, and
        # inside a task it left every task started meanwhile unrun (seen on a real full disk:
        # the writer's retry never ran, and the next quit waited for it forever).
        assert chime.answers.asked_inside_a_task == [False]
    sid = read_state(tmp_path).current
    log = (tmp_path / "sessions" / str(sid) / "session.jsonl").read_text(encoding="utf-8")
    assert "typed on a full disk" in log


def test_closing_the_window_on_a_full_disk_can_still_quit_and_lose_what_was_not_saved(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.session import jsonl_store

    with running(qtbot, qapp, loop, tmp_path, clock) as chime:
        chime.send("saved before the disk filled")
        monkeypatch.setattr(jsonl_store.OsFileOps, "pwrite", fail_with_enospc)
        chime.send("typed on a full disk")
        chime.answers.lose = [True]
        chime.inside(chime.window.close)
        chime.run(chime.chime.wait_done())
        assert chime.window.isHidden()
        assert chime.answers.asked_inside_a_task == [False]
    sid = read_state(tmp_path).current
    log = (tmp_path / "sessions" / str(sid) / "session.jsonl").read_text(encoding="utf-8")
    assert "typed on a full disk" not in log


def fail_with_enospc(*_args: Any) -> int:
    raise OSError(errno.ENOSPC, "No space left on device")
