"""Fixtures of the app tests: one qasync loop on the test QApplication for the whole run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.qtasync import make_event_loop


@pytest.fixture(scope="session")
def loop(qapp) -> Iterator[asyncio.AbstractEventLoop]:
    """qasync's loop; closing and recreating it per test stops the next one early."""
    qapp.setQuitOnLastWindowClosed(False)  # closing a test window must not stop the next run
    # The openai SDK's import (~520 modules: 1-5 s on a loaded machine) happens at the first
    # endpoint; taken here once, it does not count against the first such test's wait bound.
    import core.llm.openai_compat  # noqa: F401

    event_loop = make_event_loop(qapp)
    asyncio.set_event_loop(event_loop)
    yield event_loop
    event_loop.close()  # shuts down its worker threads
    asyncio.set_event_loop(None)
