"""The Settings page "Tools (MCP)" and the MCP engine (``app.mcp.service.McpService``): a
server's tools listed when the person asks (a saved server through the pool, one not saved yet
started apart), the servers' status, a .json file imported, and on OK the pasted secrets into the
keyring, a removed server's secrets forgotten and every changed server stopped, to start anew
when next used. The page edits a copy: nothing is kept before OK. Builds no engine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from app.mcp.secrets import McpSecrets
from app.mcp.service import McpService
from core.mcp.toolset import McpCallError
from core.mcp.types import ServerConfig
from ui.mcp_settings import McpDraft, McpPage, ServerStatus

MAX_IMPORT_BYTES = 1024 * 1024
"""An imported ``mcpServers`` file is at most this large (a real one is a few hundred bytes)."""

PickFile = Callable[[QWidget], Path | None]
Spawn = Callable[[Coroutine[Any, Any, None]], None]


def pick_json(parent: QWidget) -> Path | None:
    """Ask for the .json file to import (None: cancelled)."""
    name, _filter = QFileDialog.getOpenFileName(
        parent,
        QCoreApplication.translate("McpSettingsFlow", "Import MCP servers — Chime"),
        "",
        QCoreApplication.translate("McpSettingsFlow", "JSON files (*.json);;All files (*)"),
    )
    return Path(name) if name else None


def read_import(path: Path) -> str:
    """The file's text; OSError or ValueError (too large, not UTF-8) with a readable message."""
    with path.open("rb") as file:
        data = file.read(MAX_IMPORT_BYTES + 1)
    if len(data) > MAX_IMPORT_BYTES:
        raise ValueError(
            QCoreApplication.translate("McpSettingsFlow", "The file is larger than 1 MB.")
        )
    return data.decode("utf-8")


class McpSettingsLink:
    """Connects one Settings visit's page to the pool and the secrets (see the module docstring)."""

    def __init__(
        self, service: McpService, secrets: McpSecrets, pick: PickFile = pick_json
    ) -> None:
        self.service = service
        self.secrets = secrets
        self._pick = pick

    def connect(self, page: McpPage, spawn: Spawn) -> None:
        """Wire ``page``; ``spawn`` runs its checks (cancelled when the dialog closes)."""
        page.set_status(self._running())
        page.tools_requested.connect(lambda name: spawn(self._tools_into(page, name)))
        page.import_requested.connect(lambda: self._import(page, spawn))

    async def _tools_into(self, page: McpPage, name: str) -> None:
        config = next((s for s in page.draft().servers if s.name == name), None)
        if config is None:
            return
        page.set_status({**self._running(), name: (ServerStatus.STARTING, "")})
        try:
            if self.service.configs().get(name) == config:
                tools = await self.service.tools(name)
            else:  # pasted in this visit (or changed): tried apart, nothing kept
                tools = await self.service.test(config)
        except McpCallError as error:
            page.set_status({**self._running(), name: (ServerStatus.FAILED, error.sentence)})
            page.set_tools(name, (), error.sentence)
            return
        page.set_status(self._running())
        page.set_tools(name, tools)

    def _running(self) -> dict[str, tuple[ServerStatus, str]]:
        return dict.fromkeys(self.service.pool.running, (ServerStatus.RUNNING, ""))

    def _import(self, page: McpPage, spawn: Spawn) -> None:
        path = self._pick(page)
        if path is not None:
            spawn(self._read_into(page, path))

    async def _read_into(self, page: McpPage, path: Path) -> None:
        try:
            text = await asyncio.to_thread(read_import, path)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            page.problems.setText(
                QCoreApplication.translate("McpSettingsFlow", "“%1” could not be read: %2")
                .replace("%1", path.name)
                .replace("%2", str(reason))
            )
            return
        page.add_json(text)

    def save(self, draft: McpDraft, before: tuple[ServerConfig, ...]) -> None:
        """OK: the pasted secrets into the keyring, a removed server's forgotten, and every
        server whose settings changed (or that went) stopped, to start anew when next used."""
        known = {server.name: server for server in before}
        for name in draft.removed:
            if name in known:
                self.secrets.forget(known[name])
        self.secrets.save(draft.secrets)
        now = {server.name: server for server in draft.servers}
        changed = [n for n, s in known.items() if now.get(n) != s]
        changed += [secret.server for secret in draft.secrets]
        for name in dict.fromkeys(changed):
            self.service.pool_restart(name)


def mcp_draft(service: McpService, always: tuple[tuple[str, str], ...]) -> McpDraft:
    """What the page starts from: the configured servers and the always-allowed tools."""
    return McpDraft(servers=service.servers(), always_allowed=always)
