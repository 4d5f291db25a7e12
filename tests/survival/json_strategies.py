"""Hypothesis strategies for hostile JSON texts: what a model, a damaged disk or a careless editor
can hand Chime where it expects JSON. Nested structures far deeper than any limit (opened and
closed, or left open), bytes that are not UTF-8 (stray, truncated, CESU-encoded surrogates),
numbers beyond a double and beyond Python's digit limit, very long strings, lone surrogates
(escaped, and raw in text), NaN and Infinity, and valid JSON mutated byte by byte. Must not
import Chime."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from tests.survival.strategies import JSON, TEXT

OPENERS = st.sampled_from(["[", '{"a":', '{"":[', "[{"])


@st.composite
def nested(draw: st.DrawFn) -> str:
    """Arrays and objects inside each other, up to 5 000 deep, closed or not."""
    edges = st.sampled_from([255, 256, 257, 258, 511, 512, 999, 1000, 1023, 1024, 1025, 5000])
    depth = draw(st.one_of(edges, st.integers(1, 300), st.integers(250, 5000)))
    opener = draw(OPENERS)
    closer = {"[": "]", '{"a":': "}", '{"":[': "]}", "[{": "}]"}[opener]
    inner = draw(st.sampled_from(["1", "[]", "{}", '"x"', "null", ""]))
    closed = draw(st.booleans())
    text = opener * depth + inner + (closer * depth if closed else "")
    if draw(st.booleans()):  # the nesting inside a string does not count
        text = json.dumps(text)
    return text


NUMBERS = st.one_of(
    st.integers(310, 6000).map(lambda n: "9" * n),
    st.integers(1, 400).map(lambda n: "-1" + "0" * n),
    st.sampled_from(
        [
            "1e309",
            "-1e400",
            "1E+99999",
            "18446744073709551616",
            "-9223372036854775809",
            "0.1e-99999",
            "NaN",
            "Infinity",
            "-Infinity",
            "01",
            "1.",
            "-",
            "+1",
        ]
    ),
)
SURROGATES = st.sampled_from(
    ['"\\ud800"', '"\\udfff"', '"\\ud83d\\ude00"', '"\\ude00\\ud83d"', '"\ud800"', '"a\udcffb"']
)


def _dumped(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


VALID = st.builds(_dumped, JSON, st.booleans())
ARGUMENTS = st.builds(
    lambda prompt, number: json.dumps({"prompt": prompt, "after_seconds": number}),
    TEXT,
    st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False)),
)


@st.composite
def wrapped(draw: st.DrawFn, inner: st.SearchStrategy[str]) -> str:
    """``inner`` as a value inside an ordinary object or array."""
    value = draw(inner)
    return draw(st.sampled_from(['{"x":%s}', "[1,%s]", '{"a":{"b":[%s]}}', "%s"])) % value


TEXTS = st.one_of(
    VALID,
    ARGUMENTS,
    wrapped(nested()),
    wrapped(NUMBERS),
    wrapped(SURROGATES),
    st.integers(0, 3).map(lambda k: json.dumps("x" * (70_000 * k))),
    st.text(st.sampled_from('[]{}",:0123456789-+.eEtrufalsn \\u'), max_size=40),
)
"""Hostile JSON as text (what an SDK hands over: a model's tool-call arguments)."""


@st.composite
def mangled(draw: st.DrawFn, text: str) -> bytes:
    """``text`` as UTF-8 (raw surrogates kept as CESU bytes), sometimes edited byte by byte."""
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(draw(st.integers(0, 2))):
        pos = draw(st.integers(0, len(data)))
        data[pos:pos] = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\n"]))
    if data and draw(st.booleans()):
        del data[draw(st.integers(0, len(data) - 1)) :]  # cut short
    return bytes(data)


BYTES = st.one_of(TEXTS.flatmap(mangled), st.binary(max_size=300))
"""Hostile JSON as bytes (what a file holds: a log line, the checkpoint, settings)."""
