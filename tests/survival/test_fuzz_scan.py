"""Fuzzing the JSONL scanner (core.session.scan.scan, session-log.md §2-§4): random byte strings
and valid logs (with atomic groups and raw U+2028/U+0085 inside strings) that are truncated or
edited byte by byte. The scanner must always return a verdict, never raise, hand the sink exactly
the committed events in order, and agree with an independent model on count, committed offset,
and torn-versus-corrupt."""

from __future__ import annotations

import json
from array import array
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.session import block_scan
from core.session.folds import SessionFolds
from core.session.scan import scan
from tests.survival.scan_oracle import verdict
from tests.survival.strategies import JSON

pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
AT = "2026-08-05T12:00:00.000Z"
DATA = st.one_of(
    JSON, st.sampled_from([{"text": "a\u2028b\u0085c\r"}, {"text": '"\\\n'}, {"s": "\ud800"}])
)


def _line(seq: int, data: Any, group: int | None = None) -> bytes:
    envelope: dict[str, Any] = {"seq": seq, "at": AT, "type": "user/message", "data": data}
    if group is not None:
        envelope["group"] = group
    text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "backslashreplace") + b"\n"  # lone surrogates as \\uXXXX (§2.7)


@st.composite
def valid_log(draw: st.DrawFn, first_seq: int = 0) -> bytes:
    """A valid log body: single events and groups of 2-3 lines, numbered from `first_seq`."""
    out, seq = b"", first_seq
    for _ in range(draw(st.integers(0, 6))):
        size = draw(st.sampled_from([1, 1, 1, 2, 3]))
        for k in range(size):
            out += _line(seq, draw(DATA), size if k == 0 and size > 1 else None)
            seq += 1
    return out


EDIT_BYTES = st.sampled_from(
    [b"\n", b"\xff", b"\xc3", b"{", b"}", b'"', b"\\", b"0", b"\xe2\x80\xa8"]
)


@st.composite
def edited_log(draw: st.DrawFn, first_seq: int = 0) -> bytes:
    data = bytearray(draw(valid_log(first_seq)))
    for _ in range(draw(st.integers(0, 3))):
        pos = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["truncate", "insert", "delete", "replace"]))
        if how == "truncate":
            del data[pos:]
        elif how == "insert":
            data[pos:pos] = draw(st.one_of(EDIT_BYTES, st.binary(max_size=3)))
        elif pos < len(data):
            data[pos : pos + 1] = b"" if how == "delete" else draw(EDIT_BYTES)
    return bytes(data)


def _check(buffer: bytes) -> None:
    seqs: list[int] = []
    offsets = array("Q")
    result = scan(
        buffer, start=0, first_seq=0, sink=lambda seq, _at, _e: seqs.append(seq), offsets=offsets
    )
    seen = list(zip(seqs, offsets, strict=True))
    expected = verdict(buffer)
    assert (result.count, result.committed, result.end) == (
        expected.count,
        expected.committed,
        expected.end,
    ), buffer
    assert (result.corruption.line if result.corruption else None) == expected.corrupt_line, buffer
    assert [seq for seq, _pos in seen] == list(range(result.count))
    assert all(pos == 0 or buffer[pos - 1 : pos] == b"\n" for _seq, pos in seen)
    assert result.torn == (result.corruption is None and result.committed < len(buffer))


@FUZZ
@given(buffer=st.one_of(valid_log(), edited_log()))
def test_scanner_verdict_on_valid_and_edited_logs_matches_the_model(buffer: bytes) -> None:
    _check(buffer)


@FUZZ
@given(buffer=st.binary(max_size=200))
def test_scanner_returns_a_verdict_for_arbitrary_bytes(buffer: bytes) -> None:
    _check(buffer)


HEADER = b'{"type":"session","version":1,"id":"s","createdAt":"' + AT.encode() + b'"}\n'


@FUZZ
@given(data=st.data(), first_seq=st.integers(0, 5))
def test_scanning_from_an_offset_with_a_first_seq_matches_the_model(
    data: st.DataObject, first_seq: int
) -> None:
    body = data.draw(st.one_of(valid_log(first_seq), edited_log(first_seq)))
    buffer = HEADER + body
    result = scan(buffer, start=len(HEADER), first_seq=first_seq)
    expected = verdict(buffer, len(HEADER), first_seq)
    assert (result.count, result.committed, result.end) == (
        expected.count,
        expected.committed,
        expected.end,
    ), buffer
    assert (result.corruption.line if result.corruption else None) == expected.corrupt_line


def test_a_valid_log_is_committed_whole_and_a_cut_group_is_torn() -> None:
    log = _line(0, {}) + _line(1, {}, group=2) + _line(2, {"t": "\u2028"})
    whole = scan(log, start=0, first_seq=0)
    assert (whole.count, whole.committed, whole.torn) == (3, len(log), False)
    cut = scan(log[: -len(_line(2, {"t": "\u2028"}))], start=0, first_seq=0)
    assert (cut.count, cut.committed, cut.torn) == (1, len(_line(0, {})), True)


@FUZZ
@given(buffer=st.one_of(valid_log(), edited_log(), st.binary(max_size=200)))
def test_the_block_scan_gives_the_model_s_verdict_and_the_line_scan_s_folds(buffer: bytes) -> None:
    folds, offsets = SessionFolds(), array("Q")
    with mock.patch.object(block_scan, "BLOCK", 256):  # a few lines a block
        result = block_scan.scan_blocks(buffer, start=0, first_seq=0, sink=folds, offsets=offsets)
    expected = verdict(buffer)
    assert (result.count, result.committed, result.end) == (
        expected.count,
        expected.committed,
        expected.end,
    ), buffer
    assert (result.corruption.line if result.corruption else None) == expected.corrupt_line
    line_folds, line_offsets = SessionFolds(), array("Q")
    assert scan(buffer, start=0, first_seq=0, sink=line_folds.read, offsets=line_offsets) == result
    assert (list(offsets), folds.to_json()) == (list(line_offsets), line_folds.to_json())
