"""The layer rule, checked on the source: core/ never imports Qt or reads the machine's clock or zone.

import-linter (scripts/test.py) guards imports between packages; this test also catches what it
cannot see: reading the wall clock or the system zone through an allowed module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IMPORTS = ("PySide6", "shiboken6", "qasync", "tzlocal")
FORBIDDEN_CALLS = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "time_ns"),
    ("time", "localtime"),
    ("time", "gmtime"),
    ("time", "ctime"),
    ("time", "strftime"),
}


def violations(source: str) -> list[str]:
    """Names every forbidden import or machine-reading call in ``source``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_IMPORTS]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in FORBIDDEN_IMPORTS:
                found.append(node.module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            owner = node.func.value
            owner_name = (
                owner.id
                if isinstance(owner, ast.Name)
                else (owner.attr if isinstance(owner, ast.Attribute) else "")
            )
            if (owner_name, attr) in FORBIDDEN_CALLS:
                found.append(f"{owner_name}.{attr}()")
            if attr == "astimezone" and not node.args and not node.keywords:
                found.append("astimezone() with no zone reads the system zone")
    return found


def core_files() -> list[Path]:
    return sorted((ROOT / "core").rglob("*.py"))


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_module_never_reads_the_machine_or_imports_qt(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "planted",
    [
        "from PySide6.QtCore import QTimer",
        "import tzlocal",
        "import qasync",
        "from datetime import datetime\nx = datetime.now()",
        "import datetime\nx = datetime.datetime.utcnow()",
        "import time\nx = time.time()",
        "from datetime import datetime\nx = datetime(2020, 1, 1).astimezone()",
    ],
)
def test_the_layer_check_catches_a_planted_violation(planted: str) -> None:
    assert violations(planted) != []


def test_the_layer_check_accepts_injected_time() -> None:
    ok = "from datetime import UTC\ndef f(clock):\n    return clock().astimezone(UTC)"
    assert violations(ok) == []
