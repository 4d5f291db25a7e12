"""Chime on real models (Qwen2.5-Coder 0.5B and 1.5B Instruct) served by llama.cpp's own server.

Runs only when ``python scripts/real_server.py`` has put the models and the prebuilt ``xllamacpp``
server in ``~/.cache/chime`` (nothing is downloaded here: CI has no such cache, and these tests
then skip saying so). The 0.5B runs whenever it is cached; the 1.5B (minutes per turn on two
shared cores) only with ``CHIME_REAL_SLOW=1``. One model at a time, 2 threads, greedy sampling
(temperature 0), so a run's outcome is the model's, not the dice's.

The loop is the issue's: "remind me in 2 minutes to check the oven" in plain words sets a
reminder (the model's tool call, parsed or written as text, or the safety net's offer accepted),
it fires on time as a turn (the clock is moved, not waited for) and is answered; the prefix of
every later request (system prompt and tools) is served from the server's prompt cache.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts import real_loop, real_models, real_server

pytestmark = [pytest.mark.slow, pytest.mark.real_server]


def _params() -> list[object]:
    params: list[object] = []
    for key, model in real_models.MODELS.items():
        why = real_models.ready(model)
        if why is None and key != "qwen2.5-coder-0.5b" and not os.environ.get("CHIME_REAL_SLOW"):
            why = f"{model.title} takes minutes per turn here: set CHIME_REAL_SLOW=1 to run it"
        elif why is not None:
            why += ": `python scripts/real_server.py` fetches it once into ~/.cache/chime"
        marks = [pytest.mark.skip(reason=why)] if why else []
        params.append(pytest.param(model, id=key, marks=marks))
    return params


@pytest.fixture(scope="module", params=_params())
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[real_models.LlamaServer]:
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with real_models.serving(request.param, log, temperature=0.0) as running:
        yield running


def test_the_server_is_recognised_and_streams(server: real_models.LlamaServer) -> None:
    recognised = asyncio.run(real_server.check_profile(server))
    streamed = asyncio.run(real_server.check_stream(server))

    assert recognised.startswith(f"family llamacpp, context {real_models.CONTEXT} tokens")
    assert "pieces" in streamed


def test_a_reminder_in_plain_words_is_set_fires_on_time_and_is_answered(
    server: real_models.LlamaServer, tmp_path: Path
) -> None:
    async def scenario() -> tuple[real_loop.HowSet, float, str, list[str]]:
        door = real_server.door(server)
        chat = await real_loop.conversation(tmp_path, door, real_loop.ShiftClock())
        try:
            how, _answers = await real_loop.set_reminder(chat)
            active = chat.active()
            late, answered = await real_loop.fire(chat, wait=False)
        finally:
            await chat.host.dispose()
            await door.aclose()
        return how, late, answered[-1].text if answered else "", active

    how, late, answer, active = asyncio.run(scenario())

    assert how != "not set"
    assert active == ["check the oven"]
    assert 0 <= late < 2
    assert answer.strip()


def test_the_prompt_prefix_is_read_once_then_served_from_the_cache(
    server: real_models.LlamaServer, tmp_path: Path
) -> None:
    """Two conversations in a row: the second one's request reads anew only what differs (the
    time and the message), not Chime's ~1,200 tokens of instructions and tools again."""

    async def scenario() -> tuple[int, list[real_loop.Timing]]:
        prompt, before = 0, 0
        for n in range(2):
            before = len(real_loop.timings(server.log))
            door = real_server.door(server)
            chat = await real_loop.conversation(tmp_path / str(n), door, real_loop.ShiftClock())
            try:
                answers = await chat.say("what can you do?")
            finally:
                await chat.host.dispose()
                await door.aclose()
            usage = answers[0].usage
            prompt = usage.prompt_tokens if usage is not None else 0
        return prompt, real_loop.timings(server.log)[before:]

    prompt, (second, *_rest) = asyncio.run(scenario())

    assert prompt > 1000  # the whole prompt, as the server counted it
    assert second.prompt_tokens < prompt / 4, (prompt, second)  # what it read anew
