"""The event vocabulary's hand-written codec: for every ``EventType``, decoding what a value
encodes gives the value back (decode ∘ encode = identity), in memory and through a log line.

``STRATEGIES`` has one strategy per ``EventType`` member, and a test fails when a member has none:
a new event type cannot join the vocabulary without its round trip being checked. The values
stay within what the writers produce (a seq is at least ``ROOT``, counts are whole numbers of at
most 2^53, the numbers are finite, an error's kind is an ``ErrorKind`` and its reason's values fit
its code), and their texts may hold any code point, a lone surrogate included (a string a widget
hands over may carry one; the log line escapes it).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ErrorKind
from core.events import (
    FINISH_REASONS,
    ROOT,
    SCHEDULE_SOURCE,
    TOOL_OUTCOMES,
    TURN_STATUSES,
    AssistantMessage,
    Attachment,
    ContextTime,
    Entry,
    Event,
    EventType,
    ExchangeHidden,
    MalformedEvent,
    ModelRef,
    PathSelected,
    PluginSource,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTitle,
    SessionTools,
    TokenUsage,
    ToolCall,
    ToolLink,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnError,
    TurnStart,
    UnknownEvent,
    UserMessage,
    UserSource,
    decode_entry,
    decode_event,
)
from core.failures import SIGNATURES, Failure, FailureCode
from core.session.lines import encode_entry, parse_entry, parse_line

AT = "2026-08-05T12:00:00.000Z"
SAFE = 2**53  # a whole number a JSON reader anywhere reads back exactly

TEXT = st.text(
    st.characters(exclude_categories=())
    | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, exclude_categories=())
    | st.sampled_from('"\\\x00\n\u2028\ufeff😀'),
    max_size=12,
)
"""Any code point, with lone surrogates, escapes and astral characters drawn often."""
NAMES = st.text(max_size=8)
COUNTS = st.integers(0, SAFE)
WHOLE = st.integers(-SAFE, SAFE)
SEQS = st.integers(0, SAFE)
ZONES = st.none() | st.sampled_from(["UTC", "Europe/Berlin", "America/St_Johns"]) | NAMES
FINITE = st.floats(allow_nan=False, allow_infinity=False)
JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | WHOLE | FINITE | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)

VALUES: dict[type, st.SearchStrategy[Any]] = {str: TEXT, int: WHOLE, float: FINITE | WHOLE}


def failures(code: FailureCode) -> st.SearchStrategy[Failure]:
    """A failure of ``code`` whose values fit its sentence (``SIGNATURES``)."""
    values = st.tuples(*(VALUES[kind] for kind in SIGNATURES.get(code, ())))
    return st.builds(Failure, st.just(code), values, TEXT)


SOURCES = st.builds(UserSource, ZONES) | st.builds(PluginSource, NAMES) | st.just(SCHEDULE_SOURCE)
ATTACHMENTS = st.builds(Attachment, TEXT, NAMES, NAMES, COUNTS)
SKIPPED = st.dictionaries(TEXT, COUNTS, max_size=3).map(lambda pairs: tuple(pairs.items()))

STRATEGIES: dict[EventType, st.SearchStrategy[Event]] = {
    EventType.USER_MESSAGE: st.builds(
        UserMessage,
        TEXT,
        TEXT,
        SOURCES,
        st.none() | st.integers(ROOT, SAFE),
        st.none() | st.integers(ROOT, SAFE),
        st.lists(ATTACHMENTS, max_size=2).map(tuple),
        SKIPPED,
    ),
    EventType.TURN_START: st.builds(TurnStart, WHOLE, WHOLE, st.none() | SEQS),
    EventType.CONTEXT_TIME: st.builds(ContextTime, ZONES, TEXT),
    EventType.ASSISTANT_MESSAGE: st.builds(
        AssistantMessage,
        TEXT,
        TEXT,
        st.lists(st.builds(ToolCall, TEXT, NAMES, TEXT), max_size=3).map(tuple),
        st.builds(ModelRef, NAMES, TEXT),
        st.sampled_from(sorted(FINISH_REASONS)),
        st.none() | st.builds(TokenUsage, COUNTS, COUNTS),
        st.none() | COUNTS,
        st.none() | COUNTS,
        st.none() | TEXT,  # reasoning
        st.none() | COUNTS,  # reasoningMs
        st.booleans(),  # callsFromText
        st.none() | TEXT,  # reminderNotSet
    ),
    EventType.TOOL_RESULT: st.builds(ToolResult, TEXT, NAMES, TEXT, st.booleans())
    | st.builds(
        ToolResult,
        TEXT,
        NAMES,
        TEXT,
        st.booleans(),
        st.none() | NAMES,
        st.lists(st.builds(Attachment, NAMES, NAMES, NAMES, st.integers(0, 9)), max_size=2).map(
            tuple
        ),
        st.lists(st.builds(ToolLink, TEXT, NAMES), max_size=2).map(tuple),
        st.none() | st.sampled_from(sorted(TOOL_OUTCOMES)),
    ),
    EventType.TOOL_START: st.builds(ToolStart, TEXT),
    EventType.SESSION_TOOLS: st.builds(SessionTools, st.lists(NAMES, max_size=3).map(tuple)),
    EventType.TURN_END: st.builds(
        TurnEnd,
        WHOLE,
        st.sampled_from(sorted(TURN_STATUSES)),
        st.none()
        | st.builds(
            TurnError,
            st.sampled_from(list(ErrorKind)),
            TEXT,
            st.none() | st.sampled_from(list(FailureCode)).flatmap(failures),
        ),
    ),
    EventType.SESSION_TITLE: st.builds(SessionTitle, TEXT),
    EventType.SCHEDULE_CHANGE: st.builds(ScheduleChanged, JSON),
    EventType.EXCHANGE_HIDE: st.builds(ExchangeHidden, SEQS, st.booleans()),
    EventType.PATH_SELECT: st.builds(PathSelected, SEQS),
    EventType.SESSION_MODEL: st.builds(
        SessionModel,
        st.none() | NAMES,
        st.none() | TEXT,
        st.none() | FINITE,
    ),
    EventType.SESSION_INSTRUCTIONS: st.builds(SessionInstructions, TEXT),
}
EVENTS = st.sampled_from(list(EventType)).flatmap(STRATEGIES.__getitem__)
ROUND_TRIPS = settings(max_examples=400)


def test_every_event_type_has_a_strategy() -> None:
    assert set(STRATEGIES) == set(EventType)


@settings(max_examples=20)
@given(st.data())
def test_each_strategy_builds_values_of_its_own_type(data: st.DataObject) -> None:
    for kind, strategy in STRATEGIES.items():
        assert data.draw(strategy).type is kind


@ROUND_TRIPS
@given(EVENTS)
def test_decoding_what_an_event_encodes_gives_it_back(event: Event) -> None:
    assert decode_event(event.type, event.to_data()) == event


@ROUND_TRIPS
@given(EVENTS, SEQS, st.none() | st.integers(1, 64))
def test_an_entry_round_trips_through_its_log_line(
    event: Event, seq: int, group: int | None
) -> None:
    entry = Entry(seq, AT, event, group)
    line = encode_entry(entry)

    assert line.index(b"\n") == len(line) - 1
    assert parse_entry(line[:-1], seq) == entry
    assert parse_line(line[:-1], seq) == (AT, event, group)
    assert decode_entry(entry.to_json()) == entry


@given(NAMES.filter(lambda name: name not in set(EventType)), JSON)
def test_an_unknown_type_is_kept_as_given(kind: str, data: Any) -> None:
    event = decode_event(kind, data)

    assert event == UnknownEvent(kind, data)
    assert parse_entry(encode_entry(Entry(0, AT, event)).rstrip(b"\n"), 0).event == event


@given(st.sampled_from(list(EventType)).filter(lambda kind: kind != EventType.SCHEDULE_CHANGE))
def test_a_known_type_of_the_wrong_shape_is_kept_as_given(kind: EventType) -> None:
    event = decode_event(kind, [1])

    assert isinstance(event, MalformedEvent)
    assert (event.type, event.to_data()) == (kind, [1])


@ROUND_TRIPS
@given(EVENTS, st.data())
def test_a_field_of_the_wrong_json_kind_decodes_or_is_kept_as_given(
    event: Event, data: st.DataObject
) -> None:
    """Any one field replaced by a list or an object gives an event or a ``MalformedEvent``, never
    an exception (a ``turn/end`` status that was a list once raised ``TypeError``)."""
    shaped = event.to_data()
    if not isinstance(shaped, dict) or not shaped:
        return
    key = data.draw(st.sampled_from(sorted(shaped)))
    broken = {**shaped, key: data.draw(st.sampled_from([[1], {"a": 1}, ["x"]]))}

    decoded = decode_event(event.type, broken)

    assert decoded.type == event.type
    if isinstance(decoded, MalformedEvent):
        assert decoded.to_data() == broken


def test_a_message_without_a_source_keeps_its_other_fields() -> None:
    """Three keys are not always id, text and source: a log line without a source (a user's,
    with the zone unknown) keeps the parent it names."""
    event = decode_event(EventType.USER_MESSAGE, {"id": "m", "text": "hi", "parent": 3})

    assert event == UserMessage("m", "hi", UserSource(None), parent=3)


def test_a_continuation_names_the_answer_it_goes_on_from_and_an_older_turn_has_none() -> None:
    ordinary = decode_event("turn/start", {"turn": 2, "input": 0})
    assert ordinary == TurnStart(2, 0)
    assert isinstance(ordinary, TurnStart)
    assert ordinary.continues is None
    assert TurnStart(2, 0).to_data() == {"turn": 2, "input": 0}  # older readers see the same
    onward = TurnStart(3, 0, 5)
    assert onward.to_data() == {"turn": 3, "input": 0, "continues": 5}
    assert decode_event("turn/start", onward.to_data()) == onward
    assert isinstance(
        decode_event("turn/start", {"turn": 3, "input": 0, "continues": "5"}), MalformedEvent
    )
