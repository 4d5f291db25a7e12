"""Chime in the background, in the real window: closing it keeps Chime in the tray with every
session live, a reminder fires on time into its conversation and a notification points to that
turn; a click shows it and clears unread; unread survives a restart; --background starts hidden."""

from __future__ import annotations

import asyncio
import functools
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QIcon

import app.main as app_main
from app.notifications import DesktopNotifier, Pointer
from app.state import read_state
from core.events import AssistantMessage, Entry, ModelRef, TurnStart, UserMessage, UserSource
from tests.app.harness import run_loop
from tests.app.test_notifications import FakeTransport, notifier_with
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.tray import TrayIcon


class Seams:
    """A tray icon and a notifier over a fake transport, as the app would build them."""

    def __init__(self) -> None:
        self.transport = FakeTransport()
        self.trays: list[TrayIcon] = []
        self.notifiers: list[DesktopNotifier] = []

    def tray(self, icon: Any) -> TrayIcon:
        self.trays.append(TrayIcon(icon))
        return self.trays[-1]

    def notifier(self) -> DesktopNotifier:
        self.notifiers.append(notifier_with(self.transport))
        return self.notifiers[-1]


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def started_inactive(open_app: Opener, seams: Seams, **options: Any) -> Any:
    """A started app whose window is never the active one (the person is elsewhere)."""
    context = open_app(start=False, tray=seams.tray, notifier=seams.notifier, **options)
    chime = context.__enter__()
    chime.chime._is_active = lambda: False  # type: ignore[method-assign]  # the seam: never active
    chime.run(chime.chime.start())
    return context, chime


def fire_due(chime: RealApp, clock: FakeClock, sid: str, minutes: int) -> None:
    waker = chime.controller.open[sid].waker
    assert waker is not None
    chime.until(lambda: waker.wake_at is not None)
    clock.advance(timedelta(minutes=minutes))
    waker.arm(clock())


@pytest.mark.slow
def test_closing_the_window_keeps_chime_running_and_the_reminder_points_back_to_its_turn(
    open_app: Opener, clock: FakeClock
) -> None:
    seams = Seams()
    context, chime = started_inactive(open_app, seams)
    try:
        sid = chime.controller.current
        assert sid is not None
        chime.send("remind me in 2 minutes to stretch")
        title = chime.controller.open[sid].session.title
        chime.inside(chime.window.close)
        assert not chime.window.isVisible()  # hidden into the tray, not quitting
        assert not chime.chime._quitting
        assert chime.controller.tray_explained
        fire_due(chime, clock, sid, 2)
        chime.until(lambda: chime.idle() and len(seams.transport.sent) >= 2)
        first, answered = seams.transport.sent[:2]
        assert first == (0, title, "Reminder: stretch")
        assert answered[0] != 0  # the same notification, replaced by one with the answer
        assert answered[1] == title
        assert answered[2].startswith("Reminder: stretch\n")
        [tray] = seams.trays
        assert tray.unread_total() == 1
        assert tray.menu_texts()[4] == f"{title} (1 unread)"
        reminder_seq = next(
            e.seq for e in chime.controller.open[sid].session.entries if "schedule" in str(e.event)
        )
        notification_id = answered[0]
        seams.transport.incoming.put_nowait(("ActionInvoked", (notification_id, "default")))
        chime.chime._is_active = lambda: True  # the click brings the window forward
        chime.until(lambda: chime.window.isVisible() and tray.unread_total() == 0)
        assert chime.controller.current == sid
        assert reminder_seq >= 0
        assert not chime.controller.open[sid].unread
    finally:
        context.__exit__(None, None, None)


@pytest.mark.slow
def test_unread_reminder_turns_are_still_unread_after_a_restart(
    open_app: Opener, clock: FakeClock, tmp_path: Path
) -> None:
    seams = Seams()
    context, chime = started_inactive(open_app, seams)
    try:
        first = chime.controller.current
        assert first is not None
        chime.send("remind me in 2 minutes to stretch")
        chime.run(chime.controller.new_session())
        chime.send("hello")
        fire_due(chime, clock, first, 2)
        chime.until(lambda: chime.controller.open[first].unread == 1 and chime.idle())
    finally:
        context.__exit__(None, None, None)
    saved = dict(read_state(tmp_path).read_upto)
    assert set(saved) == {first, chime.controller.current}
    again_seams = Seams()
    context, again = started_inactive(open_app, again_seams)
    try:
        again.until(lambda: first in again.controller.open)
        assert again.controller.open[first].unread == 1
        assert again.sidebar()  # listed
        [tray] = again_seams.trays
        again.until(lambda: tray.unread_total() == 1)
        again.run(again.controller.open_session(first))  # chosen: read
        assert again.controller.open[first].unread == 0
        assert tray.unread_total() == 0
    finally:
        context.__exit__(None, None, None)


