"""The block scan against the line scan: the same verdict, offsets and folds on every log, damaged
or not (a differential hypothesis test), and the block path actually taken on plain lines."""

from __future__ import annotations

from array import array
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import (
    AssistantMessage,
    Entry,
    Event,
    EventType,
    ModelRef,
    PluginSource,
    SessionTitle,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.instant import has_instant_shape, have_instant_shape
from core.schedule.fold import ScheduleFolder
from core.session import block_scan
from core.session.block_scan import scan_blocks
from core.session.envelopes import read_envelopes
from core.session.folds import SessionFolds
from core.session.lines import encode_entry, encode_line, make_envelope
from core.session.scan import ScanResult, scan
from tests.core.session.test_fold_properties import OPS, simulate
from tests.core.test_events import STRATEGIES

AT = "2026-08-05T12:00:00.000Z"
any_event = st.one_of(*STRATEGIES.values())
_HEAD = b'{"seq":%d,"at":"' + AT.encode() + b'"'
ODD_LINES = [
    b"",
    b"[1]",
    b"{",
    b'{"seq":%d,"at":"x","type":"t","data":1}',
    b'{"seq":true,"at":"' + AT.encode() + b'","type":"t","data":1}',
    b'{"seq":%d.0,"at":"' + AT.encode() + b'","type":"t","data":1}',
    b'{"seq":%d,"at":1,"type":"t","data":1}',
    _HEAD + b',"type":"","data":1}',
    _HEAD + b',"type":2,"data":1}',
    _HEAD + b',"type":"t"}',
    _HEAD + b',"type":"user/message","data":{"text":"\\ud800"}}',
    _HEAD + b',"type":"t","data":1,"group":2}',
    _HEAD + b',"type":"t","data":' + b"[" * 300 + b"]" * 300 + b"}",
    _HEAD + b',"type":"t","data":"\xff"}',
    _HEAD + b',"type":"t","data":1}',
    # where msgspec (core.session.envelopes) and the bounded decode may read a line differently:
    _HEAD + b',"type":"t","data":1,"z":"\xff"}',  # not UTF-8 where nothing is built
    _HEAD + b',"type":"t","data":"\xc0\xaf"}',  # an overlong encoding
    _HEAD + b',"type":"t","data":"\xed\xa0\x80"}',  # a surrogate's bytes
    _HEAD + b',"type":"t","data":1,"z":"\\udc00"}',  # a lone surrogate escaped, skipped
    _HEAD + b',"type":"\\ud800","data":1}',
    _HEAD + b',"type":"t","data":1e400}',  # out of a double's range
    _HEAD + b',"type":"t","data":1,"z":-1E400}',
    _HEAD + b',"type":"t","data":[1e-400]}',
    _HEAD + b',"type":"t","data":' + b"1" * 401 + b"}",  # an integer of 401 digits
    _HEAD + b',"type":"t","data":{"z":' + b"9" * 320 + b".5}}",
    _HEAD + b',"type":"t","data":' + b"1" * 40 + b"}",  # beyond 64 bits: a float
    _HEAD + b',"type":"t","data":"call_3e4"}',  # text that looks like an exponent
    _HEAD + b',"type":"t","data":NaN}',
    _HEAD + b',"type":"t","data":Infinity}',
    _HEAD + b',"type":"t","data":1}x',  # trailing garbage
    _HEAD + b',"type":"t","data":1} ',
    b"\xef\xbb\xbf" + _HEAD + b',"type":"t","data":1}',  # a byte order mark
    _HEAD + b',"type":"t","data":' + b"[" * 255 + b"]" * 255 + b"}",  # 256 levels: the most
    _HEAD + b',"type":"t","data":' + b"[" * 256 + b"]" * 256 + b"}",
    _HEAD + b',"type":"t","data":"' + b"[" * 600 + b'"}',  # brackets in a string
    b'{"seq":-1,"seq":%d,"at":"' + AT.encode() + b'","type":"t","data":1}',  # duplicate keys
    _HEAD + b',"type":"x","type":"t","data":1,"data":2}',
    b'{"seq":%d,"seq":"1","at":"' + AT.encode() + b'","type":"t","data":1}',
    b'{"s\\u0065q":%d,"at":"' + AT.encode() + b'","type":"t","data":1}',  # an escaped key
    _HEAD + b',"type":"t","data":1,"gr\\u006fup":2}',
    _HEAD + b',"type":"t","data":1,"group":null}',
    b'{"seq":%de0,"at":"' + AT.encode() + b'","type":"t","data":1}',
    b'{"seq":1844674407370955161%d,"at":"' + AT.encode() + b'","type":"t","data":1}',
    _HEAD + b',"type":"turn/start","data":{"turn":9223372036854775808,"input":0}}',
    _HEAD + b',"type":"turn/start","data":{"turn":18446744073709551616,"input":0}}',
    _HEAD + b',"type":"turn/start","data":{"turn":-9223372036854775808,"input":0}}',
    _HEAD + b',"type":"turn/start","data":{"turn":true,"input":0}}',
    _HEAD + b',"type":"turn/start","data":{"turn":2,"input":0,"continues":1}}',  # a Continue
    _HEAD + b',"type":"turn/start","data":{"turn":2,"input":0,"continues":null}}',
    _HEAD + b',"type":"turn/end","data":{"turn":0,"status":"completed","error":null}}',
    _HEAD + b',"type":"turn/end","data":{"turn":0,"status":"failed","error":"x"}}',
    _HEAD + b',"type":"turn/end","data":{"turn":0,"status":"completed","status":"over"}}',
    _HEAD
    + b',"type":"user/message","data":{"id":"u","text":"\\ud800 hi","source":{"kind":"user"}}}',
    _HEAD + b',"type":"user/message","data":{"id":"u","text":" hi\\n","source":{"kind":"user"}}}',
    _HEAD + b',"type":"user/message","data":{"id":"u","text":"hi","source":{"kind":"plugin"}}}',
    _HEAD + b',"type":"user/message","data":{"id":"u","text":"hi","source":null}}',
    _HEAD + b',"type":"user/message","data":{"id":"u","text":"hi","source":{"kind":"user","x":1}}}',
    _HEAD + b',"type":"user/message","data":{"id":"u","text":"hi","source":{"kind":"us\\u0065r"}}}',
    _HEAD
    + b',"type":"user/message","data":{"id":"u","text":"a","text":2,"source":{"kind":"user"}}}',
    _HEAD
    + b',"type":"user/message","data":{"id":"u","text":"a","source":{"kind":"user"},"parent":0}}',
    _HEAD + b',"type":"user/message","data":{"id":1,"text":"a","source":{"kind":"user"}}}',
    _HEAD
    + b',"type":"user/message","data":{"id":"u","text":"a","source":{"kind":"user","timeZone":5}}}',
]
odd_lines = st.sampled_from(ODD_LINES)


def fold_both(log: bytes, start: int = 0, block: int = 300, seed: int = 0) -> tuple[Any, Any]:
    """What the line scan and the block scan (in blocks of ``block`` bytes: many in a short log)
    make of ``log``: verdict, offsets and fold state. The block scan runs with its compiled
    checks (where this install has them) and with its pure-Python ones alone, which must agree."""
    strict = _fold(log, start, block, seed, None)
    fast = _fold(log, start, block, seed, False)
    if block_scan.compiled_check is not None:
        assert _fold(log, start, block, seed, True) == fast
    return strict, fast


def _fold(log: bytes, start: int, block: int, seed: int, compiled: bool | None) -> Any:
    """The line scan's reading (``compiled`` None), or the block scan's, with or without its
    compiled checks."""
    folds, offsets = SessionFolds(seed), array("Q")
    if compiled is None:
        result = scan(log, start=start, first_seq=0, sink=folds.read, offsets=offsets)
    else:
        check = block_scan.compiled_check if compiled else None
        with (
            mock.patch.object(block_scan, "BLOCK", block),
            mock.patch.object(block_scan, "compiled_check", check),
        ):
            result = scan_blocks(log, start=start, first_seq=0, sink=folds, offsets=offsets)
    schedule = folds.schedule
    state = schedule.fold().to_json() if isinstance(schedule, ScheduleFolder) else schedule
    return result, list(offsets), folds.to_json(), state, folds.schedule_sources


@settings(max_examples=60, deadline=None)
@given(
    events=st.lists(any_event, max_size=30),
    groups=st.lists(st.integers(0, 30), max_size=3),
    damage=st.lists(st.tuples(st.integers(0, 10**6), odd_lines | st.binary(max_size=3))),
    cut=st.integers(0, 10**6),
)
def test_the_block_scan_agrees_with_the_line_scan_on_any_log(
    events: list[Event], groups: list[int], damage: list[tuple[int, bytes]], cut: int
) -> None:
    lines = [
        encode_line(
            make_envelope(i, AT, e.type, e.to_data(), group=2 if i in groups else None)
        ).rstrip(b"\n")
        for i, e in enumerate(events)
    ]
    for where, bad in damage:
        if lines:
            index = where % len(lines)
            line = lines[index]
            spot = where % (len(line) + 1)
            whole = bad.replace(b"%d", b"%d" % index)  # a line of its own, at its index
            lines[index] = whole if where % 2 else line[:spot] + bad + line[spot:]
    log = b"".join(line + b"\n" for line in lines)
    if cut % 3 == 0:
        log = log[: cut % (len(log) + 1)]
    strict, fast = fold_both(log)
    assert fast == strict


@pytest.mark.parametrize("odd", ODD_LINES)
@pytest.mark.parametrize("where", [0, 2, 4])
def test_each_odd_line_gets_the_line_scan_s_verdict(odd: bytes, where: int) -> None:
    lines = [encode_entry(Entry(i, AT, TurnStart(i, 0))).rstrip(b"\n") for i in range(5)]
    lines[where] = odd.replace(b"%d", b"%d" % where)
    strict, fast = fold_both(b"".join(line + b"\n" for line in lines), block=1 << 16)
    assert fast == strict


@settings(max_examples=40, deadline=None)
@given(OPS, st.integers(0, 6))
def test_the_block_scan_folds_the_agent_s_logs_as_the_line_scan_does(
    ops: list[Any], calls: int
) -> None:
    log = simulate(ops, [])
    for _ in range(calls):  # a turn left open with calls answered or not
        log.append(Entry(len(log), AT, ToolResult(f"call{len(log)}", "t", "r", is_error=False)))
    data = b"".join(map(encode_entry, log))
    strict, fast = fold_both(data)
    assert fast == strict
    assert fast[0] == ScanResult(len(log), len(data), len(data))


def test_plain_lines_are_folded_by_blocks_without_the_line_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = b"".join(
        encode_entry(
            Entry(
                i, AT, TurnStart(i, 0) if i % 3 == 0 else ToolResult("c", "t", "", is_error=False)
            )
        )
        for i in range(600)
    )
    lines_read: list[int] = []
    real = scan

    def spy(*args: Any, **kwargs: Any) -> ScanResult:
        lines_read.append(kwargs["start"])
        return real(*args, **kwargs)

    monkeypatch.setattr(block_scan, "scan", spy)
    strict, fast = fold_both(log, block=1 << 16)
    assert fast == strict
    assert lines_read == []  # no block needed the line scan
    assert fast[2]["lastTurn"] == 597


def test_a_malformed_turn_start_does_not_forget_the_calls_before_it() -> None:
    call = ToolCall("c1", "schedule_list", "{}")
    calls = encode_entry(
        Entry(1, AT, AssistantMessage("a", "", (call,), ModelRef("p", "m"), "tool_calls"))
    )
    log = (
        encode_entry(Entry(0, AT, TurnStart(1, 0)))
        + calls
        + encode_line(make_envelope(2, AT, EventType.TURN_START, {"turn": "two"}))
    )
    strict, fast = fold_both(log, block=1 << 16)
    assert fast == strict
    assert fast[2]["openCalls"] == [["c1", "schedule_list"]]


@given(st.lists(st.text(max_size=30) | st.just(AT), max_size=5))
def test_the_shape_of_many_instants_is_the_shape_of_each(texts: list[str]) -> None:
    assert have_instant_shape(texts) == all(map(has_instant_shape, texts))
    assert have_instant_shape([AT, AT])
    assert not have_instant_shape([AT + "\n" + AT, ""])


def test_the_block_scan_lets_go_of_what_it_read_as_it_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(block_scan, "RELEASE_EVERY", 1000)
    monkeypatch.setattr(block_scan, "BLOCK", 300)
    log = b"".join(encode_entry(Entry(i, AT, TurnStart(i, 0))) for i in range(200))
    told: list[int] = []
    folds = SessionFolds()
    result = scan_blocks(
        log, start=0, first_seq=0, sink=folds, offsets=array("Q"), release=told.append
    )
    assert result == ScanResult(200, len(log), len(log))
    assert told == sorted(told)
    assert len(told) > 3
    assert all(0 < end <= len(log) for end in told)


@pytest.mark.parametrize(
    ("data", "closes"),
    [
        ({"turn": 1, "status": "failed", "error": 5}, False),  # malformed: no turn/end at all
        ({"turn": 1, "status": "failed", "error": {"kind": "http", "message": "down"}}, True),
        ({"turn": 1, "status": "completed"}, True),
        ({"turn": 1, "status": "over"}, False),
        ({"turn": "1", "status": "failed"}, False),
        ([1], False),
    ],
)
def test_a_turn_end_of_any_shape_folds_as_the_line_scan_folds_it(data: Any, closes: bool) -> None:
    log = encode_entry(Entry(0, AT, TurnStart(1, 0))) + encode_line(
        make_envelope(1, AT, EventType.TURN_END, data)
    )
    strict, fast = fold_both(log, block=1 << 16)
    assert fast == strict
    assert (fast[2]["openTurn"] is None) == closes


@pytest.mark.parametrize(
    ("data", "starts"),
    [({"turn": 2, "input": 0}, True), ({"turn": 2, "input": "0"}, False), ({"turn": 2}, False)],
)
def test_a_turn_start_of_any_shape_folds_as_the_line_scan_folds_it(data: Any, starts: bool) -> None:
    log = encode_entry(Entry(0, AT, TurnStart(1, 0))) + encode_line(
        make_envelope(1, AT, EventType.TURN_START, data)
    )
    strict, fast = fold_both(log, block=1 << 16)
    assert fast == strict
    assert fast[2]["lastTurn"] == (2 if starts else 1)


def test_a_block_msgspec_cannot_vouch_for_is_folded_from_orjson_s_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = (
        encode_entry(Entry(0, AT, TurnStart(1, 0)))
        + encode_line(make_envelope(1, AT, "note", "1e5 is an exponent's look"))
        + encode_line(make_envelope(2, AT, EventType.TURN_END, {"turn": 1, "status": "failed"}))
    )
    assert read_envelopes(log, log.split(b"\n")[:-1]) is None
    monkeypatch.setattr(block_scan, "scan", None)  # the block path alone: no line scan
    folds = SessionFolds()
    result = scan_blocks(log, start=0, first_seq=0, sink=folds, offsets=array("Q"))
    assert result == ScanResult(3, len(log), len(log))
    assert folds.open_turn is None
    assert folds.failed == {0}


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        (EventType.TURN_START, {"turn": 2, "input": 0, "continues": 1}),
        (EventType.TURN_START, {"turn": 2, "input": 0}),
        (EventType.TURN_END, {"turn": 1, "status": "over"}),
        (EventType.TOOL_RESULT, {"turn": 1}),
    ],
)
def test_an_edge_in_a_block_msgspec_cannot_vouch_for_folds_as_the_line_scan_folds_it(
    kind: str, data: Any
) -> None:
    log = (
        encode_entry(Entry(0, AT, TurnStart(1, 0)))
        + encode_line(make_envelope(1, AT, "note", "1e5 is an exponent's look"))
        + encode_line(make_envelope(2, AT, kind, data))
    )
    assert read_envelopes(log, log.split(b"\n")[:-1]) is None
    strict, fast = fold_both(log, block=1 << 16)
    assert fast == strict
    assert fast[0] == ScanResult(3, len(log), len(log))


