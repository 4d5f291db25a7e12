"""The compiled checks of a block of log lines (core/session/linecheck.pyx) against the bounded
decode: what they accept reads as ``parse_line`` reads it, and what Chime writes they accept
(tests/core/test_compiled.py checks they are built)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.session import block_scan
from core.session.lines import parse_line
from tests.core.session.test_block_scan import AT, ODD_LINES

check_block = block_scan.compiled_check
needs_compiled = pytest.mark.skipif(check_block is None, reason="installed without a C compiler")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.text(max_size=12)
    | st.sampled_from([0.5, -2.25, 1.0, 10.125]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _line(seq: int, kind: str, data: Any, extra: dict[str, Any], spaced: bool) -> bytes:
    envelope = {**extra, "seq": seq, "at": AT, "type": kind, "data": data}
    separators = (", ", ": ") if spaced else (",", ":")
    return json.dumps(envelope, ensure_ascii=False, separators=separators).encode()


def _as_read(block: bytes, first_seq: int) -> list[tuple[str, str, Any]]:
    """Each line's ``at``, ``type`` and data as the bounded decode reads them (parse_line vouches
    for the envelope; the data is compared as orjson reads the line)."""
    found = []
    for seq, line in enumerate(block.split(b"\n")[:-1], first_seq):
        at, _event, group = parse_line(line, seq)
        value = orjson.loads(line)
        assert group is None
        found.append((at, value["type"], value["data"]))
    return found


def _parts(block: bytes, first_seq: int) -> list[tuple[str, str, Any]] | None:
    assert check_block is not None
    parts = check_block(block, 0, len(block), first_seq)
    if parts is None:
        return None
    offsets, kinds, ats, datas = parts
    lines = block.split(b"\n")[:-1]
    assert list(offsets) == list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    assert len(kinds) == len(ats) == len(datas) == len(lines)
    return [(ats[i], kinds[i], orjson.loads(datas[i])) for i in range(len(lines))]


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["user/message", "turn/start", "x", "tool/résumé"]),
            json_values,
            st.dictionaries(st.sampled_from(["z", "note", "", "seq2"]), json_values, max_size=2),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 10**12),
)
def test_what_chime_writes_is_accepted_and_read_as_the_bounded_decode_reads_it(
    lines: list[tuple[str, Any, dict[str, Any], bool]], first_seq: int
) -> None:
    block = b"".join(
        _line(first_seq + i, kind, data, extra, spaced) + b"\n"
        for i, (kind, data, extra, spaced) in enumerate(lines)
    )
    assert _parts(block, first_seq) == _as_read(block, first_seq)


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(ODD_LINES) | st.just(b"plain"), min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 10**6), st.binary(min_size=1, max_size=2)), max_size=2),
)
def test_whatever_the_compiled_checks_accept_reads_as_the_bounded_decode_reads_it(
    picked: list[bytes], damage: list[tuple[int, bytes]]
) -> None:
    lines = [
        (
            _line(i, "t", {"a": [1, "b"]}, {}, False)
            if odd == b"plain"
            else odd.replace(b"%d", b"%d" % i)
        )
        for i, odd in enumerate(picked)
    ]
    for where, bad in damage:  # bytes put into a line, never a newline: lines stay lines
        index = where % len(lines)
        spot = where % (len(lines[index]) + 1)
        lines[index] = lines[index][:spot] + bad.replace(b"\n", b" ") + lines[index][spot:]
    block = b"".join(line + b"\n" for line in lines)
    parts = _parts(block, 0)
    if parts is not None:  # accepted: each line is one the bounded decode reads the same way
        assert parts == _as_read(block, 0)


@needs_compiled
def test_an_odd_line_the_pure_checks_refuse_is_left_to_them() -> None:
    refused = [odd for odd in ODD_LINES if _refused_by_parse_line(odd.replace(b"%d", b"0"))]
    assert len(refused) > 10
    for odd in refused:
        assert check_block is not None
        assert check_block(odd.replace(b"%d", b"0") + b"\n", 0, len(odd) + 1, 0) is None, odd


def _refused_by_parse_line(line: bytes) -> bool:
    try:
        parse_line(line, 0)
    except ValueError:
        return True
    return False


@needs_compiled
@pytest.mark.parametrize(
    ("start", "end"),
    [(0, 0), (5, 3), (-1, 10), (0, 10**9), (0, 4)],
)
def test_a_span_that_is_not_whole_lines_of_the_buffer_is_left_to_the_pure_checks(
    start: int, end: int
) -> None:
    line = _line(0, "t", 1, {}, False) + b"\n"
    assert check_block is not None
    assert check_block(line, start, end, 0) is None
    assert check_block(line, 0, len(line), 0) is not None


@needs_compiled
def test_the_parts_are_sequences_a_fold_can_index() -> None:
    block = b"".join(_line(i, f"k{i % 2}", i, {}, False) + b"\n" for i in range(3))
    assert check_block is not None
    parts = check_block(b"x\n" + block, 2, 2 + len(block), 0)
    assert parts is not None
    offsets, kinds, ats, datas = parts
    assert list(offsets) == [2, 2 + len(block) // 3, 2 + 2 * len(block) // 3]
    assert kinds == ["k0", "k1", "k0"]
    assert kinds[0] is kinds[2]  # each type made once a block
    assert (len(ats), ats[-1], ats[0]) == (3, AT, AT)
    assert (len(datas), datas[-1], list(map(datas.__getitem__, [0, 1]))) == (3, b"2", [b"0", b"1"])
    assert (ats[1:], datas[::-2], list(datas)) == ([AT, AT], [b"2", b"0"], [b"0", b"1", b"2"])
    for sequence in (ats, datas):
        assert isinstance(sequence, Sequence)
        with pytest.raises(IndexError):
            sequence[3]
        with pytest.raises(IndexError):
            sequence[-4]