def test_without_a_tray_closing_the_window_quits_as_before(open_app: Opener) -> None:
    with open_app(tray=lambda _icon: None) as chime:
        chime.send("hello")
        chime.inside(chime.window.close)
        chime.until(lambda: chime.chime._finished)
        assert not chime.controller.tray_explained


def test_with_the_setting_off_closing_the_window_quits(open_app: Opener, tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"keep_running": false}', encoding="utf-8")
    seams = Seams()
    with open_app(tray=seams.tray) as chime:
        chime.inside(chime.window.close)
        chime.until(lambda: chime.chime._finished)


def test_a_background_start_stays_hidden_in_the_tray(open_app: Opener) -> None:
    seams = Seams()
    with open_app(start=False, tray=seams.tray, notifier=seams.notifier) as chime:
        chime.window.hide()
        chime.chime.show_window(background=True)
        chime.run(chime.chime.start())
        assert not chime.window.isVisible()
        assert chime.controller.current is not None  # the engine runs: reminders arrive
        [tray] = seams.trays
        tray.trigger("Show Chime")
        chime.until(chime.window.isVisible)


def test_a_background_start_waits_for_a_tray_that_comes_late(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_main, "TRAY_POLL_S", 0.0)
    seams = Seams()
    asked: list[int] = []

    def panel_starting_late(icon: Any) -> TrayIcon | None:
        asked.append(1)
        return seams.tray(icon) if len(asked) > 3 else None  # the login's panel, a moment later

    with open_app(start=False, tray=panel_starting_late, notifier=seams.notifier) as chime:
        chime.window.hide()
        chime.chime.show_window(background=True)
        chime.run(chime.chime.start())
        assert not chime.window.isVisible()  # in the tray that appeared, not shown instead
        assert len(seams.trays) == 1  # the tray it waited for is the one it uses
        assert chime.started.presence.tray is seams.trays[0]
        assert chime.controller.current is not None


def test_a_background_start_without_a_tray_shows_the_window_and_says_why(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_main, "TRAY_WAIT_S", 0.05)  # gave the panel its time: none came
    with open_app(start=False, tray=lambda _icon: None) as chime:
        chime.window.hide()
        chime.chime.show_window(background=True)
        chime.run(chime.chime.start())
        assert chime.window.isVisible()
        assert "no tray" in chime.window.message_bar.text()


def test_notification_pointer_for_a_conversation_that_was_closed_opens_it(
    open_app: Opener,
) -> None:
    seams = Seams()
    with open_app(tray=seams.tray, notifier=seams.notifier) as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("hello")
        chime.run(chime.controller.new_session())
        presence = chime.started.presence
        assert presence is not None
        presence.show_requested.emit(Pointer(first, 0))
        chime.until(lambda: chime.controller.current == first)


def test_words_typed_and_sent_before_the_engine_runs_are_sent_once_it_does(
    open_app: Opener,
) -> None:
    with open_app(start=False) as chime:
        chime.window.composer.editor.setPlainText("remind me in 5 minutes to stretch")
        chime.window.composer.send()  # Enter, right after the window appeared
        assert chime.window.composer.text() == "remind me in 5 minutes to stretch"  # kept
        chime.run(chime.chime.start())
        chime.until(lambda: chime.idle() and "assistant" in chime.kinds())
        assert chime.window.composer.text() == ""
        assert any("stretch" in text for text in chime.transcript_texts())


def close_current(chime: RealApp) -> str:
    sid = chime.controller.current
    assert sid is not None
    chime.trigger("close_session")  # no answer scripted: the person goes ahead
    chime.until(lambda: sid not in chime.controller.open and chime.tasks.pending == 0)
    return sid


