"""The bridge streams the model's pieces, never the growing answer, and keeps what a window that
starts showing the session mid-answer needs; input the log refuses is not sent, and a read-only
session is not renamed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from app.session_bridge import SessionBridge
from core.errors import SessionReadOnlyError


class _Session:
    id = "s"
    read_only = False
    read_only_reason = None

    def __init__(self) -> None:
        self.events: list[Mapping[str, Any]] = []
        self.observers: list[Callable[[Mapping[str, Any]], None]] = []

    def append(self, type: str, data: Mapping[str, Any]) -> Mapping[str, Any]:
        raise AssertionError("the streaming test appends nothing")

    def schedule_fold(self) -> Any:
        raise AssertionError("not used")

    def subscribe(self, callback: Callable[[Mapping[str, Any]], None]) -> Callable[[], None]:
        self.observers.append(callback)
        return lambda: None

    def subscribe_persistence(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        return lambda: None

    def subscribe_lost(self, callback: Callable[[str], None]) -> Callable[[], None]:
        return lambda: None


class _Agent:
    status = "running"

    def __init__(self) -> None:
        self.delta: Callable[[str], None] = lambda _: None
        self.status_observer: Callable[[Any], None] = lambda _: None

    def on_status(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        self.status_observer = callback
        return lambda: None

    def on_delta(self, callback: Callable[[str], None]) -> Callable[[], None]:
        self.delta = callback
        return lambda: None

    def on_reasoning(self, callback: Callable[[str], None]) -> Callable[[], None]:
        self.reasoning = callback
        return lambda: None

    def submit(self, text: str, time_zone: str | None) -> str:
        return "m"

    def cancel(self) -> bool:
        return True

    def retry(self) -> bool:
        return True


def test_a_long_stream_sends_each_piece_once_and_keeps_the_whole_answer_so_far(qtbot) -> None:
    agent = _Agent()
    bridge = SessionBridge(_Session(), agent, lambda: "UTC")
    shown: list[str] = []
    bridge.streaming.connect(shown.append)

    for n in range(3000):
        agent.delta(f"{n:04d}|")
    agent.delta("")  # an empty piece is not a piece

    assert shown == [f"{n:04d}|" for n in range(3000)]
    assert bridge.stream_so_far() == "".join(shown)
    assert bridge.stream_so_far() == "".join(shown)  # asking twice changes nothing


def test_going_idle_ends_the_stream_once_and_the_next_answer_starts_fresh(qtbot) -> None:
    agent = _Agent()
    bridge = SessionBridge(_Session(), agent, lambda: "UTC")
    shown: list[str] = []
    bridge.streaming.connect(shown.append)

    agent.delta("well")
    agent.status_observer("idle")
    agent.status_observer("idle")  # nothing streamed since: no second end
    agent.delta("fresh")

    assert shown == ["well", "", "fresh"]
    assert bridge.stream_so_far() == "fresh"


class _Refusing(_Agent):
    """An agent whose log refuses the input (it turned read-only, or was closed)."""

    def submit(self, text: str, time_zone: str | None, attachments: object = ()) -> str:
        raise SessionReadOnlyError("The session is open in another Chime window.")


def test_input_the_log_refuses_is_not_sent_and_the_log_says_why(
    qtbot, loop, caplog: pytest.LogCaptureFixture
) -> None:
    bridge = SessionBridge(_Session(), _Refusing(), lambda: "UTC")
    assert loop.run_until_complete(bridge.submit("hello")) is False
    assert "input to s refused: The session is open in another Chime window." in caplog.text


def test_a_session_without_an_agent_is_not_renamed(qtbot) -> None:
    bridge = SessionBridge(_Session(), None, lambda: "UTC")  # _Session cannot append events
    bridge.rename("A new title")
    assert not bridge.writable
