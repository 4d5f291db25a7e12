"""Chime's network door against a real llama-cpp-python server with a tiny real model.

Runs when such a server can be started here: ``python scripts/real_server.py`` builds one in its
cache folder (``~/.cache/chime/real-server``, or ``CHIME_REAL_SERVER_CACHE``), or
``CHIME_LLAMA_PYTHON`` names a python that has ``llama_cpp`` and the model package. Otherwise
every test is skipped, saying so. Each check is the script's own (``scripts/real_server.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts import real_server

pytestmark = [pytest.mark.slow, pytest.mark.real_server]
NOT_HERE = (
    "no llama-cpp-python server here: `python scripts/real_server.py --server llama-cpp-python` "
    "builds one in "
    "~/.cache/chime/real-server (or set CHIME_LLAMA_PYTHON to a python that has llama_cpp)"
)


@pytest.fixture(scope="module")
def model() -> tuple[Path, Path]:
    cache = real_server.cache_dir(None)
    python = real_server.server_python(cache)
    if not real_server.has_server(python):
        pytest.skip(NOT_HERE)
    return python, real_server.set_up(cache, python)


@pytest.fixture(scope="module")
def server(model: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    log = tmp_path_factory.mktemp("llama") / "server.log"
    running = real_server.start_server(*model, log)
    yield running
    running.stop()


@pytest.mark.parametrize(
    "check", [c for name, c in real_server.CHECKS if c is not real_server.check_killed]
)
def test_the_real_server_does_what_chime_needs(check, server) -> None:  # type: ignore[no-untyped-def]  # pytest fixtures
    seen = asyncio.run(check(server))

    assert seen  # each check raises when it sees anything else


def test_a_real_server_killed_mid_answer_fails_the_turn_readably(  # type: ignore[no-untyped-def]
    model, tmp_path: Path
) -> None:
    running = real_server.start_server(*model, tmp_path / "server.log")
    try:
        seen = asyncio.run(real_server.check_killed(running))
    finally:
        running.stop()

    assert "broke before the answer was complete" in seen
