"""Reading the ``mcpServers`` JSON people paste, and the servers' form in ``settings.json``. Pure:
no I/O, no keyring (the caller stores the secrets this splits out).

What is read (the form Claude Desktop, Cursor and most MCP READMEs print):

- ``{"mcpServers": {"<name>": {...}}}``, the same under ``"servers"`` (VS Code), or the bare
  mapping of names to entries;
- a stdio entry: ``command`` (text, required), ``args`` (list of text), ``env`` (object of text),
  ``cwd`` (text); ``type`` absent or ``"stdio"``;
- a Streamable HTTP entry: ``url`` (``http``/``https``), ``headers`` (object of text); ``type``
  absent, ``"http"`` or ``"streamable-http"`` (``"sse"``, the transport the protocol retired, is
  refused with a sentence).

A bad entry is left out with one sentence naming it (``Parsed.problems``); only a text that is not
a JSON object at all raises ``McpConfigError`` (a ValueError), and nothing else is raised for any
text. The text is read with the bounded decode (``core.jsonread.SETTINGS``).

Secrets: an environment variable or header whose name looks secret (``SECRET_WORDS``: token, key,
secret, password, auth, credential, cookie...) or a header value that starts with an
authorization scheme (``Bearer``, ``Basic``, ``Token``) is split out as a ``Secret``; the
``ServerConfig`` keeps only its name (``secret_env`` / ``secret_headers``). The settings form
(``to_settings`` / ``from_settings``) is the same mapping with ``secretEnv`` / ``secretHeaders``
(names only) and ``enabledByDefault`` added: it never holds a secret's value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, assert_never

from core.jsonread import SETTINGS, JsonRefusedError, parse_json
from core.mcp.types import HttpServer, ServerConfig, StdioServer

SecretKind = Literal["env", "header"]

SECRET_WORDS = re.compile(
    r"token|key|secret|passw|pwd|auth|credential|cookie|session|private|signature|bearer",
    re.IGNORECASE,
)
_SCHEME = re.compile(r"\s*(bearer|basic|token|digest)\s+\S", re.IGNORECASE)
MAX_NAME = 64
"""A server's name is at most this many characters (it heads the names the model sees)."""


class McpConfigError(ValueError):
    """The text is not a JSON object of servers at all; the message is one sentence."""


