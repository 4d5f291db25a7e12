"""``written_create`` (core.session.created_lines): a create line recognised by its bytes is one the
strict path decodes to that very record, and the lines Chime writes are recognised."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ScheduleLogError
from core.events import Entry, ScheduleChanged
from core.instant import format_instant_ms
from core.schedule.fold import decode_change
from core.schedule.records import CreateChange, decode_record
from core.session import created_lines
from core.session.created_lines import written_create
from core.session.lines import encode_entry, parse_entry

T0 = 1_785_931_200_000
AT = "2026-08-05T12:00:00.000Z"


def record_json(kind: str, prompt: str, offset: int) -> dict[str, Any]:
    record: dict[str, Any] = {"id": "schedule-7", "kind": kind, "prompt": prompt}
    if kind == "after":
        record["afterSeconds"] = 90
    if kind == "every":
        record["everySeconds"] = 3600
    record["scheduledAt"] = format_instant_ms(T0 + offset)
    return record


def line_of(seq: int, record: dict[str, Any], group: int | None = None) -> bytes:
    data = {"version": 1, "operation": "create", "schedule": record}
    return encode_entry(Entry(seq, AT, ScheduleChanged(data), group))[:-1]


def strictly_creates(line: bytes, seq: int, record: dict[str, Any]) -> bool:
    try:
        event = parse_entry(line, seq).event
        return isinstance(event, ScheduleChanged) and decode_change(event.data) == CreateChange(
            decode_record(record)
        )
    except Exception:  # anything the strict path refuses
        return False


def decodes(record: dict[str, Any]) -> bool:
    try:
        decode_record(record)
    except ScheduleLogError:
        return False
    return True


RECORDS = st.builds(
    record_json,
    st.sampled_from(["after", "at", "every"]),
    st.text(min_size=1, max_size=30),
    st.integers(-(10**12), 10**12),
).filter(decodes)


@settings(max_examples=300, deadline=None)
@given(RECORDS, st.integers(0, 10**9), st.one_of(st.none(), st.integers(1, 50)))
def test_a_line_chime_writes_is_recognised_when_it_is_plain_and_always_decodes_to_the_record(
    record: dict[str, Any], seq: int, group: int | None
) -> None:
    line = line_of(seq, record, group)
    assert strictly_creates(line, seq, record)
    plain = all(" " <= char != "\x7f" for char in record["prompt"])
    if plain:  # no escapes: orjson and the writer spell it alike
        assert written_create(line, seq, record)
    assert not written_create(line, seq + 1, record)


@settings(max_examples=300, deadline=None)
@given(RECORDS, st.data())
def test_whatever_an_edited_line_is_recognised_as_the_strict_path_agrees(
    record: dict[str, Any], data: st.DataObject
) -> None:
    line = bytearray(line_of(12, record, data.draw(st.sampled_from([None, 3]))))
    for _ in range(data.draw(st.integers(1, 3))):
        match data.draw(st.sampled_from(["flip", "insert", "delete"])):
            case "flip":
                line[data.draw(st.integers(0, len(line) - 1))] = data.draw(st.integers(0, 255))
            case "insert":
                line.insert(data.draw(st.integers(0, len(line))), data.draw(st.integers(0, 255)))
            case _:
                del line[data.draw(st.integers(0, len(line) - 1))]
    if written_create(bytes(line), 12, record):
        assert strictly_creates(bytes(line), 12, record)


def test_lines_that_are_not_the_written_create_are_not_recognised() -> None:
    record = record_json("at", "leave", 0)
    line = line_of(4, record)
    assert written_create(line, 4, record)
    assert written_create(line_of(4, record, 2), 4, record)
    other = record | {"prompt": "stay"}
    assert not written_create(line, 4, other)
    assert not written_create(line.replace(b'"at":"', b'"at":"x\\"'), 4, record)
    assert not written_create(line.replace(b'"type"', b'"kind":1,"type"'), 4, record)
    assert not written_create(line[:-1] + b',"extra":1}', 4, record)
    assert not written_create(line.replace(b'"version":1', b'"version":1.0'), 4, record)
    assert not written_create(line, 4, record | {"prompt": "\ud800"})  # orjson refuses it


def test_a_line_longer_than_any_log_line_is_not_recognised(monkeypatch: pytest.MonkeyPatch) -> None:
    record = record_json("at", "leave", 0)
    line = line_of(4, record)
    monkeypatch.setattr(created_lines, "_LONGEST", len(line) - 1)
    assert not written_create(line, 4, record)
