"""When the store refuses a session action or a disk step fails, the real window says so in words
(or the log does) and stays usable; with no session at all the session actions do nothing and
ask nothing."""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from core.errors import SessionError
from core.session.store import SessionStore
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def refuse(error: Exception) -> Callable[..., Coroutine[Any, Any, Any]]:
    """A store call that fails with ``error``, whatever it is asked."""

    async def refused(*_args: object, **_kwargs: object) -> Any:
        raise error

    return refused


def os_error(code: int) -> OSError:
    return OSError(code, os.strerror(code))


def trigger_and_settle(chime: RealApp, name: str) -> None:
    """Trigger an action, then run the loop until every task it started has ended."""
    chime.trigger(name)
    chime.until(lambda: chime.tasks.pending == 0)


def refused_then(
    chime: RealApp, monkeypatch: pytest.MonkeyPatch, call: str, error: Exception, action: str
) -> None:
    """Make the store's ``call`` fail with ``error``, then trigger ``action`` and let it end."""
    monkeypatch.setattr(chime.controller.store, call, refuse(error))
    trigger_and_settle(chime, action)


def test_a_fork_the_store_refuses_says_why_and_the_session_stays_on_screen(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_app() as chime:
        chime.send("hello")
        current = chime.controller.current
        refusal = SessionError("the session changed while it was copied")
        refused_then(chime, monkeypatch, "fork", refusal, "fork_session")
        message = chime.window.message_bar.text()
        assert message == "Could not fork: the session changed while it was copied"
        assert list(chime.controller.open) == [current]
        assert chime.controller.current == current
        assert chime.transcript_texts()[0] == "hello"


def test_a_delete_the_trash_refuses_says_why_and_leaves_nothing_to_undo(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_app() as chime:
        chime.send("keep me")
        doomed = chime.controller.current
        assert doomed is not None
        refused_then(chime, monkeypatch, "trash", os_error(errno.EACCES), "delete_session")
        assert chime.window.message_bar.text() == "Could not delete: Permission denied"
        assert doomed in [sid for sid, _title in chime.sidebar()]  # closed, still listed
        shown = chime.controller.current
        trigger_and_settle(chime, "undo_delete")
        assert chime.controller.current == shown
        assert doomed not in chime.controller.open


def test_a_new_session_the_store_refuses_says_why_above_the_session_on_screen(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_app() as chime:
        current = chime.controller.current
        chime.send("hello")  # not empty: Ctrl+N makes a new session
        refused_then(chime, monkeypatch, "create", SessionError("no more ids"), "new_session")
        text = "Could not create a new session. no more ids"
        assert chime.window.message_bar.text() == text
        assert chime.window.banner.label.text() == text
        assert chime.controller.current == current
        assert chime.window.composer.editor.isEnabled()  # the session on screen stays usable


def test_a_session_list_that_cannot_be_read_is_logged_and_the_sidebar_keeps_the_open_ones(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with open_app() as chime:
        first = chime.controller.current
        chime.send("hello")
        trigger_and_settle(chime, "new_session")
        assert chime.controller.current != first
        refused_then(chime, monkeypatch, "list", os_error(errno.EIO), "close_session")
        assert chime.controller.current == first
        assert [sid for sid, _title in chime.sidebar()] == [first]
        assert "listing sessions failed: [Errno 5] Input/output error" in caplog.text


def test_a_state_file_that_cannot_be_written_is_logged_and_the_app_goes_on(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_space(_folder: Path, _state: object) -> None:
        raise os_error(errno.ENOSPC)

    with open_app() as chime:
        first = chime.controller.current
        chime.send("hello")
        monkeypatch.setattr("app.kept_state.write_state", no_space)
        trigger_and_settle(chime, "new_session")
        assert chime.controller.current not in (None, first)
        assert "cannot write state.json: [Errno 28] No space left on device" in caplog.text
        assert chime.window.findChildren(QMessageBox) == []


def test_a_session_whose_close_fails_at_quit_is_logged_and_quitting_still_finishes(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with open_app() as chime:
        opened = chime.controller.current_session()
        assert opened is not None
        close = opened.close

        async def close_then_fail() -> None:
            await close()  # flushed and unlocked all the same: nothing leaks into other tests
            raise os_error(errno.EIO)

        monkeypatch.setattr(opened, "close", close_then_fail)
        chime.run(chime.chime.quit())
        chime.run(chime.chime.wait_done())
        assert chime.window.isHidden()
        assert f"closing {opened.id} failed: [Errno 5] Input/output error" in caplog.text


def test_with_no_session_at_all_the_session_actions_do_nothing_and_ask_nothing(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    unexpected: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda _kind, error, _tb: unexpected.append(error))
    monkeypatch.setattr(SessionStore, "create", refuse(os_error(errno.EROFS)))
    with running(qtbot, qapp, loop, tmp_path, clock) as chime:
        assert chime.controller.current is None
        assert not chime.window.composer.editor.isEnabled()
        for name in (
            "next_session",
            "previous_session",
            "rename_session",
            "export_markdown",
            "export_jsonl",
            "fork_session",
            "close_session",
            "delete_session",
            "retry",
            "stop",
        ):
            trigger_and_settle(chime, name)
        assert chime.controller.current is None
        assert chime.controller.open == {}
        assert chime.answers.suggested == []  # no export question was asked
        assert unexpected == []  # the rename question was not asked either: it has no answer
        assert chime.window.findChildren(QMessageBox) == []


def test_an_undo_whose_session_cannot_be_opened_again_says_so_and_not_that_it_is_back(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_app() as chime:
        chime.send("keep me")
        doomed = chime.controller.current
        trigger_and_settle(chime, "delete_session")
        assert chime.controller.current != doomed
        refused_then(chime, monkeypatch, "open", os_error(errno.EACCES), "undo_delete")
        assert chime.window.message_bar.text() == "Could not open the session: Permission denied"
