"""Every package that core/, app/ and ui/ import is declared in pyproject.toml, and none needlessly."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ("core", "app", "ui")
DATA_ONLY = {"tzdata": "zoneinfo reads its zone files; nothing imports it"}


def _name(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def imported_packages() -> dict[str, set[str]]:
    """Top-level modules outside the standard library and our packages, with who imports them."""
    found: dict[str, set[str]] = {}
    for package in OURS:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for top in {m.split(".")[0] for m in modules}:
                    if top not in sys.stdlib_module_names and top not in OURS:
                        found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {
        _name(re.split(r"[<>=!~; \[]", spec, maxsplit=1)[0]) for spec in project["dependencies"]
    }


def test_every_imported_package_is_a_declared_dependency() -> None:
    owners = packages_distributions()
    missing = {
        module: sorted(users)
        for module, users in imported_packages().items()
        if not {_name(d) for d in owners.get(module, [module])} & declared()
    }

    assert missing == {}


def test_every_declared_dependency_is_imported_or_says_why_not() -> None:
    owners = packages_distributions()
    used = {_name(d) for m in imported_packages() for d in owners.get(m, [m])}

    assert declared() - used == set(DATA_ONLY)
