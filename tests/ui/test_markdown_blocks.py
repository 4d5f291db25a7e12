"""Cutting Markdown into prose and code blocks: lossless, exact code, stable while it streams."""

from __future__ import annotations

from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from ui import markdown_blocks
from ui.markdown_blocks import MAX_PROSE_CHARS, PROSE_CUT_CHARS, Block, resplit, split_blocks

MARKDOWN_ALPHABET = st.sampled_from(
    ["a", " ", "\n", "`", "~", "#", "-", "1.", "*", "\u2028", "\u2029", "é", "\r", "    ", ">"]
)
MARKDOWN = st.lists(MARKDOWN_ALPHABET, max_size=80).map("".join)
CODE_LINE = st.text(alphabet="abc (){}=:+'\"#\t ", max_size=20)
PROSE_LINE = st.text(alphabet="abc .,*_![]()", min_size=1, max_size=30)


def sources(blocks: list[Block]) -> str:
    return "".join(block.source for block in blocks)


SMALL_CUTS = st.sampled_from([PROSE_CUT_CHARS, 1, 8])
"""The cut size too (a small one cuts the short texts generated here at every paragraph)."""


@given(MARKDOWN, st.booleans(), SMALL_CUTS)
def test_the_blocks_are_the_whole_text_in_order(text: str, final: bool, cut: int) -> None:
    with mock.patch.object(markdown_blocks, "PROSE_CUT_CHARS", cut):
        blocks = split_blocks(text, final=final)
    assert sources(blocks) == text
    offset = 0
    for block in blocks:
        assert block.start == offset
        offset += len(block.source)


@given(MARKDOWN, st.lists(st.integers(min_value=0, max_value=80), max_size=6), SMALL_CUTS)
def test_a_stream_cut_piece_by_piece_gives_the_blocks_of_the_whole_text(
    text: str, cuts: list[int], size: int
) -> None:
    with mock.patch.object(markdown_blocks, "PROSE_CUT_CHARS", size):
        blocks: list[Block] = []
        for cut in [*sorted(cuts), len(text)]:
            blocks = resplit(text[:cut], blocks)
        assert blocks == split_blocks(text, final=False)


@given(
    st.lists(
        st.one_of(
            st.lists(PROSE_LINE, min_size=1, max_size=3).map(lambda lines: ("prose", "", lines)),
            st.tuples(
                st.just("code"),
                st.sampled_from(["", "python", "js"]),
                st.lists(CODE_LINE, max_size=4),
            ),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_every_fenced_block_comes_back_with_exactly_its_code_and_language(
    parts: list[tuple[str, str, list[str]]],
) -> None:
    chunks = []
    for kind, language, lines in parts:
        if kind == "code":
            chunks.append("\n".join([f"```{language}", *lines, "```"]))
        else:
            chunks.append("\n".join(lines))
    text = "\n\n".join(chunks)
    found = [(b.language, b.text) for b in split_blocks(text) if b.kind == "code"]
    expected = [(lang, "\n".join(lines)) for kind, lang, lines in parts if kind == "code"]
    assert found == expected
    assert all(b.closed for b in split_blocks(text) if b.kind == "code")


def test_fences_follow_commonmark() -> None:
    [tilde] = [b for b in split_blocks("~~~ruby extra\nputs 1\n~~~") if b.kind == "code"]
    assert (tilde.language, tilde.text) == ("ruby", "puts 1")
    backticks_in_info = split_blocks("``` not `a` fence\ncode\n")
    assert [b.kind for b in backticks_in_info] == ["prose"]
    assert [b.kind for b in split_blocks("    ```\n    indented code\n")] == ["prose"]
    longer = split_blocks("````\n```\ninside\n````\nafter")
    assert [(b.kind, b.text) for b in longer] == [("code", "```\ninside"), ("prose", "after")]
    other_char = split_blocks("```\na\n~~~\nb")
    assert [(b.kind, b.text, b.closed) for b in other_char] == [("code", "a\n~~~\nb", False)]
    indented = split_blocks("  ```\n  two\n    four\n  ```")
    assert indented[0].text == "two\n  four"  # the fence's indentation is removed from its lines


def test_short_prose_stays_one_block_and_long_prose_is_cut_at_a_new_paragraph() -> None:
    short = "First.\n\n- one\n\n  more of one\n- two\n\nLast."
    assert [b.text for b in split_blocks(short)] == [short]
    long = "x" * PROSE_CUT_CHARS
    blocks = split_blocks(f"{long}\n- one\n\n  more of one\n- two\n\nLast.")
    assert [b.text for b in blocks] == [f"{long}\n- one\n\n  more of one\n- two", "Last."]


def test_a_line_or_paragraph_past_the_size_bound_is_cut_into_pieces() -> None:
    long_line = "x" * (2 * MAX_PROSE_CHARS + 10)
    blocks = split_blocks(long_line)
    assert [len(b.source) for b in blocks] == [MAX_PROSE_CHARS, MAX_PROSE_CHARS, 10]
    separators = "a\u2028b\u2029c\n"
    assert [b.text for b in split_blocks(separators)] == ["a\u2028b\u2029c"]  # one line


def test_a_streaming_code_block_hides_a_closing_fence_still_arriving() -> None:
    streaming = split_blocks("```python\nx = 1\n``", final=False)
    assert (streaming[0].text, streaming[0].closed) == ("x = 1", False)
    done = split_blocks("```python\nx = 1\n```")
    assert (done[0].text, done[0].closed) == ("x = 1", True)
    unclosed = split_blocks("```python\nx = 1\n")
    assert (unclosed[0].text, unclosed[0].closed) == ("x = 1", False)
