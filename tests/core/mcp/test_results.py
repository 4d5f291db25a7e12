"""What an MCP tool's answer becomes (core/mcp/results.py): bounded text, images, links."""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from core.events import ToolLink
from core.mcp.results import MAX_IMAGES, MAX_TEXT_BYTES, bounded, read_result


def test_text_blocks_are_joined_and_an_error_flag_kept() -> None:
    reading = read_result(
        {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "isError": True}
    )
    assert (reading.text, reading.is_error) == ("a\n\nb", True)


def test_a_flood_is_cut_at_64_kib_with_a_sentence() -> None:
    reading = read_result({"content": [{"type": "text", "text": "é" * 1_000_000}]})
    head, _, tail = reading.text.rpartition("\n\n")
    assert len(head.encode()) <= MAX_TEXT_BYTES
    assert tail == "[Cut: the tool returned 2,000,000 bytes; Chime keeps the first 65,536.]"


def test_deep_structured_content_is_refused_with_a_sentence() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    reading = read_result({"content": [], "structuredContent": {"x": deep}})
    assert reading.text.startswith("[The tool's structured answer was not kept:")


def test_structured_content_alone_is_its_compact_json() -> None:
    assert read_result({"content": [], "structuredContent": {"a": [1, 2]}}).text == '{"a":[1,2]}'


def test_bad_images_too_many_images_and_other_blocks_are_named_not_kept() -> None:
    good = {"type": "image", "data": base64.b64encode(b"x").decode(), "mimeType": "image/png"}
    blocks = [good] * (MAX_IMAGES + 1) + [
        {"type": "image", "data": "!!", "mimeType": "image/png"},
        {"type": "image", "data": "eA==", "mimeType": "text/html"},
        {"type": "audio", "data": "eA==", "mimeType": "audio/wav"},
        {"type": "resource", "resource": {"uri": "mem://a", "text": "inline"}},
        {"type": "resource", "resource": {"uri": "mem://b/c.bin", "blob": "eA=="}},
    ]
    reading = read_result({"content": blocks})
    assert len(reading.images) == MAX_IMAGES
    assert reading.text.count("was left out") == 3
    assert "[A audio block the tool returned is not shown.]" in reading.text
    assert "inline" in reading.text
    assert reading.links == (ToolLink("mem://b/c.bin", "c.bin"),)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(st.dictionaries(st.sampled_from(["content", "structuredContent", "isError", "x"]), _json))
def test_any_answer_reads_without_raising(raw: dict[str, Any]) -> None:
    reading = read_result(raw)
    assert len(reading.text.encode("utf-8", "surrogatepass")) <= MAX_TEXT_BYTES + 200


@given(st.text(max_size=300), st.integers(1, 200))
def test_bounded_keeps_short_text_and_cuts_long_text(text: str, limit: int) -> None:
    out = bounded(text, limit)
    if len(text.encode("utf-8", "surrogatepass")) <= limit:
        assert out == text
    else:
        assert out.endswith(f"Chime keeps the first {limit:,}.]")


def test_a_resource_that_is_no_object_and_an_image_too_large_are_left_out() -> None:
    huge = "A" * (14 * 1024 * 1024)
    reading = read_result(
        {
            "content": [
                {"type": "resource", "resource": "not an object"},
                {"type": "image", "data": huge, "mimeType": "image/png"},
            ]
        }
    )
    assert reading.images == ()
    assert reading.text == "[An image the tool returned was left out: unreadable or too many.]"
