"""The disk door's small guarantees: copies that find a file shorter, locks released once."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import SessionError
from core.session.jsonl_store import copy_chunks, try_lock


def test_copying_more_bytes_than_the_file_holds_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    assert b"".join(copy_chunks(path, 1, 3)) == b"bc"
    with pytest.raises(SessionError, match="ended 2 bytes early"):
        b"".join(copy_chunks(path, 0, 5))


def test_a_lock_is_exclusive_until_released_and_releasing_twice_is_harmless(tmp_path: Path) -> None:
    first = try_lock(tmp_path)
    assert first is not None
    assert try_lock(tmp_path) is None
    first.release()
    first.release()
    again = try_lock(tmp_path)
    assert again is not None
    again.release()


def test_a_log_that_vanished_is_not_found_and_closing_twice_is_harmless(tmp_path: Path) -> None:
    from core.errors import SessionNotFoundError
    from core.session.jsonl_store import LogFile

    with pytest.raises(SessionNotFoundError):
        LogFile(tmp_path / "missing.jsonl", writable=False)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"header\n")
    log = LogFile(path, writable=False)
    assert log.read(0, 6) == b"header"
    log.close()
    log.close()
    assert path.read_bytes() == b"header\n"
