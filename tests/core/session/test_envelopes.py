"""msgspec's reading of a block's envelopes against the bounded decode: whatever it reads, the
decode reads the same way (same seq, at, type and data value); what it cannot vouch for is None."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import Entry, TurnEnd, TurnStart, UserMessage, UserSource
from core.jsonread import LOG_LINE, bounded_reader
from core.session.envelopes import read_data, read_envelopes, read_turn_end, read_turn_start
from core.session.lines import encode_entry
from tests.core.session.test_block_scan import AT, ODD_LINES

_read_line = bounded_reader(LOG_LINE)
_PIECES = [
    b'{"seq":0,"at":"' + AT.encode() + b'","type":"t","data":',
    *(line.replace(b"%d", b"0") for line in ODD_LINES),
    b"1",
    b"1e400",
    b"1E5",
    b"0" * 310,
    b'"\\ud800"',
    b'"\xff"',
    b"\xc3\xa9",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b":",
    b'"',
    b"null",
    b'"group"',
    b" ",
]


def _expected(line: bytes) -> tuple[Any, ...] | None:
    """The parts the bounded decode reads (None: it refuses the line or it is not an envelope)."""
    try:
        value = _read_line(line)
    except ValueError:
        return None
    if type(value) is not dict or not {"seq", "at", "type", "data"} <= value.keys():
        return None
    return value["seq"], value["at"], value["type"], value["data"], "group" in value


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).map(b"".join), min_size=1))
def test_what_msgspec_reads_the_bounded_decode_reads_the_same(lines: list[bytes]) -> None:
    lines = [line.replace(b"\n", b" ") or b"{}" for line in lines]
    parts = read_envelopes(b"".join(line + b"\n" for line in lines), lines)
    if parts is None:
        return
    for line, *found in zip(lines, *parts, strict=True):
        expected = _expected(line)
        assert expected is not None
        seq, at, kind, data, grouped = expected
        assert not grouped
        assert (type(seq), seq, at, kind) == (type(found[0]), *found[:3])
        assert read_data(found[3]) == data
        assert type(read_data(found[3])) is type(data)


def test_plain_lines_are_read_and_their_turns_without_a_value() -> None:
    entries = [
        Entry(0, AT, UserMessage("u", "hé \u2028", UserSource("Europe/Berlin"))),
        Entry(1, AT, TurnStart(1, 0)),
        Entry(2, AT, TurnEnd(1, "completed")),
    ]
    lines = [encode_entry(entry).rstrip(b"\n") for entry in entries]
    parts = read_envelopes(b"".join(line + b"\n" for line in lines), lines)
    assert parts is not None
    seqs, ats, kinds, datas = parts
    assert (seqs, ats, kinds) == ([0, 1, 2], [AT] * 3, [e.event.type for e in entries])
    assert [read_data(data) for data in datas] == [e.event.to_data() for e in entries]
    start, end = read_turn_start(datas[1]), read_turn_end(datas[2])
    assert start is not None
    assert (start.turn, start.input) == (1, 0)
    assert end is not None
    assert (end.turn, end.status) == (1, "completed")
    assert read_turn_start(datas[2]) is None
    assert read_turn_end(datas[1]) is None


def test_a_line_nested_deep_or_out_of_range_is_left_to_the_decode() -> None:
    head = b'{"seq":0,"at":"' + AT.encode() + b'","type":"t","data":'
    for data in (b"[" * 300 + b"]" * 300, b"1e5", b"7" * 300, b'"\xff"'):
        line = head + data + b"}"
        assert read_envelopes(line + b"\n", [line]) is None
    long_line = head + b'"' + b"x" * 1000 + b'"}'
    assert read_envelopes(long_line + b"\n", [long_line]) is not None
