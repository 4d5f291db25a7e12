"""`python3 scripts/bundle.py`: a one-folder Chime bundle (PyInstaller) in dist/chime/.

The folder holds its own Python, Qt and every dependency: copy it anywhere and start
`dist/chime/chime` (the same arguments as `chime`; `--install-desktop-entry` puts that executable
in the app launcher). PyInstaller, not Briefcase: it bundles the project as it is, from the
environment that runs the tests, in one offline command, and its maintained PySide6 hooks collect
only the Qt modules and plugins Chime imports; Briefcase wants its own project layout and fetches
its app templates from the network at build time.

Needs the `bundle` extra (`pip install -e '.[bundle]'`, which scripts/_bootstrap.py's venv can take).
Prints the bundle's size at the end. Builds in build/bundle/ (deleted first).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "bundle"
DIST = ROOT / "dist"
ENTRY = """from app.__main__ import main

raise SystemExit(main())
"""


def pyinstaller_args(entry: Path) -> list[str]:
    """The PyInstaller command line: one folder named chime, the resources beside the code."""
    return [
        sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--onedir",
        "--name", "chime",
        "--distpath", str(DIST), "--workpath", str(BUILD / "work"), "--specpath", str(BUILD),
        "--paths", str(ROOT),
        "--add-data", f"{ROOT / 'resources'}:resources",  # app/paths.py: beside the app package
        "--collect-data", "dateparser",  # the offline assistant's date phrases
        "--collect-data", "tzdata",  # a zone database where the system has none
        "--copy-metadata", "keyring",  # keyring finds its backends through entry points
        "--collect-submodules", "keyring.backends",
        "--hidden-import", "app.main",  # imported inside app.__main__.main
        "--exclude-module", "tkinter",
        # development tools the environment holds that optional imports would drag in
        "--exclude-module", "hypothesis", "--exclude-module", "mypy", "--exclude-module", "pytest",
        "--exclude-module", "_pytest", "--exclude-module", "PyInstaller",
        str(entry),
    ]  # fmt: skip


def main() -> int:
    try:
        import PyInstaller  # noqa: F401 -- only its presence is checked here
    except ImportError:
        print("PyInstaller is missing: pip install -e '.[bundle]'", file=sys.stderr)
        return 2
    shutil.rmtree(BUILD, ignore_errors=True)
    shutil.rmtree(DIST / "chime", ignore_errors=True)
    BUILD.mkdir(parents=True)
    entry = BUILD / "chime_entry.py"
    entry.write_text(ENTRY, encoding="utf-8")
    subprocess.check_call(pyinstaller_args(entry), cwd=ROOT)
    bundle = DIST / "chime"
    files = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink()]
    size = sum(p.stat().st_size for p in files)
    print(f"Bundle: {bundle} ({size / 2**20:.0f} MiB in {len(files)} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
