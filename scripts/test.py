"""Quick start: `python3 scripts/test.py` runs every check: format, lint, types, dead code, layers,
tests.

Creates .venv with the dev tools on first use. Extra arguments go to pytest
(e.g. `python3 scripts/test.py -k fold`); `--fast` skips the linters and type checks.
"""

from __future__ import annotations

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bootstrap import ROOT, ensure_env

COVERAGE_GATES = (("core", 98), ("app", 97))
"""Each package's least branch coverage (percent) when the whole suite runs."""


def main() -> int:
    args = sys.argv[1:]
    fast = "--fast" in args
    pytest_args = [a for a in args if a != "--fast"]
    python = str(ensure_env(dev=True))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    steps: list[tuple[str, list[str]]] = []
    if not fast:
        steps += [
            ("ruff format", [python, "-m", "ruff", "format", "--check", "."]),
            ("ruff check", [python, "-m", "ruff", "check", "."]),
            ("mypy", [python, "-m", "mypy", "core", "app", "ui"]),
            ("dead code", [python, "scripts/dead_code.py"]),
            (
                "import layers",
                [
                    python,
                    "-c",
                    "import sys; from importlinter.cli import lint_imports_command as m; sys.exit(m())",
                ],
            ),
        ]
    # The whole suite also gates branch coverage, per package (coverage compares the total
    # rounded to a whole percent): the engine at 98% (99% when this was set) and the app layer at
    # 97% (97.4-97.5% when this was set: a small margin for the branches that depend on the
    # timing of the disk threads). A filtered run (extra pytest arguments) skips the gates,
    # since it runs only part of the tests.
    coverage = [] if pytest_args else ["--cov=core", "--cov=app", "--cov-branch", "--cov-report="]
    steps.append(("pytest", [python, "-m", "pytest", *coverage, *pytest_args]))
    if not pytest_args:
        steps += [
            (
                f"{package}/ branch coverage >= {gate}%",
                [
                    python,
                    "-m",
                    "coverage",
                    "report",
                    f"--include={package}/*",
                    f"--fail-under={gate}",
                ],
            )
            for package, gate in COVERAGE_GATES
        ]
    for name, cmd in steps:
        print(f"\n==> {name}", flush=True)
        code = subprocess.call(cmd, cwd=ROOT, env=env)
        if code != 0:
            print(f"\n{name} failed (exit {code}).", flush=True)
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
