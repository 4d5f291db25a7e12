"""TranscriptModel: rows from events in the order they are read, merged tool results, the streamed
answer in place, queued messages after the answer they wait for, lazy older history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import QModelIndex, Qt

from tests.ui.events import T0, EventScript, create_call, view
from ui.transcript_model import FETCH_EVENTS, INITIAL_EVENTS, MAX_ROWS, TranscriptModel
from ui.transcript_roles import (
    CAPTION_ROLE,
    EXPANDED_ROLE,
    KIND_ROLE,
    QUEUED_ROLE,
    SEQ_ROLE,
    TITLE_ROLE,
)


def kinds(model: TranscriptModel) -> list[str]:
    return [model.index(r).data(KIND_ROLE) for r in range(model.rowCount())]


def test_the_model_passes_the_qt_model_tester(qapp, qtmodeltester) -> None:
    script = EventScript()
    for n in range(300):
        script.turn(f"question {n}", f"answer {n}")
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    model.history.want_older()
    qtmodeltester.check(model, force_py=True)
    more = script.user("more")
    model.append_event(more)
    model.append_event(script.start(more.seq))
    model.stream.add_text("partial")
    model.stream.flush()
    model.append_event(script.user("queued meanwhile"))
    model.append_event(script.answer("done"))
    model.toggle_expanded(0)
    model.reset(script.events[:10], "UTC")
    assert model.rowCount() > 0


def test_a_tool_result_updates_its_call_row_instead_of_adding_one(qtbot) -> None:
    script = EventScript()
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    question = script.user("remind me in 2 minutes to stretch")
    model.append_event(question)
    model.append_event(script.start(question.seq))
    model.append_event(script.answer("", [create_call("c1", "stretch", 120)]))
    with qtbot.waitSignal(model.dataChanged):
        model.append_event(
            script.result(
                "c1", "schedule_create", view("schedule-1", "stretch", "2026-08-05T12:02:00.000Z")
            )
        )
    assert kinds(model) == ["user", "tool"]
    assert model.index(1).data(TITLE_ROLE) == "Create reminder — stretch, 12:02 · schedule-1"


def test_each_role_reads_its_part_of_the_row_and_no_row_reads_nothing(qapp) -> None:
    script = EventScript()
    script.turn("hi", "hello")
    reminder = script.reminder("schedule-1", "stretch", T0, T0 + timedelta(minutes=30))
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    assert kinds(model) == ["user", "assistant", "reminder"]
    card, answer = model.index(2), model.index(1)
    assert card.data(CAPTION_ROLE) == "Reminder · due 12:00 · delivered 12:30 (late)"
    assert card.data(SEQ_ROLE) == reminder.seq
    assert answer.data(CAPTION_ROLE) == ""  # only a reminder card has a caption
    assert answer.data(Qt.ItemDataRole.DisplayRole) == "hello"
    assert answer.data(Qt.ItemDataRole.ToolTipRole) is None  # a role the model has not
    assert answer.data(EXPANDED_ROLE) is False
    model.toggle_expanded(1)
    assert answer.data(EXPANDED_ROLE) is True
    assert model.roleNames()[CAPTION_ROLE].data() == b"caption"
    assert model.data(model.index(3)) is None  # past the last row
    model.toggle_expanded(3)  # no row there: nothing to expand
    assert not model.is_expanded(3)


def test_the_streamed_answer_grows_in_its_own_row_which_the_recorded_answer_takes_over(
    qtbot,
) -> None:
    script = EventScript()
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    question = script.user("hi")
    model.append_event(question)
    model.append_event(script.start(question.seq))
    model.stream.add_text("Hel")
    qtbot.waitUntil(lambda: kinds(model) == ["user", "streaming"])
    uid = model.uid_at(1)
    with qtbot.waitSignal(model.dataChanged):
        model.stream.add_text("lo")
    assert model.rowCount() == 2
    assert model.index(1).data() == "Hello"
    model.append_event(script.answer("Hello there"))
    assert kinds(model) == ["user", "assistant"]
    assert model.index(1).data() == "Hello there"
    assert model.uid_at(1) == uid  # the same row: a selection in it stays


def test_a_stream_ended_without_an_answer_leaves_no_row(qapp) -> None:
    model = TranscriptModel()
    model.reset([], "UTC")
    model.stream.add_text("partial")
    model.stream.flush()
    assert kinds(model) == ["streaming"]
    model.stream.end()
    assert model.rowCount() == 0


def test_a_message_typed_while_an_answer_streams_is_shown_after_it_marked_queued(qapp) -> None:
    script = EventScript()
    model = TranscriptModel()
    model.reset(script.events, "UTC")
    first = script.user("first question")
    model.append_event(first)
    model.append_event(script.start(first.seq))
    model.stream.add_text("Working on it")
    model.stream.flush()
    queued = script.user("second question")
    model.append_event(queued)
    assert kinds(model) == ["user", "streaming", "user"]
    assert model.index(2).data(QUEUED_ROLE) is True
    model.append_event(script.answer("First answer"))
    model.append_event(script.end())
    assert [model.index(r).data() for r in range(3)] == [
        "first question",
        "First answer",
        "second question",
    ]
    model.append_event(script.start(queued.seq))
    assert model.index(2).data(QUEUED_ROLE) is False
    model.append_event(script.answer("Second answer"))
    texts = [model.index(r).data() for r in range(model.rowCount())]
    assert texts == ["first question", "First answer", "second question", "Second answer"]


def test_reopened_the_log_shows_each_message_above_its_own_answer_and_a_retry_once() -> None:
    """A retried input is shown once, at the turn that answers it now (the failed one left out)."""
    script = EventScript()
    first = script.user("first question")
    script.start(first.seq)
    second = script.user("second question")  # typed while the first answer ran
    script.answer("First answer")
    script.end()
    script.start(second.seq)
    script.end("failed", "The server is down.")
    script.start(second.seq)  # Retry
    script.answer("Second answer")
    script.end()
    third = script.user("third question")  # no turn took it yet
    model = TranscriptModel()
    model.reset(script.events, "UTC", conversation=script.conversation())
    assert [model.index(r).data() for r in range(model.rowCount())] == [
        "first question",
        "First answer",
        "second question",
        "Second answer",
        "third question",
    ]
    assert model.index(4).data(QUEUED_ROLE) is False  # waiting, but no answer runs
    model.append_event(script.start(third.seq))
    model.append_event(script.answer("Third answer"))
    assert model.index(model.rowCount() - 1).data() == "Third answer"
    assert model.index(model.rowCount() - 2).data() == "third question"


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
    model.history.want_older()
    assert model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    assert model.rowCount() > first
    assert model.index(model.rowCount() - 1).data() == "answer 999"
    while model.history.has_older():
        model.history.want_older()
        model.fetchMore(QModelIndex())
        assert model.rowCount() <= MAX_ROWS + 2 * FETCH_EVENTS
    assert model.index(0).data() == "question 0"
    assert model.history.has_newer()  # the newest rows were unloaded past the cap
    typed = script.user("typed while reading old history")
    model.append_event(typed)
    model.append_event(script.start(typed.seq))
    assert model.index(model.rowCount() - 1).data() != "typed while reading old history"
    while model.history.has_newer():
        model.history.fetch_newer()
        assert model.rowCount() <= MAX_ROWS + 2 * FETCH_EVENTS
    assert model.index(model.rowCount() - 1).data() == "typed while reading old history"
    assert model.history.has_older()
    model.append_event(script.answer("and its answer"))
    assert model.index(model.rowCount() - 1).data() == "and its answer"


def test_a_result_whose_call_is_in_an_older_batch_still_finds_it() -> None:
    script = EventScript()
    for n in range(300):
        script.turn(f"q{n}", f"a{n}")
    script.start(script.user("remind me").seq)
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
    assert not model.history.has_newer()
    model.append_event(change)
    assert not model.history.has_newer()
    assert kinds(model)[-1] == "reminder"


def test_a_tail_off_the_shown_path_loads_back_to_the_rows_before_the_edited_message() -> None:
    """An early message edited in a long session: the newest events are all off the shown path,
    so loading reads further back (``OLDER_SCAN`` events a load) for rows to show."""
    script = EventScript()
    for n in range(1100):
        script.turn(f"question {n}", f"answer {n}")
    edited = script.add(
        "user/message",
        {
            "id": "edited",
            "text": "question 2, edited",
            "source": {"kind": "user", "timeZone": "Europe/Berlin"},
            "parent": 6,
            "revises": 8,
        },
    )
    script.start(edited.seq)
    script.answer("answer to the edit")
    script.end()
    model = TranscriptModel()
    model.reset(script.events, "UTC", conversation=script.conversation())
    texts = [model.index(r).data() for r in range(model.rowCount())]
    assert texts == ["question 2, edited", "answer to the edit"]  # 4,400 events off the path
    assert model.history.has_older()
    model.history.want_older()
    model.fetchMore(QModelIndex())  # one fetch crosses the rest of the stretch
    texts = [model.index(r).data() for r in range(model.rowCount())]
    assert texts == [
        "question 0",
        "answer 0",
        "question 1",
        "answer 1",
        "question 2, edited",
        "answer to the edit",
    ]
