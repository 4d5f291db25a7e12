"""Shared fixtures: offscreen Qt, a fake clock, and the conformance cases' location."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 8, 5, 12, 0, tzinfo=UTC))
