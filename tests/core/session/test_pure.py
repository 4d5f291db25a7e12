"""Pure parts of the session store: lines, ids, folds, closers, fork points, checkpoint, Markdown."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st

from core.events import (
    SCHEDULE_SOURCE,
    AssistantMessage,
    ContextTime,
    Entry,
    ModelRef,
    SessionTitle,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnError,
    TurnStart,
    UnknownEvent,
    UserMessage,
    UserSource,
    decode_event,
)
from core.framing import render_batch, render_one_shot
from core.instant import format_instant, parse_instant
from core.schedule.fold import ScheduleFolder
from core.session.checkpoint import Checkpoint, decode_checkpoint
from core.session.export import render_markdown
from core.session.folds import OpenTurn, ScheduleFailed, SessionFolds
from core.session.lines import (
    SessionHeader,
    encode_line,
    make_envelope,
    parse_entry,
    parse_line,
    session_id,
)
from core.session.repair import OUTCOME_UNKNOWN, closers
from core.session.turns import fork_point
from tests import wire as v

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("scripted", "m")


def ev(seq: int, kind: str, data: Any, *, group: int | None = None) -> Entry:
    """The entry of one event given as JSON, decoded as a line read from disk would be."""
    return Entry(seq, AT, decode_event(kind, data), group)


def said(text: str, message_id: str = "m") -> UserMessage:
    return UserMessage(message_id, text, UserSource(None))


def pending_inputs(entries: list[Entry], seed_length: int = 0) -> list[int]:
    folds = SessionFolds(seed_length)
    for entry in entries:
        folds.feed(entry)
    return list(folds.pending)


@given(st.datetimes(timezones=st.just(UTC)))
def test_instants_round_trip_to_the_millisecond(when: datetime) -> None:
    text = format_instant(when)
    assert parse_instant(text) == when.replace(microsecond=when.microsecond // 1000 * 1000)


def test_instants_are_converted_to_utc_and_naive_ones_refused() -> None:
    berlin = timezone(timedelta(hours=2))
    assert format_instant(datetime(2026, 8, 5, 14, 0, 0, 999999, tzinfo=berlin)) == (
        "2026-08-05T12:00:00.999Z"
    )
    with pytest.raises(ValueError, match="naive"):
        format_instant(datetime(2026, 8, 5))  # noqa: DTZ001 -- the naive value under test
    for bad in ("2026-08-05T12:00:00Z", "2026-08-05 12:00:00.000Z", "x"):
        with pytest.raises(ValueError, match="canonical"):
            parse_instant(bad)


def test_session_ids_order_by_time_and_need_enough_randomness() -> None:
    early = session_id(datetime(2026, 1, 1, tzinfo=UTC), bytes(range(10)))
    late = session_id(datetime(2026, 1, 1, 0, 0, 0, 1000, tzinfo=UTC), bytes(10))
    assert early < late
    assert early.count("-") == 4
    with pytest.raises(ValueError, match="10 random bytes"):
        session_id(datetime(2026, 1, 1, tzinfo=UTC), b"short")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"[1]", "not a JSON object"),
        (b'{"seq":0,"at":"' + AT.encode() + b'","type":"x","data":1,"group":0}', "group size 0"),
        (b'{"seq":0,"at":"' + AT.encode() + b'","type":"x","data":1,"group":true}', "group"),
        (b'{"seq":true,"at":"' + AT.encode() + b'","type":"x","data":1}', "seq True"),
        (b'{"seq":0,"at":"2026","type":"x","data":1}', "invalid at"),
        (b'{"seq":0,"at":"' + AT.encode() + b'","type":"","data":1}', "invalid type"),
        (b'{"seq":0,"at":"' + AT.encode() + b'","type":"x"}', "no data"),
        (b"\xff", "UTF-8"),
    ],
)
def test_envelopes_are_decoded_strictly(line: bytes, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_line(line, 0)


def test_an_envelope_line_round_trips() -> None:
    envelope = make_envelope(3, AT, "x", {"k": "\u2028"}, group=2)
    line = encode_line(envelope)
    assert line.endswith(b"\n")
    assert parse_line(line[:-1], 3) == (AT, UnknownEvent("x", {"k": "\u2028"}), 2)
    assert parse_entry(line[:-1], 3).to_json() == envelope


def test_header_line_is_exact() -> None:
    header = SessionHeader("abc", AT, "parent", 4)
    assert header.line() == (
        b'{"type":"session","version":1,"id":"abc","createdAt":"2026-08-05T12:00:00.000Z",'
        b'"parentId":"parent","seedLength":4}\n'
    )


def test_pending_inputs_honour_the_seed_and_each_turn_consumes_one() -> None:
    events = [
        ev(0, v.USER_MESSAGE, v.user_message("a", "inherited", v.user_source(None))),
        ev(1, v.USER_MESSAGE, v.user_message("b", "first", v.user_source(None))),
        ev(2, v.USER_MESSAGE, v.user_message("c", "second", v.user_source(None))),
        ev(3, v.TURN_START, v.turn_start(1, 1)),
        ev(4, v.TURN_START, {"turn": 2, "input": True}),  # a bool is not a seq: malformed
    ]
    assert pending_inputs(events, seed_length=1) == [2]
    assert pending_inputs(events) == [0, 2]


@pytest.mark.parametrize(
    ("status", "pending"),
    [("completed", [2]), ("cancelled", [2]), ("failed", [2]), ("interrupted", [1, 2])],
)
def test_an_interrupted_turn_gives_its_input_back_a_failed_one_does_not(
    status: str, pending: list[int]
) -> None:
    events = [
        ev(0, v.USER_MESSAGE, v.user_message("a", "inherited", v.user_source(None))),
        ev(1, v.USER_MESSAGE, v.user_message("b", "first", v.user_source(None))),
        ev(2, v.USER_MESSAGE, v.user_message("c", "second", v.user_source(None))),
        ev(3, v.TURN_START, v.turn_start(1, 1)),
        ev(4, v.TURN_END, v.turn_end(1, status)),  # type: ignore[arg-type]
    ]
    assert pending_inputs(events, seed_length=1) == pending
    inherited = [*events[:3], ev(3, v.TURN_START, v.turn_start(1, 0)), events[4]]
    assert pending_inputs(inherited, seed_length=1) == [1, 2]  # the seed's input never returns


def test_folds_track_the_open_turn_its_calls_title_and_activity() -> None:
    folds = SessionFolds()
    calls = (ToolCall("c1", "schedule_list", "{}"),)
    for entry in [
        ev(0, v.USER_MESSAGE, v.user_message("a", "  \n", v.user_source(None))),
        ev(1, v.USER_MESSAGE, v.user_message("r", "[SCHEDULE REMINDER]", v.SCHEDULE_SOURCE)),
        ev(
            2,
            v.USER_MESSAGE,
            v.user_message("b", "Plan the trip\nwith details", v.user_source(None)),
        ),
        ev(3, v.TURN_START, {"turn": "x", "input": 1}),  # malformed: ignored
        ev(4, v.TURN_START, v.turn_start(1, 2)),
        Entry(5, AT, AssistantMessage("a", "", calls, MODEL, "tool_calls")),
        ev(6, v.ASSISTANT_MESSAGE, {"toolCalls": "not a list"}),  # malformed: ignored
        ev(7, "future/type", {"x": 1}),
        ev(8, v.SESSION_TITLE, None),  # malformed: ignored
    ]:
        folds.feed(entry)
    assert folds.open_turn == OpenTurn(1, 2)
    assert folds.open_calls == {"c1": "schedule_list"}
    assert folds.display_title == "Plan the trip"  # a reminder is never the title
    assert folds.last_at == AT
    folds.feed(Entry(9, AT, SessionTitle("Trip")))
    assert folds.display_title == "Trip"
    again = SessionFolds.from_json(folds.to_json(), ScheduleFolder())
    assert again.to_json() == folds.to_json()
    assert again.inputs() == folds.inputs()


def test_a_turn_end_closes_only_the_turn_it_names() -> None:
    folds = SessionFolds()
    for entry in [Entry(0, AT, said("q")), Entry(1, AT, TurnStart(4, 0))]:
        folds.feed(entry)
    folds.feed(Entry(2, AT, TurnEnd(3, "failed")))
    assert folds.open_turn == OpenTurn(4, 0)
    folds.feed(Entry(3, AT, TurnEnd(4, "failed")))
    assert (folds.open_turn, folds.pending, folds.failed, folds.last_turn) == (None, [], {0}, 4)
    folds.feed(Entry(4, AT, said("again")))
    assert (folds.pending, folds.failed) == ([4], {0})


def test_a_fold_state_of_the_wrong_shape_is_refused() -> None:
    state = SessionFolds().to_json()
    for bad in [{**state, "title": 5}, {**state, "failed": [True]}, {**state, "openTurn": [1]}, {}]:
        with pytest.raises(ValueError, match=r"not a fold state|expected"):
            SessionFolds.from_json(bad, ScheduleFolder())


def test_a_schedule_change_the_strict_fold_refuses_fails_the_schedule() -> None:
    folds = SessionFolds(seed_length=1)
    folds.feed_schedule(ev(0, v.SCHEDULE_CHANGE, {"version": 9}))  # in the seed: not in scope
    assert isinstance(folds.schedule, ScheduleFolder)
    folds.feed_schedule(ev(1, v.SCHEDULE_CHANGE, {"version": 9}))
    assert isinstance(folds.schedule, ScheduleFailed)
    assert folds.schedule.reason.startswith("event 1: ")


def test_closers_answer_every_open_call_then_end_the_turn() -> None:
    assert closers(None, {"c": "x"}) == []
    assert closers(3, {"c1": "a", "c2": "b"}) == [
        ToolResult("c1", "a", OUTCOME_UNKNOWN, is_error=True),
        ToolResult("c2", "b", OUTCOME_UNKNOWN, is_error=True),
        TurnEnd(3, "interrupted"),
    ]


def turn(seq: int, number: int) -> list[Entry]:
    return [
        Entry(seq, AT, said("q")),
        Entry(seq + 1, AT, TurnStart(number, seq)),
        Entry(seq + 2, AT, AssistantMessage("a", "a", (), MODEL, "stop")),
        Entry(seq + 3, AT, TurnEnd(number, "completed")),
    ]


@pytest.mark.parametrize(
    ("cut", "expected"),
    [(-3, 0), (0, 0), (1, 1), (2, 1), (3, 1), (4, 4), (5, 5), (6, 5), (8, 8), (99, 8)],
)
def test_a_fork_point_moves_back_out_of_a_turn(cut: int, expected: int) -> None:
    assert fork_point([*turn(0, 1), *turn(4, 2)], cut) == expected


def test_a_fork_point_moves_back_out_of_a_group_and_then_out_of_a_turn() -> None:
    events = [
        *turn(0, 1),
        Entry(4, AT, UserMessage("r", "due", SCHEDULE_SOURCE), group=2),
        ev(5, v.SCHEDULE_CHANGE, {}),
        Entry(6, AT, said("later")),
    ]
    assert fork_point(events, 5) == 4
    assert fork_point(events, 6) == 6
    assert fork_point(events, 7) == 7
    inside = [Entry(0, AT, TurnStart(1, 0)), ev(1, "x", {}, group=2), ev(2, "x", {})]
    assert fork_point(inside, 2) == 0


def resealed(raw: bytes, old: bytes, new: bytes) -> bytes:
    """``raw`` with ``old`` replaced, sealed again as the encoder seals (a careful forger)."""
    head = raw[: raw.rindex(b',"seal":"')].replace(old, new)
    return head + b',"seal":"' + xxhash.xxh3_128_hexdigest(head).encode() + b'"}'


def test_a_checkpoint_round_trips_and_bad_ones_are_none() -> None:
    schedule = {"active": [], "seenIds": []}
    checkpoint = Checkpoint("s", 10, 2, "ab", "cd", schedule, None, {"k": 1}, {"x": (3, None)})
    assert decode_checkpoint(checkpoint.encode()) == checkpoint
    raw = checkpoint.encode()
    assert decode_checkpoint(resealed(raw, b"", b"")) == checkpoint
    assert decode_checkpoint(resealed(raw, b'"version":5', b'"version":4')) is None
    assert decode_checkpoint(resealed(raw, b'"length":10', b'"length":true')) is None
    assert decode_checkpoint(resealed(raw, b'"schedule":{', b'"schedule":[1],"x":{')) is None
    assert decode_checkpoint(resealed(raw, b'[["x",3,null]]', b'[["x",3]]')) is None
    assert decode_checkpoint(b"\xff") is None
    failed = Checkpoint("s", 10, 2, "ab", "cd", None, "broken", {})
    assert decode_checkpoint(failed.encode()) == failed


@pytest.mark.parametrize(
    ("old", "new"),
    [(b'"length":10', b'"length":11'), (b'"k":1', b'"k":2'), (b'"seal":"', b'"seal":"0')],
    ids=["a number", "the folds", "the seal"],
)
def test_a_checkpoint_changed_anywhere_without_its_seal_is_none(old: bytes, new: bytes) -> None:
    raw = Checkpoint("s", 10, 2, "ab", "cd", {"active": [], "seenIds": []}, None, {"k": 1}).encode()
    assert decode_checkpoint(raw) is not None
    assert decode_checkpoint(raw.replace(old, new)) is None
    assert decode_checkpoint(raw[:-1]) is None


def test_a_checkpoint_carries_the_folds_and_their_schedule() -> None:
    folds = SessionFolds()
    folds.feed(Entry(0, AT, said("q")))
    checkpoint = Checkpoint.of("s", 100, 1, folds)
    assert checkpoint.folds().to_json() == folds.to_json()
    assert isinstance(checkpoint.folds().schedule, ScheduleFolder)
    folds.fail_schedule("broken")
    failed = Checkpoint.of("s", 100, 1, folds)
    assert (failed.schedule, failed.schedule_error) == (None, "broken")
    assert failed.folds().schedule == ScheduleFailed("broken")
    bad = Checkpoint("s", 1, 1, "", "", {"active": 1, "seenIds": []}, None, folds.to_json())
    with pytest.raises(ValueError, match="schedule"):
        bad.folds()


def test_markdown_reads_as_a_conversation_in_the_users_zone() -> None:
    header = SessionHeader("child", AT, "parent", 3)
    create = ToolCall("c1", "schedule_create", '{"prompt": "stretch", "after_seconds": 120}')
    listing = ToolCall("c2", "schedule_list", "{}")
    created = '{"id": "schedule-1", "kind": "after", "scheduledAt": "2026-08-05T12:02:00.000Z"}'
    framing = render_one_shot("schedule-1", "2026-08-05T12:02:00.000Z", "stretch")
    late = "2026-08-05T12:09:00.000Z"
    events = [
        Entry(0, AT, said("remind me in 2 minutes to stretch")),
        Entry(1, AT, TurnStart(1, 0)),
        Entry(2, AT, ContextTime(None, "noon")),
        Entry(3, AT, said("and what do I have?")),  # typed while the first answer ran
        Entry(4, AT, AssistantMessage("a", "", (create,), MODEL, "tool_calls")),
        Entry(5, AT, ToolResult("c1", "schedule_create", created, is_error=False)),
        Entry(6, AT, AssistantMessage("b", "Done.", (), MODEL, "stop")),
        Entry(7, AT, TurnEnd(1, "completed")),
        Entry(8, AT, TurnStart(2, 3)),
        Entry(9, AT, AssistantMessage("c", "", (listing,), MODEL, "tool_calls")),
        Entry(10, AT, ToolResult("c2", "schedule_list", "[]", is_error=False)),
        Entry(11, AT, TurnEnd(2, "failed", TurnError("timeout", "too slow"))),
        Entry(12, AT, TurnStart(3, 3)),  # Retry: the message is shown once
        Entry(13, AT, TurnEnd(3, "cancelled")),
        Entry(14, late, UserMessage("r", framing, SCHEDULE_SOURCE)),
        Entry(15, late, TurnStart(4, 14)),
        Entry(16, late, SessionTitle("Trip")),
        Entry(17, late, AssistantMessage("d", "⏰ Reminder: stretch", (), MODEL, "stop")),
        Entry(18, late, TurnEnd(4, "completed")),
        ev(19, "x", "not a mapping"),
        ev(20, v.USER_MESSAGE, {"text": 5}),  # malformed: left out
    ]
    text = render_markdown(header, "Trip", events, "Europe/Berlin")
    assert text.startswith("# Trip\n\nExported from Chime: session `child`, created Wednesday 5")
    assert "Times are Europe/Berlin." in text
    assert "Forked from `parent` after event 3." in text
    assert "## Wednesday 5 August 2026" in text
    assert "### You · 14:00\n\nremind me in 2 minutes to stretch\n\n### Assistant · 14:00" in text
    assert "- 🛠 Create reminder — stretch, 14:02 · schedule-1\n\nDone." in text
    assert text.index("Done.") < text.index("and what do I have?")  # after the answer it waited for
    assert text.count("and what do I have?") == 1
    assert "- 🛠 List reminders — 0 active\n\n*The answer failed: too slow.*" in text
    assert "*Stopped.*" in text
    assert "### ⏰ Reminder: stretch\n\nDue 14:02, delivered 14:09." in text
    assert "[SCHEDULE REMINDER]" not in text
    assert "reminder_prompt_json" not in text
    assert "noon" not in text
    assert "Title" not in text
    assert text.count("### Assistant") == 4  # one per turn that said or did something
    assert "12:00" not in text  # no UTC times


def test_markdown_of_an_unreadable_reminder_quotes_it_and_a_message_no_turn_took_stays() -> None:
    header = SessionHeader("s", AT, None, 0)
    events = [
        Entry(0, AT, UserMessage("r", "not a framing", SCHEDULE_SOURCE)),
        Entry(1, AT, said("answered")),
        Entry(2, AT, TurnStart(1, 1)),
        Entry(3, AT, said("still waiting")),
    ]
    text = render_markdown(header, None, events)
    assert text.startswith("# Chime session\n\nExported from Chime: session `s`")
    assert text.index("> not a framing") < text.index("answered") < text.index("still waiting")


def test_markdown_lists_a_batch_of_reminders_and_survives_odd_times_zones_and_results() -> None:
    header = SessionHeader("s", "not a time", None, 0)
    batch = UserMessage(
        "r",
        render_batch(
            [
                ("schedule-1", "2026-08-05T11:00:00.000Z", "water"),
                ("schedule-2", "2026-08-05T11:30:00.000Z", "stretch"),
            ]
        ),
        SCHEDULE_SOURCE,
    )
    bad_call = ToolCall("c1", "schedule_delete", "{not json")
    events = [
        Entry(0, AT, batch),
        Entry(1, AT, TurnStart(1, 0)),
        Entry(2, AT, AssistantMessage("a", "", (), MODEL, "stop")),  # says nothing: no section
        Entry(3, "garbled", AssistantMessage("b", "Both due.", (bad_call,), MODEL, "tool_calls")),
        Entry(4, AT, ToolResult("elsewhere", "schedule_list", "[]", is_error=False)),
        Entry(5, AT, ToolResult("c1", "schedule_delete", "{broken", is_error=True)),
    ]
    text = render_markdown(header, None, events, "Not/AZone")
    assert "Exported from Chime: session `s`. Times are Not/AZone." in text  # no creation time
    assert "### ⏰ 2 reminders · delivered 12:00" in text  # an unknown zone reads as UTC
    assert "- ⏰ Reminder: water (due 11:00)\n- ⏰ Reminder: stretch (due 11:30)" in text
    assert "### Assistant · \n\nBoth due.\n\n- 🛠 Delete reminder — not done: it was refused" in text
    assert text.count("### Assistant") == 1
