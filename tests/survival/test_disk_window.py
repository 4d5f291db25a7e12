"""The window under a disk fault: when a barrier fails the status bar shows the "could not save"
warning, and it goes away once a later barrier succeeds (the whole app in-process, as
tests/app/harness.py builds it, with the store's file-ops seam failing on demand)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.app.harness import Chime
from tests.fakes import FakeClock
from tests.survival.disk_fault_kit import DISK_FULL, READ_ONLY, Fault, FaultyOps, make_store


def send(qtbot: Any, chime: Chime, text: str) -> None:
    editor = chime.window.composer.editor
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


@pytest.mark.slow
@pytest.mark.parametrize("fault", [READ_ONLY, DISK_FULL], ids=lambda f: f.name)
def test_the_status_bar_warns_while_saving_fails_and_clears_once_it_works_again(
    qtbot: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path, clock: FakeClock, fault: Fault
) -> None:
    chime = Chime(qtbot, loop, tmp_path, clock)
    ops = FaultyOps()
    chime.store = chime.controller.store = make_store(tmp_path, clock, ops)
    chime.run(chime.controller.start([], None))
    chime.window.show()
    label = chime.window.status.persistence_label
    assert not label.isVisible()
    ops.fault = fault
    send(qtbot, chime, "hello")
    chime.until(lambda: label.isVisible())
    assert "Could not save" in label.text()
    chime.until(chime.idle)
    ops.fault = None
    send(qtbot, chime, "thanks!")
    chime.until(lambda: chime.idle() and not label.isVisible())
    chime.quit()
    assert ops.failures > 0
