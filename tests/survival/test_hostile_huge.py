"""Survival: huge answers from a loopback endpoint, end to end through the real agent.

An answer under the provider's bound is recorded whole; one over it (5 MB with the default bound)
is cut with a note, the step ending ``finish: "length"``; the window's deltas stay the pieces the
server sent (never the growing answer), and the session answers the next input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.llm.openai_compat import MAX_ANSWER_CHARS, cut_note
from tests import wire as v
from tests.core.llm.loopback import Sse, chunk
from tests.survival.hostile_kit import (
    GOOD,
    Rig,
    hosted,
    of_type,
    turn_end,
    turn_events,
)


def megabyte_stream(chars: int, piece: int = 1_000) -> Sse:
    body = [chunk("x" * (piece - 1) + "\u2029") for _ in range(chars // piece)]
    return Sse([*body, chunk(finish="stop")])


def test_an_answer_under_the_bound_is_recorded_intact_and_reopens(tmp_path: Path) -> None:
    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[str]]:
        await rig.ask("long please")
        await rig.ask("short now")
        reopened = await rig.store.export_jsonl(rig.session.id)
        assert reopened.count(b"\n") == len(rig.events()) + 1  # U+2029 split nothing
        return rig.events(), list(rig.deltas)

    events, deltas = hosted(
        [megabyte_stream(30_000), GOOD], tmp_path, body, max_answer_chars=40_000
    )

    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    assert answer["text"] == ("x" * 999 + "\u2029") * 30
    assert answer["finish"] == "stop"
    assert max(len(d) for d in deltas) == 1_000
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}


def test_one_big_event_of_escaped_emoji_under_the_answer_bound_is_taken_whole(
    tmp_path: Path,
) -> None:
    text = "😀" * 20_000  # 240 KB on the wire: each is an escaped surrogate pair, 12 bytes

    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("emoji please")
        return rig.events()

    events = hosted(
        [Sse([chunk(text), chunk(finish="stop")])], tmp_path, body, max_answer_chars=20_010
    )

    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    assert answer["text"] == text
    assert turn_end(events, 1) == {"turn": 1, "status": "completed"}


def test_an_answer_over_the_bound_is_cut_with_a_note_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[str]]:
        await rig.ask("long please")
        await rig.ask("short now")
        return rig.events(), list(rig.deltas)

    events, deltas = hosted(
        [megabyte_stream(60_000), GOOD], tmp_path, body, max_answer_chars=20_000
    )

    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    note = cut_note(20_000)
    assert answer["finish"] == "length"
    assert answer["text"].endswith(note)
    assert 20_000 - 1_000 < len(answer["text"]) - len(note) <= 20_000 + 1_000
    assert "".join(deltas[:-1]) == answer["text"]
    assert turn_end(events, 1) == {"turn": 1, "status": "completed"}
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}


def test_a_long_answer_that_finished_is_not_said_to_have_gone_on_without_end(
    tmp_path: Path,
) -> None:
    """Issue 24, point 7: a 5 MB answer that finished normally was labelled "the model endpoint
    kept sending without finishing". Past the bound Chime does not know whether the endpoint would
    have finished, so the note says only what Chime did and why."""

    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("long please")
        return rig.events()

    events = hosted([megabyte_stream(30_000)], tmp_path, body, max_answer_chars=20_000)

    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    note = answer["text"][answer["text"].rindex("\n\n[") :]
    assert note == cut_note(20_000)
    assert "without finishing" not in note
    assert "kept sending" not in note
    assert "20,000 characters, the most Chime keeps of one answer" in note


@pytest.mark.slow
def test_a_five_megabyte_answer_is_cut_at_the_default_bound_and_recorded_on_disk(
    tmp_path: Path,
) -> None:
    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[str]]:
        await rig.ask("five megabytes please")
        await rig.ask("short now")
        return rig.events(), list(rig.deltas)

    events, deltas = hosted(
        [megabyte_stream(5_000_000, piece=5_000), GOOD], tmp_path, body, seconds=30
    )

    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    note = cut_note(MAX_ANSWER_CHARS)
    assert answer["finish"] == "length"
    assert answer["text"].endswith(note)
    assert MAX_ANSWER_CHARS - 5_000 < len(answer["text"]) - len(note) <= MAX_ANSWER_CHARS + 5_000
    assert max(len(d) for d in deltas) <= max(5_000, len(note))
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}
