"""The window's door to the MCP servers (app/mcp/service.py): servers pasted into settings with
their secrets in the key store, defaults, always-allow, what a session offers, the toolset it
gets, a test of a server, quitting."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.mcp.secrets import McpSecrets
from app.mcp.service import McpService, deny_without_window
from app.settings import KeyStore, Settings, read_settings, save_settings
from core.events import Attachment, SessionTools
from core.llm.offline import OfflineAssistant
from core.mcp.config import McpConfigError, Secret
from core.mcp.toolset import McpCallError
from core.mcp.types import ApprovalRequest, Decision, HttpServer, ServerConfig, StdioServer
from core.session.store import SessionStore
from tests.core.agent.fakes import ScriptedModel
from tests.fakes import FakeClock
from tests.mcp.servers import time_server

PASTED = json.dumps(
    {
        "mcpServers": {
            "time": {"command": "uvx", "args": ["mcp-server-time"]},
            "remote": {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer t0k"}},
        }
    }
)


class Held:
    """Settings kept in memory and on disk, as the settings flow keeps them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.settings = Settings()

    def store(self, settings: Settings) -> None:
        save_settings(self.folder, settings)
        self.settings = settings


def make(tmp_path: Path) -> tuple[McpService, Held, KeyStore]:
    held = Held(tmp_path)
    keys = KeyStore(tmp_path / "config", use_keyring=False)
    service = McpService(lambda: held.settings, held.store, McpSecrets(keys), tmp_path)
    return service, held, keys


def test_pasted_servers_are_kept_without_their_secrets(tmp_path: Path, qtbot: QtBot) -> None:
    service, held, keys = make(tmp_path)
    parsed = service.add_from_text(PASTED)
    assert parsed.problems == ()
    assert [s.name for s in service.servers()] == ["time", "remote"]
    on_disk = (tmp_path / "settings.json").read_text()
    assert "t0k" not in on_disk
    assert read_settings(tmp_path).settings.mcp_servers == held.settings.mcp_servers
    secrets = McpSecrets(keys)
    (remote,) = [s for s in service.servers() if s.name == "remote"]
    assert secrets.values(remote) == {"Authorization": "Bearer t0k"}
    service.remove("remote")
    assert [s.name for s in service.servers()] == ["time"]
    assert secrets.values(remote) == {}
    with pytest.raises(McpConfigError):
        service.add_from_text("not json")


def test_defaults_always_allow_and_revoking(tmp_path: Path, qtbot: QtBot) -> None:
    service, held, _ = make(tmp_path)
    service.add_from_text(PASTED)
    service.set_default("time", True)
    assert service.defaults() == ("time",)
    service.allow("time", "now")
    service.allow("time", "now")
    service.allow("remote", "x")
    assert held.settings.mcp_always_allow == (("time", "now"), ("remote", "x"))
    assert service.allows("time", "now")
    service.revoke("time", "now")
    assert not service.allows("time", "now")
    service.remove("remote")
    assert held.settings.mcp_always_allow == ()


def test_an_entry_of_settings_json_that_is_not_valid_is_left_out(
    tmp_path: Path, qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    service, held, _ = make(tmp_path)
    held.settings = replace(
        held.settings, mcp_servers={"bad": {"command": 3}, "ok": {"command": "x"}}
    )
    assert [s.name for s in service.servers()] == ["ok"]
    assert 'Server "bad"' in caplog.text


def test_what_a_session_offers_and_the_toolset_it_gets(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qtbot: QtBot
) -> None:
    service, _, _ = make(tmp_path)
    service.add_from_text(PASTED)
    service.set_default("remote", True)
    clock = FakeClock(datetime(2026, 8, 5, tzinfo=UTC))

    async def main() -> tuple[Any, ...]:
        session = await SessionStore(tmp_path, clock).create()
        model = ScriptedModel()
        never_chose = service.offered(session, model)
        offline = service.offered(session, OfflineAssistant(clock))
        session.append_event(SessionTools(("time", "gone")))
        chose = service.offered(session, model)
        toolset = service.toolset(session, lambda: model)
        saved = await toolset._hooks.save_image("a.png", b"\x89PNG\r\n\x1a\n" + b"0" * 20)
        refused = await toolset._hooks.save_image("a.png", b"")
        asked = await toolset._hooks.approve(ApprovalRequest("s", "c", "time", "t", "{}", ""))
        await session.close()
        return never_chose, offline, chose, saved, refused, asked

    never_chose, offline, chose, saved, refused, asked = loop.run_until_complete(main())
    assert never_chose == ("remote",)
    assert offline == ()
    assert chose == ("time",)
    assert isinstance(saved, Attachment)
    assert refused is None
    assert asked is Decision.DENY  # no window set its approver: nothing runs unasked


def test_testing_a_server_that_cannot_start_says_why(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qtbot: QtBot
) -> None:
    service, _, _ = make(tmp_path)
    broken = ServerConfig("broken", StdioServer("/nonexistent/server"))

    async def main() -> str:
        try:
            with pytest.raises(McpCallError) as raised:
                await service.test(broken)
            with pytest.raises(McpCallError):
                await service.tools("unknown")
            return raised.value.sentence
        finally:
            await service.stop()

    assert loop.run_until_complete(main()).startswith("The MCP server broken could not be started:")


@pytest.mark.slow  # starts mcp-server-time: about 2 s
def test_testing_a_real_server_lists_its_tools_and_quitting_starts_nothing(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qtbot: QtBot
) -> None:
    service, _, _ = make(tmp_path)

    async def main() -> tuple[Any, ...]:
        tested = await service.test(time_server())
        running = service.pool.running  # a test runs apart from the pool
        service.pool_restart("time")
        await service.stop()
        with pytest.raises(McpCallError) as quitting:
            await service.tools("time")
        return tested, running, quitting.value.sentence

    tested, running, quitting = loop.run_until_complete(main())
    assert [t.name for t in tested] == ["get_current_time", "convert_time"]
    assert running == ()
    assert quitting == "Chime is quitting: no MCP server is started."


def test_secret_names_of_both_kinds(tmp_path: Path) -> None:
    from app.mcp.secrets import names

    assert names(ServerConfig("a", StdioServer("x", secret_env=("TOKEN",)))) == [
        Secret("a", "env", "TOKEN")
    ]
    assert names(ServerConfig("b", HttpServer("https://x", secret_headers=("Authorization",)))) == [
        Secret("b", "header", "Authorization")
    ]


def test_the_default_approver_denies(
    loop: asyncio.AbstractEventLoop,
) -> None:
    request = ApprovalRequest("s", "c", "srv", "tool", "{}", "")
    assert loop.run_until_complete(deny_without_window(request)) is Decision.DENY