def _exchange(seq: int, turn: int, text: str, status: str, calls: int) -> list[Event]:
    """A typed message, the turn on it (with ``calls`` answered calls) and its end."""
    call = ToolCall(f"call{seq}", "schedule_list", "{}")
    answered = [
        AssistantMessage(f"a{seq}", "", (call,), ModelRef("p", "m"), "tool_calls"),
        ToolResult(f"call{seq}", "schedule_list", "[]", is_error=False),
    ]
    return [
        UserMessage(f"u{seq}", text, UserSource(None)),
        TurnStart(turn, seq),
        *answered * calls,
        TurnEnd(turn, status),  # type: ignore[arg-type] -- the statuses drawn are TurnStatus
    ]


_STATUSES = ["completed", "failed", "interrupted", "cancelled"]
_PLAIN = st.tuples(st.just("plain"), st.sampled_from(["completed", "cancelled"]), st.integers(0, 1))
_STEPS = st.one_of(  # mostly plain exchanges: runs of them, between the others
    _PLAIN,
    _PLAIN,
    _PLAIN,
    st.tuples(st.just("ending"), st.sampled_from(_STATUSES), st.integers(0, 1)),
    st.tuples(st.just("odd"), st.integers(0, 9), st.integers(0, 3)),
)


def _odd(how: int, seq: int, turn: int, extra: int) -> list[Event]:
    """Events that leave the folds in a state a run of exchanges must see: a failed reminder
    waiting, inputs failed, given back or waiting (some named before their message exists),
    an open turn, a blank first message, a branch, a Continue."""
    status: Any = _STATUSES[extra]
    return [
        [
            UserMessage(f"r{seq}", "reminder", PluginSource("schedule")),
            TurnStart(turn, seq),
            TurnEnd(turn, status),
        ],
        [UserMessage(f"p{seq}", "branch", UserSource(None), parent=max(0, seq - 3))],
        [TurnStart(turn, max(0, seq - 2 - extra)), TurnEnd(turn, status)],
        [TurnStart(turn, seq + 2 + extra), TurnEnd(turn, status)],  # a later message's seq
        [TurnEnd(turn + 1, "completed")],
        [TurnStart(turn, max(0, seq - 1), continues=max(0, seq - 1))],
        [UserMessage(f"b{seq}", "  ", UserSource(None))],
        [SessionTitle("t")],
        [UserMessage(f"w{seq}", "waits", UserSource(None))],
        [TurnStart(turn, seq + 1 + extra)],
    ][how]


