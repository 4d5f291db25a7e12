"""An MCP call's row follows the log: waiting for the person, running (tool/start), its result
(done, denied, timed out, failed, cancelled) with images and links, and, when the turn ends
without a result, unfinished (it had started) or an ordinary tool row (it never ran)."""

from __future__ import annotations

from core.events import (
    AssistantMessage,
    Attachment,
    Entry,
    Event,
    ModelRef,
    ToolCall,
    ToolLink,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session.folds import SessionFolds
from core.transcript.mcp import CallState, McpCall, tool_name
from core.transcript.projection import TranscriptProjection
from core.transcript.rows import TranscriptRow

AT = "2026-08-05T12:00:00.000Z"
CALL = ToolCall("c1", "time__get_current_time", '{"timezone": "Europe/Berlin"}')
PNG = Attachment("chart.png", "image/png", "ab" * 32, 2048)
LINK = ToolLink("https://example.org/report", "The report")


def _log(*events: Event) -> list[Entry]:
    head: list[Event] = [
        UserMessage("u0", "What time is it?", UserSource("UTC")),
        TurnStart(1, 0),
        AssistantMessage("a1", "", (CALL,), ModelRef("p", "m"), "tool_calls"),
    ]
    return [Entry(seq, AT, event) for seq, event in enumerate([*head, *events])]


def _rows(entries: list[Entry]) -> list[TranscriptRow]:
    """The rows of a session opened on ``entries`` and of one fed them one by one: the same."""
    folds = SessionFolds()
    for entry in entries:
        folds.feed(entry)
    opened = TranscriptProjection()
    opened.open(entries, "UTC", conversation=folds.snapshot())
    fed = TranscriptProjection()
    fed.open(entries[:3], "UTC", conversation=folds.snapshot())
    for entry in entries[3:]:
        fed.append(entry)
    assert fed.rows == opened.rows
    return [row for row in opened.rows if row.call_id]


def test_a_call_waits_then_runs_then_is_done_with_its_images_and_links() -> None:
    [waiting] = _rows(_log())
    assert waiting.kind == "mcp"
    assert waiting.call == McpCall("", "time__get_current_time", CallState.WAITING)
    [running] = _rows(_log(ToolStart("c1")))
    assert running.call is not None
    assert running.call.state is CallState.RUNNING
    result = ToolResult("c1", CALL.name, "12:00", False, "time", images=(PNG,), links=(LINK,))
    [done] = _rows(_log(ToolStart("c1"), result, TurnEnd(1, "completed")))
    assert done.kind == "mcp"
    assert done.call == McpCall("time", "get_current_time", CallState.DONE, (PNG,), (LINK,))
    assert done.result == "12:00"
    assert done.arguments == CALL.arguments


def test_each_outcome_is_its_state() -> None:
    for outcome, state in [
        ("denied", CallState.DENIED),
        ("cancelled", CallState.CANCELLED),
        ("unfinished", CallState.UNFINISHED),
        ("timeout", CallState.TIMEOUT),
        ("failed", CallState.FAILED),
    ]:
        result = ToolResult("c1", CALL.name, "no", True, "time", outcome=outcome)
        [row] = _rows(_log(result, TurnEnd(1, "completed")))
        assert row.call is not None
        assert row.call.state is state
    error = ToolResult("c1", CALL.name, "boom", True, "time")
    [row] = _rows(_log(ToolStart("c1"), error))
    assert row.call is not None
    assert row.call.state is CallState.FAILED


def test_a_turn_ending_during_a_call_leaves_it_unfinished_and_one_never_run_a_tool_row() -> None:
    [started] = _rows(_log(ToolStart("c1"), TurnEnd(1, "interrupted")))
    assert started.kind == "mcp"
    assert started.call is not None
    assert started.call.state is CallState.UNFINISHED
    [never] = _rows(_log(TurnEnd(1, "interrupted")))
    assert never.kind == "tool"
    assert never.call is None


def test_a_result_without_a_server_is_an_ordinary_tool_row() -> None:
    refused = ToolResult("c1", CALL.name, '{"error": "unknown tool"}', True)
    [row] = _rows(_log(refused, TurnEnd(1, "completed")))
    assert row.kind == "tool"
    assert row.call is None
    assert row.is_error


def test_the_tool_s_own_name_is_read_off_the_exposed_name() -> None:
    assert tool_name("time", "time__get_current_time") == "get_current_time"
    assert tool_name("my server", "my_server__read") == "read"
    assert tool_name("time", "other__x") == "other__x"
    assert tool_name("time", "time__") == "time__"
