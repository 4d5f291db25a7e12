"""The sources of imported conversations (``core.importing.sources``): what makes two imports the
same conversation, and the index that remembers them, read back whatever was left on disk."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.importing.sources import chatgpt_source, chime_source, read_sources, sources_json


def test_a_chatgpt_conversation_is_named_by_its_id_and_update_time_else_by_its_bytes() -> None:
    same = chatgpt_source({"id": "c1", "update_time": 5.0}, b"x")
    assert same == chatgpt_source({"id": "c1", "update_time": 5.0}, b"other bytes")
    assert same != chatgpt_source({"id": "c1", "update_time": 6.0}, b"x")  # continued since
    assert chatgpt_source({"conversation_id": "c1"}, b"x").startswith("chatgpt:c1:")
    without = chatgpt_source({"title": "t"}, b"[1]")
    assert without.startswith("chatgpt-sha256:")
    assert without != chatgpt_source({"title": "t"}, b"[2]")
    assert chatgpt_source([1], b"[1]") == without
    assert chime_source("s1", 4, "t") != chime_source("s1", 5, "t")


@given(st.dictionaries(st.text(), st.text(), max_size=5))
def test_the_index_reads_back_what_it_wrote(sources: dict[str, str]) -> None:
    assert read_sources(sources_json(sources)) == sources


def test_an_index_of_another_shape_knows_nothing() -> None:
    for data in (
        None,
        b"",
        b"{torn",
        b"[]",
        b'{"version": 2, "sources": {}}',
        b'{"version": 1, "sources": []}',
    ):
        assert read_sources(data) == {}
    kept = read_sources(b'{"version": 1, "sources": {"a": "s1", "b": 3}}')
    assert kept == {"a": "s1"}