def _exchange_log(steps: list[tuple[str, Any, int]]) -> bytes:
    """A log of exchanges (plain ones, and ones that end otherwise) with odd events between."""
    events: list[Event] = []
    turn = 0
    for what, how, extra in steps:
        seq, turn = len(events), turn + 1
        if what == "odd":
            events += _odd(how, seq, turn, extra)
        else:
            events += _exchange(seq, turn, " \n" if seq == extra else "hi", how, extra)
    return b"".join(encode_entry(Entry(i, AT, e)) for i, e in enumerate(events))


@settings(max_examples=300, deadline=None)
@given(st.lists(_STEPS, max_size=60), st.sampled_from([300, 2000, 1 << 16]))
def test_runs_of_exchanges_fold_as_the_line_scan_folds_their_events(
    steps: list[tuple[str, Any, int]], block: int
) -> None:
    log = _exchange_log(steps)
    strict, fast = fold_both(log, block=block)
    assert fast == strict


def test_a_run_of_plain_exchanges_is_folded_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = [("plain", "completed", 1), ("odd", 7, 0)]  # a title between the first two
    log = _exchange_log(steps + [("plain", "completed", i % 2) for i in range(59)])
    folded: list[bool] = []
    real = SessionFolds._exchanges

    def spy(folds: SessionFolds, run: Any) -> bool:
        folded.append(real(folds, run))
        return folded[-1]

    monkeypatch.setattr(SessionFolds, "_exchanges", spy)
    strict, fast = fold_both(log, block=1 << 16)
    assert fast == strict
    block_scans = 1 if block_scan.compiled_check is None else 2  # pure, and compiled
    assert folded == [False, True] * block_scans  # the first run waits for the first message
    assert fast[2]["lastTurn"] == 61
    assert fast[2]["pending"] == []


