"""organise.json on real files: written atomically (no half file, mode 0600), read back; a file
that cannot be used shows the list unorganised; a write that fails is said, and the list keeps
the change."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import pytest

from app.organise_file import ORGANISE_FILE, read_organisation, write_organisation
from app.organise_flow import wire_organisation
from core.organise import Organisation
from ui.session_list import SessionListPanel


def test_written_then_read_back_with_no_temporary_file_left(tmp_path: Path) -> None:
    org = Organisation().add_folder("f1", "Küche").move("s1", "f1").pin("s2", True)
    write_organisation(tmp_path, org)
    assert read_organisation(tmp_path) == org
    assert sorted(p.name for p in tmp_path.iterdir()) == [ORGANISE_FILE]
    assert stat.S_IMODE((tmp_path / ORGANISE_FILE).stat().st_mode) == 0o600
    assert "Küche" in (tmp_path / ORGANISE_FILE).read_text(encoding="utf-8")


def test_a_crash_before_the_rename_leaves_the_old_arrangement(tmp_path: Path, monkeypatch) -> None:
    old = Organisation().pin("s1", True)
    write_organisation(tmp_path, old)

    def crash(self: Path, target: Path) -> None:
        raise OSError("power lost")

    monkeypatch.setattr(Path, "replace", crash)
    with pytest.raises(OSError, match="power lost"):
        write_organisation(tmp_path, Organisation().archive("s1", True))
    monkeypatch.undo()
    assert read_organisation(tmp_path) == old


@pytest.mark.parametrize(
    "content", [b"{not json", b"[1, 2]", b"\xff\xfe", json.dumps({"pinned": "s1"}).encode()]
)
def test_a_file_that_cannot_be_used_shows_the_list_unorganised(
    tmp_path: Path, content: bytes, caplog
) -> None:
    (tmp_path / ORGANISE_FILE).write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert read_organisation(tmp_path) == Organisation()


def test_a_missing_or_unreadable_file(tmp_path: Path) -> None:
    assert read_organisation(tmp_path) == Organisation()
    (tmp_path / ORGANISE_FILE).mkdir()  # a directory where the file should be
    assert read_organisation(tmp_path) == Organisation()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_write_that_fails_is_said(qtbot, tmp_path: Path, clock) -> None:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    said: list[str] = []
    wire_organisation(panel, tmp_path, lambda: "Europe/Berlin", said.append)
    tmp_path.chmod(0o500)
    try:
        panel.organise(Organisation().add_folder("f1", "Work"))
    finally:
        tmp_path.chmod(0o700)
    assert said
    assert said[0].startswith("The pins and folders could not be saved: ")
    assert panel.organisation.folders[0].name == "Work"  # kept until Chime quits


def test_a_write_into_a_vanished_folder_is_said(qtbot, tmp_path: Path, clock) -> None:
    panel = SessionListPanel(clock)
    qtbot.addWidget(panel)
    said: list[str] = []
    gone = tmp_path / "gone"
    wire_organisation(panel, gone, lambda: None, said.append)
    panel.organise(Organisation().pin("s1", True))
    assert len(said) == 1
    assert "could not be saved" in said[0]
    assert panel.zone().key == "UTC"  # no zone known: days are UTC days
