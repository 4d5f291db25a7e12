"""The words of an answer's thinking header and of the safety net's line and question."""

from __future__ import annotations

from datetime import UTC, datetime

from core.frozen import replace
from core.transcript.rows import TranscriptRow
from ui.row_parts import offer_words, set_it_tip, thinking_label, unset_line

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def test_the_thinking_header_says_thinking_while_only_thinking_streams_then_thought_for() -> None:
    streaming = TranscriptRow("streaming", "", reasoning="hm", reasoning_ms=400)
    assert thinking_label(streaming, expanded=False) == "▸  Thinking…"
    assert thinking_label(replace(streaming, reasoning_ms=12_400), expanded=True) == (
        "▾  Thinking… 12 s"
    )
    assert thinking_label(replace(streaming, text="It"), expanded=False) == "▸  Thought for 1 s"
    answer = TranscriptRow("assistant", "It is 4.", reasoning="hm", reasoning_ms=12_000)
    assert thinking_label(answer, expanded=False) == "▸  Thought for 12 s"
    assert thinking_label(replace(answer, reasoning_ms=None), expanded=False) == "▸  Thought"


def test_the_safety_net_line_and_what_set_it_offers() -> None:
    line = TranscriptRow("unset", "", arguments='{"prompt":"stretch","after_seconds":600}')
    assert unset_line(line) == "No reminder was set: this model answered in words."
    assert "“stretch”" in set_it_tip(line)
    assert unset_line(replace(line, result="schedule-3")) == "Reminder set: “stretch” · schedule-3"
    assert unset_line(replace(line, result="")) == "Reminder set: “stretch”"
    assert offer_words(line.arguments, NOW, "UTC") == ("stretch", "in 10 min")
    assert offer_words('{"prompt":"water","every_seconds":3600}', NOW, "UTC") == (
        "water",
        "every 1 h",
    )
    at = '{"prompt":"call","at":{"date":"2026-08-06","time":"07:00:00","time_zone":"UTC"}}'
    assert offer_words(at, NOW, "UTC") == ("call", "tomorrow 07:00")
    offset = '{"prompt":"call","at":"2026-08-05T18:30:00+02:00"}'
    assert offer_words(offset, NOW, "Europe/Berlin") == ("call", "today 18:30")
    assert offer_words('{"prompt":"call","at":"2026-08-05T18:30:00"}', NOW, "UTC") == ("call", "")
    assert offer_words('{"prompt":"call","at":{"date":"soon"}}', NOW, "UTC") == ("call", "")
    assert offer_words('{"prompt":"call","at":3}', NOW, "UTC") == ("call", "")
    assert offer_words("{nope", NOW, "UTC") == ("", "")
    assert offer_words('{"prompt":3}', NOW, "UTC") == ("", "")


def test_a_usage_line_too_long_for_the_column_is_cut_with_an_ellipsis(qapp) -> None:
    from PySide6.QtGui import QFont, QPalette

    from core.events import AssistantMessage, ModelRef, TokenUsage
    from core.transcript.usage import TurnUsage
    from ui.row_layouts import RowLayouts
    from ui.theme import surfaces

    layouts = RowLayouts()
    layouts.configure(QFont(), surfaces(QPalette()), dark=False)
    step = AssistantMessage(
        "a",
        "x",
        (),
        ModelRef("t", "m"),
        "stop",
        TokenUsage(1234, 256),
        20_000,
        14_000,
        "hm",
        12_000,
    )
    row = TranscriptRow("assistant", "It is 4.", usage=TurnUsage().plus(step))
    wide = layouts.layout(row, 900, expanded=False, caption="", time="12:00")
    assert wide.footer_text.endswith("· thought for 12 s · first word after 14 s")
    narrow = layouts.layout(row, 200, expanded=False, caption="", time="12:00")
    assert narrow.footer_text.endswith("…")
    assert narrow.footer_text_rect is not None
    assert narrow.footer_text_rect.width() <= 200
