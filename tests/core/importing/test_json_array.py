"""ArraySplitter: the same elements whatever the chunking, and a clear refusal for what is not a
list of objects."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.importing.json_array import ArraySplitter

_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{},: \n'),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


def split(data: bytes, size: int, limit: int = 1 << 20) -> tuple[list[object], int]:
    splitter = ArraySplitter(limit)
    found: list[bytes] = []
    for start in range(0, len(data), size):
        found += splitter.feed(data[start : start + size])
    return [json.loads(element) for element in found], splitter.end()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.dictionaries(st.text(max_size=4), _values, max_size=4), max_size=5),
    st.integers(1, 40),
    st.sampled_from([None, 1]),
)
def test_any_chunking_gives_the_elements(items: list[dict], size: int, indent: int | None) -> None:
    data = json.dumps(items, indent=indent, ensure_ascii=bool(size % 2)).encode()
    assert split(data, size) == (items, len(items))


def test_a_byte_order_mark_is_skipped() -> None:
    assert split(b'\xef\xbb\xbf[{"a": 1}]', 2) == ([{"a": 1}], 1)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty"),
        (b"  \n", "empty"),
        (b'{"a": 1}', "does not start"),
        (b"[1]", "not JSON"),
        (b'["a"]', "not a conversation"),
        (b"[[]]", "not a conversation"),
        (b"[{} {}]", "not JSON"),
        (b"[{},]", "not JSON"),
        (b"[,{}]", "not JSON"),
        (b"[{}", "ends before"),
        (b'[{"a": "b', "ends before"),
        (b"[{}] x", "after the end"),
        (b"[{}] {}", "after the end"),
        (b"[{}]]", "after the end"),
    ],
)
def test_what_is_not_a_list_of_objects_is_refused(data: bytes, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        split(data, 3)


def test_an_element_beyond_the_limit_is_refused_without_waiting_for_its_end() -> None:
    splitter = ArraySplitter(100)
    splitter.feed(b'[{"a": "')
    with pytest.raises(ValueError, match="larger than 100 bytes"):
        splitter.feed(b"x" * 200)


def test_an_element_beyond_the_limit_in_one_chunk_is_refused() -> None:
    with pytest.raises(ValueError, match="larger than 10 bytes"):
        ArraySplitter(10).feed(b'[{"a": "0123456789"}]')


def test_only_the_element_being_read_is_kept() -> None:
    splitter = ArraySplitter(1000)
    splitter.feed(b"[")
    for _ in range(1000):
        assert len(splitter.feed(b'{"text": "' + b"y" * 500 + b'"},')) == 1
    assert len(splitter._buffer) < 1000
