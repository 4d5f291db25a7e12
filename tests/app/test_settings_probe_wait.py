"""Test connection against a slow server (issue 19): the dialog says what it waits for with the
seconds counted, waits as long as a real turn would instead of giving a verdict while the server
reads the prompt, can be cancelled (which closes the request), and its verdict says what it saw.

The server is a real loopback HTTP server whose tool answer waits on a gate the test opens; the
seconds come from a fake elapsed-time source, so nothing sleeps for real."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

import pytest

from tests.app.test_window_settings import choose_openai_compatible, open_settings, serving
from tests.app.window import Opener, RealApp, running
from tests.core.llm.loopback import (
    Gated,
    Json,
    LoopbackServer,
    Received,
    Reply,
    Silent,
    Sse,
    chunk,
    model_list,
    server_routes,
)
from tests.fakes import FakeClock
from ui.settings_dialog import SettingsDialog

ROUTES = server_routes(model_list("qwen2.5-coder-1.5b"))
SAID_OK = Sse([chunk("OK"), chunk(finish="length")])
WRITTEN = Sse(
    [
        chunk('```json\n{"name": "schedule_create", "arguments": '),
        chunk('{"prompt": "stretch", "after_seconds": 600}}\n```'),
        chunk(finish="stop"),
    ]
)
pytestmark = pytest.mark.slow  # a real HTTP round trip per step on the loopback interface


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


class FakeElapsed:
    """The dialog's seconds since the test began, moved by the test."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return self.ms


def start_test(chime: RealApp, base_url: str) -> tuple[SettingsDialog, FakeElapsed]:
    dialog = open_settings(chime)
    choose_openai_compatible(dialog, "llamacpp")
    dialog.base_url_edit.setText(base_url)
    dialog.model_combo.setEditText("qwen2.5-coder-1.5b")
    elapsed = FakeElapsed()
    dialog.test_wait.elapsed_ms = elapsed
    chime.inside(dialog.test_button.click)
    return dialog, elapsed


def tools_asked(request: Received) -> bool:
    return request.path.endswith("/chat/completions") and "tools" in request.json()


def at(chime: RealApp, dialog: SettingsDialog, elapsed: FakeElapsed, seconds: int) -> str:
    """The waiting line once ``seconds`` have passed (the dialog's tick, without waiting)."""
    elapsed.ms = seconds * 1000
    chime.inside(dialog.test_wait.update)
    return str(dialog.test_result.text())


def test_a_test_waits_while_the_server_reads_says_so_and_gives_the_verdict_it_saw(
    open_app: Opener,
) -> None:
    gate = asyncio.Event()
    with open_app() as chime, serving(chime, [SAID_OK, Gated(gate, WRITTEN)], ROUTES) as server:
        dialog, elapsed = start_test(chime, server.base_url)
        assert dialog.testing
        assert dialog.test_cancel.isVisible()
        assert not dialog.test_button.isEnabled()
        chime.until(lambda: any(tools_asked(r) for r in server.received))
        probe = next(r.json() for r in server.received if tools_asked(r))
        reading = probe["messages"][-2]  # a real turn's time context, before the request
        assert reading["role"] == "system"
        assert reading["content"].startswith("Local time: 2026-")
        assert "Time zone: Europe/Berlin" in reading["content"]
        assert at(chime, dialog, elapsed, 42) == "The server is reading the prompt… 42 s"
        assert at(chime, dialog, elapsed, 95) == "The server is reading the prompt… 95 s"
        assert dialog.testing  # no verdict while the server is still reading
        chime.inside(gate.set)
        chime.until(lambda: not dialog.testing)
        shown = dialog.test_result.text()
        assert shown.startswith("✓ ")
        assert "writes its tool calls as text" in shown  # what it saw: a call left in the text
        assert not dialog.test_cancel.isVisible()
        assert dialog.test_button.isEnabled()


def test_cancel_stops_the_test_and_closes_its_request(open_app: Opener) -> None:
    def decide(request: Received) -> Reply:
        return Silent() if "tools" in request.json() else SAID_OK

    with open_app() as chime:
        server = LoopbackServer([], ROUTES, decide=decide)
        chime.run(server.__aenter__())
        try:
            dialog, elapsed = start_test(chime, server.base_url)
            chime.until(lambda: any(tools_asked(r) for r in server.received))
            assert at(chime, dialog, elapsed, 300) == "The server is reading the prompt… 300 s"
            chime.inside(dialog.test_cancel.click)
            assert dialog.test_result.text() == "Test cancelled."
            assert not dialog.testing
            assert dialog.test_button.isEnabled()
            chime.run(asyncio.wait_for(server.hung_up.wait(), 5))  # the request was closed
            assert at(chime, dialog, elapsed, 301) == "Test cancelled."  # the tick stopped too
            dialog.set_test_result(True, "a verdict that raced the cancel")
            assert dialog.test_result.text() == "Test cancelled."
        finally:
            chime.run(server.__aexit__(None, None, None))


def test_the_waiting_line_names_each_stage(open_app: Opener) -> None:
    gate = asyncio.Event()
    refused = Json(400, {"error": {"message": "tools are not supported"}})
    with open_app() as chime, serving(chime, [Gated(gate, SAID_OK), refused], ROUTES) as server:
        dialog, elapsed = start_test(chime, server.base_url)
        chime.until(lambda: any(r.path.endswith("/chat/completions") for r in server.received))
        assert at(chime, dialog, elapsed, 3) == "Asking the model for one word… 3 s"
        chime.inside(gate.set)
        chime.until(lambda: not dialog.testing)
        assert dialog.test_result.text().startswith("✗ ")
