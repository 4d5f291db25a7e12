"""Tools from MCP servers: the values the engine, the settings and the window share (issue 20).

The protocol itself is spoken by the official ``mcp`` SDK in ``app/`` (processes, sockets, the
keyring); ``core/mcp`` holds only pure values and pure rules over them: the configured servers, the
tools they advertise, the names the model sees, and the question a call asks the person. Nothing
here starts a process, reads the clock or imports Qt.
"""

from __future__ import annotations

from core.mcp.types import (
    ApprovalRequest,
    Decision,
    HttpServer,
    ServerConfig,
    StdioServer,
    ToolInfo,
)

__all__ = [
    "ApprovalRequest",
    "Decision",
    "HttpServer",
    "ServerConfig",
    "StdioServer",
    "ToolInfo",
]
