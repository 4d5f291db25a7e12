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
