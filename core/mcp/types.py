"""The shared values of Chime's MCP client: a configured server, an advertised tool, an approval
question and its answer. Frozen, pure, no I/O; secrets are never held here, only their names."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class StdioServer:
    """A local server Chime starts: ``command`` with ``args`` in ``cwd`` (None: the data folder).

    ``env`` holds the variables that are not secret; ``secret_env`` names the variables whose
    values live in the keyring (a token pasted in ``mcpServers`` JSON goes there, never into
    ``settings.json``)."""

    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    secret_env: tuple[str, ...] = ()
    cwd: str | None = None


@dataclass(frozen=True, slots=True)
class HttpServer:
    """A remote server spoken to over Streamable HTTP at ``url``; ``headers`` are the ones that are
    not secret, ``secret_headers`` names those whose values live in the keyring."""

    url: str
    headers: tuple[tuple[str, str], ...] = ()
    secret_headers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One configured server: ``name`` is the key of its ``mcpServers`` entry, unique in the
    settings; ``enabled_by_default`` offers it to new conversations."""

    name: str
    transport: StdioServer | HttpServer
    enabled_by_default: bool = False


@dataclass(frozen=True, slots=True)
class ToolInfo:
    """A tool a server advertised. ``exposed`` is the name the model sees (unique beside the
    reminder tools and every other server's tools, within OpenAI's 64 characters of
    ``[A-Za-z0-9_-]``); ``description`` is shown to the person in Settings as the server wrote
    it."""

    server: str
    name: str
    exposed: str
    description: str
    input_schema: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


class Decision(enum.Enum):
    """The person's answer to one call."""

    ALLOW_ONCE = "allow-once"
    ALWAYS = "always"
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """What the approval question shows: the tool, its server, the arguments in readable form
    (``arguments_text``: indented JSON, already bounded) and the tool's description."""

    session_id: str
    call_id: str
    server: str
    tool: str
    arguments_text: str
    description: str
