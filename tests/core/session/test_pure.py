"""Pure parts of the session store: lines, ids, folds, closers, fork points, checkpoint, Markdown."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.session import vocabulary as v
from core.session.checkpoint import Checkpoint, decode_checkpoint
from core.session.events import (
    SessionHeader,
    encode_line,
    format_instant,
    make_envelope,
    parse_envelope,
    parse_instant,
    session_id,
)
from core.session.export import render_markdown
from core.session.folds import SessionFolds, pending_inputs
from core.session.repair import OUTCOME_UNKNOWN, closers
from core.session.turns import fork_point

AT = "2026-08-05T12:00:00.000Z"


def ev(seq: int, kind: str, data: Any, **extra: Any) -> dict[str, Any]:
    return {"seq": seq, "at": AT, "type": kind, "data": data, **extra}


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
        parse_envelope(line, 0)


def test_an_envelope_line_round_trips() -> None:
    envelope = make_envelope(3, AT, "x", {"k": "\u2028"}, group=2)
    line = encode_line(envelope)
    assert line.endswith(b"\n")
    assert parse_envelope(line[:-1], 3) == envelope


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
        ev(4, v.TURN_START, {"turn": 2, "input": True}),  # a bool is not a seq
    ]
    assert pending_inputs(events, seed_length=1) == [2]
    assert pending_inputs(events) == [0, 2]


@pytest.mark.parametrize(
    ("status", "pending"),
    [("completed", [2]), ("cancelled", [2]), ("failed", [1, 2]), ("interrupted", [1, 2])],
)
def test_a_failed_or_interrupted_turn_gives_its_input_back(status: str, pending: list[int]) -> None:
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
    calls = [{"id": "c1", "name": "schedule_list", "arguments": "{}"}, "junk", {"id": 5}]
    for event in [
        ev(0, v.USER_MESSAGE, v.user_message("a", "  \n", v.user_source(None))),
        ev(
            1,
            v.USER_MESSAGE,
            v.user_message("b", "Plan the trip\nwith details", v.user_source(None)),
        ),
        ev(2, v.TURN_START, {"turn": "x", "input": 1}),
        ev(3, v.ASSISTANT_MESSAGE, {"toolCalls": calls}),
        ev(4, v.ASSISTANT_MESSAGE, {"toolCalls": "not a list"}),
        ev(5, "future/type", {"x": 1}),
        ev(6, v.SESSION_TITLE, None),
    ]:
        folds.feed(event)
    assert folds.open_turn == 0
    assert folds.open_calls == {"c1": "schedule_list"}
    assert folds.display_title == "Plan the trip"
    assert folds.last_at == AT
    folds.feed(ev(7, v.SESSION_TITLE, v.session_title("Trip")))
    assert folds.display_title == "Trip"
    again = SessionFolds.from_json(folds.to_json())
    assert again.to_json() == folds.to_json()


def test_a_fold_state_of_the_wrong_shape_is_refused() -> None:
    state = SessionFolds().to_json()
    with pytest.raises(TypeError):
        SessionFolds.from_json({**state, "title": 5})
    with pytest.raises(KeyError):
        SessionFolds.from_json({})


def test_closers_answer_every_open_call_then_end_the_turn() -> None:
    assert closers(None, {"c": "x"}) == []
    assert closers(3, {"c1": "a", "c2": "b"}) == [
        (v.TOOL_RESULT, {"callId": "c1", "name": "a", "content": OUTCOME_UNKNOWN, "isError": True}),
        (v.TOOL_RESULT, {"callId": "c2", "name": "b", "content": OUTCOME_UNKNOWN, "isError": True}),
        (v.TURN_END, {"turn": 3, "status": "interrupted"}),
    ]


def turn(seq: int, number: int) -> list[dict[str, Any]]:
    return [
        ev(seq, v.USER_MESSAGE, {"text": "q"}),
        ev(seq + 1, v.TURN_START, v.turn_start(number, seq)),
        ev(seq + 2, v.ASSISTANT_MESSAGE, {"text": "a"}),
        ev(seq + 3, v.TURN_END, v.turn_end(number, "completed")),
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
        ev(4, v.USER_MESSAGE, {"text": "r"}, group=2),
        ev(5, v.SCHEDULE_CHANGE, {}),
        ev(6, v.USER_MESSAGE, {"text": "later"}),
    ]
    assert fork_point(events, 5) == 4
    assert fork_point(events, 6) == 6
    assert fork_point(events, 7) == 7
    inside = [ev(0, v.TURN_START, {}), ev(1, "x", {}, group=2), ev(2, "x", {})]
    assert fork_point(inside, 2) == 0


def test_a_checkpoint_round_trips_and_bad_ones_are_none() -> None:
    checkpoint = Checkpoint("s", 10, 2, "ab", "cd", {"active": [], "seenIds": []}, None, {"k": 1})
    assert decode_checkpoint(checkpoint.encode()) == checkpoint
    raw = checkpoint.encode()
    assert decode_checkpoint(raw.replace(b'"version":1', b'"version":2')) is None
    assert decode_checkpoint(raw.replace(b'"length":10', b'"length":true')) is None
    assert decode_checkpoint(raw.replace(b'"schedule":{', b'"schedule":[1],"x":{')) is None
    assert decode_checkpoint(b"\xff") is None
    failed = Checkpoint("s", 10, 2, "ab", "cd", None, "broken", {})
    assert decode_checkpoint(failed.encode()) == failed


def test_markdown_marks_reminders_tools_failures_and_forks() -> None:
    header = SessionHeader("child", AT, "parent", 3)
    events = [
        ev(0, v.USER_MESSAGE, v.user_message("a", "hello", v.user_source(None))),
        ev(1, v.USER_MESSAGE, v.user_message("r", "stretch", v.SCHEDULE_SOURCE)),
        ev(
            2,
            v.ASSISTANT_MESSAGE,
            {"text": "ok", "toolCalls": [{"name": "schedule_list", "arguments": "{}"}, "junk"]},
        ),
        ev(3, v.TOOL_RESULT, {"name": "schedule_list", "content": "line1\nline2", "isError": True}),
        ev(4, v.TURN_END, v.turn_end(1, "failed", {"kind": "timeout", "message": "too slow"})),
        ev(5, v.TURN_END, v.turn_end(2, "cancelled")),
        ev(6, v.TURN_END, v.turn_end(3, "completed")),
        ev(7, v.SESSION_TITLE, v.session_title("Trip")),
        ev(8, v.ASSISTANT_MESSAGE, {"text": "no calls"}),
        ev(9, v.CONTEXT_TIME, v.context_time(None, "noon")),
        ev(10, "x", "not a mapping"),
    ]
    text = render_markdown(header, None, events)
    assert text.startswith("# Chime session\n\nSession `child`")
    assert "Forked from `parent` after event 3." in text
    assert "## You (2026-08-05T12:00:00.000Z)\n\nhello" in text
    assert "## ⏰ Reminder (2026-08-05T12:00:00.000Z)\n\nstretch" in text
    assert "> Tool call `schedule_list`: `{}`" in text
    assert "> Tool error `schedule_list`: line1\n> line2" in text
    assert "*Turn 1 failed: too slow.*" in text
    assert "*Turn 2 cancelled.*" in text
    assert "Turn 3" not in text
    assert "*Title set to “Trip”.*" in text
    assert "noon" not in text


def test_vocabulary_builders_keep_optional_fields_only_when_given() -> None:
    usage = {"inputTokens": 1, "outputTokens": 2}
    message = v.assistant_message("a", "t", [], {"provider": "p", "name": "n"}, "stop", usage)
    assert message["usage"] == usage
    assert v.turn_end(1, "failed", {"kind": "k", "message": "m"})["error"] == {
        "kind": "k",
        "message": "m",
    }
