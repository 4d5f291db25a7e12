"""Hypothesis strategies for the survival fuzzers: JSON-like values with alphabets biased toward
the characters that break parsers (quote, backslash, U+2028, U+0085, U+FEFF, emoji, non-ASCII
digits, fullwidth forms, sign look-alikes), and character-level mutations of valid examples."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

TRICKY = (
    '"\\\u2028\u2029\u0085\ufeff\u00a0\u200b\u180e\u001f\x00\n\r\t 😀'
    "٣३０１９ＺｚＴｔ−＋－\u2010\u2212:：.,;/_+-TZtz"
    "\u212a\u0130\u017f"  # Kelvin sign, dotted I, long s: non-ASCII letters that case-fold to ASCII
)
CHARS = st.one_of(
    st.sampled_from(TRICKY),
    st.characters(min_codepoint=0x30, max_codepoint=0x39),
    st.characters(min_codepoint=0x20, max_codepoint=0x7E),
    st.characters(codec="utf-8"),
)
TEXT = st.text(CHARS, max_size=24)

NUMBERS = st.one_of(
    st.integers(min_value=-(2**64), max_value=2**64),
    st.sampled_from([0, 1, 299, 300, 2**53 - 1, 2**53, 251616369599, 251616369600]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([-0.0, 0.0, 30.0, 3e1, 1.5, 300.0, 299.5, 1e20, 9007199254740991.0]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=8,
)


@st.composite
def mutated(draw: st.DrawFn, base: str, max_edits: int = 3) -> str:
    """`base` with up to `max_edits` insertions, deletions or replacements of one character."""
    text = base
    for _ in range(draw(st.integers(0, max_edits))):
        op = draw(st.sampled_from(("insert", "delete", "replace")))
        pos = draw(st.integers(0, len(text)))
        char = draw(CHARS)
        if op == "insert":
            text = text[:pos] + char + text[pos:]
        elif text and pos < len(text):
            text = text[:pos] + ("" if op == "delete" else char) + text[pos + 1 :]
    return text


def mutate_from(bases: list[str], max_edits: int = 3) -> st.SearchStrategy[str]:
    return st.sampled_from(bases).flatmap(lambda base: mutated(base, max_edits))


def optional_keys(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A dict holding a random subset of `fields`, plus sometimes an undeclared key."""
    return st.fixed_dictionaries({}, optional=fields).flatmap(
        lambda d: st.one_of(
            st.just(d), st.dictionaries(TEXT, JSON, max_size=2).map(lambda extra: {**extra, **d})
        )
    )