@pytest.mark.slow
def test_all_reminders_lists_open_and_closed_conversations_and_marks_the_overdue_one(
    open_app: Opener, clock: FakeClock
) -> None:
    seams = Seams()
    with open_app(tray=seams.tray, notifier=seams.notifier) as chime:  # 14:00 in Berlin
        chime.send("remind me in 2 minutes to stretch")
        overdue = close_current(chime)
        chime.send("remind me tomorrow at 9 to water the plants")
        waiting = close_current(chime)
        chime.send("remind me in 30 minutes to call Ana")
        live = chime.controller.current
        clock.advance(timedelta(minutes=5))
        chime.trigger("all_reminders")
        reminders = chime.started.presence.all_reminders  # type: ignore[union-attr]
        chime.until(lambda: reminders.dialog is not None and reminders.dialog.isVisible())
        model = reminders.dialog.model
        texts = [model.index(r).data() for r in range(model.rowCount())]
        assert model.headings() == ["Overdue", "Today", "Tomorrow"]
        assert texts[1].startswith("today 14:02 · stretch\n")
        assert texts[1].endswith("· once · overdue · opens to deliver")
        assert texts[3].startswith("today 14:30 · call Ana\n")
        assert texts[3].endswith("· once · live")
        assert texts[5].startswith("tomorrow 09:00 · water the plants\n")
        assert texts[5].endswith("· once · waiting until its conversation is opened")
        assert [line.session_id for line in model.lines()] == [overdue, live, waiting]
        items = dict(sidebar_items(chime))
        assert items[overdue].overdue
        assert not items[waiting].overdue
        assert live is not None
        assert not items[live].overdue  # open: its owner delivers on time
        reminders.dialog.view.activated.emit(model.index(1))  # choose the overdue one
        chime.until(lambda: chime.controller.current == overdue)
        chime.until(lambda: "reminder" in chime.kinds() and chime.idle())  # delivered on open
        [tray] = seams.trays
        tray.trigger("All reminders")
        chime.until(lambda: len(reminders.dialog.model.lines()) == 2)  # the delivered one is gone


def sidebar_items(chime: RealApp) -> list[tuple[str, Any]]:
    model = chime.window.sessions.model
    found = []
    for row in range(model.rowCount()):
        item = model.item(row)
        if item is not None:  # a group heading has none
            found.append((item.id, item))
    return found


class Shows:
    """A notifier that records what it was asked to show."""

    def __init__(self) -> None:
        self.shown: list[Any] = []
        self.clicked = FakeSignal()

    async def show(self, shown: Any) -> bool:
        self.shown.append(shown)
        return True


class FakeSignal:
    def connect(self, _slot: Any) -> None:
        return None


def answer(text: str) -> AssistantMessage:
    return AssistantMessage("a1", text, (), ModelRef("p", "m"), "stop")


@pytest.mark.parametrize(
    ("setting", "seconds", "notified"),
    [(True, 25, True), (True, 5, False), (False, 25, False)],
    ids=["long-answer", "short-answer", "setting-off"],
)
def test_a_long_answer_finishing_in_the_background_is_notified_only_with_its_setting(
    qtbot, loop, clock: FakeClock, setting: bool, seconds: int, notified: bool
) -> None:
    from app.presence import Presence
    from app.qtasync import TaskRunner
    from app.settings import Settings
    from ui.main_window import MainWindow

    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    notifier = Shows()
    tasks = TaskRunner()
    presence = Presence(
        window,
        lambda: Settings(notify_answers=setting),
        clock,
        tasks,
        is_active=lambda: False,
        title_of=lambda _sid: "Tea",
        notifier=notifier,  # type: ignore[arg-type]  # a recording stand-in
    )
    presence.observe("s", Entry(4, "", UserMessage("u1", "write me a poem", UserSource("UTC"))))
    presence.observe("s", Entry(5, "", TurnStart(1, 4)))
    clock.advance(timedelta(seconds=seconds))
    presence.observe("s", Entry(6, "", answer("Here it is.\nMore lines.")))

    async def settle() -> None:
        await asyncio.sleep(0)

    run_loop(loop, settle())
    found = [(s.summary, s.body, s.pointer) for s in notifier.shown]
    assert found == ([("Tea", "Here it is.", Pointer("s", 4))] if notified else [])
