"""Survival: a long answer streamed in small deltas, end to end through the real agent.

Collecting the pieces must stay linear: a turn that re-copied its whole partial answer per delta
took 19 s for 1 MB in 20-character deltas (75 s for 2 MB), freezing the app's loop; the window's
deltas must stay the pieces the model sent, and the recorded answer the whole text.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.errors import ErrorKind, ProviderError
from core.failures import Failure, FailureCode
from core.llm.messages import Finish, ModelInfo, ModelRequest, StreamChunk, TextDelta
from tests import wire as v
from tests.survival.hostile_kit import (
    Rig,
    assert_readable_failure,
    hosted,
    of_type,
    turn_end,
    turn_events,
)

PIECE = "0123456789abcdefghi\u2028"
"""20 characters, one of them a line separator that must not split anything."""


class Chatterbox:
    """A ModelProvider streaming ``count`` copies of ``PIECE``, then finishing or failing."""

    def __init__(self, count: int, *, fail: bool = False) -> None:
        self.count = count
        self.fail = fail

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(provider="chatterbox", name="chatter-1")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        for index in range(self.count):
            if index % 1_000 == 0:
                await asyncio.sleep(0)  # lets the test's deadline fire on a slow collector
            yield TextDelta(PIECE)
        if self.fail:
            raise ProviderError.because(ErrorKind.CONNECTION, Failure(FailureCode.CUT_OFF))
        yield Finish(PIECE * self.count, (), "stop")


@pytest.mark.parametrize("fail", [False, True], ids=["finished", "cut off"])
def test_fifty_thousand_small_deltas_are_collected_in_linear_time_and_recorded_whole(
    fail: bool, tmp_path: Path
) -> None:
    count = 50_000  # 1 MB: minutes of copying when each delta re-copies the partial answer

    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[str]]:
        await rig.ask("tell me everything")
        return rig.events(), list(rig.deltas)

    events, deltas = hosted([], tmp_path, body, seconds=8, model=Chatterbox(count, fail=fail))

    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    assert answer["text"] == PIECE * count
    assert answer["finish"] == ("interrupted" if fail else "stop")
    assert len(deltas) == count
    assert set(deltas) == {PIECE}
    if fail:
        assert_readable_failure(turn_end(events, 1), "connection")
    else:
        assert turn_end(events, 1) == {"turn": 1, "status": "completed"}
