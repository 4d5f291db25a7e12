"""The math splitter: lossless on any text, money is not math, every delimiter is read, code
spans and escapes are left alone (hypothesis properties and the cases that motivated them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ui.math_spans import Span, math_sources, may_hold_math, split_math

ALPHABET = st.sampled_from([*list("ab $\\()[]`\n\t59x^{}_,"), "$$", "\\(", "\\)", "\\[", "\\]"])
TEX = st.text(alphabet=st.sampled_from(list("xyz^_{}+=-12\\,")), min_size=1, max_size=12).filter(
    lambda t: t.strip() == t and "$" not in t and not t.endswith("\\") and t[-1:] not in " "
)


@given(st.lists(ALPHABET, max_size=40).map("".join))
def test_the_spans_concatenate_to_the_text_and_none_is_empty(text: str) -> None:
    spans = split_math(text)
    assert "".join(span.source for span in spans) == text
    assert all(span.source for span in spans)
    for span in spans:
        if span.kind != "text":
            assert span.tex.strip()
            assert "\n\n" not in span.source


@given(
    st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from([" and ", " or ", "/", ", "])
)
def test_money_is_not_math(low: int, high: int, between: str) -> None:
    text = f"It costs ${low}{between}${high} a month."
    assert split_math(text) == [Span("text", text)]


@given(
    TEX,
    st.sampled_from(
        [
            ("$", "$", "inline"),
            ("\\(", "\\)", "inline"),
            ("$$", "$$", "display"),
            ("\\[", "\\]", "display"),
        ]
    ),
)
def test_every_delimiter_pair_is_read(tex: str, delimiters: tuple[str, str, str]) -> None:
    opener, closer, kind = delimiters
    if opener == "$" and tex[:1].isspace():
        return
    text = f"so {opener}{tex}{closer} holds."
    spans = split_math(text)
    assert spans[1] == Span(kind, f"{opener}{tex}{closer}", tex.strip())  # type: ignore[arg-type]  # kind is a SpanKind
    assert math_sources(text) == [f"{opener}{tex}{closer}"]


@given(TEX)
def test_nothing_in_a_code_span_is_math(tex: str) -> None:
    text = f"write `${tex}$` or ``$$ {tex} $$`` to get it"
    assert [span.kind for span in split_math(text)] == ["text"]


def test_the_cases_that_motivated_it() -> None:
    assert math_sources(r"$$\int_0^1 x^2\,dx$$") == [r"$$\int_0^1 x^2\,dx$$"]
    assert split_math("$x^2 + y^2 = r^2$")[0].tex == "x^2 + y^2 = r^2"
    assert math_sources(r"a \$5 and $x$") == ["$x$"]
    assert math_sources("$ x$ and $x $ and $x$5") == []
    assert math_sources("Money: $5 and $10. Unknown: $\\foo{x}$.") == ["$\\foo{x}$"]
    assert math_sources("$$\nx\n\ny$$") == []
    assert math_sources("$$ $$") == []
    assert math_sources("an unclosed \\( x and \\[ y") == []
    assert math_sources("a ``` `` ``` run then $x$") == ["$x$"]
    assert math_sources("an unclosed `code $x$") == ["$x$"]
    assert split_math("") == []
    assert not may_hold_math("plain words")
    assert split_math("plain words") == [Span("text", "plain words")]
