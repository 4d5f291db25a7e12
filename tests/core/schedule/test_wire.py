"""Wire scalars: trim set, safe integers, canonical instants and guarded conversions (§1.3, §2.1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.instant import (
    MAX_MS,
    MIN_MS,
    ClockError,
    datetime_to_ms,
    format_instant_ms,
    ms_to_datetime,
    parse_instant_ms,
)
from core.schedule.wire import SAFE, is_number, is_padded, safe_int, trim

TRIMMED = "\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
KEPT = ["\u001c", "\u001d", "\u001e", "\u001f", "\u0085", "\u180e", "\u200b"]


@pytest.mark.parametrize("char", list(TRIMMED))
def test_trim_removes_each_character_of_the_spec_set(char: str) -> None:
    assert trim(f"{char}x{char}") == "x"


@pytest.mark.parametrize("char", KEPT)
def test_trim_keeps_characters_outside_the_spec_set(char: str) -> None:
    assert trim(f"{char}x{char}") == f"{char}x{char}"
    assert not is_padded(f"{char}x")


def test_trim_keeps_interior_whitespace() -> None:
    assert trim("  line one\n\n  line two\t ") == "line one\n\n  line two"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (30, 30),
        (30.0, 30),
        (float("3e1"), 30),
        (1.0, 1),
        (-5, -5),
        (SAFE, SAFE),
        (-SAFE, -SAFE),
        (0, 0),
    ],
)
def test_safe_int_accepts_and_normalises_whole_numbers(value: object, expected: int) -> None:
    result = safe_int(value)
    assert result == expected
    assert type(result) is int


@pytest.mark.parametrize(
    "value",
    [True, False, 1.5, SAFE + 1, -SAFE - 1, 1e20, float("nan"), float("inf"), "30", None, [1]],
)
def test_safe_int_rejects_everything_else(value: object) -> None:
    assert safe_int(value) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, True),
        (1.5, True),
        (True, False),
        (float("nan"), False),
        (float("-inf"), False),
        ("1", False),
    ],
)
def test_is_number_excludes_bool_and_non_finite_values(value: object, expected: bool) -> None:
    assert is_number(value) is expected


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("1970-01-01T00:00:00.000Z", 0),
        ("0001-01-01T00:00:00.000Z", MIN_MS),
        ("9999-12-31T23:59:59.999Z", MAX_MS),
        ("2026-08-05T12:00:30.000Z", 1785931230000),
        ("2028-02-29T00:00:00.000Z", 1835395200000),
        ("1969-12-31T23:59:59.999Z", -1),
    ],
)
def test_canonical_instants_parse_and_format_both_ways(text: str, ms: int) -> None:
    assert parse_instant_ms(text) == ms
    assert format_instant_ms(ms) == text


@pytest.mark.parametrize(
    "text",
    [
        "2026-08-05T12:05:00Z",
        "2026-08-05T12:05:00.00Z",
        "2026-08-05T12:05:00.0000Z",
        "2026-08-05T12:05:00.000+00:00",
        "2026-08-05t12:05:00.000Z",
        "2026-08-05T12:05:00.000z",
        "2026-08-05T24:00:00.000Z",
        "2026-08-05T12:60:00.000Z",
        "2026-08-05T12:00:60.000Z",
        "0000-01-01T00:00:00.000Z",
        "10000-01-01T00:00:00.000Z",
        "2026-02-30T00:00:00.000Z",
        "2026-13-01T00:00:00.000Z",
        "2026-08-05T12:00:00.000Z\n",
        " 2026-08-05T12:00:00.000Z",
        "２026-08-05T12:00:00.000Z",
        "",
    ],
)
def test_non_canonical_instant_text_is_rejected(text: str) -> None:
    with pytest.raises(ValueError, match="instant"):
        parse_instant_ms(text)


@pytest.mark.parametrize("value", [None, 0, 1785931230000, ["2026-08-05T12:00:00.000Z"], {"a": 1}])
def test_non_string_instants_are_rejected(value: object) -> None:
    with pytest.raises(ValueError, match="string"):
        parse_instant_ms(value)


@pytest.mark.parametrize("ms", [MIN_MS - 1, MAX_MS + 1])
def test_formatting_and_converting_outside_the_range_fail(ms: int) -> None:
    with pytest.raises(ValueError, match="outside"):
        format_instant_ms(ms)
    with pytest.raises(ValueError, match="outside"):
        ms_to_datetime(ms)


@settings(max_examples=60)
@given(st.integers(min_value=MIN_MS, max_value=MAX_MS))
def test_parse_inverts_format_on_every_instant(ms: int) -> None:
    assert parse_instant_ms(format_instant_ms(ms)) == ms
    assert datetime_to_ms(ms_to_datetime(ms)) == ms


def test_clock_samples_drop_sub_millisecond_digits_toward_the_past() -> None:
    assert datetime_to_ms(datetime(1970, 1, 1, 0, 0, 0, 999, tzinfo=UTC)) == 0
    assert datetime_to_ms(datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)) == -1


def test_clock_samples_honour_the_offset_of_the_datetime() -> None:
    plus_eight = timezone(timedelta(hours=8))
    assert datetime_to_ms(datetime(1970, 1, 1, 8, tzinfo=plus_eight)) == 0


def test_clock_samples_next_to_the_range_edges_are_computed_on_integers() -> None:
    minus_one = timezone(timedelta(hours=-1))
    edge = datetime(9999, 12, 31, 22, 59, 59, 999_000, tzinfo=minus_one)
    assert datetime_to_ms(edge) == MAX_MS
    with pytest.raises(ClockError):
        datetime_to_ms(datetime(9999, 12, 31, 23, 0, tzinfo=minus_one))
    with pytest.raises(ClockError):
        datetime_to_ms(datetime(1, 1, 1, 0, 59, tzinfo=timezone(timedelta(hours=1))))


@pytest.mark.parametrize(
    "value",
    [datetime(2026, 8, 5, 12), "2026-08-05T12:00:00.000Z", 0, None],  # noqa: DTZ001 - the naive datetime is the case under test
)
def test_clock_samples_must_be_aware_datetimes(value: object) -> None:
    with pytest.raises(ClockError):
        datetime_to_ms(value)


# --- the instant parser against an independent oracle -----------------------------------------

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SPANS = ((0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19), (20, 23))
_SEPARATORS = {4: "-", 7: "-", 10: "T", 13: ":", 16: ":", 19: ".", 23: "Z"}
NEAR_CHARS = "0123456789١٢٣٤٥٦٧٨٩٠２０𝟎߁०-+:.TtZz \n\u00a0\ufeff\ud800é"


def _oracle(text: str) -> int | None:
    """§2.1 restated with datetime: fixed ASCII layout, then the datetime constructor judges the
    fields (year 0, Feb 30, hour 24 and minute 60 all raise there)."""
    if len(text) != 24:
        return None
    for index, char in enumerate(text):
        separator = _SEPARATORS.get(index)
        if char != separator if separator else char not in "0123456789":
            return None
    year, month, day, hour, minute, second, milli = (int(text[a:b]) for a, b in _SPANS)
    try:
        when = datetime(year, month, day, hour, minute, second, milli * 1000, tzinfo=UTC)
    except ValueError:
        return None
    return (when - _EPOCH) // timedelta(milliseconds=1)


def _parsed(text: str) -> int | None:
    """The parser's answer, None for a rejection (which must be the parser's own ValueError)."""
    try:
        return parse_instant_ms(text)
    except ValueError as error:
        message = str(error)
    assert "instant" in message
    return None


def _canonical(ms: int) -> str:
    when = _EPOCH + timedelta(milliseconds=ms)
    return (
        f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when.hour:02d}:{when.minute:02d}:"
        f"{when.second:02d}.{when.microsecond // 1000:03d}Z"
    )


VALID_INSTANTS = st.integers(min_value=MIN_MS, max_value=MAX_MS).map(_canonical)


@st.composite
def near_instants(draw: st.DrawFn) -> str:
    """A canonical instant with one to three characters replaced, inserted or deleted."""
    chars = list(draw(VALID_INSTANTS))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        position = draw(st.integers(min_value=0, max_value=len(chars)))
        edit = draw(st.sampled_from(["replace", "insert", "delete"]))
        char = draw(st.sampled_from(NEAR_CHARS))
        if edit == "insert" or position == len(chars):
            chars.insert(position, char)
        elif edit == "replace":
            chars[position] = char
        else:
            del chars[position]
    return "".join(chars)


FIELDS = st.tuples(
    st.integers(min_value=0, max_value=10000),
    st.integers(min_value=0, max_value=13),
    st.integers(min_value=0, max_value=32),
    st.integers(min_value=0, max_value=25),
    st.integers(min_value=0, max_value=61),
    st.integers(min_value=0, max_value=61),
    st.integers(min_value=0, max_value=1000),
)


@settings(max_examples=400)
@given(VALID_INSTANTS)
def test_the_instant_parser_accepts_every_canonical_instant_like_the_oracle(text: str) -> None:
    expected = _oracle(text)
    assert expected is not None
    assert _parsed(text) == expected
    assert format_instant_ms(expected) == text


@settings(max_examples=1500)
@given(near_instants())
def test_the_instant_parser_agrees_with_the_oracle_on_near_canonical_text(text: str) -> None:
    assert _parsed(text) == _oracle(text)


@settings(max_examples=1500)
@given(FIELDS)
def test_the_instant_parser_agrees_with_the_oracle_on_any_field_values(
    fields: tuple[int, int, int, int, int, int, int],
) -> None:
    year, month, day, hour, minute, second, milli = fields
    text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"
    assert _parsed(text) == _oracle(text)


@pytest.mark.parametrize(
    "text",
    [
        "٢٠٢٦-08-05T12:00:00.000Z",  # Arabic-Indic digits: isdigit() and int() accept them
        "2026-08-05T12:00:00.00١Z",
        "2026-08-0５T12:00:00.000Z",
        "+026-08-05T12:00:00.000Z",
        "2026-08-05T12:00:00.000+",
        "2026-08-05T+2:00:00.000Z",
        "2026-08-05T12:00:-0.000Z",
        "2026-08-05T24:00:00.000Z",
        "2026-08-05 12:00:00.000Z",
        "2026-08-05T12:00:00,000Z",
        "2026-08-05T12:00:00.000ZZ",
        "2026-08-05T12:00:00.000",
        "------------------------",
        "0000-00-00T00:00:00.000Z",
        "2026-W32-3T12:00:00.000Z",
        "20260805T120000.000Z0000",
        "2026-08-05T12:00:00.\ud800Z",
        "2025-02-29T00:00:00.000Z",
        "2026-04-31T00:00:00.000Z",
    ],
)
def test_near_canonical_instants_are_rejected_by_the_parser_and_the_oracle(text: str) -> None:
    assert _oracle(text) is None
    with pytest.raises(ValueError, match="instant"):
        parse_instant_ms(text)


@pytest.mark.parametrize(
    "text", ["2024-02-29T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "0001-12-31T00:00:00.000Z"]
)
def test_real_leap_days_and_year_edges_are_accepted(text: str) -> None:
    assert parse_instant_ms(text) == _oracle(text)


def test_a_str_subclass_instant_parses_like_its_text() -> None:
    class Text(str):
        pass

    assert parse_instant_ms(Text("1970-01-01T00:00:00.001Z")) == 1
