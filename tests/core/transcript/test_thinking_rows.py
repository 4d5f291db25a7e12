"""An answer's thinking and the safety net as rows (issue 19): the thinking is a part of the
answer's row, from its field or, for an answer logged before that field, from a leading
``<think>`` block of its text (the log unchanged); the streaming row carries the thinking so far;
the safety net's ``unset`` row is marked set by a reminder created after it, fed live or read back;
a tool call written as text is a tool row; usage tells thinking time apart; find leaves thinking
out."""

from __future__ import annotations

from typing import Any

from core.events import AssistantMessage, ModelRef, ScheduleChanged, TokenUsage
from core.session.find import findable_text
from core.transcript.projection import TranscriptProjection
from core.transcript.rows import mark_set, unset_prompt
from core.transcript.usage import TurnUsage
from core.transcript.verbs import Verb, on_enter, verbs_of
from tests.ui.events import EventScript

ARGS = '{"prompt":"check the oven","after_seconds":120}'


def answer(script: EventScript, text: str, **extra: Any) -> None:
    data = {
        "id": f"a{len(script.events)}",
        "text": text,
        "toolCalls": extra.pop("toolCalls", []),
        "model": {"provider": "test", "name": "m"},
        "finish": extra.pop("finish", "stop"),
        **extra,
    }
    script.add("assistant/message", data)


def exchange(text: str, **extra: Any) -> EventScript:
    script = EventScript()
    script.start(script.user("hello").seq)
    answer(script, text, **extra)
    script.end()
    return script


def shown(script: EventScript) -> TranscriptProjection:
    projection = TranscriptProjection()
    projection.open(script.events, "UTC", conversation=script.conversation())
    return projection


def created(prompt: str, schedule_id: str = "schedule-1") -> dict[str, Any]:
    record = {"id": schedule_id, "kind": "after", "prompt": prompt, "afterSeconds": 120}
    return {"version": 1, "operation": "create", "schedule": record}


def test_the_thinking_is_a_part_of_the_answer_row_never_its_text() -> None:
    row = shown(exchange("It is 4.", reasoning="2 + 2 is 4", reasoningMs=12000)).rows[-1]
    assert (row.kind, row.text, row.reasoning, row.reasoning_ms) == (
        "assistant",
        "It is 4.",
        "2 + 2 is 4",
        12000,
    )


def test_an_old_answer_with_a_think_prefix_shows_it_as_thinking_and_the_log_is_unchanged() -> None:
    script = exchange("<think>\nlet me see\n</think>\n\nIt is 4.")
    row = shown(script).rows[-1]
    assert (row.text, row.reasoning, row.reasoning_ms) == ("It is 4.", "let me see", None)
    event = script.events[2].event
    assert isinstance(event, AssistantMessage)
    assert event.text.startswith("<think>")
    assert findable_text(event) == "It is 4."  # find and search leave the thinking out
    kept = exchange("It is 4.", reasoning="<think> stays </think>").events[2].event
    assert findable_text(kept) == "It is 4."


def test_an_answer_that_only_thought_is_an_answer_row_not_an_empty_answer() -> None:
    row = shown(exchange("", reasoning="hmm")).rows[-1]
    assert (row.kind, row.text, row.reasoning, row.note) == ("assistant", "", "hmm", "")
    assert shown(exchange("")).rows[-1].note == "empty-answer"


def test_the_streaming_row_carries_the_thinking_so_far_and_the_answer_takes_its_place() -> None:
    script = EventScript()
    script.start(script.user("hello").seq)
    projection = shown(script)
    projection.think("weighing", 3000)
    assert [(r.kind, r.text, r.reasoning, r.reasoning_ms) for r in projection.rows[-1:]] == [
        ("streaming", "", "weighing", 3000)
    ]
    assert projection.stream_thinking == "weighing"
    projection.stream("It is")
    assert (projection.rows[-1].text, projection.rows[-1].reasoning) == ("It is", "weighing")
    answer(script, "It is 4.", reasoning="weighing", reasoningMs=3000)
    projection.append(script.events[-1])
    assert [r.kind for r in projection.rows] == ["user", "assistant"]
    assert projection.stream_thinking == ""
    rebuilt = shown(script)  # the same session opened while only thinking streams
    rebuilt.think("more", None)
    assert rebuilt.rows[-1].kind == "streaming"
    assert rebuilt.end_stream()
    assert rebuilt.rows[-1].kind == "assistant"


def test_the_safety_net_row_follows_the_answer_and_is_marked_set_live_and_read_back() -> None:
    script = exchange("Sure, I will remind you.", reminderNotSet=ARGS)
    projection = shown(script)
    line = projection.rows[-1]
    assert (line.kind, line.arguments, line.result, line.verbs) == (
        "unset",
        ARGS,
        None,
        (Verb.SET_REMINDER,),
    )
    assert unset_prompt(line) == "check the oven"
    assert on_enter(line.verbs, writable=True) is Verb.SET_REMINDER
    assert on_enter(line.verbs, writable=False) is None
    script.add("schedule/change", created("something else", "schedule-1"))
    projection.append(script.events[-1])
    assert projection.rows[-1].result is None
    script.add("schedule/change", created("check the oven", "schedule-2"))
    projection.append(script.events[-1])
    assert (projection.rows[-1].result, projection.rows[-1].verbs) == ("schedule-2", ())
    assert shown(script).rows[-1] == projection.rows[-1]  # read back: the same


def test_mark_set_reads_only_a_create_of_the_same_text() -> None:
    line = shown(exchange("Sure.", reminderNotSet=ARGS)).rows[-1]
    assert mark_set(line, ScheduleChanged({"operation": "delete", "id": "schedule-1"})) is None
    assert mark_set(line, ScheduleChanged(["not", "a", "change"])) is None
    assert mark_set(line, ScheduleChanged({"operation": "create", "schedule": 3})) is None
    odd = mark_set(
        line,
        ScheduleChanged(created("check the oven") | {"schedule": {"prompt": "check the oven"}}),
    )
    assert odd is not None
    assert odd.result == ""
    assert unset_prompt(shown(exchange("Sure.", reminderNotSet="[1]")).rows[-1]) == ""
    assert unset_prompt(shown(exchange("Sure.", reminderNotSet="{nope")).rows[-1]) == ""
    assert verbs_of("unset") == (Verb.SET_REMINDER,)


def test_a_tool_call_written_as_text_is_a_tool_row_marked_so() -> None:
    call = {"id": "text_call_0", "name": "schedule_list", "arguments": "{}"}
    script = exchange("", toolCalls=[call], finish="tool_calls", callsFromText=True)
    rows = shown(script).rows
    assert [(r.kind, r.from_text) for r in rows] == [("user", False), ("tool", True)]


def test_usage_sums_the_thinking_apart_from_the_wait_for_words() -> None:
    model = ModelRef("test", "m")
    thought = AssistantMessage(
        "a", "x", (), model, "stop", TokenUsage(10, 5), 20000, 14000, "hm", 12000
    )
    silent = AssistantMessage("b", "", (), model, "tool_calls", None, 900, None, "hm", 400)
    usage = TurnUsage().plus(silent).plus(thought)
    assert (usage.thought_ms, usage.first_text_ms) == (12400, 14900)
