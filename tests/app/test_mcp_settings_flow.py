"""The Settings page against the real MCP pool: "Show tools" starts the hostile test server
(the SDK's server side over stdio) and shows its tools with the description that tries to
instruct the model, as written; a server that cannot start says why; an imported .json file
adds its servers; OK stores pasted secrets in the key store and forgets a removed server's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtWidgets import QWidget

from app.mcp.secrets import McpSecrets
from app.mcp.service import McpService
from app.mcp_settings_flow import MAX_IMPORT_BYTES, McpSettingsLink
from app.settings import KeyStore, Settings
from core.mcp.config import Secret, to_settings
from core.mcp.types import ServerConfig, StdioServer
from tests.app.harness import run_loop
from tests.mcp.hostile_server import SNEAKY
from ui.mcp_settings import McpDraft, McpPage

ROOT = str(Path(__file__).resolve().parents[2])
HOSTILE = ServerConfig(
    "hostile", StdioServer(sys.executable, ("-m", "tests.mcp.hostile_server"), cwd=ROOT)
)
BROKEN = ServerConfig("broken", StdioServer(sys.executable, ("-c", "raise SystemExit(3)")))


def _page(qtbot, *servers: ServerConfig) -> McpPage:
    page = McpPage(McpDraft(servers=servers))
    qtbot.addWidget(page)
    return page


class _Settings:
    """settings.json as the service sees it (kept in memory)."""

    def __init__(self, *servers: ServerConfig) -> None:
        self.value = Settings(mcp_servers=to_settings(servers))

    def store(self, settings: Settings) -> None:
        self.value = settings


def _link(
    tmp_path: Path, pick=lambda _parent: None, saved: tuple[ServerConfig, ...] = ()
) -> tuple[McpSettingsLink, McpService]:
    secrets = McpSecrets(KeyStore(tmp_path / "config", use_keyring=False))
    settings = _Settings(*saved)
    service = McpService(lambda: settings.value, settings.store, secrets, tmp_path)
    return McpSettingsLink(service, secrets, pick), service


def test_show_tools_starts_the_server_and_shows_each_description_as_written(
    qtbot, loop, tmp_path: Path
) -> None:
    page = _page(qtbot, HOSTILE, BROKEN)
    link, service = _link(tmp_path, saved=(HOSTILE,))  # the hostile one saved, run by the pool
    work: list = []
    link.connect(page, work.append)
    page.tree.setCurrentItem(page.tree.topLevelItem(0))
    page.tools_button.click()
    run_loop(loop, work.pop())
    shown = page.details.toPlainText()
    assert "• echo" in shown
    assert SNEAKY in shown.replace("\n    ", " ")
    assert page.tree.topLevelItem(0).text(2) == "running"  # started by the pool, shared
    page.tree.setCurrentItem(page.tree.topLevelItem(1))
    page.tools_button.click()
    run_loop(loop, work.pop())
    assert page.tree.topLevelItem(1).text(2) == "failed"
    assert "could not be listed" in page.details.toPlainText()
    run_loop(loop, service.stop())


def test_an_imported_file_adds_its_servers_and_a_bad_one_says_why(
    qtbot, loop, tmp_path: Path
) -> None:
    good = tmp_path / "servers.json"
    good.write_text(json.dumps({"mcpServers": {"time": {"command": "uvx"}}}), encoding="utf-8")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_IMPORT_BYTES + 1))
    picks = [good, big, None]
    page = _page(qtbot)
    link, _pool = _link(tmp_path, lambda _parent: picks.pop(0))
    work: list = []
    link.connect(page, work.append)
    page.import_button.click()
    run_loop(loop, work.pop())
    assert [s.name for s in page.draft().servers] == ["time"]
    page.import_button.click()
    run_loop(loop, work.pop())
    assert page.problems.text() == "“big.json” could not be read: The file is larger than 1 MB."
    page.import_button.click()  # cancelled: nothing to do
    assert work == []


def test_ok_keeps_pasted_secrets_and_forgets_a_removed_server_s(
    qtbot, loop, tmp_path: Path
) -> None:
    link, service = _link(tmp_path)
    token = ServerConfig("gh", StdioServer("gh-mcp", secret_env=("GH_TOKEN",)))
    pasted = Secret("gh", "env", "GH_TOKEN", "ghp_secret")
    link.save(McpDraft(servers=(token,), secrets=(pasted,)), ())
    assert link.secrets.values(token) == {"GH_TOKEN": "ghp_secret"}
    assert list((tmp_path / "config").rglob("*"))  # the key store's private files in tests
    link.save(McpDraft(removed=("gh",)), (token,))
    assert link.secrets.values(token) == {}
    run_loop(loop, service.stop())


def test_the_parent_of_the_file_question_is_the_page(qtbot, tmp_path: Path) -> None:
    asked: list[QWidget] = []
    page = _page(qtbot)
    link, _pool = _link(tmp_path, lambda parent: asked.append(parent))
    link.connect(page, lambda _work: None)
    page.import_button.click()
    assert asked == [page]
