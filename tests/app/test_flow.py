"""The whole app in-process: type a reminder, see it confirmed and listed, let it fire, quit,
restart and catch up; read-only and corrupt sessions; keyboard only."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.engine import OpenSession
from app.state import read_state
from tests.app.harness import Chime
from tests.fakes import FakeClock


def start(qtbot, loop, data_dir: Path, clock: FakeClock) -> Chime:
    chime = Chime(qtbot, loop, data_dir, clock)
    state = read_state(data_dir)
    chime.run(chime.controller.start(list(state.open), state.current))
    chime.window.show()
    return chime


def type_and_send(qtbot, chime: Chime, text: str) -> None:
    editor = chime.window.composer.editor
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


def advance_and_fire(chime: Chime, clock: FakeClock, delta: timedelta) -> None:
    """Once the owner armed its timer, move the fake clock and re-arm: a 0 ms timer fires."""
    opened = chime.controller.current_session()
    assert opened is not None
    waker = opened.waker
    assert waker is not None
    chime.until(lambda: waker.wake_at is not None)
    wake_at = waker.wake_at
    assert wake_at is not None
    clock.advance(delta)
    waker.arm(wake_at)


@pytest.mark.slow
def test_a_typed_reminder_is_confirmed_listed_and_fires_as_a_turn(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    chime.window.composer.editor.setFocus()
    type_and_send(qtbot, chime, "remind me in 2 minutes to stretch")
    chime.until(lambda: chime.idle() and "assistant" in chime.kinds())
    texts = chime.transcript_texts()
    assert texts[0] == "remind me in 2 minutes to stretch"
    assert any(t.startswith("Create reminder — stretch") and "schedule-1" in t for t in texts)
    assert any("stretch" in t and "schedule-1" in t for t in texts if not t.startswith("Create"))
    panel = chime.window.reminders.model
    assert panel.rowCount() == 1
    assert panel.index(0).data().startswith("stretch\nonce · today 14:02 · in 2 min")
    advance_and_fire(chime, clock, timedelta(minutes=2))
    chime.until(
        lambda: "reminder" in chime.kinds() and chime.idle() and chime.kinds()[-1] == "assistant"
    )
    assert chime.transcript_texts()[chime.kinds().index("reminder")] == "stretch"
    assert chime.window.transcript.accessibleDescription() == "Reminder: stretch"  # announced
    assert panel.rowCount() == 0
    chime.quit()


@pytest.mark.slow
def test_quitting_then_restarting_catches_up_the_overdue_reminder(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    type_and_send(qtbot, chime, "remind me in 2 minutes to stretch")
    chime.until(lambda: chime.idle() and chime.window.reminders.model.rowCount() == 1)
    session_id = chime.controller.current
    chime.quit()
    assert read_state(tmp_path).open == (session_id,)
    clock.advance(timedelta(minutes=30))
    again = start(qtbot, loop, tmp_path, clock)
    assert again.controller.current == session_id
    again.until(
        lambda: "reminder" in again.kinds() and again.idle() and again.kinds()[-1] == "assistant"
    )
    row = again.window.transcript_model.row_at(again.kinds().index("reminder"))
    assert row is not None
    assert row.late
    assert again.window.transcript.follow.is_following()  # the caught-up answer is on screen
    again.quit()


def session_log(data_dir: Path, session_id: str) -> Path:
    return data_dir / "sessions" / session_id / "session.jsonl"


def open_in_two_instances(
    qtbot, loop, data_dir: Path, clock: FakeClock
) -> tuple[Chime, Chime, OpenSession]:
    """A session with a reminder, live in ``first`` and shown read-only by ``second``."""
    first = start(qtbot, loop, data_dir, clock)
    type_and_send(qtbot, first, "remind me in 5 minutes to stretch")
    first.until(first.idle)
    session_id = first.controller.current
    assert session_id is not None
    second = Chime(qtbot, loop, data_dir, clock)  # a second store: its own lock file descriptor
    second.run(second.controller.start([session_id], session_id))
    opened = second.controller.current_session()
    assert opened is not None
    assert opened.session.read_only
    return first, second, opened


@pytest.mark.slow
def test_a_session_open_in_another_instance_is_read_only_with_a_banner(
    qtbot, loop, tmp_path, clock
) -> None:
    first, second, opened = open_in_two_instances(qtbot, loop, tmp_path, clock)
    assert not opened.live
    assert second.window.banner.isVisibleTo(second.window)
    assert "another window" in second.window.banner.label.text()
    assert second.window.status.state_label.text() == "Session: read-only: open elsewhere"
    assert not second.window.composer.editor.isEnabled()
    assert second.transcript_texts()[0] == "remind me in 5 minutes to stretch"
    second.quit()
    first.quit()


@pytest.mark.slow
def test_a_read_only_session_gets_no_provider_and_no_drive_and_writes_nothing(
    qtbot, loop, tmp_path, clock
) -> None:
    from core.llm.offline import OfflineAssistant

    first, second, opened = open_in_two_instances(qtbot, loop, tmp_path, clock)
    log = session_log(tmp_path, opened.id)
    before = log.read_bytes()
    second.controller.set_provider(lambda: OfflineAssistant(clock))  # Settings applied there
    second.controller.redrive_all()  # that window became active
    second.until(lambda: second.tasks.pending == 0)
    assert not opened.live
    assert opened.agent is None
    assert not second.window.composer.editor.isEnabled()
    assert log.read_bytes() == before
    second.quit()
    first.quit()


@pytest.mark.slow
def test_a_corrupt_log_opens_read_only_and_can_be_forked(qtbot, loop, tmp_path, clock) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    type_and_send(qtbot, chime, "remind me in 5 minutes to stretch")
    chime.until(chime.idle)
    type_and_send(qtbot, chime, "what reminders do I have")
    chime.until(lambda: chime.idle() and chime.kinds().count("assistant") >= 2)
    session_id = chime.controller.current
    assert session_id is not None
    chime.quit()
    path = session_log(tmp_path, session_id)
    lines = path.read_bytes().split(b"\n")
    lines[-4] = b'{"seq": broken'
    path.write_bytes(b"\n".join(lines))
    again = start(qtbot, loop, tmp_path, clock)
    opened = again.controller.current_session()
    assert opened is not None
    assert opened.session.read_only
    assert again.window.status.state_label.text() == "Session: corrupt"
    assert "corrupt" in again.window.banner.label.text()
    assert again.window.banner.button.isVisibleTo(again.window)
    with qtbot.waitSignal(again.window.fork_requested):
        qtbot.mouseClick(again.window.banner.button, Qt.MouseButton.LeftButton)
    again.run(again.controller.actions.fork_current())
    child = again.controller.current_session()
    assert child is not None
    assert child.id != session_id
    assert not child.session.read_only
    assert again.transcript_texts()[0] == "remind me in 5 minutes to stretch"
    assert again.window.composer.editor.isEnabled()
    again.quit()


@pytest.mark.slow
def test_the_whole_flow_works_with_the_keyboard_only(qtbot, loop, tmp_path, clock) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    window = chime.window
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    first = chime.controller.current
    window.transcript.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    editor = window.composer.editor
    chime.until(editor.hasFocus)  # the empty session on screen is the new one: none is stacked
    assert chime.controller.current == first
    assert len(chime.controller.open) == 1
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert editor.hasFocus()
    qtbot.keyClicks(editor, "remind me in 2 minutes to stretch")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    chime.until(lambda: chime.idle() and window.reminders.model.rowCount() == 1)
    tools = window.composer.tools
    for widget in (tools.attach_button, tools.picker, tools.instructions_button):
        qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Tab)  # the composer's tools row
        assert widget.hasFocus()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Tab)  # Send, Stop disabled: the reminders
    assert window.reminders.list.hasFocus()
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # hide the panel
    assert not window.reminders_dock.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # show and focus it
    assert window.reminders.list.hasFocus()
    qtbot.keyClick(window.reminders.list, Qt.Key.Key_Down)
    qtbot.keyClick(window.reminders.list, Qt.Key.Key_Tab)
    assert window.reminders.delete_button.hasFocus()
    qtbot.keyClick(window.reminders.delete_button, Qt.Key.Key_Space)
    assert editor.toPlainText() == "Delete reminder schedule-1"
    assert editor.hasFocus()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    chime.until(lambda: chime.idle() and window.reminders.model.rowCount() == 0)
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert window.transcript.hasFocus()
    assert window.transcript.currentIndex().isValid()
    chime.quit()


@pytest.mark.slow
def test_settings_saved_from_the_dialog_survive_a_restart(
    qtbot, loop, tmp_path, clock, monkeypatch
) -> None:
    from app.settings import KeyStore, load_settings
    from app.settings_flow import SettingsFlow, settings_draft
    from ui.settings_dialog import SettingsDialog

    chime = start(qtbot, loop, tmp_path, clock)
    qapp = qtbot._request.getfixturevalue("qapp")
    keys = KeyStore(tmp_path / "config", use_keyring=False)
    flow = SettingsFlow(
        load_settings(tmp_path),
        app=qapp,
        window=chime.window,
        folder=tmp_path,
        keys=keys,
        clock=chime.clock,
        tasks=chime.tasks,
        use_provider=chime.controller.set_provider,
    )
    dialog = SettingsDialog(settings_draft(flow.settings, "", keys.note), [])
    qtbot.addWidget(dialog)
    dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("dark"))
    dialog.size_spin.setValue(13)
    flow.apply(dialog.draft())
    chime.quit()
    restored = load_settings(tmp_path)
    assert (restored.theme, restored.text_size, restored.provider) == ("dark", 13, "offline")
    qapp.setFont(qapp.font())  # appearance applied without errors


@pytest.mark.slow
def test_a_reminder_in_a_session_not_on_screen_marks_it_unread_and_asks_for_attention(
    qtbot, loop, tmp_path, clock, monkeypatch
) -> None:
    alerts: list[object] = []
    monkeypatch.setattr("app.session_relay.request_attention", alerts.append)
    chime = start(qtbot, loop, tmp_path, clock)
    chime.controller.is_active = lambda: False  # the window is in the background
    type_and_send(qtbot, chime, "remind me in 2 minutes to stretch")
    chime.until(lambda: chime.idle() and chime.window.reminders.model.rowCount() == 1)
    first = chime.controller.current
    assert first is not None
    waker = chime.controller.open[first].waker
    assert waker is not None
    chime.until(lambda: waker.wake_at is not None)
    wake_at = waker.wake_at
    assert wake_at is not None
    chime.run(chime.controller.new_session())  # the first has a message: a new one is made
    assert chime.controller.current != first
    clock.advance(timedelta(minutes=2))
    waker.arm(wake_at)
    sidebar = chime.window.sessions.model
    chime.until(lambda: sidebar.item(sidebar.row_of(first)).unread)  # type: ignore[union-attr]
    assert alerts == [chime.window]
    chime.run(chime.controller.open_session(first))
    assert not sidebar.item(sidebar.row_of(first)).unread  # type: ignore[union-attr]
    assert "reminder" in chime.kinds()
    chime.quit()


@pytest.mark.slow
def test_a_second_instance_never_overwrites_the_owners_state(qtbot, loop, tmp_path, clock) -> None:
    first = start(qtbot, loop, tmp_path, clock)
    owned = first.controller.current
    second = start(qtbot, loop, tmp_path, clock)  # reopens the same session: read-only here
    assert second.controller.current == owned
    second.quit()
    assert read_state(tmp_path).open == (owned,)
    first.quit()
    assert read_state(tmp_path).open == (owned,)


class FailingOnce:
    """A provider whose first step fails like an unreachable endpoint, then answers."""

    def __init__(self) -> None:
        self.calls = 0

    @property
    def info(self):
        from core.llm.messages import ModelInfo

        return ModelInfo("test", "failing-once")

    async def stream(self, request):
        from core.errors import ProviderError
        from core.llm.messages import Finish, TextDelta

        self.calls += 1
        if self.calls == 1:
            raise ProviderError("connection", "Could not reach the model server.", retryable=True)
        yield TextDelta("Back again.")
        yield Finish("Back again.", (), "stop")


@pytest.mark.slow
def test_a_failed_turn_shows_an_error_row_and_enter_on_it_retries(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    provider = FailingOnce()
    chime.controller.set_provider(lambda: provider)
    type_and_send(qtbot, chime, "hello")
    opened = chime.controller.current_session()
    assert opened is not None
    agent = opened.agent
    assert agent is not None
    chime.until(lambda: "error" in chime.kinds() and agent.status == "idle")  # input held for Retry
    row = chime.kinds().index("error")
    assert chime.transcript_texts()[row] == "Could not reach the model server."
    view = chime.window.transcript
    view.setFocus()
    view.setCurrentIndex(chime.window.transcript_model.index(row))

    async def press_enter() -> None:  # Qt input handled inside the running loop, as in the app
        qtbot.keyClick(view, Qt.Key.Key_Return)

    chime.run(press_enter())
    chime.until(lambda: chime.kinds()[-1] == "assistant" and chime.idle())
    assert chime.transcript_texts()[-1] == "Back again."
    chime.quit()


@pytest.mark.slow
def test_export_writes_markdown_and_jsonl(qtbot, loop, tmp_path, clock) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    type_and_send(qtbot, chime, "remind me in 5 minutes to stretch")
    chime.until(chime.idle)
    chime.run(chime.controller.actions.export_current("markdown", tmp_path / "out.md"))
    chime.run(chime.controller.actions.export_current("jsonl", tmp_path / "out.jsonl"))
    assert "remind me in 5 minutes to stretch" in (tmp_path / "out.md").read_text()
    assert '"schedule/change"' in (tmp_path / "out.jsonl").read_text()
    chime.quit()


class Hanging:
    """A provider that streams a few words, then waits until it is cancelled."""

    @property
    def info(self):
        from core.llm.messages import ModelInfo

        return ModelInfo("test", "hanging")

    async def stream(self, request):
        import asyncio

        from core.llm.messages import TextDelta

        yield TextDelta("Thinking about")
        await asyncio.Event().wait()


@pytest.mark.slow
def test_streamed_text_shows_while_running_and_escape_stops_the_turn(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    window = chime.window
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    chime.controller.set_provider(Hanging)
    type_and_send(qtbot, chime, "hello")
    chime.until(lambda: chime.kinds()[-1:] == ["streaming"])
    assert chime.transcript_texts()[-1] == "Thinking about"  # in its own row, in place
    assert window.composer.stop_button.isEnabled()
    assert window.composer.send_button.text() == "Queue"

    async def press_escape() -> None:  # Qt input handled inside the running loop, as in the app
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Escape)

    chime.run(press_escape())
    chime.until(lambda: "notice" in chime.kinds() and not window.composer.stop_button.isEnabled())
    assert chime.transcript_texts()[-1] == "Stopped."
    assert "streaming" not in chime.kinds()
    assert chime.transcript_texts()[-2] == "Thinking about"  # the partial answer is kept
    chime.quit()


@pytest.mark.slow
def test_delete_moves_the_session_to_the_trash_and_undo_brings_it_back(
    qtbot, loop, tmp_path, clock
) -> None:
    chime = start(qtbot, loop, tmp_path, clock)
    type_and_send(qtbot, chime, "remember this chat")
    chime.until(chime.idle)
    doomed = chime.controller.current
    assert doomed is not None
    chime.run(chime.controller.actions.delete_current())
    assert (tmp_path / "trash" / doomed).is_dir()
    assert chime.controller.current != doomed
    assert chime.window.sessions.model.row_of(doomed) == -1  # gone from the sidebar
    chime.run(chime.controller.actions.undo_delete())
    assert (tmp_path / "sessions" / doomed).is_dir()
    assert chime.controller.current == doomed
    assert chime.transcript_texts()[0] == "remember this chat"
    chime.quit()
