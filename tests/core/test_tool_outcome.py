"""Tool calls as values (core.readable.tool_outcome): which tool, why it was not done, what it made.
Every ToolKind and ToolRefusal is reached from a call and its result."""

from __future__ import annotations

import json

import pytest

from core.readable import (
    ENGLISH_REFUSALS,
    ToolKind,
    ToolOutcome,
    ToolRefusal,
    english_summary,
    tool_outcome,
)

CREATE = json.dumps({"prompt": " stretch ", "after_seconds": 600})


def test_a_create_before_and_after_its_result() -> None:
    asked = tool_outcome("schedule_create", CREATE, None, "Europe/Berlin")
    assert asked == ToolOutcome(ToolKind.CREATE, "schedule_create", prompt="stretch")
    made = tool_outcome(
        "schedule_create",
        CREATE,
        '{"id":"schedule-3","scheduledAt":"2026-08-07T08:45:00.000Z"}',
        "Europe/Berlin",
    )
    assert (made.clock, made.schedule_id, made.refusal) == ("10:45", "schedule-3", None)


def test_a_list_counts_what_is_active_and_a_delete_says_whether_it_was() -> None:
    assert tool_outcome("schedule_list", "{}", "[1,2]", None).count == 2
    assert tool_outcome("schedule_list", "{}", None, None).count is None
    target = '{"id":"schedule-2"}'
    asked = tool_outcome("schedule_delete", target, None, None)
    assert (asked.schedule_id, asked.deleted) == ("schedule-2", None)
    assert tool_outcome("schedule_delete", target, '{"deleted":true}', None).deleted is True
    gone = tool_outcome("schedule_delete", target, '{"deleted":false,"code":"x"}', None)
    assert (gone.deleted, gone.refusal) == (False, None)


def test_another_tool_keeps_its_own_name() -> None:
    assert tool_outcome("weather", "{}", "{}", None) == ToolOutcome(ToolKind.OTHER, "weather")
    assert tool_outcome("", "{}", None, None) == ToolOutcome(ToolKind.OTHER, "")


@pytest.mark.parametrize("refusal", list(ToolRefusal))
def test_every_refusal_is_reached(refusal: ToolRefusal) -> None:
    if refusal is ToolRefusal.REFUSED:  # an error without a code: the argument layer's text
        content, is_error = "prompt must be a string", True
    elif refusal is ToolRefusal.FAILED:  # a code this version does not know
        content, is_error = '{"code":"new_code","message":"m"}', False
    else:
        content, is_error = json.dumps({"code": refusal.value, "message": "m"}), True
    outcome = tool_outcome("schedule_create", CREATE, content, None, is_error=is_error)
    assert outcome.refusal is refusal
    assert english_summary(outcome) == f"Create reminder — not done: {ENGLISH_REFUSALS[refusal]}"


def test_every_refusal_and_tool_has_english_words() -> None:
    assert set(ENGLISH_REFUSALS) == set(ToolRefusal)
    titles = {english_summary(ToolOutcome(kind, "x")) for kind in ToolKind}
    assert titles == {"Create reminder", "List reminders", "Delete reminder", "x"}