_PLAIN_STEP = ("plain", "completed", 0)


@pytest.mark.parametrize(
    ("steps", "seed"),
    [
        ([("plain", "completed", 1), ("odd", 0, 1), ("odd", 7, 0)], 0),  # a reminder waits
        ([("plain", "completed", 1), ("odd", 3, 1), ("odd", 7, 0)], 0),  # the input failed
        ([("plain", "completed", 1), ("odd", 3, 2), ("odd", 7, 0), ("odd", 7, 0)], 0),  # back
        ([("plain", "completed", 1), ("odd", 3, 2), ("odd", 7, 0), ("odd", 7, 0)], 10),
        ([("plain", "completed", 0), ("odd", 7, 0)], 0),  # no first message yet
    ],
)
def test_a_run_of_exchanges_in_a_state_it_does_not_cover_folds_event_by_event(
    steps: list[tuple[str, Any, int]], seed: int
) -> None:
    """Each case leaves the state (after its title) where the run after it must be folded one
    event at a time: folding it at once would forget what its first exchange changes."""
    log = _exchange_log([*steps, _PLAIN_STEP, _PLAIN_STEP])
    strict, fast = fold_both(log, block=1 << 16, seed=seed)
    assert fast == strict
    folds = SessionFolds(seed)
    with mock.patch.object(SessionFolds, "_covers", return_value=True):
        scan_blocks(log, start=0, first_seq=0, sink=folds, offsets=array("Q"))
    assert folds.to_json() != strict[2]  # the state mattered
