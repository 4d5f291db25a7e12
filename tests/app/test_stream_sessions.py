"""The streamed answer across sessions, in the real app: a session shown while it answers shows
the answer so far in its row, a session in the background streams without touching the window,
and a session that stops streaming without an answer (it turned read-only) drops the row; the
version reader's fallbacks."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import pytest

from tests.app.window import Opener, running
from tests.fakes import FakeClock


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


class Gated:
    """A model that streams "Thinking", waits for ``gate``, streams " more", then finishes."""

    def __init__(self, gate: asyncio.Event) -> None:
        self.gate = gate

    @property
    def info(self) -> Any:
        from core.llm.messages import ModelInfo

        return ModelInfo("test", "gated")

    async def stream(self, request: object) -> Any:
        from core.llm.messages import Finish, TextDelta

        yield TextDelta("Thinking")
        await self.gate.wait()
        yield TextDelta(" more")
        await asyncio.Event().wait()  # holds the turn open until it is cancelled
        yield Finish("Thinking more", (), "stop")


def test_a_session_shown_while_it_answers_shows_the_answer_so_far_in_its_row(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        gate = asyncio.Event()
        chime.controller.set_provider(lambda: Gated(gate))
        answering = chime.controller.current
        chime.window.composer.editor.setPlainText("think about it")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.kinds()[-1:] == ["streaming"])
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != answering)
        chime.inside(gate.set)  # the answer goes on in the background
        opened = chime.controller.open[answering]  # type: ignore[index]
        chime.until(lambda: opened.bridge.stream_so_far() == "Thinking more")
        assert "streaming" not in chime.kinds()  # the window showed none of it
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(answering))
        chime.until(lambda: chime.controller.current == answering)
        assert chime.kinds()[-1] == "streaming"
        assert chime.transcript_texts()[-1] == "Thinking more"
        chime.inside(opened.bridge.drop_agent)  # it turned read-only mid-answer
        assert "streaming" not in chime.kinds()


class TwoSteps:
    """A model that waits for ``gates[0]``, says "Checking", and after ``gates[1]`` calls
    ``schedule_list``; asked again, it waits for ``gates[2]`` and answers "None"."""

    def __init__(self, gates: list[asyncio.Event]) -> None:
        self.gates = gates
        self.asked = 0

    @property
    def info(self) -> Any:
        from core.llm.messages import ModelInfo

        return ModelInfo("test", "two-steps")

    async def stream(self, request: object) -> Any:
        from core.events import ToolCall
        from core.llm.messages import Finish, TextDelta

        self.asked += 1
        if self.asked == 1:
            await self.gates[0].wait()
            yield TextDelta("Checking")
            await self.gates[1].wait()
            yield Finish("Checking", (ToolCall("call-1", "schedule_list", "{}"),), "tool_calls")
            return
        await self.gates[2].wait()
        yield TextDelta("None")
        yield Finish("None", (), "stop")


def test_until_the_first_word_of_each_step_the_window_says_the_answer_is_awaited(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        gates = [asyncio.Event() for _ in range(3)]
        chime.controller.set_provider(lambda: TwoSteps(gates))
        wait = chime.window.answer_wait
        wait.delay_ms = 0
        chime.window.composer.editor.setPlainText("what is set?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(wait.isVisible)  # the model reads; nothing has come yet
        assert wait.text().startswith("Waiting for the answer…")
        chime.inside(gates[0].set)  # its first word
        chime.until(lambda: chime.kinds()[-1:] == ["streaming"])
        assert not wait.isVisible()
        chime.inside(gates[1].set)  # it calls a tool, then is asked again: a new wait
        chime.until(lambda: "tool" in chime.kinds() and wait.isVisible())
        assert "streaming" not in chime.kinds()
        chime.inside(gates[2].set)
        chime.until(lambda: chime.idle() and chime.kinds()[-1] == "assistant")
        assert chime.transcript_texts()[-1] == "None"
        assert not wait.isVisible()
        assert not wait.waiting


def test_an_answer_at_once_never_shows_the_wait(open_app: Opener) -> None:
    with open_app() as chime:  # the offline assistant, with the line's real delay
        chime.send("remind me in 5 minutes to stretch")
        assert not chime.window.answer_wait.waiting
        assert not chime.window.answer_wait.isVisible()
