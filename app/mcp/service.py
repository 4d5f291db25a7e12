"""The window's door to the MCP servers: the configured servers (settings.json, tokens in the
keyring), testing one, its tools, a conversation's choice, the "always allow" list, the approval
hook and the problem sentences; and the toolset each live session gets. Must not show anything
(the window connects ``problem`` and sets ``approver``).

A conversation that never chose (no ``session/tools`` event) offers the servers marked
``enabledByDefault``, as a session without ``session/model`` follows the app's model. The
offline assistant is never offered MCP tools (and no server starts for it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.mcp.pool import McpPool
from app.mcp.secrets import McpSecrets
from app.settings import Settings
from core.events import Attachment
from core.llm.provider import ModelProvider
from core.mcp.config import Parsed, from_settings, parse_servers, to_settings
from core.mcp.toolset import McpHooks, McpToolset
from core.mcp.types import ApprovalRequest, Decision, ServerConfig, ToolInfo
from core.schedule.tools import tool_definitions
from core.session.live import LiveSession

Approver = Callable[[ApprovalRequest], Awaitable[Decision]]
OFFLINE = "offline"
_log = logging.getLogger(__name__)


async def deny_without_window(_request: ApprovalRequest) -> Decision:
    """The approver until the window sets its own: nothing runs without the person."""
    return Decision.DENY


class McpService(QObject):
    """The MCP servers of this Chime. ``problem`` carries one sentence for the window (a server
    that could not start or stopped, tools left out for the budget)."""

    problem = Signal(str)

    def __init__(
        self,
        settings: Callable[[], Settings],
        store: Callable[[Settings], None],
        secrets: McpSecrets,
        data_dir: Path,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._secrets = secrets
        self.approver: Approver = deny_without_window
        """Asks the person about one call (the window's approval dialog sets it)."""
        self.pool = McpPool(self.configs, secrets, data_dir, on_problem=self.problem.emit)

    # --- the configured servers ---------------------------------------------------------

    def servers(self) -> tuple[ServerConfig, ...]:
        """The configured servers in order (an entry settings.json holds that is not valid is
        left out, with a warning in the log)."""
        parsed = from_settings(self._settings().mcp_servers)
        for problem in parsed.problems:
            _log.warning("settings.json: %s", problem)
        return parsed.servers

    def configs(self) -> dict[str, ServerConfig]:
        return {server.name: server for server in self.servers()}

    def add_from_text(self, text: str) -> Parsed:
        """Adds the servers of a pasted ``mcpServers`` text (a server of the same name is
        replaced and restarted on its next use); their secrets go to the keyring. Returns what
        was read (``problems``: one sentence per entry left out); McpConfigError when the text
        is no JSON object."""
        parsed = parse_servers(text)
        self._secrets.save(parsed.secrets)
        kept = {s.name: s for s in self.servers()}
        for server in parsed.servers:
            kept[server.name] = server
            self.pool_restart(server.name)
        self._save(tuple(kept.values()))
        return parsed

    def remove(self, name: str) -> None:
        """Removes server ``name``, its secrets and its "always allow" entries; stops it."""
        servers = self.servers()
        for server in servers:
            if server.name == name:
                self._secrets.forget(server)
        self._save(tuple(s for s in servers if s.name != name))
        settings = self._settings()
        allowed = tuple(p for p in settings.mcp_always_allow if p[0] != name)
        self._store(replace(settings, mcp_always_allow=allowed))
        self.pool_restart(name)

    def set_default(self, name: str, offered: bool) -> None:
        """Offers server ``name`` to conversations that never chose (or stops offering it)."""
        servers = self.servers()
        self._save(
            tuple(replace(s, enabled_by_default=offered) if s.name == name else s for s in servers)
        )

    def defaults(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.servers() if s.enabled_by_default)

    async def test(self, config: ServerConfig) -> tuple[ToolInfo, ...]:
        """Starts ``config`` on its own, lists its tools (descriptions as written) and stops it;
        McpCallError's ``sentence`` says why not."""
        return await self.pool.test(config)

    async def tools(self, name: str) -> tuple[ToolInfo, ...]:
        """The tools of configured server ``name`` (started if it is not running)."""
        return tuple(await self.pool.list_tools(name))

    def pool_restart(self, name: str) -> None:
        """A changed or removed server stops; its next use starts it with what is configured."""
        self.pool.restart_soon(name)

    def _save(self, servers: Sequence[ServerConfig]) -> None:
        settings = self._settings()
        self._store(replace(settings, mcp_servers=to_settings(tuple(servers))))

    # --- always allow --------------------------------------------------------------------

    def allows(self, server: str, tool: str) -> bool:
        return (server, tool) in self._settings().mcp_always_allow

    def allow(self, server: str, tool: str) -> None:
        settings = self._settings()
        if (server, tool) not in settings.mcp_always_allow:
            allowed = (*settings.mcp_always_allow, (server, tool))
            self._store(replace(settings, mcp_always_allow=allowed))

    def revoke(self, server: str, tool: str) -> None:
        settings = self._settings()
        allowed = tuple(p for p in settings.mcp_always_allow if p != (server, tool))
        self._store(replace(settings, mcp_always_allow=allowed))

    # --- sessions ------------------------------------------------------------------------

    def offered(self, session: LiveSession, provider: ModelProvider) -> tuple[str, ...]:
        """The servers ``session`` offers its model now (none to the offline assistant)."""
        if provider.info.provider == OFFLINE:
            return ()
        chosen = session.choices().tools
        configured = self.configs()
        names = self.defaults() if chosen is None else chosen
        return tuple(name for name in names if name in configured)

    def toolset(self, session: LiveSession, provider: Callable[[], ModelProvider]) -> McpToolset:
        """The MCP tools of one live session, beside its reminder tools."""

        async def save_image(name: str, data: bytes) -> Attachment | None:
            stored = await session.add_attachment(name, data)  # refused, or not an image: dropped
            image = isinstance(stored, Attachment) and stored.media_type.startswith("image/")
            return stored if image and isinstance(stored, Attachment) else None

        hooks = McpHooks(
            self.pool,
            lambda request: self.approver(request),
            self,
            save_image,
            self.problem.emit,
        )
        reserved = [str(d["function"]["name"]) for d in tool_definitions()]
        return McpToolset(session.id, lambda: self.offered(session, provider()), hooks, reserved)

    async def stop(self) -> None:
        """Stops every server (Chime quits)."""
        await self.pool.stop_all()