@dataclass(frozen=True, slots=True)
class Secret:
    """A value that goes to the keyring: ``kind`` ``env`` or ``header`` ``name`` of ``server``."""

    server: str
    kind: SecretKind
    name: str
    value: str = ""

    @property
    def key(self) -> str:
        """The keyring user name it is kept under: ``mcp/<server>/<kind>/<name>``."""
        return f"mcp/{self.server}/{self.kind}/{self.name}"


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a pasted text holds: the servers read, their secrets, one sentence per bad entry."""

    servers: tuple[ServerConfig, ...] = ()
    secrets: tuple[Secret, ...] = ()
    problems: tuple[str, ...] = ()


def is_secret(name: str, value: str = "") -> bool:
    """True when a variable or header named ``name`` (holding ``value``) is a secret."""
    return bool(SECRET_WORDS.search(name) or _SCHEME.match(value))


def parse_servers(text: str) -> Parsed:
    """The servers of a pasted ``mcpServers`` text; McpConfigError when it is no JSON object."""
    try:
        value = parse_json(text, SETTINGS)
    except JsonRefusedError as error:
        raise McpConfigError(f"The text is not JSON: {error.detail}.") from None
    if not isinstance(value, dict):
        raise McpConfigError('The text is not a JSON object like {"mcpServers": {...}}.')
    return read_mapping(_servers_of(value))


def _servers_of(value: dict[str, Any]) -> Any:
    for key in ("mcpServers", "servers"):
        if key in value:
            return value[key]
    return value


def read_mapping(value: Any) -> Parsed:
    """The servers of a mapping of names to entries (pasted or from settings.json)."""
    if not isinstance(value, dict):
        return Parsed(problems=("The servers are not a JSON object of names to servers.",))
    servers: list[ServerConfig] = []
    secrets: list[Secret] = []
    problems: list[str] = []
    for raw_name, entry in value.items():
        name = raw_name.strip()
        try:
            if any(s.name == name for s in servers):
                raise _BadEntryError("a server of that name comes earlier; this one is left out.")
            server, found = _entry(name, entry)
        except _BadEntryError as error:
            problems.append(f"Server {_quoted(raw_name)}: {error}")
            continue
        servers.append(server)
        secrets.extend(found)
    return Parsed(tuple(servers), tuple(secrets), tuple(problems))


class _BadEntryError(ValueError):
    pass


def _entry(name: str, entry: Any) -> tuple[ServerConfig, list[Secret]]:
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise _BadEntryError(f"the name must be 1 to {MAX_NAME} printable characters.")
    if not isinstance(entry, dict):
        raise _BadEntryError("it is not a JSON object.")
    default = _flag(entry, "enabledByDefault")
    kind = entry.get("type")
    if kind == "sse":
        raise _BadEntryError("the old SSE transport is not supported; use its Streamable HTTP URL.")
    if kind not in (None, "stdio", "http", "streamable-http", "streamableHttp"):
        raise _BadEntryError(f"the type {_quoted(kind)} is not stdio or http.")
    if "command" in entry and kind in (None, "stdio"):
        stdio, secrets = _stdio(name, entry)
        return ServerConfig(name, stdio, default), secrets
    if "url" in entry and kind != "stdio":
        http, secrets = _http(name, entry)
        return ServerConfig(name, http, default), secrets
    raise _BadEntryError('it has neither a "command" (a local server) nor a "url" (a remote one).')


def _stdio(name: str, entry: dict[str, Any]) -> tuple[StdioServer, list[Secret]]:
    command = _text(entry, "command")
    if not command.strip():
        raise _BadEntryError('its "command" is empty.')
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise _BadEntryError('its "args" must be a list of texts.')
    cwd = entry.get("cwd")
    if cwd is not None and not (isinstance(cwd, str) and cwd.strip()):
        raise _BadEntryError('its "cwd" must be a folder path.')
    plain, secrets = _split(name, "env", _pairs(entry, "env"))
    named = _names(entry, "secretEnv")
    return StdioServer(command, tuple(args), plain, _merge(named, secrets), cwd), secrets


def _http(name: str, entry: dict[str, Any]) -> tuple[HttpServer, list[Secret]]:
    url = _text(entry, "url").strip()
    if not re.match(r"https?://[^/\s]+", url, re.IGNORECASE) or any(c.isspace() for c in url):
        raise _BadEntryError('its "url" must be an http:// or https:// address.')
    plain, secrets = _split(name, "header", _pairs(entry, "headers"))
    named = _names(entry, "secretHeaders")
    return HttpServer(url, plain, _merge(named, secrets)), secrets


def _split(
    server: str, kind: SecretKind, pairs: tuple[tuple[str, str], ...]
) -> tuple[tuple[tuple[str, str], ...], list[Secret]]:
    plain = tuple((k, v) for k, v in pairs if not is_secret(k, v))
    secrets = [Secret(server, kind, k, v) for k, v in pairs if is_secret(k, v)]
    return plain, secrets


def _merge(named: tuple[str, ...], secrets: list[Secret]) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*named, *(s.name for s in secrets))))


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str):
        raise _BadEntryError(f'its "{key}" must be a text.')
    return value


def _flag(entry: dict[str, Any], key: str) -> bool:
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise _BadEntryError(f'its "{key}" must be true or false.')
    return value


def _pairs(entry: dict[str, Any], key: str) -> tuple[tuple[str, str], ...]:
    value = entry.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _BadEntryError(f'its "{key}" must be an object of texts.')
    if not all(k.strip() and k.isprintable() and "=" not in k for k in value):
        raise _BadEntryError(f'its "{key}" has a name that is empty or not printable.')
    return tuple(value.items())


def _names(entry: dict[str, Any], key: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _BadEntryError(f'its "{key}" must be a list of names.')
    return tuple(value)


def _quoted(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return f'"{text[:40]}…"' if len(text) > 40 else f'"{text}"'


def to_settings(servers: tuple[ServerConfig, ...]) -> dict[str, Any]:
    """The servers' form in settings.json: names to entries, secrets by name only."""
    return {server.name: _settings_entry(server) for server in servers}


def _settings_entry(server: ServerConfig) -> dict[str, Any]:
    entry: dict[str, Any]
    match server.transport:
        case StdioServer(command, args, env, secret_env, cwd):
            entry = {"command": command, "args": list(args), "env": dict(env)}
            entry["secretEnv"] = list(secret_env)
            if cwd is not None:
                entry["cwd"] = cwd
        case HttpServer(url, headers, secret_headers):
            entry = {"type": "http", "url": url, "headers": dict(headers)}
            entry["secretHeaders"] = list(secret_headers)
        case _:
            assert_never(server.transport)
    entry["enabledByDefault"] = server.enabled_by_default
    return entry


def from_settings(value: object) -> Parsed:
    """The servers kept in settings.json (``to_settings``'s form); a bad entry is a problem."""
    return read_mapping(value)
