"""The gate's dead-code check (a step of scripts/test.py): exit 1 and name every definition that
nothing uses. Reads the source only; imports and runs nothing of Chime.

Two passes over the code and everything that uses it (core, app, ui, tests, scripts, bench):

- vulture: unused functions, classes, methods, properties, attributes, variables and
  imports, and unreachable code. Names that only Qt, pytest, pydantic, the SDK or Python call
  are listed, with their caller, in ``scripts/dead_code_whitelist.py``; Qt's event handlers
  (``closeEvent``) are left out by their pattern.
- a module's private constants (``_DAY = timedelta(days=1)``), which vulture skips by design (it
  takes a leading underscore for "unused on purpose"): each must be read somewhere.

A name used only by the tests counts as used (a test helper, or an engine entry point that the
app does not call yet).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = ("core", "app", "ui", "tests", "scripts", "bench")
QT_EVENT_HANDLERS = "[a-z]*Event"
"""Qt's event handlers (``closeEvent``, ``wheelEvent``, ...): Qt calls them on our widgets. Our
own names are snake_case, and our classes (``UnknownEvent``) start with a capital."""


def sources() -> Iterator[tuple[Path, ast.Module]]:
    for top in PATHS:
        for path in sorted((ROOT / top).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def private_constants(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """The module-level ``_name = ...`` assignments of ``tree`` (not ``__dunder__``)."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = [t for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if target.id.startswith("_") and not target.id.startswith("__"):
                yield target.id, node.lineno


def names_read(tree: ast.Module) -> Iterator[str]:
    """Every name ``tree`` reads: loaded names, attributes and imported names."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.ImportFrom):
            yield from (alias.name for alias in node.names)


def unread_private_constants() -> list[str]:
    """``path:line: unused private constant 'name'`` for each constant no module reads."""
    trees = list(sources())
    read = {name for _, tree in trees for name in names_read(tree)}
    return [
        f"{path.relative_to(ROOT)}:{line}: unused private constant '{name}'"
        for path, tree in trees
        for name, line in private_constants(tree)
        if name not in read
    ]


def main() -> int:
    vulture = [sys.executable, "-m", "vulture", "--ignore-names", QT_EVENT_HANDLERS, *PATHS]
    code = subprocess.call(vulture, cwd=ROOT)
    unread = unread_private_constants()
    for line in unread:
        print(line)
    return 1 if code != 0 or unread else 0


if __name__ == "__main__":
    raise SystemExit(main())
