"""Quick start: `python3 scripts/run.py [--data-dir DIR] [--session ID]` opens Chime.

Creates .venv and installs Chime on first use, then runs `python -m app` with the arguments given.
"""

from __future__ import annotations

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bootstrap import ROOT, ensure_env


def main() -> int:
    python = ensure_env(dev=False)
    return subprocess.call([str(python), "-m", "app", *sys.argv[1:]], cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
