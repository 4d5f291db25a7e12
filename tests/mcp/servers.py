"""The MCP servers the tests start, as Chime's configuration: the real ``mcp-server-time``
(PyPI, a dev extra), our hostile server (tests/mcp/hostile_server.py) and, where npm could install
it, the reference ``@modelcontextprotocol/server-everything``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core.mcp.config import parse_servers
from core.mcp.types import ServerConfig

ROOT = Path(__file__).resolve().parents[2]


def time_server(name: str = "time") -> ServerConfig:
    entry = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone=UTC"]}
    return _one(name, entry)


def hostile_server(name: str = "hostile", tools: int = 0, *, silent: bool = False) -> ServerConfig:
    env = {"PYTHONPATH": str(ROOT), "HOSTILE_TOOLS": str(tools)}
    if silent:
        env["HOSTILE_SILENT"] = "1"
    entry = {"command": sys.executable, "args": ["-m", "tests.mcp.hostile_server"], "env": env}
    return _one(name, entry)


def _one(name: str, entry: dict[str, object]) -> ServerConfig:
    (server,) = parse_servers(json.dumps({"mcpServers": {name: entry}})).servers
    return server
