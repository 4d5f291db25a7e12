"""Desktop notifications point to a turn: one per conversation (a later one replaces it), a click
reports where it points, words are never markup; against a fake transport and the real dunst."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.notifications import DesktopNotifier, Pointer, Shown, escaped
from tests.app.harness import run_loop
from tests.desktop import desktop_services


class FakeTransport:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str, str]] = []
        self.incoming: asyncio.Queue[tuple[str, tuple[Any, ...]]] = asyncio.Queue()
        self.closed = False
        self.next_id = 41

    async def notify(self, replaces_id: int, summary: str, body: str) -> int:
        await asyncio.sleep(0)  # a real call waits for the bus's answer
        self.sent.append((replaces_id, summary, body))
        self.next_id += 1
        return replaces_id or self.next_id

    async def signals(self) -> tuple[str, tuple[Any, ...]]:
        item = await self.incoming.get()
        if item[0] == "gone":
            raise EOFError("the bus closed")
        return item

    async def close(self) -> None:
        self.closed = True


def notifier_with(transport: FakeTransport) -> DesktopNotifier:
    async def connect() -> FakeTransport:
        return transport

    return DesktopNotifier(connect)


def test_a_later_notification_of_a_conversation_replaces_its_earlier_one(loop) -> None:
    transport = FakeTransport()
    notifier = notifier_with(transport)

    async def scenario() -> None:
        assert await notifier.start()
        assert await notifier.show(Shown("Plants", "⏰ water", Pointer("a", 4)))
        assert await notifier.show(Shown("Plants", "⏰ water\nDone.", Pointer("a", 4)))
        assert await notifier.show(Shown("Tea", "⏰ tea", Pointer("b", 9)))
        await notifier.stop()

    run_loop(loop, scenario())
    assert transport.sent == [
        (0, "Plants", "⏰ water"),
        (42, "Plants", "⏰ water\nDone."),
        (0, "Tea", "⏰ tea"),
    ]
    assert transport.closed


def test_a_notification_asked_for_while_the_bus_connects_waits_for_it(loop) -> None:
    transport = FakeTransport()
    answered = asyncio.Event()

    async def slow_connect() -> FakeTransport:
        await answered.wait()  # a session bus activating its service: seconds, at start
        return transport

    notifier = DesktopNotifier(slow_connect)

    async def scenario() -> tuple[bool, bool]:
        connecting = asyncio.ensure_future(notifier.start())
        showing = asyncio.ensure_future(notifier.show(Shown("Plants", "⏰ water", Pointer("a", 4))))
        await asyncio.sleep(0)
        assert transport.sent == []  # nothing to send it on yet, and it is not dropped either
        answered.set()
        shown = await showing
        started = await connecting
        await notifier.stop()
        return started, shown

    assert run_loop(loop, scenario()) == (True, True)
    assert transport.sent == [(0, "Plants", "⏰ water")]


def test_a_quit_while_the_bus_connects_stops_waiting(loop) -> None:
    async def never() -> FakeTransport:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    notifier = DesktopNotifier(never)

    async def scenario() -> bool:
        starting = asyncio.ensure_future(notifier.start())
        await asyncio.sleep(0)
        await notifier.stop()
        with pytest.raises(asyncio.CancelledError):
            await starting
        return notifier.available

    assert run_loop(loop, scenario()) is False


def test_two_notifications_of_a_conversation_sent_at_once_still_replace(loop) -> None:
    transport = FakeTransport()
    notifier = notifier_with(transport)

    async def scenario() -> None:
        await notifier.start()
        await asyncio.gather(
            notifier.show(Shown("Plants", "arrived", Pointer("a", 4))),
            notifier.show(Shown("Plants", "answered", Pointer("a", 4))),
        )
        await notifier.stop()

    run_loop(loop, scenario())
    assert transport.sent == [(0, "Plants", "arrived"), (42, "Plants", "answered")]


def test_a_click_on_the_body_reports_the_turn_and_a_closed_one_is_forgotten(loop) -> None:
    transport = FakeTransport()
    notifier = notifier_with(transport)
    clicked: list[Pointer] = []
    notifier.clicked.connect(clicked.append)

    async def scenario() -> None:
        await notifier.start()
        await notifier.show(Shown("Plants", "⏰ water", Pointer("a", 4)))
        transport.incoming.put_nowait(("ActionInvoked", (42, "other-action")))
        transport.incoming.put_nowait(("ActionInvoked", (42, "default")))
        transport.incoming.put_nowait(("ActionInvoked", (7, "default")))  # not ours
        transport.incoming.put_nowait(("NotificationClosed", (42, 2)))
        while not transport.incoming.empty():  # noqa: ASYNC110 -- lets the listener run
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.01)
        await notifier.show(Shown("Plants", "⏰ again", Pointer("a", 8)))
        await notifier.stop()

    run_loop(loop, scenario())
    assert clicked == [Pointer("a", 4)]
    assert transport.sent[-1] == (0, "Plants", "⏰ again")  # the closed one is not replaced


def test_without_a_notification_service_nothing_is_shown_and_it_says_false(loop) -> None:
    async def refuse() -> FakeTransport:
        raise OSError("no session bus")

    notifier = DesktopNotifier(refuse)

    async def scenario() -> tuple[bool, bool]:
        started = await notifier.start()
        return started, await notifier.show(Shown("x", "y", Pointer("a")))

    assert run_loop(loop, scenario()) == (False, False)
    assert not notifier.available


def test_a_service_that_goes_away_stops_the_notifier_quietly(loop) -> None:
    transport = FakeTransport()
    notifier = notifier_with(transport)

    async def scenario() -> bool:
        await notifier.start()
        transport.incoming.put_nowait(("gone", ()))
        while notifier.available:  # noqa: ASYNC110 -- the listener notices it
            await asyncio.sleep(0.001)
        return await notifier.show(Shown("x", "y", Pointer("a")))

    assert run_loop(loop, scenario()) is False


def test_words_are_escaped_for_body_markup_and_cut() -> None:
    assert escaped("<b>tea</b> & cake", 100) == "&lt;b&gt;tea&lt;/b&gt; &amp; cake"
    cut = escaped("word " * 50, 20)
    assert len(cut) <= 20
    assert cut.endswith("…")


@pytest.mark.slow  # starts Xvfb, a session bus and dunst (about a second)
def test_the_real_notification_daemon_receives_replaces_and_reports_a_click(
    loop, tmp_path: Path, monkeypatch
) -> None:
    with desktop_services(tmp_path) as desktop:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", desktop.env["DBUS_SESSION_BUS_ADDRESS"])
        notifier = DesktopNotifier()
        clicked: list[Pointer] = []
        notifier.clicked.connect(clicked.append)

        async def show_both() -> None:
            assert await notifier.start()
            await notifier.show(Shown("Plants", "⏰ water the plants", Pointer("a", 4)))
            await notifier.show(Shown("Plants", "⏰ water the plants\nDone <3", Pointer("a", 6)))

        run_loop(loop, show_both())
        desktop.click_newest()

        async def until_clicked() -> None:
            while not clicked:  # noqa: ASYNC110 -- the click arrives over the bus
                await asyncio.sleep(0.01)
            await notifier.stop()

        run_loop(loop, until_clicked())
        assert clicked == [Pointer("a", 6)]
        received = desktop.notifications()
        assert [(n["summary"], n["body"]) for n in received] == [
            ("Plants", "⏰ water the plants\nDone &lt;3")  # replaced, not piled up; markup source
        ]
