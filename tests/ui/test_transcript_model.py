"""TranscriptModel: rows from events, merged tool results, streaming, lazy older history."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex

from tests.ui.events import EventScript, create_call, view
from ui.transcript_model import (
    FETCH_EVENTS,
    INITIAL_EVENTS,
    KIND_ROLE,
    MAX_ROWS,
    TITLE_ROLE,
    TranscriptModel,
)


def kinds(model: TranscriptModel) -> list[str]:
    return [model.index(r).data(KIND_ROLE) for r in range(model.rowCount())]


def test_the_model_passes_the_qt_model_tester(qtmodeltester) -> None:
    script = EventScript()
    for n in range(300):
        script.turn(f"question {n}", f"answer {n}")
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    model.want_older()
    qtmodeltester.check(model, force_py=True)
    model.set_streaming("partial")
    model.append_event(script.answer("done"))
    model.toggle_expanded(0)
    model.reset(script.events[:10], "UTC")
    assert model.rowCount() > 0


def test_a_tool_result_updates_its_call_row_instead_of_adding_one(qtbot) -> None:
    script = EventScript()
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    model.append_event(script.user("remind me in 2 minutes to stretch"))
    model.append_event(script.answer("", [create_call("c1", "stretch", 120)]))
    with qtbot.waitSignal(model.dataChanged):
        model.append_event(
            script.result(
                "c1", "schedule_create", view("schedule-1", "stretch", "2026-08-05T12:02:00.000Z")
            )
        )
    assert kinds(model) == ["user", "tool"]
    assert model.index(1).data(TITLE_ROLE) == "Create reminder — stretch, 12:02 · schedule-1"


def test_streaming_text_becomes_the_recorded_answer_row() -> None:
    script = EventScript()
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    model.append_event(script.user("hi"))
    model.set_streaming("Hel")
    model.set_streaming("Hello")
    assert kinds(model) == ["user", "streaming"]
    assert model.index(1).data() == "Hello"
    model.append_event(script.answer("Hello there"))
    assert kinds(model) == ["user", "assistant"]
    assert model.index(1).data() == "Hello there"


def test_streaming_cleared_without_an_answer_leaves_no_row() -> None:
    model = TranscriptModel()
    model.reset([], "UTC")
    model.set_streaming("partial")
    model.clear_streaming()
    assert model.rowCount() == 0


@pytest.mark.slow
def test_a_long_session_opens_with_its_tail_and_loads_older_turns_on_demand() -> None:
    script = EventScript()
    for n in range(1000):
        script.turn(f"question {n}", f"answer {n}")
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    first = model.rowCount()
    assert first <= INITIAL_EVENTS
    assert model.index(first - 1).data() == "answer 999"
    assert not model.canFetchMore(QModelIndex())  # Qt's bottom-visible probing loads nothing
    model.want_older()
    assert model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    assert model.rowCount() > first
    assert model.index(model.rowCount() - 1).data() == "answer 999"
    while model.has_older():
        model.want_older()
        model.fetchMore(QModelIndex())
        assert model.rowCount() <= MAX_ROWS + 2 * FETCH_EVENTS
    assert model.index(0).data() == "question 0"
    assert model.has_newer()  # the newest rows were unloaded past the cap
    model.append_event(script.user("typed while reading old history"))
    assert model.index(model.rowCount() - 1).data() != "typed while reading old history"
    while model.has_newer():
        model.fetch_newer()
        assert model.rowCount() <= MAX_ROWS + 2 * FETCH_EVENTS
    assert model.index(model.rowCount() - 1).data() == "typed while reading old history"
    assert model.has_older()
    model.append_event(script.answer("and its answer"))
    assert model.index(model.rowCount() - 1).data() == "and its answer"


def test_a_result_whose_call_is_in_an_older_batch_still_finds_it() -> None:
    script = EventScript()
    for n in range(300):
        script.turn(f"q{n}", f"a{n}")
    script.user("remind me")
    script.answer("", [create_call("c9", "stretch", 60)])
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    model.append_event(
        script.result(
            "c9", "schedule_create", view("schedule-9", "stretch", "2026-08-05T12:01:00.000Z")
        )
    )
    titles = [model.index(r).data(TITLE_ROLE) for r in range(model.rowCount())]
    assert "Create reminder — stretch, 12:01 · schedule-9" in titles


def test_time_context_rows_appear_only_when_show_context_is_on() -> None:
    script = EventScript()
    script.turn("hi", "hello")
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    assert kinds(model) == ["user", "assistant"]
    model.set_show_context(True)
    assert kinds(model) == ["user", "context", "assistant"]
    model.append_event(script.add("context/time", {"timeZone": "UTC", "text": "later"}))
    assert kinds(model)[-1] == "context"
    model.set_show_context(False)
    assert "context" not in kinds(model)


def test_a_group_appended_at_once_is_shown_and_the_model_stays_at_the_tail() -> None:
    script = EventScript()
    script.turn("hi", "hello")
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    from datetime import timedelta

    from tests.ui.events import T0

    reminder = script.reminder("schedule-1", "stretch", T0, T0 + timedelta(minutes=5))
    change = script.add(
        "schedule/change", {"version": 1, "operation": "dispatch", "id": "schedule-1"}
    )
    model.append_event(reminder)  # the log already holds ``change`` when this is announced
    assert not model.has_newer()
    model.append_event(change)
    assert not model.has_newer()
    assert kinds(model)[-1] == "reminder"
