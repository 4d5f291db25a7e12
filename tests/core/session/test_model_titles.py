"""``session/title`` written by the model (``"by": "model"``) and by the person: the person's
title always wins, whatever the order; the wire form and older checkpoints read as before."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.events import Entry, SessionTitle, UserMessage, UserSource, decode_event
from core.schedule.fold import ScheduleFolder
from core.session.folds import TITLE_FROM_MESSAGE_CHARS, SessionFolds

AT = "2026-08-05T12:00:00.000Z"


def folded(*events: object) -> SessionFolds:
    folds = SessionFolds()
    for seq, event in enumerate(events):
        folds.feed(Entry(seq, AT, event))  # type: ignore[arg-type]  # events of the vocabulary
    return folds


def test_the_wire_says_who_wrote_a_title() -> None:
    assert SessionTitle("Trip", by_model=True).to_data() == {"title": "Trip", "by": "model"}
    assert SessionTitle("Trip").to_data() == {"title": "Trip"}  # as every older log has it
    assert decode_event("session/title", {"title": "T", "by": "model"}) == SessionTitle("T", True)
    assert decode_event("session/title", {"title": "T", "by": "someone"}) == SessionTitle("T")
    assert decode_event("session/title", {"title": "T", "by": 3}) == SessionTitle("T")


def test_a_person_s_title_is_never_replaced_by_the_model_s() -> None:
    assert folded(SessionTitle("Model's", True)).display_title == "Model's"
    assert folded(SessionTitle("Mine"), SessionTitle("Model's", True)).display_title == "Mine"
    assert folded(SessionTitle("Model's", True), SessionTitle("Mine")).display_title == "Mine"
    again = folded(SessionTitle("First", True), SessionTitle("Second", True))
    assert again.display_title == "Second"


@given(st.lists(st.tuples(st.sampled_from("abc"), st.booleans()), max_size=8))
def test_the_title_is_the_last_person_s_else_the_last_model_s(
    titles: list[tuple[str, bool]],
) -> None:
    folds = folded(*(SessionTitle(t, by_model) for t, by_model in titles))
    people = [t for t, by_model in titles if not by_model]
    models = [t for t, by_model in titles if by_model]
    expected = people[-1] if people else models[-1] if models else None
    assert folds.display_title == expected
    again = SessionFolds.from_json(folds.to_json(), ScheduleFolder())
    assert again.display_title == expected
    assert again.title_by_model == folds.title_by_model


def test_an_older_checkpoint_without_the_field_reads_as_a_person_s_title() -> None:
    state = folded(SessionTitle("Mine")).to_json()
    del state["titleByModel"]
    assert not SessionFolds.from_json(state, ScheduleFolder()).title_by_model


def test_the_automatic_title_is_the_whole_first_line() -> None:
    line = "remind me in ten minutes to call the plumber about the kitchen tap " * 3
    folds = folded(UserMessage("m", line.strip() + "\nsecond line", UserSource(None)))
    assert folds.display_title == line.strip()
    long = folded(UserMessage("m", "x" * 5000, UserSource(None)))
    assert long.display_title == "x" * TITLE_FROM_MESSAGE_CHARS
