"""A Chime JSONL export copied line by line into a new session: a new id, the same events; a bad
line, header or torn group refuses the file."""

from __future__ import annotations

import pytest

from core.events import Entry, SessionTitle, UserMessage, UserSource
from core.importing.chime_log import ChimeLog, file_kind
from core.session.lines import SessionHeader, encode_entry, encode_line, make_envelope, parse_header


def log(*lines: bytes, parent: str | None = "parent-1") -> list[bytes]:
    header = SessionHeader("old-id", "2024-01-02T03:04:05.000Z", parent, 1).line()
    return [header.rstrip(b"\n"), *(line.rstrip(b"\n") for line in lines)]


def entry(seq: int, event: object, group: int | None = None) -> bytes:
    return encode_entry(Entry(seq, "2024-01-02T03:04:06.000Z", event, group))  # type: ignore[arg-type] -- any event


def copy(lines: list[bytes]) -> tuple[list[bytes], ChimeLog]:
    reader = ChimeLog("new-id")
    written = [reader.line(line) for line in lines]
    reader.end()
    return written, reader


def test_the_copy_has_a_new_id_and_the_same_events() -> None:
    message = UserMessage("m1", "hello", UserSource("Europe/Berlin"))
    written, reader = copy(log(entry(0, message), entry(1, SessionTitle("Hi"))))
    header = parse_header(written[0].rstrip(b"\n"))
    assert (header.id, header.created_at, header.parent_id, header.seed_length) == (
        "new-id",
        "2024-01-02T03:04:05.000Z",
        None,
        1,
    )
    assert written[1] == entry(0, message)
    assert reader.count == 2
    assert reader.last_at == "2024-01-02T03:04:06.000Z"


def test_a_complete_group_is_accepted() -> None:
    message = UserMessage("m1", "x", UserSource(None))
    _written, reader = copy(log(entry(0, message, group=2), entry(1, SessionTitle("t"))))
    assert reader.count == 2


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        ([], "empty"),
        ([b'{"type":"other"}'], "not a session header"),
        (log(entry(1, SessionTitle("t"))), "line 2: seq 1 is not its index 0"),
        (log(b"{not json"), "line 2"),
        (log(entry(0, SessionTitle("t"), group=2)), "inside a group"),
        (
            log(entry(0, SessionTitle("t"), group=2), entry(1, SessionTitle("u"), group=2)),
            "a group starts inside another",
        ),
    ],
)
def test_a_log_chime_cannot_trust_is_refused(lines: list[bytes], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        copy(lines)


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b'\n [{"title": "x"}]', "chatgpt"),
        (b"\xef\xbb\xbf[]", "chatgpt"),
        (encode_line(make_envelope(0, "x", "y", {}))[:0] + SessionHeader("a", "b").line(), "chime"),
        (b'{"seq":0}\n', None),
        (b"hello", None),
        (b"", None),
    ],
)
def test_the_kind_of_file_is_told_by_its_start(head: bytes, kind: str | None) -> None:
    assert file_kind(head) == kind
