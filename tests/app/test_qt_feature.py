"""app.qt_feature: PySide6 no longer reads the source of every module Chime imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from app import qt_feature

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import linecache
import app.main
import ui.main_window
ours = [name for name in linecache.cache if "/ui/" in name or "/core/" in name or "/app/" in name]
print(len(ours))
"""


def test_importing_the_window_reads_no_source_of_chime() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0"


def test_a_module_using_qt_is_told_from_its_globals() -> None:
    from PySide6.QtCore import QObject

    uses = ModuleType("uses")
    vars(uses)["QObject"] = QObject
    whole = ModuleType("whole")
    vars(whole)["QtCore"] = sys.modules["PySide6.QtCore"]
    plain = ModuleType("plain")
    vars(plain)["path"] = Path
    assert qt_feature.uses_qt(uses)
    assert qt_feature.uses_qt(whole)
    assert not qt_feature.uses_qt(plain)


def test_a_pyside6_without_the_check_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    other = ModuleType("shibokensupport.feature")
    monkeypatch.setitem(sys.modules, "shibokensupport.feature", other)
    assert not qt_feature.install()
    assert not hasattr(other, "_mod_uses_pyside")


def test_the_check_is_replaced_where_it_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    found = ModuleType("shibokensupport.feature")
    vars(found)["_mod_uses_pyside"] = lambda module: True
    monkeypatch.setitem(sys.modules, "shibokensupport.feature", found)
    assert qt_feature.install()
    assert vars(found)["_mod_uses_pyside"] is qt_feature.uses_qt


def test_forget_sources_empties_linecache() -> None:
    import linecache

    linecache.getlines(qt_feature.__file__)
    qt_feature.forget_sources()
    assert qt_feature.__file__ not in linecache.cache
