"""Desktop notifications that point to a transcript turn: the door to the desktop's notification
service (freedesktop ``org.freedesktop.Notifications`` on the session D-Bus).

A notification only points: its click opens the conversation at the turn, which stays the only
record (desktop.md §1.6). One notification per conversation: a later one for the same conversation
replaces it (``replaces_id``) instead of piling up. Where there is no session bus or no service,
``available`` stays False and the app falls back to the tray badge and the attention hint.

The protocol goes through jeepney (pure Python, already the keyring's D-Bus library on Linux):
PySide6's QtDBus cannot send the ``u`` (uint32) arguments ``Notify`` requires. Runs on the asyncio
loop (qasync); signals are emitted on the Qt thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

_log = logging.getLogger(__name__)

BUS_NAME = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"
DEFAULT_ACTION = "default"
"""The action a click on the notification's body invokes (Desktop Notifications spec)."""
APP_NAME = "Chime"
SUMMARY_LIMIT = 120
BODY_LIMIT = 400


@dataclass(frozen=True, slots=True)
class Pointer:
    """What a click opens: a conversation and, when known, the ``seq`` of its turn's message."""

    session_id: str
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class Shown:
    """A notification to show: its title line, body, and what a click opens."""

    summary: str
    body: str
    pointer: Pointer


class Transport(Protocol):
    """The D-Bus calls the notifier makes (jeepney in production, a fake in unit tests)."""

    async def notify(self, replaces_id: int, summary: str, body: str) -> int: ...

    async def signals(self) -> tuple[str, tuple[Any, ...]]: ...

    async def close(self) -> None: ...


def escaped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters and escaped for servers that read body markup (a
    conversation's words are never markup)."""
    cut = text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
    return cut.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class DesktopNotifier(QObject):
    """Shows one notification per conversation and reports clicks.

    Signals:
        clicked(object): a notification's body was clicked: its ``Pointer``.
    """

    clicked = Signal(object)

    def __init__(self, connect: Callable[[], Any] | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._connect = connect or JeepneyTransport.open
        self._transport: Transport | None = None
        self._connecting: asyncio.Future[bool] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._ids: dict[str, int] = {}
        self._pointers: dict[int, Pointer] = {}
        self._one_at_a_time = asyncio.Lock()

    @property
    def available(self) -> bool:
        """Whether a notification service answered ``start``."""
        return self._transport is not None

    async def start(self) -> bool:
        """Connect to the service; False (and a log line) where there is none. A notification
        asked for while the connection is being made waits for it (a reminder caught up at start
        is often answered before a slow bus answers)."""
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._connecting)

    async def _open(self) -> bool:
        try:
            self._transport = await self._connect()
        except (OSError, ValueError, KeyError, RuntimeError) as error:
            _log.info("no desktop notifications: %s", error)
            return False
        self._listener = asyncio.ensure_future(self._listen())
        return True

    async def show(self, shown: Shown) -> bool:
        """Show ``shown``, replacing this conversation's earlier notification. False when it could
        not be shown (no service, or the call failed)."""
        async with self._one_at_a_time:  # a replacement needs the id the previous call returned
            return await self._show(shown)

    async def _show(self, shown: Shown) -> bool:
        if self._connecting is not None and not self._connecting.done():
            await asyncio.shield(self._connecting)
        if self._transport is None:
            return False
        key = shown.pointer.session_id
        summary = escaped(shown.summary, SUMMARY_LIMIT)
        body = escaped(shown.body, BODY_LIMIT)
        try:
            new_id = await self._transport.notify(self._ids.get(key, 0), summary, body)
        except (OSError, ValueError, RuntimeError) as error:
            _log.warning("a notification could not be shown: %s", error)
            return False
        old = self._ids.get(key)
        if old is not None and old != new_id:
            self._pointers.pop(old, None)
        self._ids[key] = new_id
        self._pointers[new_id] = shown.pointer
        return True

    def forget(self, session_id: str) -> None:
        """The conversation was read: its notification no longer needs replacing."""
        old = self._ids.pop(session_id, None)
        if old is not None:
            self._pointers.pop(old, None)

    async def stop(self) -> None:
        """Stop listening and close the connection (quit)."""
        if self._connecting is not None and not self._connecting.done():
            self._connecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._connecting
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        if self._transport is not None:
            await self._transport.close()
        self._transport = None

    async def _listen(self) -> None:
        transport = self._transport
        assert transport is not None
        while True:
            try:
                member, body = await transport.signals()
            except (OSError, ValueError, RuntimeError, EOFError) as error:
                _log.warning("the notification service went away: %s", error)
                self._transport = None
                return
            self._on_signal(member, body)

    def _on_signal(self, member: str, body: tuple[Any, ...]) -> None:
        if member == "ActionInvoked" and len(body) == 2 and body[1] == DEFAULT_ACTION:
            pointer = self._pointers.get(body[0])
            if pointer is not None:
                self.clicked.emit(pointer)
        elif member == "NotificationClosed" and body:
            pointer = self._pointers.pop(body[0], None)
            if pointer is not None and self._ids.get(pointer.session_id) == body[0]:
                del self._ids[pointer.session_id]


class JeepneyTransport:
    """The session bus's notification service through jeepney's asyncio router."""

    def __init__(self, router: Any, stack: contextlib.AsyncExitStack, queue: Any) -> None:
        self._router = router
        self._stack = stack
        self._queue = queue

    @classmethod
    async def open(cls) -> JeepneyTransport:
        """Connect, check the service answers, and subscribe to its two signals."""
        from jeepney import DBusAddress, MatchRule, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.asyncio import open_dbus_router

        stack = contextlib.AsyncExitStack()
        try:
            router = await stack.enter_async_context(open_dbus_router(bus="SESSION"))
            address = DBusAddress(OBJECT_PATH, bus_name=BUS_NAME, interface=BUS_NAME)
            reply = await asyncio.wait_for(
                router.send_and_get_reply(new_method_call(address, "GetServerInformation")), 5
            )
            if reply.header.message_type.name != "method_return":
                raise RuntimeError(f"{BUS_NAME} did not answer: {reply.body}")
            rule = MatchRule(type="signal", interface=BUS_NAME, path=OBJECT_PATH)
            await router.send_and_get_reply(message_bus.AddMatch(rule))
            queue = stack.enter_context(router.filter(rule, bufsize=64))
        except BaseException:
            await stack.aclose()
            raise
        return cls(router, stack, queue)

    async def notify(self, replaces_id: int, summary: str, body: str) -> int:
        from jeepney import DBusAddress, new_method_call

        address = DBusAddress(OBJECT_PATH, bus_name=BUS_NAME, interface=BUS_NAME)
        arguments: tuple[object, ...] = (
            APP_NAME,
            replaces_id,
            "chime",
            summary,
            body,
            [DEFAULT_ACTION, "Open"],
            {},
            -1,
        )
        call = new_method_call(address, "Notify", "susssasa{sv}i", arguments)
        reply = await asyncio.wait_for(self._router.send_and_get_reply(call), 5)
        if reply.header.message_type.name != "method_return":
            raise RuntimeError(f"Notify failed: {reply.body}")
        return int(reply.body[0])

    async def signals(self) -> tuple[str, tuple[Any, ...]]:
        message = await self._queue.get()
        return str(message.header.fields.get(_member_field(), "")), tuple(message.body)

    async def close(self) -> None:
        await self._stack.aclose()


def _member_field() -> Any:
    from jeepney.low_level import HeaderFields

    return HeaderFields.member
