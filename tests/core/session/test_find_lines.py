"""Find over a log's raw lines (core.session.find): the lines it picks and decodes find exactly
what a walk of every decoded entry of the shown path finds."""

from __future__ import annotations

import re
import string
from array import array
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.events import (
    AssistantMessage,
    Entry,
    Event,
    ExchangeHidden,
    ModelRef,
    ToolResult,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.session import find, find_lines
from core.session.conversation import shown
from core.session.event_list import EventList
from core.session.find import FindJob, Hit, findable_text
from core.session.find_lines import LinePicker
from core.session.folds import SessionFolds
from core.session.jsonl_store import LogFile
from core.session.lines import encode_entry
from core.session.scan import scan

AT = "2026-08-05T12:00:00.000Z"
MODEL = ModelRef("scripted", "m")
LETTERS = 'abkKsSiI "\\\n\tüÜßẞİıſKσςΣ/é'
TEXTS = st.text(alphabet=LETTERS, max_size=10)
QUERIES = st.text(alphabet=LETTERS, min_size=1, max_size=3).filter(str.strip)


def reference(entries: list[Entry], folds: SessionFolds, query: str) -> list[Hit]:
    """What find must find: every shown message, decoded, matched by the plain pattern."""
    pattern = re.compile(re.escape(query), re.IGNORECASE)
    hits = []
    for entry in shown(folds.snapshot(), entries):
        text = findable_text(entry.event)
        count = len(pattern.findall(text)) if text else 0
        if count:
            hits.append(Hit(entry.seq, count))
    return hits


@st.composite
def conversations(draw: st.DrawFn) -> list[Event]:
    """Exchanges, some answered twice (a retry: only the latest turn shows), some hidden, some
    edited onto an earlier parent (another version), some with a tool result or no turn."""
    events: list[Event] = []
    inputs: list[int] = []
    turn = 0
    for _ in range(draw(st.integers(0, 8))):
        parent = draw(st.sampled_from([None, *inputs])) if inputs else None
        seq = len(events)
        events.append(UserMessage(f"u{seq}", draw(TEXTS), UserSource(None), parent=parent))
        inputs.append(seq)
        for _ in range(draw(st.integers(0, 2))):
            turn += 1
            events.append(TurnStart(turn, seq))
            if draw(st.booleans()):
                events.append(ToolResult("c", "schedule_list", draw(TEXTS), is_error=False))
            events.append(AssistantMessage(f"a{turn}", draw(TEXTS), (), MODEL, "stop"))
            events.append(TurnEnd(turn, draw(st.sampled_from(["completed", "failed"]))))
        if draw(st.booleans()):
            events.append(AssistantMessage("x", draw(TEXTS), (), MODEL, "stop"))  # outside a turn
        if draw(st.integers(0, 4)) == 0:
            events.append(ExchangeHidden(draw(st.sampled_from(inputs)), hidden=True))
    return events


def opened(folder: Path, events: list[Event]) -> tuple[list[Entry], SessionFolds, EventList]:
    entries = [Entry(seq, AT, event) for seq, event in enumerate(events)]
    path = folder / "session.jsonl"
    path.write_bytes(b"".join(encode_entry(entry) for entry in entries))
    folds = SessionFolds()
    for entry in entries:
        folds.feed(entry)
    log = LogFile(path, writable=False)
    offsets: array[int] = array("Q")
    result = scan(log.buffer(), start=0, first_seq=0, offsets=offsets)
    return entries, folds, EventList(log, tail=offsets, durable_length=result.committed)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(conversations(), QUERIES, st.integers(1, 300), st.integers(1, 9))
def test_finding_in_raw_lines_finds_what_decoding_every_entry_finds(
    tmp_path: Path, events: list[Event], query: str, block: int, budget: int
) -> None:
    entries, folds, lazy = opened(tmp_path, events)
    try:
        with mock.patch.object(find, "BLOCK_BYTES", block):
            job = FindJob(lazy, folds.snapshot(), query)
            rounds = 0
            while not job.advance(budget):
                rounds += 1
                assert rounds <= 10 * len(entries) + 10
        assert job.hits == reference(entries, folds, query)
        assert job.total == sum(hit.count for hit in job.hits)
        plain = FindJob(entries, folds.snapshot(), query)
        plain.advance(10**6)
        assert plain.hits == job.hits
    finally:
        lazy.close()
        assert lazy._log is not None
        lazy._log.close()


def test_a_line_is_picked_for_its_words_never_for_its_envelope_alone(tmp_path: Path) -> None:
    events: list[Event] = [
        UserMessage("u0", "where is the oven", UserSource(None)),
        TurnStart(1, 0),
        AssistantMessage("a1", "in the kitchen", (), MODEL, "stop"),
        TurnEnd(1, "completed"),
        UserMessage("u4", 'she said "OVEN" \\ twice', UserSource(None)),
    ]
    _entries, _folds, lazy = opened(tmp_path, events)
    try:
        _stop, block = lazy.lines(0, 1 << 20)
        assert LinePicker("Oven").pick(block) == ([0, 4], [1, 3])
        assert LinePicker('"oven"').pick(block)[0] == [4]
        assert LinePicker("\\ tw").pick(block)[0] == [4]
        assert LinePicker("KITCH").pick(block)[0] == [2]
        assert LinePicker("zebra").pick(block)[0] == []
    finally:
        lazy.close()
        assert lazy._log is not None
        lazy._log.close()


def _ascii_equivalents() -> Iterator[tuple[str, str]]:
    """(ASCII letter, non-ASCII character) pairs that ``re.IGNORECASE`` matches: looked for among
    every character whose case mappings hold an ASCII letter (no character past the first two
    planes has a case)."""
    for point in range(128, 0x20000):
        character = chr(point)
        if 0xD800 <= point < 0xE000:
            continue
        near = set(character.lower() + character.upper() + character.casefold())
        for letter in near & set(string.ascii_letters):
            if re.fullmatch(re.escape(letter), character, re.IGNORECASE):
                yield letter.lower(), character


def test_the_non_ascii_letters_an_ascii_query_matches_are_all_picked() -> None:
    found = set(_ascii_equivalents())
    table = {
        (letter, special)
        for letter, specials in find_lines._SPECIAL.items()
        for special in specials
    }
    assert found == table


def test_a_block_without_a_match_follows_only_its_last_turn_edge(tmp_path: Path) -> None:
    events: list[Event] = [
        UserMessage("u0", "a word about turn/start", UserSource(None)),
        TurnStart(1, 0),
        AssistantMessage("a1", "fine", (), MODEL, "stop"),
        TurnEnd(1, "completed"),
        UserMessage("u4", "we spoke of turn/end", UserSource(None)),
        UserMessage("u5", "the needle", UserSource(None)),
        TurnStart(2, 5),
        AssistantMessage("a2", "a needle too", (), MODEL, "stop"),
        TurnEnd(2, "completed"),
    ]
    entries, folds, lazy = opened(tmp_path, events)
    try:
        with mock.patch.object(find, "BLOCK_BYTES", 1):  # one line a block
            job = FindJob(lazy, folds.snapshot(), "needle")
            while not job.advance(3):
                pass
        assert job.hits == [Hit(5, 1), Hit(7, 1)] == reference(entries, folds, "needle")
    finally:
        lazy.close()
        assert lazy._log is not None
        lazy._log.close()


def test_a_line_that_does_not_decode_is_passed_over(tmp_path: Path) -> None:
    first = Entry(0, AT, UserMessage("u0", "needle one", UserSource(None)))
    last = Entry(2, AT, UserMessage("u2", "needle two", UserSource(None)))
    good = [
        encode_entry(first),
        b'{"seq":1,"needle":\n',  # not an event line (a log not verified yet may hold one)
        encode_entry(last),
    ]
    folds = SessionFolds()
    for entry in (first, Entry(1, AT, TurnEnd(9, "completed")), last):
        folds.feed(entry)
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(good))
    starts = array("Q", [0, len(good[0]), len(good[0]) + len(good[1])])
    log = LogFile(path, writable=False)
    lazy = EventList(log, tail=starts, durable_length=path.stat().st_size)
    try:
        job = FindJob(lazy, folds.snapshot(), "needle")
        job.advance()
        assert job.hits == [Hit(0, 1), Hit(2, 1)]
    finally:
        lazy.close()
        log.close()


def test_hits_read_like_the_list_of_hits_they_keep_as_numbers() -> None:
    hits = find.Hits()
    for seq, count in ((2, 1), (9, 3), (14, 2)):
        hits.add(seq, count)
    assert hits == [Hit(2, 1), Hit(9, 3), Hit(14, 2)]
    assert hits[-1] == Hit(14, 2)
    assert hits[1:] == [Hit(9, 3), Hit(14, 2)]
    assert hits.counted_before(2) == 4
    assert hits != "not hits"
