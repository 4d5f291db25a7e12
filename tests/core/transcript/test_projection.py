"""The transcript's incremental projection against a full recomputation from the entries (as
``ScheduleFolder`` is checked against ``fold_schedule``): fed entry by entry, from a prefix
(reopen), or loaded in windows, it shows the same rows, and its patches rebuild them exactly."""

from __future__ import annotations

from collections.abc import Sequence
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import Entry
from core.session.conversation import Conversation
from core.session.folds import SessionFolds
from core.transcript import loading as loading_module
from core.transcript.patch import Patch, Rebuild, apply_patch
from core.transcript.path import restructures
from core.transcript.projection import TranscriptProjection
from core.transcript.rows import TranscriptRow
from tests.core.transcript.session_model import ACTIONS, Session, play

ACTION_LISTS = st.lists(
    st.tuples(st.sampled_from(ACTIONS), st.integers(0, 40)), min_size=10, max_size=150
)
TURN = [("type", 0), ("start", 0), ("context", 0), ("say", 1), ("end", 0)]
PROPERTY = settings(max_examples=150, deadline=None)


class Fed:
    """A projection fed as the window feeds it, with a copy of its rows kept by its patches."""

    def __init__(self, entries: Sequence[Entry], conversation: Conversation, **options: int):
        self.projection = TranscriptProjection(**options)
        self.mirror: list[TranscriptRow] = []
        self.apply(self.projection.open(entries, "UTC", conversation=conversation))

    def apply(self, patches: list[Patch]) -> None:
        for patch in patches:
            apply_patch(self.mirror, patch)
        assert self.mirror == self.projection.rows

    def feed(self, entry: Entry, conversation: Conversation) -> None:
        """One appended entry: rows added, or the tail rebuilt when the shown path changed."""
        projection = self.projection
        projection.set_conversation(conversation)
        if restructures(entry, conversation):
            self.apply(projection.rebuild_tail())
        else:
            self.apply(projection.append(entry))


def reference(session: Session) -> list[TranscriptRow]:
    projection = TranscriptProjection()
    [rebuild] = projection.open(list(session.entries), "UTC", conversation=session.conversation())
    assert isinstance(rebuild, Rebuild)
    return list(rebuild.rows)


def conversation_of(entries: Sequence[Entry]) -> Conversation:
    folds = SessionFolds()
    for entry in entries:
        folds.feed(entry)
    return folds.snapshot()


@PROPERTY
@given(ACTION_LISTS)
def test_fed_entry_by_entry_it_shows_what_a_full_recomputation_shows(
    actions: list[tuple[str, int]],
) -> None:
    session = Session()
    fed = Fed(session.entries, session.conversation())
    for action, pick in actions:
        entry = session.act(action, pick)
        if entry is not None:
            fed.feed(entry, session.conversation())
    assert fed.projection.rows == reference(session)


@PROPERTY
@given(ACTION_LISTS, st.integers(0, 90))
def test_reopened_from_a_prefix_and_fed_the_rest_it_shows_the_same_rows(
    actions: list[tuple[str, int]], cut: int
) -> None:
    session = play(actions)
    cut = min(cut, len(session.entries))
    entries = session.entries[:cut]
    fed = Fed(entries, conversation_of(entries))
    for entry in session.entries[cut:]:
        entries.append(entry)
        fed.feed(entry, conversation_of(entries))
    assert fed.projection.rows == reference(session)


@PROPERTY
@given(ACTION_LISTS, st.integers(0, 30), st.integers(1, 12), st.integers(1, 6), st.integers(4, 30))
def test_loaded_in_windows_the_rows_are_always_a_slice_of_the_whole(
    actions: list[tuple[str, int]], turns: int, initial: int, fetch: int, cap: int
) -> None:
    session = play(TURN * turns + actions)
    whole = reference(session)
    with (
        mock.patch.object(loading_module, "INITIAL_EVENTS", initial),
        mock.patch.object(loading_module, "FETCH_EVENTS", fetch),
        mock.patch.object(loading_module, "MIN_ROWS", 1),
    ):
        fed = Fed(session.entries, session.conversation(), max_rows=cap)
        assert is_slice(fed.projection.rows, whole)
        while fed.projection.has_older():
            fed.apply(fed.projection.older())
            assert is_slice(fed.projection.rows, whole)
        if whole:
            assert fed.projection.rows[0] == whole[0]
        while fed.projection.has_newer():
            fed.apply(fed.projection.newer())
            assert is_slice(fed.projection.rows, whole)
        uncapped = Fed(session.entries, session.conversation(), max_rows=10**6)
        while uncapped.projection.has_older():
            uncapped.apply(uncapped.projection.older())
    assert uncapped.projection.rows == whole
    assert fed.projection.rows == whole[len(whole) - len(fed.projection.rows) :]


def is_slice(rows: list[TranscriptRow], whole: list[TranscriptRow]) -> bool:
    if not rows:
        return True
    starts = [at for at, row in enumerate(whole) if row == rows[0]]
    return any(whole[at : at + len(rows)] == rows for at in starts)


@PROPERTY
@given(ACTION_LISTS, st.lists(st.text(min_size=1, max_size=5), max_size=8))
def test_a_streamed_answer_is_one_row_that_the_recorded_answer_takes_over(
    actions: list[tuple[str, int]], pieces: list[str]
) -> None:
    session = Session()
    fed = Fed(session.entries, session.conversation())
    streamed = ""
    for number, (action, pick) in enumerate(actions):
        if session.open_input is not None and pieces and number % 3 == 0:
            streamed += pieces[number % len(pieces)]
            fed.apply(fed.projection.stream(streamed))
            assert sum(row.kind == "streaming" for row in fed.projection.rows) <= 1
        entry = session.act(action, pick)
        if entry is not None:
            fed.feed(entry, session.conversation())
            if entry.type == "assistant/message":
                streamed = ""
    fed.apply(fed.projection.end_stream())
    assert fed.projection.rows == reference(session)


def test_a_message_whose_turn_starts_thousands_of_events_later_is_shown_once_above_its_answer() -> (
    None
):
    # A bounded scan (4000 events) did not see the turn that took the message: it showed the
    # message where it was and again at its turn. The queue fold sees every turn.
    session = play([("type", 0)] + [("title", 0)] * 4100 + [("start", 0), ("say", 0), ("end", 0)])
    for conversation in (session.conversation(), None):
        projection = TranscriptProjection()
        projection.open(session.entries, "UTC", conversation=conversation)
        kinds = [row.kind for row in projection.rows]
        assert kinds == ["user", "assistant"]
        assert projection.rows[0].seq == 4101  # it stands where its turn starts
