"""Where an MCP server's tokens live: the system keyring (service ``Chime``, user
``mcp/<server>/<env|header>/<name>``), else a 0600 file per secret under ``mcp-secrets/`` in the
config folder, as for the API key (``app.settings.KeyStore``). Never settings.json, logs or
sessions."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from app.settings import KeyStore
from core.mcp.config import Secret
from core.mcp.types import HttpServer, ServerConfig, StdioServer


class McpSecrets:
    """The secrets of the MCP servers, kept where ``keys`` (the API key's store) keeps its own."""

    def __init__(self, keys: KeyStore) -> None:
        self._keys = keys

    def _store(self, secret: Secret) -> KeyStore:
        digest = hashlib.sha256(secret.key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        return self._keys.sibling(secret.key, f"mcp-secrets/{digest}")

    def save(self, secrets: Iterable[Secret]) -> None:
        for secret in secrets:
            self._store(secret).set(secret.value)

    def forget(self, config: ServerConfig) -> None:
        """Deletes every secret of ``config`` (the server was removed)."""
        self.save(Secret(config.name, s.kind, s.name) for s in names(config))

    def values(self, config: ServerConfig) -> dict[str, str]:
        """The stored secrets of ``config``: variable or header name -> value (missing: left out)."""
        found = {s.name: self._store(s).get() for s in names(config)}
        return {name: value for name, value in found.items() if value}


def names(config: ServerConfig) -> list[Secret]:
    """The secrets ``config`` names, without their values."""
    match config.transport:
        case StdioServer(secret_env=env):
            return [Secret(config.name, "env", name) for name in env]
        case HttpServer(secret_headers=headers):
            return [Secret(config.name, "header", name) for name in headers]
