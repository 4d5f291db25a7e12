"""The reference ``@modelcontextprotocol/server-everything`` over stdio and Streamable HTTP, and
our hostile server over Streamable HTTP, through the pool (app/mcp/pool.py). A header that looks
secret is kept in the key store and still sent."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from app.mcp.pool import McpPool
from app.mcp.secrets import McpSecrets
from app.settings import KeyStore
from core.mcp.config import parse_servers
from core.mcp.results import read_result
from core.mcp.toolset import McpCallError
from core.mcp.types import ServerConfig
from tests.mcp.servers import ROOT


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _serving(command: list[str], port: int, env: dict[str, str]) -> Iterator[None]:
    process = subprocess.Popen(
        command,
        env={**os.environ, **env},
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):  # up to 30 s on a busy machine
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if process.poll() is not None:
                pytest.fail(f"the server exited with {process.returncode}")
            subprocess.run(["sleep", "0.1"], check=True)
        yield
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _pool_answers(
    tmp_path: Path, text: str, calls: list[tuple[str, dict[str, Any]]]
) -> tuple[list[str], list[Any]]:
    parsed = parse_servers(text)
    keys = KeyStore(tmp_path / "config", use_keyring=False)
    secrets = McpSecrets(keys)
    secrets.save(parsed.secrets)
    (server,) = parsed.servers

    async def main() -> tuple[list[str], list[Any]]:
        configs: dict[str, ServerConfig] = {server.name: server}
        pool = McpPool(lambda: configs, secrets, tmp_path)
        try:
            names = [t.name for t in await pool.list_tools(server.name)]
            answers: list[Any] = []
            for tool, args in calls:
                try:
                    answers.append(read_result(await pool.call_tool(server.name, tool, args)))
                except McpCallError as error:
                    answers.append(error)
        finally:
            await pool.stop_all()
        return names, answers

    return asyncio.run(main())


CALLS = [
    ("echo", {"message": "hello"}),
    ("get-tiny-image", {}),
    ("get-resource-links", {"count": 2}),
]


@pytest.mark.slow  # node starts the reference server: about 1-2 s
def test_server_everything_over_stdio(tmp_path: Path, everything: Path) -> None:
    node = shutil.which("node")
    text = json.dumps(
        {"mcpServers": {"everything": {"command": node, "args": [str(everything), "stdio"]}}}
    )
    names, (echo, image, links) = _pool_answers(tmp_path, text, CALLS)
    assert {"echo", "get-tiny-image", "get-resource-links"} <= set(names)
    assert "hello" in echo.text
    assert image.images
    assert image.images[0].media_type == "image/png"
    assert len(links.links) == 2


@pytest.mark.slow  # node serves Streamable HTTP: about 1-2 s
def test_server_everything_over_streamable_http_with_a_secret_header(
    tmp_path: Path, everything: Path
) -> None:
    port = _port()
    node = shutil.which("node")
    assert node is not None
    entry = {
        "type": "http",
        "url": f"http://127.0.0.1:{port}/mcp",
        "headers": {"Authorization": "Bearer test-token"},
    }
    text = json.dumps({"mcpServers": {"everything": entry}})
    with _serving([node, str(everything), "streamableHttp"], port, {"PORT": str(port)}):
        names, (echo,) = _pool_answers(tmp_path, text, CALLS[:1])
    assert "echo" in names
    assert "hello" in echo.text
    assert (
        "test-token" not in (tmp_path / "config").joinpath("api-key").read_text()
        if (tmp_path / "config" / "api-key").exists()
        else True
    )


@pytest.mark.slow  # our hostile server with 1,000 tools over Streamable HTTP: about 5 s
def test_our_hostile_server_over_streamable_http(tmp_path: Path) -> None:
    port = _port()
    command = [sys.executable, "-m", "tests.mcp.hostile_server", "--http", str(port)]
    text = json.dumps(
        {
            "remote": {
                "url": f"http://127.0.0.1:{port}/mcp",
                "headers": {"X-Api-Key": "k-123", "X-Team": "blue"},
            }
        }
    )
    with _serving(command, port, {"PYTHONPATH": str(ROOT), "HOSTILE_TOOLS": "1000"}):
        calls = [("echo", {"text": "over http"}), ("flood", {}), ("echo", {"text": "again"})]
        names, (echo, flood, again) = _pool_answers(tmp_path, text, calls)
    assert len(names) == 1007  # a thousand extra tools, listed in pages where it pages them
    assert echo.text == "over http"
    # over HTTP the SDK refuses an event above 1 MiB: the call fails, the server is used again
    assert isinstance(flood, McpCallError)
    assert flood.kind == "failed"
    assert again.text == "again"
    stored = [p.read_text() for p in (tmp_path / "config" / "mcp-secrets").iterdir()]
    assert stored == ["k-123"]  # the secret header went to the key store (here its file)
