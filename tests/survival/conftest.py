"""Fixtures of the survival tests that drive the window: a qasync loop per module."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from app.qtasync import make_event_loop


def _current_loop() -> asyncio.AbstractEventLoop | None:
    """The thread's current loop, without creating one (asyncio has no public way to ask)."""
    local = getattr(asyncio.get_event_loop_policy(), "_local", None)
    current = getattr(local, "_loop", None)
    return current if isinstance(current, asyncio.AbstractEventLoop) else None


@pytest.fixture(scope="module")
def loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """The qasync loop another module made, when it is still open; else our own, closed at the end."""
    current = _current_loop()
    qasync_loop = current is not None and type(current).__module__.startswith("qasync")
    if current is not None and qasync_loop and not current.is_closed():
        yield current
        return
    qapp.setQuitOnLastWindowClosed(False)
    event_loop = make_event_loop(qapp)
    asyncio.set_event_loop(event_loop)
    yield event_loop
    event_loop.close()
    asyncio.set_event_loop(None)
