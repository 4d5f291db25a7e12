"""A real start of Chime in a subprocess that reports what it saw as one JSON line (the cold-start
and network-door probes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def start_report(probe: str, data: Path, timeout: float = 180) -> dict[str, Any]:
    """Run ``probe`` (Python source; ``sys.argv[1]`` is the data folder) offscreen and return the
    JSON object its last line of output holds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    env.pop("CHIME_DATA_DIR", None)
    result = subprocess.run(
        [sys.executable, "-c", probe, str(data)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return report
