"""Reasoning through the real door: each recorded stream (``tests/data/reasoning/``, README there)
streams its thinking as ``ReasoningDelta`` pieces and its answer as ``TextDelta`` pieces, never
mixed, and ends in the ``Finish`` the record names. The splitter itself is property-tested."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ProviderError
from core.events import ToolCall
from core.llm.messages import Finish, ReasoningDelta, StreamChunk, TextDelta
from core.reasoning import CLOSE, OPEN, ThinkSplitter, split_think
from tests.core.llm.loopback import Json, LoopbackServer, Sse
from tests.core.llm.openai_kit import collect, exchange, final, provider_for, run

RECORDS = Path(__file__).resolve().parents[2] / "data" / "reasoning"
SHAPES = sorted(p.stem for p in RECORDS.glob("*.json"))


def record_of(shape: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((RECORDS / f"{shape}.json").read_text(encoding="utf-8"))
    return record


def test_every_shape_the_issue_names_is_recorded() -> None:
    assert {
        "deepseek-api",
        "llamacpp-reasoning-format",
        "qwen3-think-split",
        "qwen3-think-unclosed",
        "reasoning-then-tool-call",
        "reasoning-only",
    } <= set(SHAPES)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_recorded_stream_gives_its_reasoning_apart_from_its_answer(shape: str) -> None:
    record = record_of(shape)
    expected = record["answer"]

    chunks, error, _server = exchange([Sse(record["stream"])])

    assert error is None, error
    done = final(chunks)
    thought = "".join(c.text for c in chunks if isinstance(c, ReasoningDelta))
    said = "".join(c.text for c in chunks if isinstance(c, TextDelta))
    assert done.reasoning == expected["reasoning"]
    assert done.text == expected["text"]
    assert done.tool_calls == tuple(ToolCall(*c) for c in expected["tool_calls"])
    assert done.reason == expected["finish"]
    assert done.model == record["model"]
    if shape != "r1-closing-tag-only":  # its thinking is only known once the closing tag came
        assert thought.strip() == expected["reasoning"]
        assert said == expected["text"]
    assert OPEN not in done.text
    assert CLOSE not in done.text


def test_thinking_streams_before_the_answer_starts() -> None:
    chunks, _error, _server = exchange([Sse(record_of("qwen3-think-split")["stream"])])

    kinds = [type(c).__name__ for c in chunks if not isinstance(c, Finish)]

    assert kinds.index("TextDelta") > kinds.index("ReasoningDelta")
    assert "ReasoningDelta" not in kinds[kinds.index("TextDelta") :]


def test_an_unclosed_block_streams_as_thinking_while_it_lasts() -> None:
    splitter = ThinkSplitter()

    first = splitter.feed("<think>Still thinking")

    assert [(p.kind, p.text) for p in first] == [("reasoning", "Still thinking")]
    assert splitter.thinking


PLAIN = st.text(st.characters(blacklist_characters="<>"), max_size=40)


def _pieces_of(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(c, len(text)) for c in cuts})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@given(
    thought=PLAIN,
    answer=PLAIN.filter(lambda a: a.strip() == a and a != ""),
    cuts=st.lists(st.integers(0, 120), max_size=12),
)
def test_however_the_chunks_are_cut_the_split_is_the_same(
    thought: str, answer: str, cuts: list[int]
) -> None:
    whole = f"{OPEN}{thought}{CLOSE}\n\n{answer}"
    splitter = ThinkSplitter()

    pieces = [p for part in _pieces_of(whole, cuts) for p in splitter.feed(part)]
    pieces += splitter.flush()

    assert "".join(p.text for p in pieces if p.kind == "reasoning") == thought
    assert "".join(p.text for p in pieces if p.kind == "answer") == answer
    assert all(p.text for p in pieces)


@given(answer=st.text(max_size=60), cuts=st.lists(st.integers(0, 80), max_size=8))
def test_an_answer_that_does_not_open_with_the_tag_is_all_answer(
    answer: str, cuts: list[int]
) -> None:
    if answer.lstrip().startswith(OPEN) or CLOSE in answer:
        return
    splitter = ThinkSplitter()

    pieces = [p for part in _pieces_of(answer, cuts) for p in splitter.feed(part)]
    pieces += splitter.flush()

    assert all(p.kind == "answer" for p in pieces)
    assert "".join(p.text for p in pieces) == answer


def test_a_tag_later_in_the_answer_is_text() -> None:
    split = split_think(f"Use {OPEN} to mark thinking.")

    assert split.reasoning == ""
    assert split.answer == f"Use {OPEN} to mark thinking."


def test_a_whole_unstreamed_answer_splits_the_same_way() -> None:
    completion = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_780_000_000,
        "model": "qwen3",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "<think>Easy.</think>\n\nFour."},
                "finish_reason": "stop",
            }
        ],
    }

    models = Json(200, {"object": "list", "data": [{"id": "qwen3", "owned_by": "me"}]})

    async def scenario() -> tuple[list[StreamChunk], ProviderError | None]:
        async with LoopbackServer([Json(200, completion)], {"/v1/models": models}) as server:
            provider = provider_for(server.base_url, ask_server=True)  # llama-cpp-python
            found = await collect(provider)
            await provider.aclose()
            return found

    chunks, error = run(scenario)

    assert error is None, error
    done = final(chunks)
    assert (done.reasoning, done.text) == ("Easy.", "Four.")
    assert [type(c).__name__ for c in chunks] == ["ReasoningDelta", "TextDelta", "Finish"]


def test_the_space_after_a_closed_block_is_dropped_even_at_the_end() -> None:
    splitter = ThinkSplitter()

    pieces = splitter.feed("<think>done</think>\n\n") + splitter.flush()

    assert [(p.kind, p.text) for p in pieces] == [("reasoning", "done")]
