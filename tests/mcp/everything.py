"""The reference ``@modelcontextprotocol/server-everything``, installed by the tests themselves:
``tests/mcp/npm/package.json`` (an exact version) is installed with npm into
``~/.cache/chime/npm`` when it is not there yet (or that file changed). Where npm is missing or the
install fails, the tests that need it skip and say why."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent / "npm"
CACHE = Path.home() / ".cache" / "chime" / "npm"
ENTRY = CACHE / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"


def install() -> tuple[Path | None, str]:
    """The server's ``index.js`` and "" once installed, else None and why not."""
    wanted = (HERE / "package.json").read_text(encoding="utf-8")
    present = CACHE / "package.json"
    if ENTRY.exists() and present.exists() and present.read_text(encoding="utf-8") == wanted:
        return ENTRY, ""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        return None, "npm and node are not installed: server-everything cannot be installed"
    CACHE.mkdir(parents=True, exist_ok=True)
    present.write_text(wanted, encoding="utf-8")
    done = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--no-save"],
        cwd=CACHE,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0 or not ENTRY.exists():
        present.unlink(missing_ok=True)
        return None, f"npm could not install server-everything: {done.stderr.strip()[-300:]}"
    return ENTRY, ""
