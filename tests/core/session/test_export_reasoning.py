"""An answer's reasoning in the Markdown export (a folded, marked section) and in the log (its
optional fields round-trip; older lines without them read as before)."""

from __future__ import annotations

from typing import Any

import pytest

from core.events import (
    AssistantMessage,
    Entry,
    EventType,
    MalformedEvent,
    ModelRef,
    TurnStart,
    UserMessage,
    UserSource,
    decode_event,
)
from core.session.export import render_markdown
from core.session.lines import SessionHeader

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("openai-compatible", "qwen3")
HEADER = SessionHeader("s", AT, None, 0)


def _export(answer: AssistantMessage) -> str:
    events = [
        Entry(0, AT, UserMessage("u", "2+2?", UserSource(None))),
        Entry(1, AT, TurnStart(1, 0)),
        Entry(2, AT, answer),
    ]
    return render_markdown(HEADER, None, events, "Europe/Berlin")


def test_the_export_shows_reasoning_folded_and_marked_before_the_answer() -> None:
    answer = AssistantMessage(
        "a", "4", (), MODEL, "stop", reasoning="Two plus two.", reasoning_ms=12_400
    )

    text = _export(answer)

    section = "<details><summary>Thinking (12 s)</summary>\n\nTwo plus two.\n\n</details>\n\n4"
    assert section in text


def test_a_think_block_recorded_in_an_older_answers_text_is_exported_the_same_way() -> None:
    text = _export(AssistantMessage("a", "<think>Two plus two.</think>\n\n4", (), MODEL, "stop"))

    assert "<details><summary>Thinking</summary>\n\nTwo plus two.\n\n</details>\n\n4" in text
    assert "<think>" not in text


def test_reasoning_only_is_exported_and_cannot_close_the_fold_early() -> None:
    answer = AssistantMessage("a", "", (), MODEL, "stop", reasoning="a </details> b")

    text = _export(answer)

    assert "### Assistant" in text
    assert "a &lt;/details> b" in text
    assert text.count("</details>") == 1


def test_the_new_fields_round_trip_and_stay_out_of_an_answer_without_them() -> None:
    full = AssistantMessage(
        "a",
        "Done.",
        (),
        MODEL,
        "stop",
        reasoning="think",
        reasoning_ms=5,
        calls_from_text=True,
        reminder_not_set='{"prompt": "stretch", "after_seconds": 600}',
    )
    plain = AssistantMessage("b", "Hi.", (), MODEL, "stop")

    assert decode_event(EventType.ASSISTANT_MESSAGE, full.to_data()) == full
    assert decode_event(EventType.ASSISTANT_MESSAGE, plain.to_data()) == plain
    assert set(plain.to_data()) == {"id", "text", "toolCalls", "model", "finish"}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("reasoning", 5),
        ("reasoningMs", "12"),
        ("callsFromText", "yes"),
        ("reminderNotSet", {"prompt": "x"}),
    ],
)
def test_a_new_field_of_the_wrong_type_makes_the_line_malformed(key: str, value: Any) -> None:
    data = AssistantMessage("a", "x", (), MODEL, "stop").to_data() | {key: value}

    assert isinstance(decode_event(EventType.ASSISTANT_MESSAGE, data), MalformedEvent)
