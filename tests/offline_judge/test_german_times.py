"""German time expressions mean what their English counterparts mean: the same reminder at the same
instant ("um halb acht" and "at 7:30"), in several zones, on ordinary days and on the days the
clocks change. Property tests over the real parser and time code."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from core.llm.offline.intent import parse_intent
from core.llm.offline.lang import GERMAN
from core.llm.offline.lang.de_read import canonical
from core.llm.offline.values import Create, Intent
from core.llm.offline.when import Delay, LocalTime, Reading

ZONES = (
    "Europe/Berlin", "Europe/London", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "UTC",
)  # fmt: skip
CLOCK_CHANGES = (
    datetime(2026, 3, 29, tzinfo=UTC),  # Europe springs forward
    datetime(2026, 10, 25, tzinfo=UTC),  # Europe falls back
    datetime(2026, 3, 8, tzinfo=UTC),  # the US springs forward
    datetime(2026, 11, 1, tzinfo=UTC),  # the US falls back
    datetime(2026, 4, 5, tzinfo=UTC),  # Sydney falls back
    datetime(2026, 10, 4, tzinfo=UTC),  # Sydney springs forward
    datetime(2026, 3, 28, tzinfo=UTC),  # the day before each change …
    datetime(2026, 10, 24, tzinfo=UTC),
    datetime(2026, 11, 1, tzinfo=UTC) - timedelta(days=1),
)
HOUR_WORDS = (
    "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf",
    "zwölf",
)  # fmt: skip
WEEKDAYS = (
    ("Montag", "monday"), ("Dienstag", "tuesday"), ("Mittwoch", "wednesday"),
    ("Donnerstag", "thursday"), ("Freitag", "friday"), ("Samstag", "saturday"),
    ("Sonntag", "sunday"),
)  # fmt: skip


@st.composite
def readings(draw: st.DrawFn) -> Reading:
    """A clock sample on a day the clocks change (or the day before), or any day of 2026-2027."""
    day = draw(st.one_of(st.sampled_from(CLOCK_CHANGES), st.just(None)))
    if day is None:
        day = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=draw(st.integers(0, 729)))
    now = day + timedelta(seconds=draw(st.integers(-43200, 129600)))
    return Reading(now, draw(st.sampled_from(ZONES)))


def _word(hour: int) -> str:
    return HOUR_WORDS[(hour - 1) % 12]


@st.composite
def clock_pairs(draw: st.DrawFn) -> tuple[str, str]:
    """A German clock expression and the English one that says the same time."""
    hour = draw(st.integers(1, 12))
    after = hour % 12 + 1
    early = draw(st.integers(1, 11))  # "12 Uhr morgens" is no way to say noon or midnight
    minute = draw(st.integers(0, 59))
    hour24 = draw(st.integers(0, 23))
    return draw(
        st.sampled_from((
            (f"um halb {_word(after)}", f"at {hour}:30"),
            (f"um halb {after}", f"at {hour}:30"),
            (f"um Viertel nach {_word(hour)}", f"at {hour}:15"),
            (f"um Viertel vor {_word(after)}", f"at {hour}:45"),
            (f"um dreiviertel {_word(after)}", f"at {hour}:45"),
            (f"um {hour24} Uhr", f"at {hour24}:00" if hour24 > 12 else f"at {hour24}"),
            (f"um {hour24}:{minute:02d} Uhr", f"at {hour24:02d}:{minute:02d}"),
            (f"um {hour24}.{minute:02d} Uhr", f"at {hour24:02d}:{minute:02d}"),
            (f"um {early} Uhr morgens", f"at {early}am"),
            (f"um {early} Uhr abends", f"at {early}pm"),
        ))
    )  # fmt: skip


@st.composite
def day_pairs(draw: st.DrawFn) -> tuple[str, str]:
    """A German day (with a clock expression) and its English counterpart."""
    clock_de, clock_en = draw(clock_pairs())
    german_day, english_day = draw(st.sampled_from(WEEKDAYS))
    return draw(
        st.sampled_from((
            (f"morgen {clock_de}", f"tomorrow {clock_en}"),
            (f"übermorgen {clock_de}", f"the day after tomorrow {clock_en}"),
            (f"uebermorgen {clock_de}", f"the day after tomorrow {clock_en}"),
            (f"am {german_day} {clock_de}", f"on {english_day} {clock_en}"),
            (f"nächsten {german_day} {clock_de}", f"next {english_day} {clock_en}"),
            ("morgen früh", "tomorrow morning"),
            ("heute Abend", "this evening"),
            ("morgen Nachmittag", "tomorrow afternoon"),
            (f"heute {clock_de}", f"today {clock_en}"),
        ))
    )  # fmt: skip


@st.composite
def delay_pairs(draw: st.DrawFn) -> tuple[str, str]:
    count = draw(st.integers(1, 600))
    words = {1: "einer", 2: "zwei", 3: "drei", 5: "fünf", 10: "zehn", 20: "zwanzig"}
    small = draw(st.sampled_from(sorted(words)))
    return draw(
        st.sampled_from((
            (f"in {count} Minuten", f"in {count} minutes"),
            (f"in {count} Min.", f"in {count} minutes"),
            (f"in {count} Stunden", f"in {count} hours"),
            (f"in {count} Sekunden", f"in {count} seconds"),
            (f"in {words[small]} {'Minute' if small == 1 else 'Minuten'}", f"in {small} minutes"),
            ("in einer halben Stunde", "in 30 minutes"),
            ("in anderthalb Stunden", "in 90 minutes"),
            ("in einer Viertelstunde", "in 15 minutes"),
            (f"alle {count} Minuten", f"every {count} minutes"),
            ("stündlich", "hourly"),
            ("jeden Tag", "every day"),
        ))
    )  # fmt: skip


def _meaning(intent: Intent) -> object:
    """What a reading sets: the reminder and its time (not the wording of its notes), or the
    kind of answer (a question, a refusal) when it sets none."""
    if not isinstance(intent, Create):
        return type(intent).__name__
    when = intent.when
    if isinstance(when, LocalTime | Delay):
        when = replace(when, notes=())
    return (intent.prompt, intent.link, when)


def _same(german_when: str, english_when: str, reading: Reading) -> None:
    german = parse_intent(canonical(f"erinnere mich {german_when} an den Tee"), reading)
    english = parse_intent(f"remind me {english_when} about den Tee", reading)
    assert _meaning(german) == _meaning(english), (german_when, english_when)


@settings(max_examples=150, deadline=None)
@given(clock_pairs(), readings())
def test_a_german_clock_time_is_the_same_reminder_as_the_english_one(
    pair: tuple[str, str], reading: Reading
) -> None:
    _same(*pair, reading)


@settings(max_examples=150, deadline=None)
@given(day_pairs(), readings())
def test_a_german_day_and_time_is_the_same_reminder_as_the_english_one(
    pair: tuple[str, str], reading: Reading
) -> None:
    _same(*pair, reading)


@settings(max_examples=100, deadline=None)
@given(delay_pairs(), readings())
def test_a_german_delay_or_interval_is_the_same_reminder_as_the_english_one(
    pair: tuple[str, str], reading: Reading
) -> None:
    _same(*pair, reading)


def test_um_halb_acht_is_half_past_seven_at_the_same_instant_as_at_7_30() -> None:
    reading = Reading(datetime(2026, 3, 29, 4, 0, tzinfo=UTC), "Europe/Berlin")  # after the jump
    german = parse_intent(GERMAN.read("erinnere mich um halb acht an den Tee"), reading)
    assert isinstance(german, Create)
    assert isinstance(german.when, LocalTime)
    assert (german.when.date.isoformat(), german.when.time.isoformat()) == (
        "2026-03-29",
        "07:30:00",
    )
    assert german == parse_intent("remind me at 7:30 about den Tee", reading)
