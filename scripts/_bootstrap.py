"""Creates and refreshes the project's virtual environment (.venv) from pyproject.toml.

Used by scripts/run.py and scripts/test.py so that both quick-start commands work on a fresh
machine with nothing but Python 3.11+. The install is redone only when pyproject.toml or a
compiled fast path's source (``*.pyx``) changes: a stamp file in .venv records their digest (the
install compiles them again).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"


def venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def ensure_env(*, dev: bool) -> Path:
    """Return the venv's python, creating the venv and installing the project on first use."""
    if sys.version_info < (3, 11):  # noqa: UP036 -- this runs under whatever python3 the user has
        sys.exit(f"Chime needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    extra = ".[dev]" if dev else "."
    sources = [ROOT / "pyproject.toml", *sorted(ROOT.glob("core/**/*.pyx"))]
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in sources) + extra.encode())
    digest_text = digest.hexdigest()
    stamp = VENV / f".chime-installed-{'dev' if dev else 'app'}"
    python = venv_python()
    if not python.exists():
        print("Creating the virtual environment in .venv (first run) ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if not stamp.exists() or stamp.read_text() != digest_text:
        print(f"Installing Chime and its dependencies ({extra}) ...", flush=True)
        subprocess.check_call(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-e",
                extra,
            ],
            cwd=ROOT,
        )
        stamp.write_text(digest_text)
    return python
