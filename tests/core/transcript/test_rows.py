"""The transcript's rows, verbs and patches one by one: what each row offers, the rows of odd
logs (an unreadable line, a message no turn took, a result whose call loaded earlier), moves,
rebuilds around a seq with the reader's anchor, and the time-context rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload
from unittest import mock

from core.events import (
    AssistantMessage,
    Entry,
    ModelRef,
    TokenUsage,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.transcript import loading as loading_module
from core.transcript.patch import Anchor, Insert, Move, Rebuild, Remove, Replace, apply_patch
from core.transcript.path import EVERYTHING, switched
from core.transcript.projection import TranscriptProjection
from core.transcript.rows import TranscriptRow, hidden_row, message_seq
from core.transcript.usage import TurnUsage
from core.transcript.verbs import Verb, offered, on_enter, verbs_of
from core.transcript.window import bottom_cut, running_start, top_cut
from tests.core.transcript.session_model import Session, play

TURN = [("type", 0), ("start", 0), ("context", 0), ("say", 1), ("end", 0)]
TOOL = [("type", 0), ("start", 0), ("call", 0), ("say", 0), ("result", 0), ("say", 1), ("end", 0)]


def texts(projection: TranscriptProjection) -> list[str]:
    return [f"{row.kind}:{row.text}" for row in projection.rows]


def test_each_row_offers_its_verbs_and_a_read_only_session_only_those_that_write_nothing() -> None:
    assert verbs_of("user", version=(2, 3)) == (
        Verb.PREVIOUS_VERSION,
        Verb.NEXT_VERSION,
        Verb.COPY,
        Verb.EDIT,
        Verb.HIDE,
    )
    assert verbs_of("reminder") == (Verb.COPY, Verb.HIDE)
    assert verbs_of("assistant") == (Verb.COPY, Verb.REGENERATE)
    assert verbs_of("error", typed=False) == (Verb.RETRY, Verb.DISCARD, Verb.SETTINGS)
    assert verbs_of("hidden") == (Verb.SHOW,)
    assert verbs_of("tool") == verbs_of("streaming") == ()
    assert offered(verbs_of("error"), writable=False) == (Verb.SETTINGS,)
    assert on_enter(verbs_of("error"), writable=True) is Verb.RETRY
    assert on_enter(verbs_of("hidden"), writable=False) is None
    assert on_enter(verbs_of("user"), writable=True) is None


def test_the_projection_gives_each_row_its_verbs() -> None:
    session = play([*TURN, ("type", 0), ("start", 0), ("fail", 0), ("remind", 0), ("start", 0)])
    session.act("fail", 0)
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC", conversation=session.conversation())
    verbs = [(row.kind, row.verbs) for row in projection.rows]
    assert ("error", (Verb.RETRY, Verb.EDIT, Verb.DISCARD, Verb.SETTINGS)) in verbs
    assert ("error", (Verb.RETRY, Verb.DISCARD, Verb.SETTINGS)) in verbs  # the reminder's turn
    assert ("assistant", (Verb.COPY, Verb.REGENERATE)) in verbs
    session.act("edit", 0)
    projection.open(session.entries, "UTC", conversation=session.conversation())
    assert projection.rows[0].verbs[0] is Verb.PREVIOUS_VERSION


def test_a_hidden_reminder_shows_its_prompt_and_long_words_are_cut() -> None:
    session = Session()
    session.act("remind", 0)
    [entry] = session.entries
    assert isinstance(entry.event, UserMessage)
    assert hidden_row(entry, entry.event).text == "stretch"
    long = UserMessage("u", "word " * 30, entry.event.source)
    assert hidden_row(Entry(1, entry.at, long), long).text.endswith("…")


def test_message_seq_names_the_message_a_row_shows() -> None:
    assert message_seq(TranscriptRow("user", "q", 7, input=3)) == 3
    assert message_seq(TranscriptRow("assistant", "a", 8, input=3)) == 8
    assert message_seq(TranscriptRow("tool", "t", 9, input=3)) == -1


class Unreadable(Sequence[Entry]):
    """Entries of which one line does not decode (read before the checkpoint is verified)."""

    def __init__(self, entries: list[Entry], bad: int) -> None:
        self.entries, self.bad = entries, bad

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> Entry: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Entry]: ...
    def __getitem__(self, index: int | slice) -> Entry | Sequence[Entry]:
        if index == self.bad:
            raise ValueError("not an event line")
        return self.entries[index]


def test_an_unreadable_line_makes_no_row() -> None:
    session = play(TURN * 2)
    projection = TranscriptProjection()
    projection.open(Unreadable(session.entries, 3), "UTC")
    assert texts(projection) == ["user:question 0", "user:question 5", "assistant:answer 8"]


def test_a_message_no_turn_took_stands_where_it_is_and_later_ones_wait() -> None:
    session = Session()
    session.act("type", 0)  # never taken: a crash came between it and its turn
    session.act("type", 0)
    session.pending.pop(0)
    session.act("start", 0)
    session.act("say", 0)
    session.act("type", 0)
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC")
    assert texts(projection) == [
        "user:question 0",
        "user:question 1",
        "assistant:answer 3",
        "user:queued 4",
    ]
    assert projection.rows[-1].queued
    assert projection.row_of_message(1) == 1
    assert projection.row_of_message(99) == -1


def test_a_later_message_taken_first_moves_up_to_its_turn() -> None:
    session = play([("type", 0), ("type", 0)])
    projection = TranscriptProjection()
    mirror: list[TranscriptRow] = []
    for patch in projection.open(session.entries, "UTC"):
        apply_patch(mirror, patch)
    session.pending.reverse()
    entry = session.act("start", 0)
    assert entry is not None
    patches = projection.append(entry)
    assert patches[0] == Move(1, 0)
    for patch in patches:
        apply_patch(mirror, patch)
    assert mirror == projection.rows
    assert texts(projection) == ["user:question 1", "user:question 0"]


def test_a_result_whose_call_loaded_in_an_earlier_window_updates_that_row() -> None:
    session = play(TURN * 3 + TOOL + TURN * 3)
    with (
        mock.patch.object(loading_module, "INITIAL_EVENTS", 1),
        mock.patch.object(loading_module, "FETCH_EVENTS", 1),
        mock.patch.object(loading_module, "MIN_ROWS", 1),
    ):
        projection = TranscriptProjection(max_rows=8)
        projection.open(session.entries, "UTC", conversation=session.conversation())
        while projection.has_older():
            projection.older()
        seen: list[TranscriptRow] = []
        while projection.has_newer():
            projection.newer()
            seen += [row for row in projection.rows if row.kind == "tool"]
    assert seen[-1].result is not None


def test_a_rebuild_around_a_seq_carries_the_readers_anchor_and_the_tail_when_near() -> None:
    session = play(TURN * 3)
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC")
    [rebuild] = projection.rebuild_around(5, Anchor(5, 10))
    assert isinstance(rebuild, Rebuild)
    assert rebuild.anchor == Anchor(5, 10)
    assert len(rebuild.rows) == 6
    assert projection.zone_name == "UTC"


def test_time_context_rows_come_and_go_with_show_context() -> None:
    session = play(TURN)
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC", conversation=EVERYTHING)
    assert projection.set_show_context(False) == []
    [rebuild] = projection.set_show_context(True)
    assert isinstance(rebuild, Rebuild)
    assert [row.kind for row in rebuild.rows] == ["user", "context", "assistant"]


def test_a_stream_shown_on_reopen_ends_with_its_row_removed() -> None:
    session = play([("type", 0), ("start", 0)])
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC")
    assert isinstance(projection.stream("Hel")[0], Insert)
    assert isinstance(projection.stream("Hello")[0], Replace)
    [rebuild] = projection.open(session.entries, "UTC", keep_stream=True)
    assert isinstance(rebuild, Rebuild)
    assert rebuild.rows[-1].kind == "streaming"
    assert projection.stream_text == "Hello"
    assert projection.end_stream() == [Remove(1, 1)]
    assert projection.end_stream() == []


def test_patches_apply_to_a_copy_of_the_rows() -> None:
    a, b, c = (TranscriptRow("user", text) for text in "abc")
    rows = [a]
    for patch in (Insert(1, (b, c)), Move(2, 0), Replace(1, b), Remove(0, 1), Rebuild((a,))):
        apply_patch(rows, patch)
    assert rows == [a]


def test_usage_sums_the_steps_of_a_turn() -> None:
    model = ModelRef("m", "m")
    from core.events import AssistantMessage

    step = AssistantMessage("a", "x", (), model, "stop", TokenUsage(10, 5), None, None)
    usage = TurnUsage().plus(step).plus(step)
    assert (usage.prompt, usage.completion, usage.per_second) == (20, 10, None)


def test_a_restructuring_entry_rebuilds_with_the_readers_place_as_a_value() -> None:
    session = play(TURN * 3)
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC", conversation=session.conversation())
    hide = session.act("hide", 1)
    assert hide is not None
    [rebuild] = projection.restructure(hide, session.conversation(), reader=0, following=True)
    assert isinstance(rebuild, Rebuild)
    assert rebuild.anchor == Anchor(5, 5)  # the hidden exchange's own row stays in place
    assert [row.kind for row in rebuild.rows][2] == "hidden"
    edit = session.act("edit", 0)
    assert edit is not None
    [rebuild] = projection.restructure(edit, session.conversation(), reader=0, following=True)
    assert isinstance(rebuild, Rebuild)
    assert rebuild.anchor is None  # the reader at the end follows the new version
    [rebuild] = projection.restructure(edit, session.conversation(), reader=5, following=False)
    assert isinstance(rebuild, Rebuild)
    assert rebuild.anchor == Anchor(-1)  # one reading older history stays where they are
    select = session.act("select", 0)
    assert select is not None
    [rebuild] = projection.restructure(select, session.conversation(), reader=0, following=True)
    assert isinstance(rebuild, Rebuild)
    assert rebuild.anchor == Anchor(edit.seq, 0)  # the first version takes the edit's place
    assert switched(session.conversation(), session.conversation()) == (-1, -1)


def test_the_cuts_keep_exchanges_whole_and_leave_the_running_turn_alone() -> None:
    user, answer = TranscriptRow("user", "q", 1), TranscriptRow("assistant", "a", 1)
    tool, streaming = TranscriptRow("tool", "t", 2), TranscriptRow("streaming", "s")
    assert running_start([tool, tool], 2, True) == 0  # no message row: the whole turn runs
    assert running_start([user, answer], 2, True) == 0
    assert bottom_cut([user, answer, user, answer], 2, 4) is None  # one exchange, one seq
    assert bottom_cut([user, streaming], 1, 2) is None  # never at the streaming row
    assert bottom_cut([user, answer, tool, tool], 2, 4) == 2
    assert top_cut([user, answer, streaming], 1, 3) is None


def test_a_turn_with_no_usage_still_waits_for_its_first_words() -> None:
    from core.events import AssistantMessage

    model = ModelRef("m", "m")
    tools = AssistantMessage("a", "", (), model, "tool_calls", None, 2_000, None)
    words = AssistantMessage("a", "x", (), model, "stop", TokenUsage(1, 1), 3_000, 1_000)
    assert TurnUsage().plus(tools).plus(words).first_text_ms == 3_000


def test_a_turn_on_something_that_is_not_a_message_shows_no_input_row() -> None:
    session = play([("type", 0), ("context", 0)])
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC")
    projection.append(session.append(TurnStart(1, 1)))  # names a time reading, not an input
    assert [row.text for row in projection.rows] == ["question 0"]


def test_a_cut_answer_offers_continue_and_a_continue_becomes_the_one_answer_shown() -> None:
    session = Session()
    model = ModelRef("m", "m")
    session.append(UserMessage("u1", "Tips?", UserSource("UTC")))
    session.append(TurnStart(1, 0))
    cut = session.append(AssistantMessage("a1", "1. Sleep", (), model, "length"))
    session.append(TurnEnd(1, "completed"))
    projection = TranscriptProjection()
    projection.open(session.entries, "UTC", conversation=session.conversation())
    assert [(row.kind, row.verbs) for row in projection.rows][-1] == (
        "assistant",
        (Verb.COPY, Verb.CONTINUE, Verb.REGENERATE),
    )
    assert on_enter(projection.rows[-1].verbs, writable=True) is Verb.CONTINUE
    assert offered(projection.rows[-1].verbs, writable=False) == (Verb.COPY,)
    session.append(TurnStart(2, 0, cut.seq))
    session.append(AssistantMessage("a2", "1. Sleep well.", (), model, "stop"))
    session.append(TurnEnd(2, "completed"))
    projection.open(session.entries, "UTC", conversation=session.conversation())
    assert texts(projection) == ["user:Tips?", "assistant:1. Sleep well."]
    assert projection.rows[-1].verbs == (Verb.COPY, Verb.REGENERATE)
    assert verbs_of("assistant", cut=True) == (Verb.COPY, Verb.CONTINUE, Verb.REGENERATE)
