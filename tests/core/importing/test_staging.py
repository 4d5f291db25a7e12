"""Staged sessions (an import's): written without waiting, then made durable and moved whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import SessionError
from core.session import jsonl_store as disk


def test_staged_sessions_move_into_place_whole(tmp_path: Path) -> None:
    staging = tmp_path / "import-1"
    disk.stage_session(staging / "a", b"header\n", iter([b"one\n", b"two\n"]))
    disk.stage_session(staging / "b", b"header\n", iter([]))
    targets = [disk.session_dir(tmp_path, name) for name in ("a", "b")]
    disk.publish_staged(zip([staging / "a", staging / "b"], targets, strict=True))
    assert (targets[0] / disk.LOG_NAME).read_bytes() == b"header\none\ntwo\n"
    assert disk.session_ids(tmp_path) == ["a", "b"]
    assert list(staging.iterdir()) == []


def test_a_target_that_exists_is_never_overwritten(tmp_path: Path) -> None:
    disk.stage_session(tmp_path / "import-1" / "a", b"new\n", iter([]))
    taken = disk.session_dir(tmp_path, "a")
    taken.mkdir(parents=True)
    with pytest.raises(SessionError, match="already exists"):
        disk.publish_staged([(tmp_path / "import-1" / "a", taken)])
    assert list(taken.iterdir()) == []
