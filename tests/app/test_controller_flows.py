"""The controller's flows seen through the controller: a settings change keeps the MCP tools, and
stepping through sessions follows the order the sidebar shows (else its own), wrapping."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.llm.offline import OfflineAssistant
from core.llm.provider import ModelProvider
from core.session.live import LiveSession
from tests.app.harness import Chime
from tests.fakes import FakeClock


def _toolsets(_session: LiveSession, _provider: Callable[[], ModelProvider]) -> object:
    raise AssertionError("carried by the engine's parts, never called here")


def test_new_provider_settings_keep_the_mcp_toolsets(qtbot, loop, tmp_path, clock) -> None:
    chime = Chime(qtbot, loop, tmp_path, clock)
    chime.controller.parts = replace(chime.controller.parts, mcp=_toolsets)
    chime.controller.set_provider(lambda: OfflineAssistant(FakeClock()))
    assert chime.controller.parts.mcp is _toolsets  # sessions opened after it get MCP tools


def test_stepping_follows_the_shown_order_and_wraps(qtbot, loop, tmp_path, clock) -> None:
    chime = Chime(qtbot, loop, tmp_path, clock)
    listing = chime.controller.listing
    assert listing.step_session(1) is None  # nothing listed: nowhere to go
    chime.run(chime.controller.start([], None))
    try:
        first = chime.controller.current
        assert first is not None
        assert listing.step_session(1) == first  # its own order: the one session, wrapping
        assert listing.step_session(1, ["x", first, "y"]) == "y"
        assert listing.step_session(-1, ["x", first, "y"]) == "x"
        assert listing.step_session(1, ["y", first]) == "y"  # past the end: the first one
        assert listing.step_session(1, ["a", "b"]) == "b"  # the current one not shown: the top
    finally:
        chime.quit()  # its sessions closed and the take-over probe stopped
