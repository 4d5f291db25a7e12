"""Attachments (agent.md §7): what may be attached, the content-addressed store on real files, and
that the files stay with their session through reopen, fork, trash, restore and export."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import SessionReadOnlyError
from core.events import Attachment, UserMessage, UserSource
from core.session import jsonl_store as disk
from core.session.attachments import (
    FOLDER,
    IMAGE_LIMIT,
    TEXT_LIMIT,
    AttachmentStore,
    classify,
)
from core.session.refusal import Refused
from tests.core.session.helpers import make_store
from tests.fakes import FakeClock

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40


def test_text_files_are_attached_with_a_media_type_from_their_name() -> None:
    record = classify("notes/plan.md", "# Plan\n\nshop ✓\n".encode())
    assert record == Attachment(
        "plan.md", "text/markdown", hashlib.sha256("# Plan\n\nshop ✓\n".encode()).hexdigest(), 17
    )
    assert isinstance(classify("x.py", b"print(1)\n"), Attachment)
    assert classify("data.csv", b"a,b\n").media_type == "text/csv"  # type: ignore[union-attr]
    assert classify("app.log", b"ok\n").media_type == "text/plain"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("data", "media_type"),
    [
        (PNG, "image/png"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 20, "image/jpeg"),
        (b"GIF89a" + b"\x00" * 20, "image/gif"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 20, "image/webp"),
    ],
)
def test_images_are_told_by_their_bytes_not_their_name(data: bytes, media_type: str) -> None:
    record = classify("picture.txt", data)
    assert isinstance(record, Attachment)
    assert record.media_type == media_type


def test_binary_and_oversized_files_are_refused_with_a_sentence() -> None:
    binary = classify("tool.exe", b"MZ\x00\x01")
    assert isinstance(binary, Refused)
    assert "neither text nor" in binary.reason
    not_utf8 = classify("latin.txt", "café".encode("latin-1"))
    assert isinstance(not_utf8, Refused)
    big_text = classify("big.log", b"x" * (TEXT_LIMIT + 1))
    assert isinstance(big_text, Refused)
    assert "text files are at most 256 KB" in big_text.reason
    huge = classify("photo.png", PNG + b"\x00" * IMAGE_LIMIT)
    assert isinstance(huge, Refused)
    assert "5.0 MB for images" in huge.reason


@given(st.binary(max_size=300), st.text(max_size=20))
def test_classify_never_raises_and_a_record_always_names_its_bytes(data: bytes, name: str) -> None:
    record = classify(name, data)
    if isinstance(record, Attachment):
        assert record.sha256 == hashlib.sha256(data).hexdigest()
        assert record.size == len(data)
        assert "/" not in record.name
    else:
        assert record.reason


def test_the_store_writes_each_content_once_and_reads_it_back_checked(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path)
    record = classify("a.txt", b"hello\n")
    assert isinstance(record, Attachment)
    store.put(record, b"hello\n")
    store.put(record, b"hello\n")
    assert [p.name for p in (tmp_path / FOLDER).iterdir()] == [record.sha256]
    assert (tmp_path / FOLDER / record.sha256).stat().st_mode & 0o777 == 0o600
    assert store.read(record.sha256) == b"hello\n"
    (tmp_path / FOLDER / record.sha256).write_bytes(b"tampered")
    assert store.read(record.sha256) is None  # damaged: never sent as if it were the file
    assert store.read("../../etc/passwd") is None
    assert store.read("0" * 64) is None


def test_the_first_file_also_makes_the_new_attachments_folder_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message is appended only once its file is durable: after a power cut the folder that
    holds the file must still be named in the session folder, so that one is fsynced too."""
    synced: list[Path] = []
    sync_dir = disk._sync_dir

    def recording(path: Path) -> None:
        synced.append(path)
        sync_dir(path)

    monkeypatch.setattr(disk, "_sync_dir", recording)
    store = AttachmentStore(tmp_path)
    for text, expected in (
        (b"one\n", [tmp_path / FOLDER, tmp_path]),
        (b"two\n", [tmp_path / FOLDER]),
    ):
        record = classify("a.txt", text)
        assert isinstance(record, Attachment)
        synced.clear()
        store.put(record, text)
        assert synced == expected


def test_attachments_stay_with_their_session(tmp_path: Path, clock: FakeClock) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await store.create()
        record = await session.add_attachment("plan.md", b"# plan\n")
        assert isinstance(record, Attachment)
        refused = await session.add_attachment("a.bin", b"\x00\x01")
        assert isinstance(refused, Refused)
        session.append_event(UserMessage("u", "see file", UserSource(None), attachments=(record,)))
        await session.close()

        reopened = await store.open(session.id)
        (message,) = [e.event for e in reopened.entries]
        assert isinstance(message, UserMessage)
        assert message.attachments == (record,)
        assert await reopened.read_attachment(record.sha256) == b"# plan\n"
        await reopened.close()

        child = await store.fork(session.id, 1)
        assert await child.read_attachment(record.sha256) == b"# plan\n"
        await child.close()

        text = await store.export_markdown(session.id)
        assert "📎 plan.md (7 bytes)" in text

        await store.trash(session.id)
        await store.restore(session.id)
        back = await store.open(session.id)
        assert await back.read_attachment(record.sha256) == b"# plan\n"
        await back.close()

        read_only = await store.open(session.id, read_only=True)
        with pytest.raises(SessionReadOnlyError):
            await read_only.add_attachment("x.txt", b"x")
        await read_only.close()

    asyncio.run(scenario())


def test_a_disk_that_refuses_the_file_gives_a_sentence_and_appends_nothing(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path, clock)
        session = await store.create()
        folder = tmp_path / "sessions" / session.id / FOLDER
        folder.write_bytes(b"")  # a file where the folder must go: every write fails
        refused = await session.add_attachment("a.txt", b"hello")
        assert isinstance(refused, Refused)
        assert "could not be saved" in refused.reason
        assert len(session.entries) == 0
        await session.close()

    asyncio.run(scenario())
