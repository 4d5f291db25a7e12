"""The reference server-everything, installed once per run where npm exists (tests/mcp/everything.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.everything import install


@pytest.fixture(scope="session")
def everything() -> Path:
    entry, reason = install()
    if entry is None:
        pytest.skip(reason)
    return entry
