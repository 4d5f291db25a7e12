"""The pure JSONL scanner: whole lines, committed offset, torn-tail vs corrupt-middle verdicts."""

from __future__ import annotations

from array import array
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import Entry, Event
from core.session.lines import encode_line, make_envelope
from core.session.scan import scan

AT = "2026-08-05T12:00:00.000Z"
TRICKY = ['"', "\\", "\u2028", "\u2029", "\u0085", "\ufeff", "🎉", "\n", "\r", "\x00", "é", "}"]
texts = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=12)
groups = st.lists(st.lists(texts, min_size=1, max_size=3), min_size=0, max_size=4)


def build(group_texts: list[list[str]]) -> tuple[bytes, list[int], list[dict[str, Any]]]:
    """Event lines for the groups; returns the bytes, each group's end offset and the events."""
    data = b""
    ends: list[int] = []
    events: list[dict[str, Any]] = []
    for group in group_texts:
        for index, text in enumerate(group):
            size = len(group) if index == 0 and len(group) > 1 else None
            envelope = make_envelope(len(events), AT, "user/message", {"text": text}, group=size)
            events.append(envelope)
            data += encode_line(envelope)
        ends.append(len(data))
    return data, ends, events


def collect(buffer: bytes) -> tuple[Any, list[dict[str, Any]], list[int]]:
    """The scan's verdict, each committed event as the sink got it (an envelope without its group
    size, which the sink is not told) and their line offsets."""
    seen: list[dict[str, Any]] = []

    def sink(seq: int, at: str, event: Event) -> None:
        assert seq == len(seen)
        seen.append(Entry(seq, at, event).to_json())

    offsets = array("Q")
    result = scan(buffer, start=0, first_seq=0, sink=sink, offsets=offsets)
    return result, seen, list(offsets)


def ungrouped(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in e.items() if key != "group"} for e in events]


@settings(max_examples=12, deadline=None)
@given(groups)
def test_every_truncation_gives_the_prefix_of_whole_groups(group_texts: list[list[str]]) -> None:
    data, ends, events = build(group_texts)
    sizes = [len(g) for g in group_texts]
    for cut in range(len(data) + 1):
        result, seen, _ = collect(data[:cut])
        whole = [end for end in ends if end <= cut]
        count = sum(sizes[: len(whole)])
        assert result.corruption is None
        assert result.committed == (whole[-1] if whole else 0)
        assert result.count == count
        assert seen == ungrouped(events[:count])
        assert result.torn == (result.committed < cut)


@settings(max_examples=30, deadline=None)
@given(groups, st.data())
def test_a_damaged_byte_never_silently_drops_an_earlier_event(
    group_texts: list[list[str]], data_strategy: st.DataObject
) -> None:
    data, _ends, events = build(group_texts)
    if not data:
        return
    position = data_strategy.draw(st.integers(0, len(data) - 1))
    replacement = data_strategy.draw(st.sampled_from([b"\n", b"{", b"\xff", b'"', b"x", b"9"]))
    damaged = data[:position] + replacement + data[position + 1 :]
    first = group_start(events, data.count(b"\n", 0, position))
    result, seen, _ = collect(damaged)
    # every event of the groups before the damaged line's group is delivered unchanged ...
    assert result.count >= first
    assert seen[:first] == ungrouped(events[:first])
    # ... and what is not delivered is reported corrupt or kept as a torn tail (never cut silently)
    if result.count < len(events):
        assert result.corruption is not None or result.committed < len(damaged)


def group_start(events: list[dict[str, Any]], seq: int) -> int:
    """The seq of the first line of the group holding event ``seq`` (itself when ungrouped)."""
    for start in range(seq, -1, -1):
        size = events[start].get("group")
        if size is not None:
            return start if start + size > seq else seq
    return seq


def test_a_bad_line_followed_by_a_good_one_is_corruption_with_its_line_number() -> None:
    data, _, _ = build([["a"], ["b"], ["c"]])
    lines = data.split(b"\n")
    lines[1] = b"{not json"
    result, seen, _ = collect(b"\n".join(lines))
    assert result.corruption is not None
    assert result.corruption.line == 3
    assert result.corruption.describe().startswith("line 3: not JSON")
    assert result.count == 1
    assert [e["data"]["text"] for e in seen] == ["a"]


def test_a_bad_final_line_is_a_torn_tail() -> None:
    data, ends, _ = build([["a"], ["b"]])
    result, _, _ = collect(data[: ends[0]] + b"{broken}\n")
    assert result.corruption is None
    assert result.torn
    assert result.committed == ends[0]


def test_a_wrong_seq_in_the_middle_is_corruption() -> None:
    data, _, _ = build([["a"], ["b"], ["c"]])
    damaged = data.replace(b'"seq":1', b'"seq":5')
    result, _, _ = collect(damaged)
    assert result.corruption is not None
    assert "seq 5 is not its index 1" in result.corruption.reason


def test_a_group_inside_a_group_is_corruption_unless_at_the_end() -> None:
    first = encode_line(make_envelope(0, AT, "x", {}, group=3))
    nested = encode_line(make_envelope(1, AT, "x", {}, group=2))
    after = encode_line(make_envelope(2, AT, "x", {}))
    result, _, _ = collect(first + nested + after)
    assert result.corruption is not None
    assert "starts inside an unfinished group" in result.corruption.reason
    assert result.committed == 0
    tail, _, _ = collect(first + nested)
    assert tail.torn
    assert tail.count == 0


def test_scanning_resumes_from_an_offset_with_the_next_seq() -> None:
    data, ends, events = build([["a"], ["b", "c"], ["d"]])
    seen: list[int] = []
    result = scan(data, start=ends[0], first_seq=1, sink=lambda seq, _at, _e: seen.append(seq))
    assert seen == [1, 2, 3]
    assert result.count == len(events)
    assert scan(data, start=ends[0], first_seq=1).count == 4


@given(st.sampled_from(["\u2028", "\u0085", "\u2029", "\ufeff"]))
def test_line_separators_inside_json_do_not_split_lines(separator: str) -> None:
    data, _, events = build([[f"a{separator}b"], ["c"]])
    result, seen, starts = collect(data)
    assert seen == events
    assert starts[1] == data.index(b"\n") + 1
    assert not result.torn
